/* SPDX-License-Identifier: MIT */
/* renamer: renames by rename, renameat and renameat2 (RENAME_NOREPLACE),
 * relative to the cwd and to a directory descriptor. */
#include "behave.h"

#include <stdio.h>
#include <sys/syscall.h>

int main(void)
{
	int dir;
	put("/work/one", "1\n", 0644);
	put("/work/two", "2\n", 0644);
	put("/work/three", "3\n", 0644);
	rename("one", "uno");
	dir = open("/work", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	renameat(dir, "two", dir, "dos");
	syscall(SYS_renameat2, AT_FDCWD, "three", dir, "tres",
		1 /* RENAME_NOREPLACE */);
	close(dir);
	return 0;
}
