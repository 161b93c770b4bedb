/* SPDX-License-Identifier: MIT */
/* shadow: reads credentials: /etc/shadow and the home's ssh key. */
#include <fcntl.h>
#include <unistd.h>

int main(void)
{
	char b[64];
	int fd = open("/etc/shadow", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)read(fd, b, sizeof b);
		close(fd);
	}
	fd = open("/home/dana/.ssh/id_rsa", O_RDONLY | O_CLOEXEC);
	if (fd >= 0) {
		(void)read(fd, b, sizeof b);
		close(fd);
	}
	return 0;
}
