#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
seq 1 30000 > /tmp/big.txt
xz -k -6 /tmp/big.txt
xz -l /tmp/big.txt.xz
xz -dc /tmp/big.txt.xz | cmp - /tmp/big.txt && echo "xz ok"
