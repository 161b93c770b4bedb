#!/bin/sh
# SPDX-License-Identifier: MIT
# A build of fifteen small objects with make -j2.
set -eu
mkdir -p /work/many && cd /work/many
i=0
while [ $i -lt 15 ]; do printf 'int f%d(void) { return %d; }\n' $i $i > f$i.c; i=$((i + 1)); done
printf '#include <stdio.h>\nint f14(void);\nint main(void) { printf("%%d\\n", f14()); return 0; }\n' > main.c
printf 'SRC = $(wildcard *.c)\napp: $(SRC:.c=.o)\n\t$(CC) -o $@ $^\n' > Makefile
make -s -j2
./app
