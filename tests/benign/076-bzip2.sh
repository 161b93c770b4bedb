#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
if ! command -v bzip2 >/dev/null; then echo "no bzip2"; exit 0; fi
yes "repeated line" | head -n 10000 > /tmp/rep.txt
bzip2 -k /tmp/rep.txt
bzip2 -t /tmp/rep.txt.bz2
echo "$(wc -c < /tmp/rep.txt) -> $(wc -c < /tmp/rep.txt.bz2) bytes"
