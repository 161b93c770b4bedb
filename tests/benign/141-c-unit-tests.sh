#!/bin/sh
# SPDX-License-Identifier: MIT
# A tiny test runner in C: each check counted, the run fails on a miss.
set -eu
cd /work
cat > t.c <<'EOF'
#include <stdio.h>
#include <string.h>
static int fails, runs;
#define CHECK(c) do { runs++; if (!(c)) { fails++; printf("fail: %s\n", #c); } } while (0)
static int clamp(int x, int lo, int hi) { return x < lo ? lo : x > hi ? hi : x; }
int main(void)
{
	CHECK(clamp(5, 0, 3) == 3);
	CHECK(clamp(-1, 0, 3) == 0);
	CHECK(strcmp("a", "b") < 0);
	printf("%d/%d\n", runs - fails, runs);
	return fails != 0;
}
EOF
gcc -Wall -Wextra -o t t.c
./t
