#!/bin/sh
# SPDX-License-Identifier: MIT
# A two-file program built with link-time optimisation.
set -eu
mkdir -p /work/lto && cd /work/lto
printf 'int f(int x) { return x * 3; }\n' > f.c
printf '#include <stdio.h>\nint f(int);\nint main(void) { printf("%%d\\n", f(14)); return 0; }\n' > m.c
gcc -O2 -flto -c f.c m.c
gcc -O2 -flto -o app f.o m.o
./app
