/* SPDX-License-Identifier: MIT */
/*
 * sleep.c: the sleeps the analysis box skips, and when (notify.c calls
 * sbx_sleep_check first for every notified call, the supervisor's loop
 * calls sbx_sleep_tick while a sleep is held).  The one place that
 * decides whether the box's time may jump.
 *
 * The analysis box's profile sends nanosleep, clock_nanosleep, the sleep
 * idioms of select, pselect6, poll and ppoll (no descriptor: a timeout
 * alone), alarm and setitimer(ITIMER_REAL) to the supervisor.  A sleep up
 * to the table's threshold (spec->sleep_skip), an endless one (no
 * timeout) and one the supervisor cannot read run as they would
 * (CONTINUE).  A longer one is held, unanswered, with its deadline on the
 * box's time (the host's CLOCK_MONOTONIC plus every jump so far), and is
 * answered
 * - at its deadline, as the kernel answers a sleep whose time ran out: 0;
 *   select, pselect6 and ppoll find the time that remains zeroed;
 * - early with EINTR when a signal the task does not block is pending for
 *   it (a signal that comes once the call is received waits for the
 *   answer: WAIT_KILLABLE_RECV turns the wait killable), with the time
 *   that remains written where the kernel writes it (nanosleep's and a
 *   relative clock_nanosleep's rem, select's, pselect6's and ppoll's
 *   timeout; a pselect6 or ppoll with a signal mask of its own runs for
 *   what remains instead, so that the kernel sets the mask the handler
 *   runs under, and answers EINTR itself);
 * - skipped: when every task of the box waits and nothing in it would
 *   wake sooner, the box's time jumps to the earliest held deadline (not
 *   past it) and the sleeps due then are answered as above (0).
 *
 * "Every task waits" is measured from the kernel, by a walk of the box
 * from its init (/proc/<pid>/task/<tid>/children, as sample.c): each
 * task's state (stat), how often it was scheduled (schedstat) and the
 * call it waits in (syscall).  A task waits when it is held here, stopped
 * or a zombie, or sleeps in a call with no timeout: a wait for a child,
 * pause, a futex wait, poll, select or epoll_wait without one, a read or
 * write on a pipe, a terminal in canonical mode or a socket with no
 * SO_RCVTIMEO/SO_SNDTIMEO, a lock lockguard.c holds.  Two walks one tick
 * apart must find the same tasks, none scheduled in between (the box was
 * still for the whole tick: a task the walk missed while its parent ended
 * shows in the second).  Then nothing may be armed that the supervisor
 * cannot move with the box's time: no task in a call with a timeout (a
 * short sleep let run, a poll or futex wait with one), no POSIX timer
 * (/proc/<pid>/timers), no armed timerfd (its fdinfo's it_value), no alarm
 * or ITIMER_REAL set (noted here from the notified call).  The kernel's
 * timers run on the host's time: jumping past one of them, or jumping
 * while one is armed, would let a later sleep end before it.  Whatever
 * cannot be read is a reason not to jump.
 *
 * The clocks do not jump: after a skipped sleep CLOCK_MONOTONIC,
 * CLOCK_BOOTTIME and CLOCK_REALTIME read as before it (a time namespace's
 * offsets are fixed once a process is in it, and the vDSO answers
 * clock_gettime without a system call: docs/kernel-notes.md).  A held
 * absolute clock_nanosleep is held for what remained of it when read.
 *
 * Trust boundary: the timeout is the box's memory, read with
 * process_vm_readv and checked again by the notification's id after the
 * read (a task killed and its pid reused would give another's bytes).  It
 * decides only how long the box waits: a program that rewrites it between
 * the read and the answer changes nothing the walls hold.  The time that
 * remains is written through a pidfd taken before the id was checked, in
 * the task's own /proc/<pid>/mem, where its own mapping is writable
 * (pidfd.c); a task killed meanwhile and its number reused gets nothing.
 * What the walk reads (the box's /proc files) decides only whether the
 * box's time jumps: a box that fakes being idle skips its own sleeps.
 */
#include "notify.h"

