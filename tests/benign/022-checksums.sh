#!/bin/sh
# SPDX-License-Identifier: MIT
# Write a checksum manifest for some files and verify it.
set -eu
d=/work/release
mkdir -p "$d" && cd "$d"
echo "version 1.2.3" > VERSION
seq 1 100 > data.txt
printf 'readme\n' > README
sha256sum VERSION data.txt README > SHA256SUMS
md5sum VERSION data.txt README > MD5SUMS
sha256sum -c SHA256SUMS
md5sum --quiet -c MD5SUMS && echo "md5 ok"
