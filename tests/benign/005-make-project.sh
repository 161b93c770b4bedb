#!/bin/sh
# SPDX-License-Identifier: MIT
# A three-file C project with a Makefile, built with make -j2.
set -eu
mkdir -p /work/proj/src && cd /work/proj
cat > src/greet.h <<'EOF'
#ifndef GREET_H
#define GREET_H
const char *greeting(void);
int twice(int x);
#endif
EOF
cat > src/greet.c <<'EOF'
#include "greet.h"
const char *greeting(void) { return "hello, make"; }
EOF
cat > src/math.c <<'EOF'
#include "greet.h"
int twice(int x) { return 2 * x; }
EOF
cat > src/main.c <<'EOF'
#include <stdio.h>
#include "greet.h"
int main(void)
{
	printf("%s: %d\n", greeting(), twice(21));
	return twice(21) == 42 ? 0 : 1;
}
EOF
printf '%s\n' \
	'CC = gcc' \
	'CFLAGS = -O2 -Wall -Wextra' \
	'OBJS = src/main.o src/greet.o src/math.o' \
	'' \
	'app: $(OBJS)' \
	'	$(CC) $(CFLAGS) -o $@ $(OBJS)' \
	'' \
	'src/%.o: src/%.c src/greet.h' \
	'	$(CC) $(CFLAGS) -c -o $@ $<' \
	'' \
	'clean:' \
	'	rm -f app $(OBJS)' \
	'.PHONY: clean' > Makefile
make -j2
./app
make clean
ls src