#include "fileio.h"
#include "pidfd.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <termios.h>
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
	uint64_t rem;  /* nanosleep's rem, a relative clock_nanosleep's:
			  written on EINTR only; 0 none */
	int masked;    /* pselect6's, ppoll's signal mask for the wait */
	uint64_t mask; /* (the blocked signals while it lasts) */
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

/* pselect6's and ppoll's signal mask, which the kernel sets for the
 * wait: 0 none or read, -1 one the kernel refuses (EFAULT, EINVAL: it
 * answers that itself, so the call runs). */
static int read_mask(pid_t pid, uint64_t set, uint64_t size,
		     struct sleep_ask *s)
{
	if (!set)
		return 0;
	if (size != sizeof s->mask ||
	    sbx_task_mem(pid, set, &s->mask, sizeof s->mask) < 0)
		return -1;
	s->masked = 1;
	return 0;
}

/* pselect6's sixth argument: {const sigset_t *set, size_t size}. */
static int pselect_mask(pid_t pid, uint64_t arg, struct sleep_ask *s)
{
	uint64_t a[2];
	if (!arg)
		return 0;
	if (sbx_task_mem(pid, arg, a, sizeof a) < 0)
		return -1;
	return read_mask(pid, a[0], a[1], s);
}

/* Reads the timeout of a sleep call; 0: not a sleep call. */
static int ask_of(pid_t pid, const struct seccomp_data *d, struct sleep_ask *s)
{
	const __u64 *a = d->args;
	memset(s, 0, sizeof *s);
	switch (d->nr) {
	case SYS_nanosleep:
		s->ns = timespec_ns(pid, a[0]);
		s->rem = a[1];
		return 1;
	case SYS_clock_nanosleep:
		s->ns = clock_sleep_ns(pid, a);
		s->rem = a[1] & TIMER_ABSTIME ? 0 : a[3];
		return 1;
	case SYS_select: /* nfds 0 (the profile's comparison) */
		s->ns = a[4] ? timeval_ns(pid, a[4]) : -1;
		s->back = a[4];
		s->back_size = sizeof(struct timeval);
		return a[0] == 0;
	case SYS_pselect6:
		s->ns = a[4] && pselect_mask(pid, a[5], s) == 0
			    ? timespec_ns(pid, a[4])
			    : -1;
		s->back = a[4];
		s->back_size = sizeof(struct timespec);
		return a[0] == 0;
	case SYS_ppoll:
		s->ns = a[2] && read_mask(pid, a[3], a[4], s) == 0
			    ? timespec_ns(pid, a[2])
			    : -1;
		s->back = a[2];
		s->back_size = sizeof(struct timespec);
		return a[1] == 0;
	case SYS_poll: /* a negative timeout waits for ever */
		s->ns = (int)a[2] < 0 ? -1 : (long long)(int)a[2] * 1000000;
		return a[1] == 0;
	default:
		return 0;
	}
}

#define TICK 0.005     /* s between two looks while a sleep is held */
#define WALK_GAP 0.080 /* s: the longest between two walks of a busy box */
#define HOLDS_MAX 256  /* sleeps held at once; past them, a sleep runs */
#define ALARMS_MAX 256 /* processes whose alarm is noted */
#define TASKS_MAX 1024 /* tasks one walk looks at; past them: no jump */
/* ns an alarm counts as armed past its noted expiry: the note is taken
 * before the call runs, the kernel's timer starts when the task runs on */
#define ALARM_SLACK (NS / 4)

/* A sleep held: its notification, its task, where the time that remains
 * goes, and its deadline on the box's time (ns). */
struct hold {
	uint64_t id;
	pid_t tid;
	int pidfd; /* the caller's (pidfd.h); -1: nothing to write */
	uint64_t back, rem;
	size_t back_size;
	long long due;
	int shared; /* a signal of its process was pending at the last look */
	int masked; /* the call's own signal mask (sleep_ask) */
	uint64_t mask;
};

/* An alarm or ITIMER_REAL a process set: its next expiry (host ns) and
 * its interval (0: once). */
struct alarm_note {
	pid_t tgid;
	long long due, every;
};

