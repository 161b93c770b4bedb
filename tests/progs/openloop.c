/* SPDX-License-Identifier: MIT */
/* openloop N [PATH]: N openat+close pairs of PATH (default /dev/null);
 * prints the mean ns per pair, measured inside (CLOCK_MONOTONIC), so
 * that start-up is not counted.  For scripts/bench-notify.sh. */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long n = argc > 1 ? atol(argv[1]) : 10000;
	const char *path = argc > 2 ? argv[2] : "/dev/null";
	struct timespec a, b;
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++) {
		int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
		if (fd < 0)
			return 1;
		close(fd);
	}
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%.0f\n", ((double)(b.tv_sec - a.tv_sec) * 1e9 +
			  (double)(b.tv_nsec - a.tv_nsec)) /
			     (double)n);
	return 0;
}
