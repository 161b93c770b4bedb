#!/bin/sh
# SPDX-License-Identifier: MIT
# A build with the undefined-behaviour checker turned on, run.
set -eu
cd /work
printf '#include <stdio.h>\nint main(void) { int a[4] = {1,2,3,4}; int s = 0; for (int i = 0; i < 4; i++) s += a[i]; printf("%%d\\n", s); return 0; }\n' > ub.c
gcc -g -fsanitize=undefined -o ub ub.c
./ub