struct task_look {
	pid_t tid;
	unsigned long long runs; /* times scheduled (schedstat) */
};

struct sbx_sleeper {
	struct hold h[HOLDS_MAX];
	size_t nh;
	struct alarm_note a[ALARMS_MAX];
	size_t na;
	long long jumped; /* ns: how far the box's time is ahead */
	double next;	  /* the next look (sbx_now) */
	/* the next walk, and the gap after it: TICK, doubled up to WALK_GAP
	 * while the box is found busy (a walk costs reads in proportion to
	 * the box), TICK again after a new hold or a jump */
	double walk, gap;
	/* the last walk that found every task waiting (0 tasks: none) */
	struct task_look last[TASKS_MAX];
	size_t nlast;
	/* the walk in progress: its tasks and processes */
	struct task_look cur[TASKS_MAX];
	size_t ncur;
	pid_t procs[TASKS_MAX];
	size_t nprocs;
};

static long long mono_ns(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (long long)t.tv_sec * NS + t.tv_nsec;
}

static struct sbx_sleeper *sleeper(struct sbx_notify *n)
{
	if (!n->sleeper)
		n->sleeper = calloc(1, sizeof *n->sleeper);
	return n->sleeper;
}

void sbx_sleep_close(struct sbx_notify *n)
{
	struct sbx_sleeper *sl = n->sleeper;
	if (!sl)
		return;
	for (size_t i = 0; i < sl->nh; i++)
		if (sl->h[i].pidfd >= 0)
			close(sl->h[i].pidfd);
	free(sl);
	n->sleeper = NULL;
}

/* The process (thread group) of task tid, from its status; 0 unknown. */
static pid_t tgid_of(pid_t tid)
{
	char path[64], buf[512];
	const char *p;
	snprintf(path, sizeof path, "/proc/%d/status", (int)tid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) < 0 ||
	    !(p = strstr(buf, "\nTgid:")))
		return 0;
	return (pid_t)strtol(p + 6, NULL, 10);
}

/* alarm(s) and setitimer(ITIMER_REAL, new, old) (the profile's
 * comparison): the process's next SIGALRM, noted before the call runs
 * (a moment early: ALARM_SLACK).  Another setitimer is not noted (the
 * CPU-time timers do not run while the box waits). */
static void note_alarm(struct sbx_notify *n, const struct seccomp_notif *req)
{
	const __u64 *a = req->data.args;
	struct itimerval it = {{0, 0}, {0, 0}};
	struct sbx_sleeper *sl;
	long long due = 0, every = 0, now = mono_ns();
	pid_t tgid;
	size_t i;
	if (req->data.nr == SYS_alarm) {
		due = a[0] ? now + (long long)(unsigned)a[0] * NS : 0;
	} else if (req->data.nr == SYS_setitimer && a[0] == ITIMER_REAL) {
		/* unreadable: EFAULT is the kernel's answer, nothing set */
		if (a[1] &&
		    sbx_task_mem((pid_t)req->pid, a[1], &it, sizeof it) == 0) {
			due = it.it_value.tv_sec || it.it_value.tv_usec
				  ? now + held(it.it_value.tv_sec,
					       it.it_value.tv_usec * 1000LL)
				  : 0;
			every = held(it.it_interval.tv_sec,
				     it.it_interval.tv_usec * 1000LL);
		}
	} else {
		return;
	}
	/* the process is read by the task's number: it is the task's
	 * while the task still waits in the call */
	if (!(sl = sleeper(n)) || (tgid = tgid_of((pid_t)req->pid)) <= 0 ||
	    ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0)
		return;
	for (i = 0; i < sl->na && sl->a[i].tgid != tgid; i++)
		;
	if (i == sl->na && sl->na < ALARMS_MAX)
		sl->na++;
	/* past the table: the last note stands for another process's,
	 * which may make a jump wait for nothing, never one too far */
	if (i == sl->na)
		i--;
	sl->a[i] = (struct alarm_note){tgid, due, due ? every : 0};
}

/* Holds the sleep req asked (s): 1 held, 0 not (it runs), -1 its task
 * is gone. */
