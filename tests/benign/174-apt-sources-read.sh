#!/bin/sh
# SPDX-License-Identifier: MIT
# Lists the package sources configured for apt.
set -eu
cat /etc/apt/sources.list 2>/dev/null | grep -v '^#' | grep . || true
ls /etc/apt/sources.list.d 2>/dev/null || true
exit 0
