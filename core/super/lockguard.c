/* SPDX-License-Identifier: MIT */
/*
 * lockguard.c: no lock of the box on a host file.
 *
 * A lock the box takes on a file the host shares with it (an --ro or --rw
 * bind, the program, anything on a host file system) stalls every host
 * process that locks the same file: a service's lock file, a database.
 * So flock and fcntl's lock commands (F_SETLK, F_SETLKW, F_OFD_SETLK,
 * F_OFD_SETLKW) never run in the box: the filter's lock prefix (filter.c)
 * sends each to the supervisor, whatever the profile says of the call,
 * and they are answered here.  Leases (F_SETLEASE) are the profiles'
 * refusal (EPERM, profiles/default.lua), never granted.
 *
 * Trust boundary (the race of user notification): the descriptor number
 * the call names is the program's, and another thread may dup2 a host file
 * onto it between a check and a CONTINUE.  So the answer is never
 * CONTINUE: the supervisor takes the open file itself (pidfd_getfd: the
 * same open file description, not a name), fstat()s THAT file and, when
 * it may be locked, locks it itself, on the copy it checked.  A flock and
 * an OFD lock belong to the open file description, so the box's own
 * descriptor holds the lock as if it had taken it.  A classic POSIX lock
 * (F_SETLK, F_SETLKW) belongs to the process, which the supervisor is not:
 * it is taken as the equivalent OFD lock on the same open file (the
 * semantic difference is docs/seccomp.md's, "Locks").
 *
 * The box may lock only a file it provably owns: a regular file or a
 * directory on one of its own tmpfs places (an allow-list, never a
 * deny-list of the host's devices: a nested btrfs subvolume, an overlay's
 * layers, nsfs and every anonymous inode have devices no mount lists).
 * Init opens each place inside the box once the tree is built, leaving
 * out one a later mount covers (handover.c own_tmpfs), and hands them
 * over (SBX_MSG_LOCKS, control.c) before the command exists (trusted as
 * init's: the command never holds the control socket, close-on-exec, and
 * only the first such message is taken); each is kept
 * here if it is a tmpfs, by its device, the descriptor held so that the
 * device number is not freed and given to another file system while the
 * box runs.  Everything else (a host file however it reached the box,
 * /proc/self/ns/net under --net host, a memfd, a pipe, a socket, an
 * eventfd: one inode shared by the whole host) gets ENOLCK, what the
 * kernel answers when it cannot lock, and the refusal is recorded as an
 * event (the call, ENOLCK, the file's name in the box).
 *
 * A blocking request that would block waits here, unanswered, and is tried
 * again from the supervisor's loop (sbx_lock_retry) until it is granted or
 * the task is gone: the task waits killably (the box's end kills it).
 */
#include "lockguard.h"

#include "compat.h"
#include "fdpass.h"
#include "job.h"
#include "pidfd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef AUDIT_ARCH_X86_64
#include <linux/audit.h>
#endif

#define WAITERS_MAX 4096    /* blocking requests one box may have waiting */
#define RETRY_FIRST 0.001   /* seconds before a waiting lock is tried again */
#define RETRY_LONGEST 0.020 /* the longest pause between two tries */

/* A blocking request that would have blocked: the copy it was checked on. */
struct waiter {
	uint64_t id;
	int fd;		 /* the supervisor's copy of the box's open file */
	int nr;		 /* SYS_flock or SYS_fcntl */
	unsigned op;	 /* flock's operation, or fcntl's command */
	struct flock fl; /* fcntl: the request, read from the task */
	double at, pause;
};

struct sbx_lockguard {
	int place[SBX_LOCK_PLACES]; /* the box's own tmpfs places (init's) */
	dev_t dev[SBX_LOCK_PLACES]; /* the device of each */
	size_t nplaces;
	int taken; /* the places came: a second message is not init's */
	struct waiter *w;
	size_t nw, capw;
};

void sbx_lock_init(struct sbx_notify *n)
{
	n->lg = calloc(1, sizeof *n->lg);
}

void sbx_lock_close(struct sbx_notify *n)
{
	struct sbx_lockguard *g = n->lg;
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->nw; i++)
		close(g->w[i].fd);
	free(g->w);
	for (size_t i = 0; i < g->nplaces; i++)
		close(g->place[i]);
	free(g);
	n->lg = NULL;
}