static int hold(struct sbx_notify *n, const struct seccomp_notif *req,
		const struct sleep_ask *s)
{
	struct sbx_sleeper *sl = sleeper(n);
	struct hold *h;
	int pidfd;
	if (!sl || sl->nh == HOLDS_MAX)
		return 0;
	/* the task that is answered is named by a pidfd taken before the
	 * id is checked (pidfd.h): the writes go to its memory whatever
	 * becomes of its pid number; without one the sleep runs */
	if ((pidfd = sbx_pidfd_open((pid_t)req->pid)) < 0)
		return 0;
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0) {
		close(pidfd);
		return -1;
	}
	h = &sl->h[sl->nh++];
	*h = (struct hold){req->id,
			   (pid_t)req->pid,
			   pidfd,
			   s->back,
			   s->rem,
			   s->back_size,
			   mono_ns() + sl->jumped + s->ns,
			   0,
			   s->masked,
			   s->mask};
	sl->next = sl->walk = 0; /* look at once */
	sl->gap = TICK;
	return 1;
}

int sbx_sleep_call(const struct seccomp_data *d)
{
	switch (d->nr) {
	case SYS_nanosleep:
	case SYS_clock_nanosleep:
	case SYS_select:
	case SYS_pselect6:
	case SYS_ppoll:
	case SYS_poll:
	case SYS_alarm:
	case SYS_setitimer:
		return 1;
	default:
		return 0;
	}
}

int sbx_sleep_check(struct sbx_notify *n, const struct seccomp_notif *req)
{
	struct sleep_ask s;
	int r;
	int timer = req->data.nr == SYS_alarm || req->data.nr == SYS_setitimer;
	if (!timer && !ask_of((pid_t)req->pid, &req->data, &s))
		return SBX_SLEEP_NOT;
	/* a box that watches lets every sleep and timer run, unrecorded;
	 * another profile's table decides (notify.c) */
	if (!n->spec->sleep_skip)
		return n->spec->watch ? SBX_SLEEP_RUN : SBX_SLEEP_NOT;
	if (timer) { /* noted, and let run */
		note_alarm(n, req);
		return SBX_SLEEP_RUN;
	}
	r = s.ns >= 0 && (uint64_t)s.ns > n->spec->sleep_skip ? hold(n, req, &s)
							      : 0;
	if (r > 0)
		return SBX_SLEEP_HELD;
	if (r < 0 || ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0)
		return SBX_SLEEP_GONE;
	return SBX_SLEEP_RUN;
}

/* Answers a held sleep: 0 (its time ran out: what remains is none) or
 * -EINTR with left ns remaining, written where the kernel writes it. */
static void answer(struct sbx_notify *n, const struct hold *h, int err,
		   long long left)
{
	struct seccomp_notif_resp resp;
	struct timespec ts = {0, 0};
	struct timeval tv = {0, 0};
	if (err) {
		ts.tv_sec = left / NS;
		ts.tv_nsec = left % NS;
		tv.tv_sec = ts.tv_sec;
		tv.tv_usec = ts.tv_nsec / 1000;
	}
	/* written only where the task's own mapping is writable (pidfd.c):
	 * the kernel skips the rest too */
	if (h->back)
		(void)sbx_pidfd_write(h->pidfd, h->tid, h->back,
				      h->back_size == sizeof tv
					  ? (const void *)&tv
					  : (const void *)&ts,
				      h->back_size);
	if (h->rem && err)
		(void)sbx_pidfd_write(h->pidfd, h->tid, h->rem, &ts, sizeof ts);
	memset(&resp, 0, sizeof resp);
	resp.id = h->id;
	resp.error = -err;
	ioctl(n->fd, SECCOMP_IOCTL_NOTIF_SEND, &resp); /* ENOENT: it died */
}

/* Lets a held pselect6 or ppoll run (CONTINUE) for the left ns that
 * remain of it, written into its timeout first. */
