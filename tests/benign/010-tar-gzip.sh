#!/bin/sh
# SPDX-License-Identifier: MIT
# Archive a directory with tar and gzip, unpack it elsewhere, compare.
set -eu
cd /work
mkdir -p data/sub
for i in 1 2 3; do echo "file $i" > "data/f$i.txt"; done
echo nested > data/sub/deep.txt
tar -czf data.tar.gz data
tar -tzf data.tar.gz | sort
mkdir -p restore
tar -xzf data.tar.gz -C restore
diff -r data restore/data && echo "restore matches"
