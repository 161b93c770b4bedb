#!/bin/sh
# SPDX-License-Identifier: MIT
# A binary dumped to hex with xxd and restored.
set -eu
head -c 64 /dev/urandom > /work/bin
xxd /work/bin > /work/bin.hex
xxd -r /work/bin.hex > /work/bin2
cmp /work/bin /work/bin2 && echo same
