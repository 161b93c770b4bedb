#!/bin/sh
# SPDX-License-Identifier: MIT
# Bound a command's run time with timeout(1).
set -u
timeout 5 sleep 0.1 && echo "finished in time"
timeout 0.2 sleep 3
rc=$?
echo "timed out with status $rc"
[ "$rc" -eq 124 ]
