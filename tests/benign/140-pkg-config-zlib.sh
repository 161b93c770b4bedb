#!/bin/sh
# SPDX-License-Identifier: MIT
# A program against zlib, its flags from pkg-config.
set -eu
cd /work
pkg-config --exists zlib || exit 0
cat > z.c <<'EOF'
#include <stdio.h>
#include <string.h>
#include <zlib.h>
int main(void)
{
	const char *s = "hello hello hello hello";
	unsigned char out[128];
	uLongf n = sizeof out;
	if (compress(out, &n, (const unsigned char *)s, strlen(s)) != Z_OK) return 1;
	printf("%zu -> %lu\n", strlen(s), (unsigned long)n);
	return 0;
}
EOF
gcc -o z z.c $(pkg-config --cflags --libs zlib)
./z
