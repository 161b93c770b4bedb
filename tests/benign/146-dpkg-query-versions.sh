#!/bin/sh
# SPDX-License-Identifier: MIT
# Which versions of a few packages are installed, as an update check would ask.
set -eu
for p in coreutils bash libc6; do
	dpkg-query -W -f='${Package} ${Version}\n' "$p" 2>/dev/null || echo "$p not installed"
done