void sbx_lock_take(struct sbx_notify *n, const struct cmsghdr *c)
{
	struct sbx_lockguard *g = n->lg;
	int fd[SBX_FDPASS_MAX];
	size_t nfd = sbx_cmsg_fds(c, fd, SBX_FDPASS_MAX);
	for (size_t i = 0; i < nfd; i++) {
		struct statfs sf;
		struct stat st;
		if (g != NULL && !g->taken && g->nplaces < SBX_LOCK_PLACES &&
		    fstatfs(fd[i], &sf) == 0 && sf.f_type == TMPFS_MAGIC &&
		    fstat(fd[i], &st) == 0) {
			g->dev[g->nplaces] = st.st_dev;
			g->place[g->nplaces++] = fd[i];
		} else {
			close(fd[i]);
		}
	}
	if (g != NULL)
		g->taken = 1;
}

int sbx_lock_call(const struct seccomp_data *d)
{
	unsigned cmd = (unsigned)d->args[1];
	if (d->arch != AUDIT_ARCH_X86_64)
		return 0;
	if (d->nr == SYS_flock)
		return 1;
	return d->nr == SYS_fcntl &&
	       (cmd == F_SETLK || cmd == F_SETLKW || cmd == F_OFD_SETLK ||
		cmd == F_OFD_SETLKW);
}

/* May the box lock the open file fd?  A regular file or a directory on
 * one of its own tmpfs places. */
static int box_own(const struct sbx_lockguard *g, int fd)
{
	struct stat st;
	if (g == NULL || fstat(fd, &st) != 0)
		return 0;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return 0;
	for (size_t i = 0; i < g->nplaces; i++)
		if (g->dev[i] == st.st_dev)
			return 1;
	return 0;
}

/* One try, never blocking: 0 granted, -EAGAIN (or -EACCES) held by
 * another, or the kernel's own -errno for the request. */
static int attempt(const struct waiter *w)
{
	struct flock fl = w->fl;
	if (w->nr == SYS_flock)
		return flock(w->fd, (int)(w->op | LOCK_NB)) == 0 ? 0 : -errno;
	if (w->op == F_SETLK || w->op == F_SETLKW)
		fl.l_pid = 0; /* the process's lock, as the open file's */
	return fcntl(w->fd, F_OFD_SETLK, &fl) == 0 ? 0 : -errno;
}

static int blocking(const struct waiter *w)
{
	if (w->nr == SYS_flock)
		return !(w->op & LOCK_NB);
	return w->op == F_SETLKW || w->op == F_OFD_SETLKW;
}

/* The call's result, in place of the kernel's: 0, or -err. */
static void answer(const struct sbx_notify *n, uint64_t id, int err)
{
	struct seccomp_notif_resp r;
	memset(&r, 0, sizeof r);
	r.id = id;
	r.error = err ? -err : 0;
	ioctl(n->fd, SECCOMP_IOCTL_NOTIF_SEND, &r); /* ENOENT: it died */
}

/* Keeps w waiting; 0, or -ENOLCK when no more may wait. */
static int keep_waiting(struct sbx_lockguard *g, const struct waiter *w)
{
	if (g->nw == g->capw) {
		size_t cap = g->capw ? 2 * g->capw : 8;
		struct waiter *m;
		if (cap > WAITERS_MAX)
			return -ENOLCK;
		m = realloc(g->w, cap * sizeof *m);
		if (m == NULL)
			return -ENOLCK;
		g->w = m;
		g->capw = cap;
	}
	g->w[g->nw++] = *w;
	return 0;
}

/* The request of req in w: the descriptor taken through pidfd (the
 * task's), fcntl's struct read; 0, or the errno the call gets. */
