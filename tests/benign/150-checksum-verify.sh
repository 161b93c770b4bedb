#!/bin/sh
# SPDX-License-Identifier: MIT
# A release verified against its SHA256SUMS file before unpacking.
set -eu
mkdir -p /work/rel && cd /work/rel
printf 'data\n' > a.txt && printf 'more\n' > b.txt
tar -cJf pkg-1.0.tar.xz a.txt b.txt
sha256sum pkg-1.0.tar.xz > SHA256SUMS
sha256sum -c SHA256SUMS
mkdir out && tar -C out -xJf pkg-1.0.tar.xz
ls out
