/* SPDX-License-Identifier: MIT */
/* xattrs: sets and removes extended attributes by setxattr, lsetxattr,
 * fsetxattr and removexattr (the kernel's answer does not matter here:
 * the call is what is named). */
#include "behave.h"

#include <sys/xattr.h>

int main(void)
{
	int fd;
	put("/work/x1", "1\n", 0644);
	put("/work/x2", "2\n", 0644);
	put("/work/x3", "3\n", 0644);
	setxattr("/work/x1", "user.tag", "v", 1, 0);
	lsetxattr("/work/x2", "user.tag", "v", 1, 0);
	fd = open("/work/x3", O_RDONLY | O_CLOEXEC);
	fsetxattr(fd, "user.tag", "v", 1, 0);
	close(fd);
	removexattr("/work/x1", "user.tag");
	return 0;
}
