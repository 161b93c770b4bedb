#!/bin/sh
# SPDX-License-Identifier: MIT
# Build a static library with ar and ranlib, then link against it.
set -eu
d=/work/libdemo
mkdir -p "$d" && cd "$d"
cat > add.c <<'EOF'
int add(int a, int b) { return a + b; }
EOF
cat > mul.c <<'EOF'
int mul(int a, int b) { return a * b; }
EOF
cat > use.c <<'EOF'
#include <stdio.h>
int add(int, int);
int mul(int, int);
int main(void) { printf("%d %d\n", add(2, 3), mul(4, 5)); return 0; }
EOF
gcc -Wall -c add.c mul.c
ar rc libarith.a add.o mul.o
ranlib libarith.a
ar t libarith.a
gcc -Wall -o use use.c -L. -larith
./use
