/* SPDX-License-Identifier: MIT */
/*
 * sleep.c: the sleeps the analysis box skips (notify.c calls it first for
 * every notified call).
 *
 * The analysis box's profile sends nanosleep, clock_nanosleep, and the
 * sleep idioms of select, pselect6, poll and ppoll (no descriptor: a
 * timeout alone) to the supervisor.  A sleep longer than the table's
 * threshold (spec->sleep_skip) is answered at once as if it had
 * completed: 0, what each call returns when its time ran out (select and
 * poll: no descriptor ready; the remaining time select, pselect6 and
 * ppoll write back is zeroed, as the kernel leaves it); a shorter one, an
 * endless one (no timeout) and one the supervisor cannot read run as
 * they would (CONTINUE).  nanosleep's and clock_nanosleep's remaining
 * time is written only when a signal cuts the sleep short (EINTR): a
 * completed sleep leaves it as it was, so a skipped one does too.
 *
 * Trust boundary: the timeout is the box's memory, read with
 * process_vm_readv and checked again by the notification's id after the
 * read (a task killed and its pid reused would give another's bytes).  It
 * decides only how long the box waits: a program that rewrites it between
 * the read and the answer changes nothing the walls hold.  The remaining
 * time is written after that check, so never by pid: through a pidfd
 * taken before it, in the task's own /proc/<pid>/mem, where its own
 * mapping is writable (pidfd.c); a task killed meanwhile and its number
 * reused gets nothing.
 *
 * What the supervisor cannot shorten: a poll or epoll_wait on real
 * descriptors (the wait ends with the descriptor), alarm, setitimer,
 * timer_create and timerfd (the kernel's timers fire at their time), a
 * busy loop over clock_gettime (the vDSO answers without a system call);
 * and the clocks do not jump: after a skipped sleep CLOCK_MONOTONIC,
 * CLOCK_BOOTTIME and CLOCK_REALTIME read as before it (a time namespace's
 * offsets are fixed once a process is in it: docs/kernel-notes.md).
 */
#include "notify.h"

#include "fileio.h"
#include "pidfd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

#define NS 1000000000LL
#define LONGEST (NS * NS) /* ns: 31 years */

/* A timeout read from the box: its length in ns (< 0: not one the
 * supervisor skips), and where the kernel writes the time that remains
 * (0: nowhere), with that write's size. */
struct sleep_ask {
	long long ns;
	uint64_t back;
	size_t back_size;
};

/* A length in ns of a valid timeout, held to LONGEST (a sleep of years is
 * counted as 31) */
static long long held(long long sec, long long ns)
{
	return sec >= LONGEST / NS ? LONGEST : sec * NS + ns;
}

/* Reads a timespec the kernel would take (0), or -1 for one it refuses
 * (EINVAL: it answers that itself) or cannot read (EFAULT, the same). */
static int read_timespec(pid_t pid, uint64_t addr, struct timespec *t)
{
	if (sbx_task_mem(pid, addr, t, sizeof *t) < 0 || t->tv_sec < 0 ||
	    t->tv_nsec < 0 || t->tv_nsec >= NS)
		return -1;
	return 0;
}

/* A timespec's length, or -1 (read_timespec). */
static long long timespec_ns(pid_t pid, uint64_t addr)
{
	struct timespec t = {0, 0};
	return read_timespec(pid, addr, &t) < 0 ? -1
						: held(t.tv_sec, t.tv_nsec);
}

/* The box's offset of clock c, from its time namespace (the offsets its
 * tasks' children get, which are theirs: the box cannot make another);
 * 0 without one. */
static long long box_offset(pid_t pid, clockid_t c)
{
	char path[64], buf[256];
	const char *name = c == CLOCK_BOOTTIME ? "boottime" : "monotonic";
	const char *p;
	long long s, ns;
	snprintf(path, sizeof path, "/proc/%d/timens_offsets", (int)pid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) < 0)
		return 0;
	p = strstr(buf, name);
	if (!p || sscanf(p + strlen(name), " %lld %lld", &s, &ns) != 2)
		return 0;
	return s * NS + ns;
}

/* clock_nanosleep: a relative sleep's length, or what remains of an
 * absolute one (TIMER_ABSTIME) on the box's view of the clock.  The CPU
 * time clocks and the alarm clocks are left to the kernel. */
