#!/bin/sh
# SPDX-License-Identifier: MIT
# Split a file into pieces and put it back together.
set -eu
d=$(mktemp -d)
trap 'rm -rf "$d"' EXIT
cd "$d"
seq 1 1000 > whole.txt
split -l 300 -d whole.txt part.
ls part.*
cat part.* > again.txt
cmp whole.txt again.txt && echo "reassembled: $(wc -l < again.txt) lines"
