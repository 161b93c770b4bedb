#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
echo "scale=6; 4*a(1)" | bc -l
echo "2^64" | bc
echo "expr: $(expr 7 \* 6) $(expr length "sandbox")"
echo "shell: $(( (17 + 5) / 2 )) $(( 1 << 10 ))"
