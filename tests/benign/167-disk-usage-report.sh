#!/bin/sh
# SPDX-License-Identifier: MIT
# A disk usage report: file systems and the largest directories of the work area.
set -eu
df -h / | tail -1
mkdir -p /work/du/a /work/du/b
head -c 200000 /dev/zero > /work/du/a/big
head -c 1000 /dev/zero > /work/du/b/small
du -s /work/du/* | sort -rn
