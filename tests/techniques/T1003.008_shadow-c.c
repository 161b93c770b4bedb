// SPDX-License-Identifier: MIT
// Reads the password hashes from C: /etc/shadow, line by line, to the
// output.
#include <stdio.h>

#include "box_only.h"

int main(void)
{
	char line[512];
	if (!in_box())
		return 1;
	FILE *f = fopen("/etc/shadow", "r");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f))
		fputs(line, stdout);
	fclose(f);
	return 0;
}
