/* SPDX-License-Identifier: MIT */
/* flood KIND N [PAD]: N calls of a kind that fill the explain channel's
 * log, each naming a new path of PAD bytes (default 0) and a number, then
 * exits 0.  KIND: "open" (an open for reading of /tmp/<pad>N, which does
 * not exist), "exec" (an execve of /nonexistent/<pad>N, with the pad as
 * its argument: it fails, and is an exec event all the same). */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	static char pad[4000], path[4200];
	long n = argc > 2 ? atol(argv[2]) : 0;
	size_t k = argc > 3 ? (size_t)atol(argv[3]) : 0;
	int exec;
	if (argc < 3 || k >= sizeof pad)
		return 2;
	exec = strcmp(argv[1], "exec") == 0;
	memset(pad, 'a', k);
	for (long i = 0; i < n; i++) {
		if (exec) {
			char *args[] = {path, pad, NULL};
			snprintf(path, sizeof path, "/nonexistent/%s%ld", pad,
				 i);
			execve(path, args, NULL);
		} else {
			int fd;
			snprintf(path, sizeof path, "/tmp/%s%ld", pad, i);
			fd = open(path, O_RDONLY);
			if (fd >= 0)
				close(fd);
		}
	}
	return 0;
}
