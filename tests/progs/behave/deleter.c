/* SPDX-License-Identifier: MIT */
/* deleter: writes files and a directory, then removes them by unlink,
 * unlinkat and rmdir; also tries to remove a file of the box's
 * read-only tree (the kernel refuses it: EROFS or EACCES). */
#include "behave.h"

#include <sys/stat.h>

int main(void)
{
	int dir;
	put("/work/a.txt", "a\n", 0644);
	put("/work/b.txt", "b\n", 0644);
	put("/work/keep.txt", "kept\n", 0644);
	mkdir("/work/d", 0755);
	put("/work/d/c.txt", "c\n", 0644);
	unlink("/work/a.txt");
	dir = open("/work", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	unlinkat(dir, "b.txt", 0);
	unlinkat(dir, "d/c.txt", 0);
	unlinkat(dir, "d", AT_REMOVEDIR);
	close(dir);
	mkdir("/tmp/e", 0755);
	rmdir("/tmp/e");
	unlink("/etc/passwd");
	return 0;
}
