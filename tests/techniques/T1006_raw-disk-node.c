// SPDX-License-Identifier: MIT
// Direct volume access as a statically linked bot built against an old C
// library does it: makes a block-device node of the first disk with the
// legacy mknod call, to read its sectors past the file system's
// permissions.  In the analysis box the kernel refuses the node (no
// CAP_MKNOD); the attempt is the evidence.  It removes what it made.
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	const char *node = "/tmp/.sda";
	char sector[512];
	if (!in_box())
		return 1;
	if (syscall(SYS_mknod, node, S_IFBLK | 0600, makedev(8, 0)) != 0) {
		perror("mknod");
		return 0;
	}
	int fd = open(node, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, sector, sizeof sector) == (ssize_t)sizeof sector)
			puts("read the first sector");
		close(fd);
	}
	unlink(node);
	return 0;
}
