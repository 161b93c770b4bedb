#!/bin/sh
# SPDX-License-Identifier: MIT
# Compile and run a small C program with warnings on.
set -eu
mkdir -p /work/hello && cd /work/hello
cat > hello.c <<'EOF'
#include <stdio.h>

int main(void)
{
	int sum = 0;
	for (int i = 1; i <= 10; i++)
		sum += i;
	printf("sum 1..10 = %d\n", sum);
	return sum == 55 ? 0 : 1;
}
EOF
gcc -O2 -Wall -o hello hello.c
./hello
