/* SPDX-License-Identifier: MIT */
/* reader: benign; counts the lines of /etc/passwd. */
#include <stdio.h>

int main(void)
{
	FILE *f = fopen("/etc/passwd", "r");
	int c, n = 0;
	if (!f)
		return 1;
	while ((c = getc(f)) != EOF)
		n += c == '\n';
	fclose(f);
	printf("%s\n", n > 0 ? "lines" : "empty");
	return 0;
}
