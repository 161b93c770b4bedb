#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
printf 'one two three\nfour five\nsix\n' > /work/count.txt
wc /work/count.txt
echo "lines=$(wc -l < /work/count.txt) words=$(wc -w < /work/count.txt) bytes=$(wc -c < /work/count.txt)"
