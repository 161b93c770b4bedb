/* SPDX-License-Identifier: MIT */
/* chowner: changes owners to its own ids by chown, fchown, lchown and
 * fchownat; and to root's, which the profile refuses (EPERM). */
#include "behave.h"

#include <unistd.h>

int main(void)
{
	uid_t u = getuid();
	gid_t g = getgid();
	int fd;
	put("/work/o1", "1\n", 0644);
	put("/work/o2", "2\n", 0644);
	put("/work/o4", "4\n", 0644);
	symlink("o1", "/work/o3");
	chown("/work/o1", u, g);
	fd = open("/work/o2", O_RDONLY | O_CLOEXEC);
	fchown(fd, u, g);
	close(fd);
	lchown("/work/o3", u, g);
	fchownat(AT_FDCWD, "o4", u, (gid_t)-1, 0);
	chown("/work/o1", 0, 0); /* refused: another id */
	return 0;
}
