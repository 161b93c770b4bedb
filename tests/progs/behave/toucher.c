/* SPDX-License-Identifier: MIT */
/* toucher: back-dates files by utimensat, futimens, utimes and utime. */
#include "behave.h"

#include <sys/stat.h>
#include <sys/time.h>
#include <utime.h>

int main(void)
{
	struct timespec ts[2] = {{86400, 0}, {86400, 0}};
	struct timeval tv[2] = {{86400, 0}, {86400, 0}};
	struct utimbuf ub = {86400, 86400};
	int fd;
	put("/work/t1", "1\n", 0644);
	put("/work/t2", "2\n", 0644);
	put("/work/t3", "3\n", 0644);
	put("/work/t4", "4\n", 0644);
	utimensat(AT_FDCWD, "/work/t1", ts, 0);
	fd = open("/work/t2", O_RDONLY | O_CLOEXEC);
	futimens(fd, ts);
	close(fd);
	utimes("/work/t3", tv);
	utime("/work/t4", &ub);
	return 0;
}
