#!/bin/sh
# SPDX-License-Identifier: MIT
# Build a shared library with -fPIC and run a program against it.
set -eu
d=/work/shlib
mkdir -p "$d" && cd "$d"
cat > greet.c <<'EOF'
#include <stdio.h>
void greet(const char *who) { printf("hello, %s, from a shared library\n", who); }
EOF
cat > main.c <<'EOF'
void greet(const char *who);
int main(void) { greet("tester"); return 0; }
EOF
gcc -Wall -fPIC -shared -o libgreet.so greet.c
gcc -Wall -o main main.c -L. -lgreet
LD_LIBRARY_PATH=. ./main
readelf -d main | grep NEEDED
