#!/bin/sh
# SPDX-License-Identifier: MIT
# An xz-compressed tarball, checked by its contents' checksums.
set -eu
w=/tmp/xzdemo
rm -rf "$w" && mkdir -p "$w/src" && cd "$w"
seq 1 2000 > src/numbers.txt
yes "a line of text" | head -n 500 > src/text.txt
(cd src && sha256sum numbers.txt text.txt) > before.sum
tar -cJf src.tar.xz src
xz -t src.tar.xz
mkdir out && tar -xJf src.tar.xz -C out
(cd out/src && sha256sum -c ../../before.sum)
ls -l src.tar.xz | awk '{print "archive bytes:", $5}'
