/* SPDX-License-Identifier: MIT */
/*
 * corpus_threads: pthreads, futexes and thread-local storage, one step of
 * the strict profile's corpus (scripts/trace-profile.sh).  Four threads
 * meet at a barrier (futex waits), add their thread-local counts under a
 * mutex, and are joined.  Prints "threads ok" and exits 0, else exits 1.
 * With --seccomp FILE, the work runs under that filter (corpus.h).
 */
#include <pthread.h>
#include <stdio.h>

#include "corpus.h"

#define NTHREADS 4
#define ROUNDS 1000

static pthread_barrier_t barrier;
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
static long total;
static __thread long mine;

static void *work(void *arg)
{
	(void)arg;
	pthread_barrier_wait(&barrier);
	for (int i = 0; i < ROUNDS; i++)
		mine++;
	pthread_mutex_lock(&lock);
	total += mine;
	pthread_mutex_unlock(&lock);
	pthread_barrier_wait(&barrier);
	return NULL;
}

int main(int argc, char **argv)
{
	pthread_t t[NTHREADS];

	if (corpus_seccomp(argc, argv) != 0)
		return 1;
	if (pthread_barrier_init(&barrier, NULL, NTHREADS + 1) != 0)
		return 1;
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_create(&t[i], NULL, work, NULL) != 0) {
			fprintf(stderr, "corpus_threads: pthread_create\n");
			return 1;
		}
	pthread_barrier_wait(&barrier);
	pthread_barrier_wait(&barrier);
	for (int i = 0; i < NTHREADS; i++)
		if (pthread_join(t[i], NULL) != 0)
			return 1;
	if (total != NTHREADS * ROUNDS || mine != 0) {
		fprintf(stderr, "corpus_threads: total %ld\n", total);
		return 1;
	}
	printf("threads ok\n");
	return 0;
}
