/* SPDX-License-Identifier: MIT */
/* scratch: benign; a temporary file in /tmp, written and removed. */
#include "behave.h"

int main(void)
{
	if (put("/tmp/scratch", "work in progress\n", 0600) != 0)
		return 1;
	return unlink("/tmp/scratch") != 0;
}
