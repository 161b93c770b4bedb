#!/bin/sh
# SPDX-License-Identifier: MIT
# Object files bundled into an archive and their symbols listed.
set -eu
mkdir -p /work/ar && cd /work/ar
printf 'int add(int a, int b) { return a + b; }\n' > add.c
printf 'int mul(int a, int b) { return a * b; }\n' > mul.c
gcc -c add.c mul.c
ar rcs libops.a add.o mul.o
ar t libops.a
nm libops.a | grep -c ' T '