static void answer_run(struct sbx_notify *n, const struct hold *h,
		       long long left)
{
	struct seccomp_notif_resp resp;
	struct timespec ts = {left / NS, left % NS};
	(void)sbx_pidfd_write(h->pidfd, h->tid, h->back, &ts, sizeof ts);
	memset(&resp, 0, sizeof resp);
	resp.id = h->id;
	resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	ioctl(n->fd, SECCOMP_IOCTL_NOTIF_SEND, &resp); /* ENOENT: it died */
}

/* A hex mask field of a status file. */
static unsigned long long mask(const char *buf, const char *key)
{
	const char *p = strstr(buf, key);
	return p ? strtoull(p + strlen(key), NULL, 16) : 0;
}

/* Whether a signal interrupts held sleep h: one for its thread that it
 * does not block, or one for its process that it does not block, when it
 * is the process's only thread or on two looks in a row (the kernel may
 * have given it to another thread, which takes it at once); h->shared
 * says one waits for the second look. */
static int signalled(struct hold *h)
{
	char buf[2048];
	const char *t;
	unsigned long long blk;
	int dir = sbx_pidfd_proc(h->pidfd, h->tid), shared, alone;
	ssize_t r;
	if (dir < 0)
		return 0;
	r = sbx_read_once_at(dir, "status", 0, buf, sizeof buf);
	close(dir);
	if (r < 0)
		return 0;
	blk = h->masked ? h->mask : mask(buf, "\nSigBlk:");
	shared = (mask(buf, "\nShdPnd:") & ~blk) != 0;
	alone = (t = strstr(buf, "\nThreads:")) && strtol(t + 9, NULL, 10) == 1;
	if ((mask(buf, "\nSigPnd:") & ~blk) || (shared && alone))
		return 1;
	r = shared && h->shared;
	h->shared = shared;
	return (int)r;
}

/* Answers the held sleeps that are due on the box's time now (0), that a
 * signal interrupts (EINTR), and forgets those whose task is gone. */
static void settle(struct sbx_notify *n, struct sbx_sleeper *sl, int skipped)
{
	long long now = mono_ns() + sl->jumped;
	size_t k = 0;
	for (size_t i = 0; i < sl->nh; i++) {
		struct hold *h = &sl->h[i];
		int done = 1, sig = 0;
		if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &h->id) < 0)
			; /* gone: killed, or the box ends */
		else if (h->due <= now) {
			answer(n, h, 0, 0);
			n->sleeps.calls += skipped != 0;
		} else if ((sig = signalled(h)) && h->masked) {
			/* the handler must run under the call's own mask,
			 * which only the kernel sets: the call runs, for
			 * what remains (its timeout is the kernel's to
			 * rewrite), and the kernel answers EINTR */
			answer_run(n, h, h->due - now);
		} else if (sig)
			answer(n, h, EINTR, h->due - now);
		else
			done = 0;
		if (done) {
			close(h->pidfd);
			continue;
		}
		sl->h[k++] = *h;
	}
	sl->nh = k;
}

/* The call a task waits in, from /proc/<pid>/task/<tid>/syscall: its
 * number and arguments; -1 when it runs or cannot be read. */
static long waiting_in(pid_t pid, pid_t tid, unsigned long long a[6])
{
	char path[64], buf[256];
	long nr;
	snprintf(path, sizeof path, "/proc/%d/task/%d/syscall", (int)pid,
		 (int)tid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) < 0 ||
	    sscanf(buf, "%ld %llx %llx %llx %llx %llx %llx", &nr, &a[0], &a[1],
		   &a[2], &a[3], &a[4], &a[5]) != 7)
		return -1;
	return nr;
}

/* A wait on descriptor fd of process pid that has no timeout of its
 * own: not a socket with SO_RCVTIMEO or SO_SNDTIMEO, not a terminal read
 * with VTIME in non-canonical mode.  0 when there is one, or it cannot
 * be told. */
