#!/bin/sh
# SPDX-License-Identifier: MIT
# Copy, rename and remove the script's own files.
set -eu
cd /work
mkdir -p stage/in
for n in a b c; do echo "$n" > "stage/in/$n.txt"; done
cp -r stage/in stage/copy
mv stage/copy/a.txt stage/copy/renamed.txt
rm stage/copy/b.txt
ls stage/copy
rm -r stage
[ ! -e stage ] && echo "cleaned up"
