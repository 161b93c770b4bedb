/* SPDX-License-Identifier: MIT */
/*
 * cpu_burn MODE N [tag]: processes that use CPU together.
 *   spin N      N children spin for ever; the parent waits for them (their
 *               time would reach the parent's cutime only once reaped).
 *   autoreap N  SIGCHLD ignored, so no child is ever waited for: one child
 *               after another spins for N ms of CPU and exits, for ever;
 *               the time of each vanishes with it from every cutime.
 * The tag is only a mark on the command line for the host to look for.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static double cpu_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void spin(double secs)
{
	volatile unsigned long x = 0;
	double end = cpu_now() + secs;
	while (secs <= 0 || cpu_now() < end)
		for (int i = 0; i < 100000; i++)
			x++;
}

int main(int argc, char **argv)
{
	int n = argc > 2 ? atoi(argv[2]) : 0;
	if (argc < 3 || n < 1) {
		fprintf(stderr, "usage: cpu_burn spin|autoreap N [tag]\n");
		return 2;
	}
	if (strcmp(argv[1], "spin") == 0) {
		for (int i = 0; i < n; i++) {
			pid_t p = fork();
			if (p < 0) {
				perror("fork");
				return 1;
			}
			if (p == 0) {
				spin(0);
				_exit(0);
			}
		}
		while (wait(NULL) > 0 || errno == EINTR)
			;
		return 0;
	}
	if (strcmp(argv[1], "autoreap") == 0) {
		signal(SIGCHLD, SIG_IGN);
		for (;;) {
			pid_t p = fork();
			if (p < 0) {
				perror("fork");
				return 1;
			}
			if (p == 0) {
				spin((double)n / 1000.0);
				_exit(0);
			}
			/* SIGCHLD ignored: wait returns ECHILD once the child
			 * is gone, reaped by the kernel */
			while (wait(NULL) > 0 || errno == EINTR)
				;
		}
	}
	fprintf(stderr, "cpu_burn: unknown mode %s\n", argv[1]);
	return 2;
}
