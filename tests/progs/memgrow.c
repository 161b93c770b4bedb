/* SPDX-License-Identifier: MIT */
/*
 * memgrow MiB: a memory hog that grows 1 MiB at a time (touched, so it is
 * resident) up to MiB, then sleeps; an allocation that fails is retried
 * after 1 ms, as a hog that does not give up.  Prints nothing.
 */
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long want = argc > 1 ? atol(argv[1]) : 1024, have = 0;
	struct timespec ms = {0, 1000000};
	while (have < want) {
		char *p = malloc(1 << 20);
		if (!p) {
			nanosleep(&ms, NULL);
			continue;
		}
		memset(p, 1, 1 << 20);
		have++;
	}
	pause();
	return 0;
}
