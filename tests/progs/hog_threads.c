/* SPDX-License-Identifier: MIT */
/*
 * hog_threads N [seconds]: starts N threads besides the main one, prints
 * "ready" once all run, and sleeps (default 30 s): N + 1 tasks, one
 * process.  Every thread ends with the process.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static pthread_barrier_t started;

static void *idle(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&started);
	for (;;)
		pause();
	return NULL;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 8;
	int secs = argc > 2 ? atoi(argv[2]) : 30;
	pthread_t t;

	if (n < 1 || n > 4096) {
		fprintf(stderr, "usage: hog_threads N [seconds]\n");
		return 2;
	}
	pthread_barrier_init(&started, NULL, (unsigned)n + 1);
	for (int i = 0; i < n; i++)
		if (pthread_create(&t, NULL, idle, NULL) != 0) {
			fprintf(stderr, "pthread_create failed at %d\n", i);
			return 1;
		}
	pthread_barrier_wait(&started);
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sleep((unsigned)secs);
	return 0;
}
