// SPDX-License-Identifier: MIT
// An IoT bot keeping a hung device from rebooting (which would wipe it
// from memory): opens the hardware watchdog and tells it to stop.
#include <fcntl.h>
#include <linux/watchdog.h>
#include <stdio.h>
#include <sys/ioctl.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	const char *dev[] = {"/dev/watchdog", "/dev/misc/watchdog"};
	int off = WDIOS_DISABLECARD;
	if (!in_box())
		return 1;
	for (int i = 0; i < 2; i++) {
		int fd = open(dev[i], O_RDWR);
		if (fd < 0)
			continue;
		if (ioctl(fd, WDIOC_SETOPTIONS, &off) != 0)
			perror("ioctl");
		close(fd);
		puts("watchdog off");
		return 0;
	}
	puts("no watchdog");
	return 0;
}
