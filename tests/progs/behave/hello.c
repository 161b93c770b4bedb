/* SPDX-License-Identifier: MIT */
/* hello: benign; prints a line. */
#include <stdio.h>

int main(void)
{
	puts("hello");
	return 0;
}
