#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
seq 1 5000 > /tmp/seq.txt
gzip -k -9 /tmp/seq.txt
gunzip -c /tmp/seq.txt.gz | cmp - /tmp/seq.txt && echo "gzip round trip ok"
rm -f /tmp/seq.txt /tmp/seq.txt.gz
