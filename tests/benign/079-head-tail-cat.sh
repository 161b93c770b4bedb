#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
seq 1 100 > /work/hundred.txt
head -n 3 /work/hundred.txt
tail -n 3 /work/hundred.txt
sed -n '50,52p' /work/hundred.txt | cat -n
