#!/bin/sh
# SPDX-License-Identifier: MIT
# Compare two versions of a directory tree.
set -eu
cd /tmp
rm -rf old new
mkdir -p old/src new/src
printf 'a\nb\n' > old/src/x.txt
printf 'a\nB\n' > new/src/x.txt
echo same > old/src/y.txt
cp old/src/y.txt new/src/y.txt
echo added > new/src/z.txt
diff -rq old new || true
diff -ru old new | grep -c '^[-+][^-+]' || true
rm -rf old new