static int fd_untimed(pid_t pid, unsigned long long fd)
{
	struct timeval rcv = {0, 0}, snd = {0, 0};
	socklen_t len = sizeof rcv;
	struct termios t;
	struct stat st;
	int ok = 0, copy = sbx_task_fd(pid, fd);
	if (copy < 0)
		return 0;
	if (fstat(copy, &st) == 0 && S_ISSOCK(st.st_mode))
		ok = getsockopt(copy, SOL_SOCKET, SO_RCVTIMEO, &rcv, &len) ==
			 0 &&
		     getsockopt(copy, SOL_SOCKET, SO_SNDTIMEO, &snd, &len) ==
			 0 &&
		     !rcv.tv_sec && !rcv.tv_usec && !snd.tv_sec && !snd.tv_usec;
	else if (S_ISCHR(st.st_mode) && tcgetattr(copy, &t) == 0)
		ok = (t.c_lflag & ICANON) || t.c_cc[VTIME] == 0;
	else
		ok = 1; /* a pipe, a FIFO, an eventfd, ...: no timeout */
	close(copy);
	return ok;
}

/* A futex operation that waits, whose timeout is argument 3. */
static int futex_waits(unsigned long long op)
{
	switch (op & 0x7f) { /* FUTEX_CMD_MASK */
	case 0:		     /* FUTEX_WAIT */
	case 6:		     /* FUTEX_LOCK_PI */
	case 9:		     /* FUTEX_WAIT_BITSET */
	case 11:	     /* FUTEX_WAIT_REQUEUE_PI */
	case 13:	     /* FUTEX_LOCK_PI2 */
		return 1;
	default:
		return 0;
	}
}

/* Whether call nr (arguments a) of process pid waits with no timeout:
 * it can end only by another task of the box, a signal, a descriptor. */
static int untimed(pid_t pid, long nr, const unsigned long long a[6])
{
	switch (nr) {
	case SYS_wait4:
	case SYS_waitid:
	case SYS_pause:
	case SYS_rt_sigsuspend:
	case SYS_msgrcv:
	case SYS_msgsnd:
	case SYS_semop:
	case SYS_flock: /* lockguard.c's waiters: a lock of the box's */
	case SYS_fcntl:
		return 1;
	case SYS_futex:
		return futex_waits(a[1]) && a[3] == 0;
	case SYS_futex_waitv:
	case SYS_semtimedop:
	case SYS_epoll_pwait2:
		return a[3] == 0;
	case SYS_rt_sigtimedwait:
	case SYS_ppoll:
		return a[2] == 0;
	case SYS_select:
	case SYS_pselect6:
	case SYS_mq_timedreceive:
	case SYS_mq_timedsend:
		return a[4] == 0;
	case SYS_poll:
		return (int)a[2] < 0;
	case SYS_epoll_wait:
	case SYS_epoll_pwait:
		return (int)a[3] < 0;
	case SYS_read:
	case SYS_readv:
	case SYS_write:
	case SYS_writev:
	case SYS_recvfrom:
	case SYS_recvmsg:
	case SYS_sendto:
	case SYS_sendmsg:
	case SYS_accept:
	case SYS_accept4:
		return fd_untimed(pid, a[0]);
	default: /* connect (the kernel's own retries), or unknown */
		return 0;
	}
}

static int is_held(const struct sbx_sleeper *sl, pid_t tid)
{
	for (size_t i = 0; i < sl->nh; i++)
		if (sl->h[i].tid == tid)
			return 1;
	return 0;
}

/* Looks at task tid of process pid: 1 it waits with no deadline of its
 * own (or one held here), 0 not, or it cannot be told.  Its schedule
 * count goes to *runs. */
static int task_waits(const struct sbx_sleeper *sl, pid_t init, pid_t pid,
		      pid_t tid, unsigned long long *runs)
{
	char path[64], buf[512];
	unsigned long long a[6];
	const char *p;
	char state;
	long nr;
	snprintf(path, sizeof path, "/proc/%d/task/%d/stat", (int)pid,
		 (int)tid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) < 0 ||
	    !(p = strrchr(buf, ')')) || p[1] != ' ')
		return 0;
	state = p[2];
	snprintf(path, sizeof path, "/proc/%d/task/%d/schedstat", (int)pid,
		 (int)tid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) < 0 ||
	    sscanf(buf, "%*u %*u %llu", runs) != 1)
		return 0;
	if (state == 'Z' || state == 'X' || state == 'T' || state == 't')
		return 1; /* ended, or stopped: wakes by another's act */
	if (is_held(sl, tid))
		return state == 'S' || state == 'D';
	/* init (core/child/reap.c) waits in waitid or for the supervisor's
	 * word, never with a timeout; its /proc may be closed to us */
	if (tid == init)
		return state == 'S';
	nr = state == 'S' || state == 'D' ? waiting_in(pid, tid, a) : -1;
	/* a killable wait ('D'): a notified call a signal came to (a
	 * lock's here), or the kernel's own (vfork, I/O): not known */
	if (nr < 0 || (state == 'D' && nr != SYS_flock && nr != SYS_fcntl))
		return 0;
	return untimed(pid, nr, a);
}

