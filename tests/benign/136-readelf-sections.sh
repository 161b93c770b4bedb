#!/bin/sh
# SPDX-License-Identifier: MIT
# A program's sections and dynamic needs, read from its ELF headers.
set -eu
cd /work
printf 'int main(void) { return 0; }\n' > e.c
gcc -o e e.c
readelf -S e | grep -c '\[' > /dev/null
readelf -d e | grep NEEDED
objcopy --only-keep-debug e e.debug
ls -l e e.debug | wc -l
