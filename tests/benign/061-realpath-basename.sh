#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
mkdir -p /work/a/b/c
cd /work/a/b/c
echo "pwd: $(pwd)"
echo "realpath ..: $(realpath ..)"
p=/work/a/b/c/report.final.txt
echo "basename: $(basename "$p") dirname: $(dirname "$p") stem: $(basename "$p" .txt)"
