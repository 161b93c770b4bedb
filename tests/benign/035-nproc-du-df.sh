#!/bin/sh
# SPDX-License-Identifier: MIT
# Resources: CPUs, the size of the working directory, free space.
set -u
echo "cpus: $(nproc)"
du -sh . || echo "du failed"
df . || echo "df not available here"
exit 0
