#!/bin/sh
# SPDX-License-Identifier: MIT
# A few kernel settings read from /proc/sys, as a tuning check does.
set -eu
for k in kernel/pid_max vm/swappiness fs/file-max; do
	printf '%s=%s\n' "$k" "$(cat /proc/sys/$k 2>/dev/null || echo '?')"
done
