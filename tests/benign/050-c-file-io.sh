#!/bin/sh
# SPDX-License-Identifier: MIT
# A C program that writes a file, reads it back and checks it.
set -eu
mkdir -p /work/cio && cd /work/cio
cat > fileio.c <<'EOF'
#include <stdio.h>
#include <string.h>
int main(void)
{
	FILE *f = fopen("records.txt", "w");
	if (!f) { perror("fopen"); return 1; }
	for (int i = 0; i < 5; i++) fprintf(f, "record %d\n", i);
	fclose(f);
	f = fopen("records.txt", "r");
	if (!f) { perror("fopen"); return 1; }
	char line[64];
	int n = 0;
	while (fgets(line, sizeof line, f)) n++;
	fclose(f);
	printf("read back %d records\n", n);
	return n == 5 ? 0 : 1;
}
EOF
gcc -Wall -o fileio fileio.c
./fileio
cat records.txt
