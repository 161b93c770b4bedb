/* SPDX-License-Identifier: MIT */
/*
 * sleeps MODE [SECONDS]: the ways a program sleeps, each through its own
 * system call (not libc's wrapper, which may pick another), one line each:
 * the call's name, its return value (-errno on failure) and, where the kernel
 * writes it back, the time that remains in ns. all S     nanosleep,
 * clock_nanosleep (relative; TIMER_ABSTIME on CLOCK_MONOTONIC and
 * CLOCK_REALTIME), select, pselect6, poll, ppoll with no descriptor, each for S
 * seconds bad       what a hostile caller passes: no timespec, an unmapped one,
 *             a negative one, a nanosecond field past a second, a clock
 *             that is not one; and an endless sleep's length (a huge
 *             tv_sec), which must still return
 *   clocks S  CLOCK_MONOTONIC, CLOCK_BOOTTIME and CLOCK_REALTIME read
 *             before and after a nanosleep of S seconds: how far each moved,
 *             in whole seconds
 *   loop N S  N nanosleeps of S seconds: the time per call, in ns, on
 *             CLOCK_MONOTONIC (what a skipped sleep costs)
 *   back S    where the time that remains is written back: a select whose
 *             timeval is on a read-only page (the kernel leaves it), a
 *             pselect6 in a thread that does not lead its process
 */
#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

static long sys(long r)
{
	return r < 0 ? -errno : r;
}

static long long ts_ns(const struct timespec *t)
{
	return (long long)t->tv_sec * 1000000000LL + t->tv_nsec;
}

static void abs_sleep(const char *name, clockid_t c, long s)
{
	struct timespec t;
	clock_gettime(c, &t);
	t.tv_sec += s;
	printf("%s %ld\n", name,
	       sys(syscall(SYS_clock_nanosleep, c, TIMER_ABSTIME, &t, NULL)));
}

static void all(long s)
{
	struct timespec t = {s, 0}, rem = {7, 7};
	struct timeval tv = {s, 0};
	long r;

	r = sys(syscall(SYS_nanosleep, &t, &rem));
	printf("nanosleep %ld rem %lld\n", r, ts_ns(&rem));
	printf("clock_nanosleep %ld\n",
	       sys(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, &t, &rem)));
	abs_sleep("clock_nanosleep_abs_monotonic", CLOCK_MONOTONIC, s);
	abs_sleep("clock_nanosleep_abs_realtime", CLOCK_REALTIME, s);
	r = sys(syscall(SYS_select, 0, NULL, NULL, NULL, &tv));
	printf("select %ld left %lld\n", r,
	       (long long)tv.tv_sec * 1000000000LL + tv.tv_usec * 1000);
	t.tv_sec = s;
	r = sys(syscall(SYS_pselect6, 0, NULL, NULL, NULL, &t, NULL));
	printf("pselect6 %ld left %lld\n", r, ts_ns(&t));
	printf("poll %ld\n", sys(syscall(SYS_poll, NULL, 0, (int)s * 1000)));
	t.tv_sec = s;
	r = sys(syscall(SYS_ppoll, NULL, 0, &t, NULL, 8));
	printf("ppoll %ld left %lld\n", r, ts_ns(&t));
}

static void bad(void)
{
	struct timespec neg = {-1, 0}, big = {0, 1000000000},
			far = {INT64_MAX, 0};
	void *gone =
	    mmap(NULL, 4096, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	munmap(gone, 4096);
	printf("null %ld\n", sys(syscall(SYS_nanosleep, NULL, NULL)));
	printf("unmapped %ld\n", sys(syscall(SYS_nanosleep, gone, NULL)));
	printf("negative %ld\n", sys(syscall(SYS_nanosleep, &neg, NULL)));
	printf("nsec %ld\n", sys(syscall(SYS_nanosleep, &big, NULL)));
	printf(
	    "clock_null %ld\n",
	    sys(syscall(SYS_clock_nanosleep, CLOCK_MONOTONIC, 0, NULL, NULL)));
	printf("clock_bad %ld\n",
	       sys(syscall(SYS_clock_nanosleep, 12345, 0, &far, NULL)));
	printf("far %ld\n", sys(syscall(SYS_nanosleep, &far, NULL)));
}

static void clocks(long s)
{
	static const clockid_t c[] = {CLOCK_MONOTONIC, CLOCK_BOOTTIME,
				      CLOCK_REALTIME};
	static const char *const name[] = {"monotonic", "boottime", "realtime"};
	struct timespec before[3], after[3], t = {s, 0};

	for (int i = 0; i < 3; i++)
		clock_gettime(c[i], &before[i]);
	syscall(SYS_nanosleep, &t, NULL);
	for (int i = 0; i < 3; i++) {
		clock_gettime(c[i], &after[i]);
		printf("%s %lld\n", name[i],
		       (ts_ns(&after[i]) - ts_ns(&before[i])) / 1000000000LL);
	}
}

static void loop(long n, long s)
{
	struct timespec a, b, t = {s, 0};
	clock_gettime(CLOCK_MONOTONIC, &a);
	for (long i = 0; i < n; i++)
		syscall(SYS_nanosleep, &t, NULL);
	clock_gettime(CLOCK_MONOTONIC, &b);
	printf("%lld ns per call\n", n > 0 ? (ts_ns(&b) - ts_ns(&a)) / n : 0);
}

static void *thread_pselect(void *arg)
{
	struct timespec t = {*(long *)arg, 0};
	long r = sys(syscall(SYS_pselect6, 0, NULL, NULL, NULL, &t, NULL));
	printf("thread_pselect6 %ld left %lld\n", r, ts_ns(&t));
	return NULL;
}

static void back(long s)
{
	struct timeval *tv = mmap(NULL, 4096, PROT_READ | PROT_WRITE,
				  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	pthread_t th;
	long r;
	if (tv == MAP_FAILED)
		return;
	tv->tv_sec = s;
	mprotect(tv, 4096, PROT_READ);
	r = sys(syscall(SYS_select, 0, NULL, NULL, NULL, tv));
	printf("select_ro %ld left %lld\n", r,
	       (long long)tv->tv_sec * 1000000000LL + tv->tv_usec * 1000);
	if (pthread_create(&th, NULL, thread_pselect, &s) == 0)
		pthread_join(th, NULL);
}

int main(int argc, char **argv)
{
	long s = argc > 2 ? atol(argv[2]) : 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (argc > 1 && strcmp(argv[1], "all") == 0)
		all(s);
	else if (argc > 1 && strcmp(argv[1], "bad") == 0)
		bad();
	else if (argc > 1 && strcmp(argv[1], "clocks") == 0)
		clocks(s);
	else if (argc > 1 && strcmp(argv[1], "back") == 0)
		back(s);
	else if (argc > 3 && strcmp(argv[1], "loop") == 0)
		loop(s, atol(argv[3]));
	else {
		fprintf(stderr, "usage: sleeps all S | bad | clocks S | loop N "
				"S | back S\n");
		return 2;
	}
	return 0;
}
