/* SPDX-License-Identifier: MIT */
/* locker: what ransomware does to a document: writes the scrambled
 * copy, removes the original, renames the copy over a new name. */
#include "behave.h"

#include <stdio.h>

int main(void)
{
	put("/work/report.doc", "quarterly numbers\n", 0644);
	put("/work/report.doc.tmp", "\x13\x37 scrambled\n", 0600);
	unlink("/work/report.doc");
	rename("/work/report.doc.tmp", "/work/report.doc.locked");
	put("/work/README_LOCKED.txt", "pay up\n", 0444);
	return 0;
}
