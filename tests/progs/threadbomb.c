/* SPDX-License-Identifier: MIT */
/*
 * threadbomb: starts threads that sleep, as fast as it can, forever; a
 * thread that cannot be created is retried after 1 ms.
 */
#include <pthread.h>
#include <time.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	pause();
	return NULL;
}

int main(void)
{
	struct timespec ms = {0, 1000000};
	pthread_attr_t a;
	pthread_attr_init(&a);
	pthread_attr_setstacksize(&a, 65536);
	for (;;) {
		pthread_t t;
		if (pthread_create(&t, &a, idle, NULL) != 0)
			nanosleep(&ms, NULL);
	}
}