/* Queues the pids listed in /proc/<pid>/task/<tid>/children. */
static void children(struct sbx_sleeper *sl, pid_t pid, pid_t tid)
{
	char path[64], buf[4096];
	char *p, *end;
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid,
		 (int)tid);
	if (sbx_read_at(AT_FDCWD, path, 0, buf, sizeof buf) < 0)
		return;
	for (p = buf;; p = end) {
		long c = strtol(p, &end, 10);
		if (end == p)
			break;
		if (c > 0 && sl->nprocs < TASKS_MAX)
			sl->procs[sl->nprocs++] = (pid_t)c;
	}
}

/* Every task of process pid waits (task_waits): 1, else 0; each is
 * recorded in sl->cur, its children queued. */
static int process_waits(struct sbx_sleeper *sl, pid_t init, pid_t pid)
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int ok = 1;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	if (!(dir = opendir(path)))
		return 0;
	while (ok && (d = readdir(dir))) {
		struct task_look *t = &sl->cur[sl->ncur];
		pid_t tid = (pid_t)strtol(d->d_name, NULL, 10);
		if (tid <= 0)
			continue;
		if (sl->ncur == TASKS_MAX)
			ok = 0;
		else if ((ok = task_waits(sl, init, pid, tid, &t->runs))) {
			t->tid = tid;
			sl->ncur++;
			children(sl, pid, tid);
		}
	}
	closedir(dir);
	return ok;
}

/* The process's kernel timers, which run on the host's time: none
 * armed (no POSIX timer at all: its expiry cannot be read; no timerfd
 * whose it_value is set).  1 none, 0 one, or they cannot be read. */
static int no_timers(pid_t pid)
{
	char path[320], buf[512], link[64];
	struct dirent *d;
	DIR *dir;
	int ok = 1, fd;
	/* a zombie has no timer left, and its /proc is closed to us */
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) > 0 &&
	    strstr(buf, "\nState:\tZ") && strstr(buf, "\nThreads:\t1\n"))
		return 1;
	snprintf(path, sizeof path, "/proc/%d/timers", (int)pid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) != 0)
		return 0;
	snprintf(path, sizeof path, "/proc/%d/fd", (int)pid);
	if (!(dir = opendir(path)))
		return 0;
	fd = dirfd(dir);
	while (ok && (d = readdir(dir))) {
		ssize_t n = readlinkat(fd, d->d_name, link, sizeof link - 1);
		const char *v;
		long long s = 0, ns = 0;
		if (n < 0 ||
		    (link[n] = '\0', strcmp(link, "anon_inode:[timerfd]")))
			continue;
		snprintf(path, sizeof path, "/proc/%d/fdinfo/%s", (int)pid,
			 d->d_name);
		ok = sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) > 0 &&
		     (v = strstr(buf, "it_value: (")) &&
		     sscanf(v + 11, "%lld, %lld", &s, &ns) == 2 && !s && !ns;
	}
	closedir(dir);
	return ok;
}

/* No alarm of a process of the walk is due; the notes of processes no
 * longer in the box are dropped. */
static int no_alarms(struct sbx_sleeper *sl, long long now)
{
	size_t k = 0;
	int ok = 1;
	for (size_t i = 0; i < sl->na; i++) {
		struct alarm_note *a = &sl->a[i];
		int in = 0;
		for (size_t j = 0; j < sl->nprocs && !in; j++)
			in = sl->procs[j] == a->tgid;
		if (!in || (!a->every && a->due + ALARM_SLACK <= now))
			continue;
		ok = 0;
		sl->a[k++] = *a;
	}
	sl->na = k;
	return ok;
}

