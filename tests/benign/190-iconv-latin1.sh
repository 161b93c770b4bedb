#!/bin/sh
# SPDX-License-Identifier: MIT
# Converts a Latin-1 file to UTF-8 and checks the result.
set -eu
printf 'caf\351\n' > /work/l1.txt
iconv -f ISO-8859-1 -t UTF-8 /work/l1.txt > /work/u8.txt
file /work/u8.txt | grep -q 'UTF-8' && cat /work/u8.txt
