/* SPDX-License-Identifier: MIT */
/*
 * hog_mem MiB [anon|shm] [seconds]: makes MiB mebibytes resident, either
 * private anonymous memory or shared memory (a MAP_SHARED anonymous
 * mapping, counted as RssShmem), prints "ready" and sleeps (default 30 s).
 * With a memory limit below MiB, the box is expected to be killed first.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	long mib = argc > 1 ? atol(argv[1]) : 64;
	int shm = argc > 2 && strcmp(argv[2], "shm") == 0;
	int secs = argc > 3 ? atoi(argv[3]) : 30;
	size_t len = (size_t)mib << 20;
	char *p;

	if (mib <= 0) {
		fprintf(stderr, "usage: hog_mem MiB [anon|shm] [seconds]\n");
		return 2;
	}
	p = mmap(NULL, len, PROT_READ | PROT_WRITE,
		 (shm ? MAP_SHARED : MAP_PRIVATE) | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	/* touch every page, with a value the kernel cannot share */
	for (size_t off = 0; off < len; off += 4096)
		p[off] = (char)(off >> 12 | 1);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sleep((unsigned)secs);
	return 0;
}