static int take_request(const struct seccomp_notif *req, int pidfd,
			struct waiter *w)
{
	uint32_t fd = (uint32_t)req->data.args[0];
	memset(w, 0, sizeof *w);
	w->id = req->id;
	w->nr = req->data.nr;
	w->op = (unsigned)req->data.args[1];
	w->fd = -1;
	/* the kernel reads an unsigned int: -1 and the like are no
	 * descriptor */
	if ((int)fd < 0)
		return EBADF;
	if (pidfd >= 0)
		w->fd = (int)syscall(SYS_pidfd_getfd, pidfd, (int)fd, 0);
	if (w->fd < 0) /* no such descriptor; or not taken: no lock */
		return pidfd >= 0 && errno == EBADF ? EBADF : ENOLCK;
	if (w->nr == SYS_fcntl &&
	    sbx_task_mem((pid_t)req->pid, req->data.args[2], &w->fl,
			 sizeof w->fl) < 0)
		return EFAULT;
	return 0;
}

/* The refusal of req as an event: the call, ENOLCK, the file's name in
 * the box (its descriptor's link, read through the pidfd's /proc
 * directory; never followed), the task's ids.  Before the id check. */
static void name_refusal(struct sbx_notify *n, const struct seccomp_notif *req,
			 int pidfd, struct sbx_event *e)
{
	char link[32];
	int dfd = sbx_pidfd_proc(pidfd, (pid_t)req->pid);
	ssize_t r = -1;
	memset(e, 0, sizeof *e);
	e->kind = SBX_EV_SYSCALL;
	e->answer = SBX_ANS_DENY;
	e->nr = req->data.nr;
	e->err = ENOLCK;
	e->flags = (uint32_t)req->data.args[1]; /* flock's op, fcntl's cmd */
	e->memfd = -1;
	snprintf(link, sizeof link, "fd/%u", (uint32_t)req->data.args[0]);
	if (dfd >= 0)
		r = readlinkat(dfd, link, e->path, sizeof e->path - 1);
	if (dfd >= 0)
		close(dfd);
	if (r > 0 && (size_t)r < sizeof e->path - 1)
		e->path[r] = '\0';
	else
		snprintf(e->path, sizeof e->path, "?");
	sbx_notify_name(n, (pid_t)req->pid, e);
}

void sbx_lock_handle(struct sbx_notify *n, const struct seccomp_notif *req)
{
	struct waiter w;
	struct sbx_event e;
	/* a pidfd first: once the id is checked, it is the caller's */
	int pidfd = sbx_pidfd_open((pid_t)req->pid);
	int r = -take_request(req, pidfd, &w), own = 0;

	if (r == 0 && !(own = box_own(n->lg, w.fd)))
		name_refusal(n, req, pidfd, &e);
	if (pidfd >= 0)
		close(pidfd);
	/* what was taken and read belongs to this call only if the task
	 * still waits in it */
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0) {
		if (w.fd >= 0)
			close(w.fd);
		return;
	}
	if (r == 0 && !own) {
		r = -ENOLCK;
		sbx_notify_record(n, &e);
	}
	if (r == 0)
		r = attempt(&w);
	if ((r == -EAGAIN || r == -EACCES) && blocking(&w)) {
		w.pause = RETRY_FIRST;
		w.at = sbx_now() + w.pause;
		r = keep_waiting(n->lg, &w);
		if (r == 0)
			return;
	}
	if (w.fd >= 0)
		close(w.fd);
	answer(n, req->id, -r);
}

/* Tries waiter i again: 1 when it is done with (answered or gone). */
static int retry_one(struct sbx_notify *n, struct waiter *w, double now)
{
	int r;
	if (now < w->at)
		return 0;
	if (n->fd < 0 || ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &w->id) < 0)
		return 1;
	r = attempt(w);
	if (r == -EAGAIN || r == -EACCES) {
		w->pause =
		    w->pause * 2 < RETRY_LONGEST ? w->pause * 2 : RETRY_LONGEST;
		w->at = now + w->pause;
		return 0;
	}
	answer(n, w->id, -r);
	return 1;
}

void sbx_lock_retry(struct sbx_notify *n, double now, double *next)
{
	struct sbx_lockguard *g = n->lg;
	size_t k = 0;
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->nw; i++) {
		if (retry_one(n, &g->w[i], now)) {
			close(g->w[i].fd);
			continue;
		}
		if (*next < 0 || g->w[i].at < *next)
			*next = g->w[i].at;
		g->w[k++] = g->w[i];
	}
	g->nw = k;
}
