/* SPDX-License-Identifier: MIT */
/* floodhide WHERE N: a sample that floods the explain channel so that its
 * one real act hides in the summaries: N opens for reading of names of
 * 400 bytes that do not exist, then a read of /etc/shadow, then N / 100
 * more opens of the flood.  WHERE: "dirs" (each name in a directory of
 * its own, /tmp/<n>/...: past the budget, the summaries run out before
 * /etc has one) or "etc" (every name in /etc itself: the read is neither
 * among the first of /etc's summary nor its last). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static void one(int dirs, long i)
{
	static char pad[401], path[600];
	int fd;
	if (!pad[0])
		memset(pad, 'a', 400);
	if (dirs)
		snprintf(path, sizeof path, "/tmp/%ld/%s", i, pad);
	else
		snprintf(path, sizeof path, "/etc/%s%ld", pad, i);
	fd = open(path, O_RDONLY);
	if (fd >= 0)
		close(fd);
}

int main(int argc, char **argv)
{
	char buf[64];
	long n = argc > 2 ? atol(argv[2]) : 0;
	int dirs, fd;
	if (argc < 3 || n <= 0)
		return 2;
	dirs = strcmp(argv[1], "dirs") == 0;
	for (long i = 0; i < n; i++)
		one(dirs, i);
	fd = open("/etc/shadow", O_RDONLY);
	if (fd >= 0) {
		if (read(fd, buf, sizeof buf) < 0)
			perror("read");
		close(fd);
	}
	for (long i = n; i < n + n / 100; i++)
		one(dirs, i);
	return 0;
}
