#!/bin/sh
# SPDX-License-Identifier: MIT
# Random data: copy, compare, and find the first difference after a change.
set -eu
cd /tmp
head -c 4096 /dev/urandom > r1
cp r1 r2
cmp r1 r2 && echo "identical"
printf 'X' | dd of=r2 bs=1 seek=100 conv=notrunc status=none
if cmp r1 r2 > diffout; then echo "unexpected: same"; exit 1; fi
cat diffout
rm -f r1 r2 diffout
