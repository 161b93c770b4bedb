#!/bin/sh
# SPDX-License-Identifier: MIT
# A small wc clone in C, checked against wc(1).
set -eu
d=$(mktemp -d /tmp/wc.XXXXXX)
trap 'rm -rf "$d"' EXIT
cd "$d"
cat > mywc.c <<'EOF'
#include <ctype.h>
#include <stdio.h>
int main(void)
{
	long lines = 0, words = 0, bytes = 0;
	int c, in = 0;
	while ((c = getchar()) != EOF) {
		bytes++;
		if (c == '\n') lines++;
		if (isspace(c)) in = 0;
		else if (!in) { in = 1; words++; }
	}
	printf("%ld %ld %ld\n", lines, words, bytes);
	return 0;
}
EOF
gcc -O2 -Wall -o mywc mywc.c
printf 'a b c\nd  e\n\nlast line here\n' > input
mine=$(./mywc < input)
theirs=$(wc < input | awk '{print $1, $2, $3}')
echo "mine: $mine / wc: $theirs"
[ "$mine" = "$theirs" ]
