#!/bin/sh
# SPDX-License-Identifier: MIT
# Compresses with zstd and lz4 and checks the round trip.
set -eu
cd /work
seq 1 20000 > nums
command -v zstd > /dev/null && { zstd -q -19 nums -o nums.zst; zstd -q -d nums.zst -o back; cmp nums back; }
command -v lz4 > /dev/null && { lz4 -q nums nums.lz4; lz4 -q -d nums.lz4 back2; cmp nums back2; }
ls -l nums* | wc -l
