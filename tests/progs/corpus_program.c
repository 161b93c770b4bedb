/* SPDX-License-Identifier: MIT */
/*
 * corpus_program: the C library used for real, one step of the strict
 * profile's corpus (scripts/trace-profile.sh traces it; docs/seccomp.md,
 * "The strict profile").  A large malloc (mmap'd, under the strict
 * profile's cap), stdio on stdout and on a file it reads, a directory
 * listing, a signal mask and a handler, the time, the environment.
 * Prints "program ok" and exits 0; any failure prints its step and exits 1.
 * With --seccomp FILE, the work runs under that filter (corpus.h).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/times.h>
#include <time.h>
#include <unistd.h>

#include "corpus.h"

#define BIG (16u << 20) /* above malloc's mmap threshold, under the cap */

static int fail(const char *step)
{
	fprintf(stderr, "corpus_program: %s: %s\n", step, strerror(errno));
	return 1;
}

static void on_usr1(int sig)
{
	(void)sig;
}

int main(int argc, char **argv)
{
	char line[256];
	struct timespec ts, nap = {0, 1};
	struct tms tms;
	struct sigaction sa;
	sigset_t set, old;
	size_t entries = 0;
	char *big;
	FILE *f;
	DIR *d;

	if (corpus_seccomp(argc, argv) != 0)
		return 1;
	big = malloc(BIG);
	if (!big)
		return fail("malloc");
	memset(big, 1, BIG);
	free(big);

	f = fopen("/proc/self/status", "r");
	if (!f || !fgets(line, sizeof line, f) || fclose(f) != 0)
		return fail("stdio");

	d = opendir("/proc/self/fd");
	if (!d)
		return fail("opendir");
	while (readdir(d))
		entries++;
	if (closedir(d) != 0 || entries < 3)
		return fail("readdir");

	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	if (sigaction(SIGUSR1, &sa, NULL) != 0 ||
	    sigprocmask(SIG_BLOCK, &set, &old) != 0 || raise(SIGUSR1) != 0 ||
	    sigprocmask(SIG_SETMASK, &old, NULL) != 0)
		return fail("signals");

	if (clock_gettime(CLOCK_MONOTONIC, &ts) != 0 ||
	    clock_nanosleep(CLOCK_MONOTONIC, 0, &nap, NULL) != 0 ||
	    times(&tms) == (clock_t)-1 || time(NULL) == (time_t)-1)
		return fail("time");

	if (setenv("CORPUS", "1", 1) != 0 || !getenv("CORPUS") ||
	    unsetenv("CORPUS") != 0)
		return fail("environment");

	printf("program ok (pid %ld)\n", (long)getpid());
	return fflush(stdout) == 0 ? 0 : fail("stdout");
}
