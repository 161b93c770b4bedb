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
 * A host file is one whose device is mounted in the supervisor's mount
 * namespace (its mountinfo, read before the box exists and again when a
 * device is not there): the box's own tmpfs, proc and mqueue instances are
 * mounted in the box's namespace only.  Only a regular file or a directory
 * of the box's own is locked: every anonymous inode (eventfd, epoll, a
 * timerfd) is one inode shared by the whole host, so a lock on it would
 * stall a host process that locks its own; those and every other file
 * (pipe, socket, device) get ENOLCK, as a host file does.
 *
 * A blocking request that would block waits here, unanswered, and is tried
 * again from the supervisor's loop (sbx_lock_retry) until it is granted or
 * the task is gone: the task waits killably (the box's end kills it).
 */
#include "lockguard.h"

#include "compat.h"
#include "job.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
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
	dev_t *dev; /* devices mounted in the supervisor's namespace */
	size_t ndev;
	int mounts; /* its mountinfo, polled for a change; -1: none */
	struct waiter *w;
	size_t nw, capw;
};

/* The devices of the supervisor's mountinfo into g (replacing the list);
 * 0 or -errno. */
static int read_devices(struct sbx_lockguard *g)
{
	char line[4096];
	unsigned maj, min;
	size_t n = 0, cap = 64;
	dev_t *dev = malloc(cap * sizeof *dev);
	FILE *f = fopen("/proc/self/mountinfo", "re");

	if (dev == NULL || f == NULL) {
		free(dev);
		if (f != NULL)
			fclose(f);
		return -ENOMEM;
	}
	while (fgets(line, sizeof line, f) != NULL) {
		if (sscanf(line, "%*u %*u %u:%u", &maj, &min) != 2)
			continue;
		if (n == cap) {
			dev_t *d = realloc(dev, 2 * cap * sizeof *dev);
			if (d == NULL)
				break;
			dev = d;
			cap *= 2;
		}
		dev[n++] = makedev(maj, min);
	}
	fclose(f);
	free(g->dev);
	g->dev = dev;
	g->ndev = n;
	return 0;
}

void sbx_lock_init(struct sbx_notify *n)
{
	struct sbx_lockguard *g = calloc(1, sizeof *g);
	/* opened before the read: a change between them is seen later */
	if (g != NULL)
		g->mounts = open("/proc/self/mountinfo", O_RDONLY | O_CLOEXEC);
	if (g != NULL && read_devices(g) < 0) {
		if (g->mounts >= 0)
			close(g->mounts);
		free(g);
		g = NULL;
	}
	n->lg = g;
}

void sbx_lock_close(struct sbx_notify *n)
{
	struct sbx_lockguard *g = n->lg;
	if (g == NULL)
		return;
	for (size_t i = 0; i < g->nw; i++)
		close(g->w[i].fd);
	free(g->w);
	free(g->dev);
	if (g->mounts >= 0)
		close(g->mounts);
	free(g);
	n->lg = NULL;
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

static int listed(const struct sbx_lockguard *g, dev_t dev)
{
	for (size_t i = 0; i < g->ndev; i++)
		if (g->dev[i] == dev)
			return 1;
	return 0;
}

/* Has the supervisor's mount table changed since it was last read?  (A
 * mountinfo file polls POLLPRI then, once.)  Unknown: yes. */
static int mounts_changed(const struct sbx_lockguard *g)
{
	struct pollfd p = {g->mounts, POLLPRI, 0};
	if (g->mounts < 0 || poll(&p, 1, 0) < 0)
		return 1;
	return (p.revents & (POLLPRI | POLLERR)) != 0;
}

/* May the box lock the open file fd?  Its own regular file or directory,
 * on a device the host does not mount (looked up again when missing and
 * the host's mounts have changed since). */
static int box_own(struct sbx_lockguard *g, int fd)
{
	struct stat st;
	if (g == NULL || fstat(fd, &st) != 0)
		return 0;
	if (!S_ISREG(st.st_mode) && !S_ISDIR(st.st_mode))
		return 0;
	if (listed(g, st.st_dev))
		return 0;
	if (!mounts_changed(g))
		return 1;
	return read_devices(g) == 0 && !listed(g, st.st_dev);
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

/* The request of req in w: the descriptor taken, fcntl's struct read;
 * 0, or the errno the call gets. */
static int take_request(const struct seccomp_notif *req, struct waiter *w)
{
	pid_t pid = (pid_t)req->pid;
	memset(w, 0, sizeof *w);
	w->id = req->id;
	w->nr = req->data.nr;
	w->op = (unsigned)req->data.args[1];
	/* the kernel reads an unsigned int: -1 and the like are no
	 * descriptor */
	if ((int)(uint32_t)req->data.args[0] < 0)
		return EBADF;
	w->fd = sbx_task_fd(pid, (uint32_t)req->data.args[0]);
	if (w->fd < 0) /* no such descriptor; or not taken: no lock */
		return errno == EBADF ? EBADF : ENOLCK;
	if (w->nr == SYS_fcntl &&
	    sbx_task_mem(pid, req->data.args[2], &w->fl, sizeof w->fl) < 0)
		return EFAULT;
	return 0;
}

void sbx_lock_handle(struct sbx_notify *n, const struct seccomp_notif *req)
{
	struct waiter w;
	int r = -take_request(req, &w);

	/* what was taken belongs to this call only if the task still waits
	 * in it */
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0) {
		if (w.fd >= 0)
			close(w.fd);
		return;
	}
	if (r == 0 && !box_own(n->lg, w.fd))
		r = -ENOLCK;
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
