#!/bin/sh
# SPDX-License-Identifier: MIT
set -eu
cd /tmp
cat > roots.c <<'EOF'
#include <math.h>
#include <stdio.h>
int main(void)
{
	for (int i = 1; i <= 5; i++)
		printf("sqrt(%d) = %.4f\n", i, sqrt((double)i));
	printf("hypot(3,4) = %.1f\n", hypot(3.0, 4.0));
	return 0;
}
EOF
gcc -O2 -Wall -o roots roots.c -lm
./roots