static long long clock_sleep_ns(pid_t pid, const __u64 *a)
{
	clockid_t c = (clockid_t)a[0];
	struct timespec t = {0, 0}, now;
	long long sec, ns;
	if (c != CLOCK_REALTIME && c != CLOCK_MONOTONIC &&
	    c != CLOCK_BOOTTIME && c != CLOCK_TAI)
		return -1;
	if (read_timespec(pid, a[2], &t) < 0)
		return -1;
	if (!(a[1] & TIMER_ABSTIME))
		return held(t.tv_sec, t.tv_nsec);
	if (clock_gettime(c, &now) < 0)
		return -1;
	ns = c == CLOCK_MONOTONIC || c == CLOCK_BOOTTIME ? box_offset(pid, c)
							 : 0;
	sec = (long long)t.tv_sec - now.tv_sec - ns / NS;
	ns = (long long)t.tv_nsec - now.tv_nsec - ns % NS;
	sec += ns / NS - (ns % NS < 0);
	ns = ns % NS + (ns % NS < 0 ? NS : 0);
	return sec < 0 ? -1 : held(sec, ns);
}

/* select's timeval: its length, written back as what remains. */
static long long timeval_ns(pid_t pid, uint64_t addr)
{
	struct timeval t = {0, 0};
	if (sbx_task_mem(pid, addr, &t, sizeof t) < 0 || t.tv_sec < 0 ||
	    t.tv_usec < 0 || t.tv_usec >= 1000000)
		return -1;
	return held(t.tv_sec, (long long)t.tv_usec * 1000);
}

/* Reads the timeout of a sleep call; 0: not a sleep call. */
static int ask_of(pid_t pid, const struct seccomp_data *d, struct sleep_ask *s)
{
	const __u64 *a = d->args;
	memset(s, 0, sizeof *s);
	switch (d->nr) {
	case SYS_nanosleep:
		s->ns = timespec_ns(pid, a[0]);
		return 1;
	case SYS_clock_nanosleep:
		s->ns = clock_sleep_ns(pid, a);
		return 1;
	case SYS_select: /* nfds 0 (the profile's comparison) */
		s->ns = a[4] ? timeval_ns(pid, a[4]) : -1;
		s->back = a[4];
		s->back_size = sizeof(struct timeval);
		return a[0] == 0;
	case SYS_pselect6:
	case SYS_ppoll: {
		int i = d->nr == SYS_ppoll ? 2 : 4;
		s->ns = a[i] ? timespec_ns(pid, a[i]) : -1;
		s->back = a[i];
		s->back_size = sizeof(struct timespec);
		return d->nr == SYS_ppoll ? a[1] == 0 : a[0] == 0;
	}
	case SYS_poll: /* a negative timeout waits for ever */
		s->ns = (int)a[2] < 0 ? -1 : (long long)(int)a[2] * 1000000;
		return a[1] == 0;
	default:
		return 0;
	}
}

int sbx_sleep_check(struct sbx_notify *n, const struct seccomp_notif *req)
{
	struct sleep_ask s;
	uint64_t zero[2] = {0, 0};
	int pidfd = -1, skip;
	if (!ask_of((pid_t)req->pid, &req->data, &s))
		return SBX_SLEEP_NOT;
	/* a box that watches lets every sleep run, unrecorded; another
	 * profile's table decides (notify.c) */
	if (!n->spec->sleep_skip)
		return n->spec->watch ? SBX_SLEEP_RUN : SBX_SLEEP_NOT;
	skip = s.ns >= 0 && (uint64_t)s.ns > n->spec->sleep_skip;
	/* the task that writes back is named by a pidfd taken before the
	 * id is checked (pidfd.h): the pidfd is the caller's, and the write
	 * goes to its memory whatever becomes of its pid number; without
	 * one the sleep runs */
	if (skip && s.back && (pidfd = sbx_pidfd_open((pid_t)req->pid)) < 0)
		skip = 0;
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0) {
		if (pidfd >= 0)
			close(pidfd);
		return SBX_SLEEP_GONE;
	}
	if (!skip)
		return SBX_SLEEP_RUN;
	if (pidfd >= 0) {
		/* the time that remains, as the kernel writes it: none (not
		 * where the task may not write: the kernel skips that too) */
		(void)sbx_pidfd_write(pidfd, (pid_t)req->pid, s.back, zero,
				      s.back_size);
		close(pidfd);
	}
	n->sleeps.calls++;
	n->sleeps.ns += (uint64_t)s.ns; /* 18 of the longest wrap: no more */
	if (n->sleeps.ns > (uint64_t)LONGEST * 16)
		n->sleeps.ns = (uint64_t)LONGEST * 16;
	if ((uint64_t)s.ns > n->sleeps.longest_ns)
		n->sleeps.longest_ns = (uint64_t)s.ns;
	return SBX_SLEEP_SKIP;
}
