#!/bin/sh
# SPDX-License-Identifier: MIT
# A series of patches applied to a source tree with patch -p1.
set -eu
mkdir -p /work/ps/a /work/ps/b && cd /work/ps
printf 'one\ntwo\nthree\n' > a/list.txt
printf 'one\n2\nthree\nfour\n' > b/list.txt
diff -u a/list.txt b/list.txt > 01.patch || true
sed -i 's|a/list.txt|a/list.txt|' 01.patch
cp -r a tree
cd tree && patch -p1 < ../01.patch > /dev/null
cat list.txt
