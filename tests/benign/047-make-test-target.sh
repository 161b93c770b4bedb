#!/bin/sh
# SPDX-License-Identifier: MIT
# A Makefile with a test target that builds and checks a small library.
set -eu
mkdir -p /work/strlib && cd /work/strlib
cat > strrev.c <<'EOF'
#include <string.h>
void strrev(char *s)
{
	size_t n = strlen(s);
	for (size_t i = 0; i < n / 2; i++) {
		char t = s[i];
		s[i] = s[n - 1 - i];
		s[n - 1 - i] = t;
	}
}
EOF
cat > test_strrev.c <<'EOF'
#include <assert.h>
#include <stdio.h>
#include <string.h>
void strrev(char *s);
int main(void)
{
	char a[] = "sandbox", b[] = "", c[] = "ab";
	strrev(a); strrev(b); strrev(c);
	assert(strcmp(a, "xobdnas") == 0);
	assert(strcmp(b, "") == 0);
	assert(strcmp(c, "ba") == 0);
	puts("all strrev tests passed");
	return 0;
}
EOF
printf '%s\n' \
	'CFLAGS = -Wall -Wextra -O1' \
	'test: test_strrev' \
	'	./test_strrev' \
	'test_strrev: test_strrev.o strrev.o' \
	'	$(CC) -o $@ $^' \
	'.PHONY: test' > Makefile
make test
