/* SPDX-License-Identifier: MIT */
/* chmodder: changes modes by chmod, fchmod, fchmodat and fchmodat2; and
 * asks for a set-uid bit, which the profile refuses (EPERM, unnamed
 * under the strict profile: the default profile's own refusal). */
#include "behave.h"

#include <sys/stat.h>
#include <sys/syscall.h>

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452 /* Linux 6.6; not in every toolchain's headers */
#endif

int main(void)
{
	int fd;
	put("/work/m1", "1\n", 0644);
	put("/work/m2", "2\n", 0644);
	put("/work/m3", "3\n", 0644);
	put("/work/m4", "4\n", 0644);
	chmod("/work/m1", 0755);
	fd = open("/work/m2", O_RDONLY | O_CLOEXEC);
	fchmod(fd, 0700);
	close(fd);
	fchmodat(AT_FDCWD, "m3", 0600, 0);
	syscall(SYS_fchmodat2, AT_FDCWD, "/work/m4", 0640, 0);
	chmod("/work/m1", 04755); /* refused: set-uid */
	return 0;
}