/* Whether the whole box waits, with nothing armed but the held sleeps:
 * this walk finds every task waiting, the same tasks as the last one,
 * none scheduled since. */
static int box_waits(struct sbx_sleeper *sl, pid_t init)
{
	int ok = 1;
	sl->ncur = sl->nprocs = 0;
	if (init > 0)
		sl->procs[sl->nprocs++] = init;
	for (size_t i = 0; ok && i < sl->nprocs; i++)
		ok = process_waits(sl, init, sl->procs[i]);
	if (!ok || sl->nprocs == TASKS_MAX || sl->ncur == 0) {
		sl->nlast = 0;
		return 0;
	}
	ok = sl->nlast == sl->ncur &&
	     memcmp(sl->last, sl->cur, sl->ncur * sizeof sl->cur[0]) == 0;
	memcpy(sl->last, sl->cur, sl->ncur * sizeof sl->cur[0]);
	sl->nlast = sl->ncur;
	for (size_t i = 1; ok && i < sl->nprocs; i++) /* init has none */
		ok = no_timers(sl->procs[i]);
	return ok && no_alarms(sl, mono_ns());
}

/* The box's time jumps to the earliest held deadline, and the sleeps due
 * then are answered: skipped. */
static void jump(struct sbx_notify *n, struct sbx_sleeper *sl)
{
	long long due = sl->h[0].due, by;
	for (size_t i = 1; i < sl->nh; i++)
		if (sl->h[i].due < due)
			due = sl->h[i].due;
	by = due - (mono_ns() + sl->jumped);
	if (by > 0) {
		sl->jumped += by;
		n->sleeps.ns += (uint64_t)by; /* 16 of the longest: no more */
		if (n->sleeps.ns > (uint64_t)LONGEST * 16)
			n->sleeps.ns = (uint64_t)LONGEST * 16;
		if ((uint64_t)by > n->sleeps.longest_ns)
			n->sleeps.longest_ns = (uint64_t)by;
	}
	settle(n, sl, 1);
	/* only differences count: the deadlines move back with the jumps,
	 * so that sleeps of years in a row never overflow */
	if (sl->jumped > LONGEST) {
		for (size_t i = 0; i < sl->nh; i++)
			sl->h[i].due -= sl->jumped;
		sl->jumped = 0;
	}
	sl->nlast = 0; /* the tasks answered run: look twice again */
}

/* A held task has a signal of its process pending: no jump before the
 * next look says whose it is. */
static int signal_waits(const struct sbx_sleeper *sl)
{
	for (size_t i = 0; i < sl->nh; i++)
		if (sl->h[i].shared)
			return 1;
	return 0;
}

void sbx_sleep_tick(struct sbx_notify *n, pid_t init, double now, double *next)
{
	struct sbx_sleeper *sl = n->sleeper;
	double soonest;
	if (!sl || sl->nh == 0 || n->fd < 0) {
		if (sl)
			sl->nlast = 0;
		return;
	}
	if (now >= sl->next) {
		sl->next = now + TICK;
		settle(n, sl, 0);
	}
	if (sl->nh > 0 && now >= sl->walk && !signal_waits(sl)) {
		if (box_waits(sl, init)) {
			jump(n, sl);
			sl->gap = TICK;
		} else if (sl->nlast == 0 && sl->gap < WALK_GAP) {
			sl->gap *= 2; /* busy: a first walk that found every
					 task waiting keeps the gap */
		}
		sl->walk = now + sl->gap;
	}
	if (sl->nh == 0)
		return;
	soonest = sl->next < sl->walk ? sl->next : sl->walk;
	for (size_t i = 0; i < sl->nh; i++) {
		double t =
		    now + (double)(sl->h[i].due - mono_ns() - sl->jumped) / 1e9;
		if (t < soonest)
			soonest = t;
	}
	if (*next < 0 || soonest < *next)
		*next = soonest;
}
