/* SPDX-License-Identifier: MIT */
/* writer: benign; writes its output to /work/out.txt (0644). */
#include "behave.h"

int main(void)
{
	return put("/work/out.txt", "benign output\n", 0644) != 0;
}
