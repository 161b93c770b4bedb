/* SPDX-License-Identifier: MIT */
/*
 * notify.c: the explain channel, the supervisor's side of seccomp user
 * notification.
 *
 * A profile action "notify" makes the kernel hold the calling thread and
 * queue the call on a listener descriptor.  The command's process creates
 * the listener as its last act (child.c step: SECCOMP_FILTER_FLAG_NEW_
 * LISTENER, after it said which descriptor number the listener would get);
 * the supervisor takes it with pidfd_getfd (it owns the box's user
 * namespace, or is the host's root: ptrace-mode access holds), and the
 * step's execve, notified by the hand-over gate before the profile's
 * program (spec.c gate_filter), waits for that.  From then on every notified
 * call is read here: its arguments from the task's memory, the notification's
 * id checked again after reading, a relative path named against the task's cwd
 * or dirfd; decided by the box's table, then its rule (a callback its
 * owner installs: box.c, whose rule is Lua's; event.c); answered.
 *
 * Trust boundary (the TOCTOU of user notification): what the supervisor
 * reads is a name for the report, not a decision's input the kernel will
 * honour.  Another thread of the program may rewrite the path or the
 * address between the read and the kernel's own read after a CONTINUE.
 * So CONTINUE is given only where the enforcement stays with the walls
 * that do not depend on it: the mounts and Landlock for paths (an open's,
 * and a delete's, rename's or attribute change's, whose f* variants are
 * named by the descriptor's /proc link: a name, not the file), the empty
 * network namespace (and Landlock's ports) for addresses, the namespaces
 * for process creation.  A refusal is safe either way (the call does not
 * run).  The notification names; the walls enforce.  Names read here
 * (readlink of /proc/<pid>/cwd and fd links) are never followed.
 */
#include "notify.h"
#include "kept.h"

#include "compat.h"
#include "digest.h"
#include "fileio.h"
#include "inspect.h"
#include "lockguard.h"
#include "pidfd.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

#define NS_FLAGS                                                               \
	(CLONE_NEWNS | CLONE_NEWCGROUP | CLONE_NEWUTS | CLONE_NEWIPC |         \
	 CLONE_NEWUSER | CLONE_NEWPID | CLONE_NEWNET)
#define CLONE_NEWTIME_UNSHARE 0x00000080 /* in clone it is CSIGNAL */
#define SBX_COMM_LEN 16 /* TASK_COMM_LEN: PR_SET_NAME takes 15 bytes */

static const char *const kinds[SBX_EV_COUNT] = {
    "open",	 "exec",  "connect", "bind",	"send",
    "clone",	 "mmap",  "ptrace",  "delete",	"rename",
    "attribute", "memfd", "signal",  "protect", "syscall"};

const char *sbx_event_kind(int kind)
{
	return kind >= 0 && kind < SBX_EV_COUNT ? kinds[kind] : "syscall";
}

const char *sbx_answer_name(int answer)
{
	return answer == SBX_ANS_ALLOW	? "allow"
	       : answer == SBX_ANS_DENY ? "deny"
					: "stop";
}

/* memfds held by this process for all its boxes (a batch runs many at
 * once): each held descriptor is one of sbxlua's own */
#define SBX_MEMFDS_HELD 256
static size_t memfds_held;
/* ... and the pidfds of seen tasks (box_ids) */
#define SBX_SEEN_HELD 256
static size_t seen_held;

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* Linux 6.9: a pidfd of a thread */
#endif

void sbx_notify_init(struct sbx_notify *n)
{
	memset(n, 0, sizeof *n);
	n->fd = n->pidfd = n->want = -1;
	for (int i = 0; i < SBX_SEEN; i++)
		n->seen[i].pidfd = -1;
	sbx_lock_init(n); /* no place of the box's own yet: init sends them */
	sbx_scripts_init(&n->scripts);
}

void sbx_notify_close(struct sbx_notify *n)
{
	if (n->fd >= 0)
		close(n->fd);
	if (n->pidfd >= 0)
		close(n->pidfd);
	n->fd = n->pidfd = -1;
	for (int i = 0; i < SBX_SEEN; i++)
		if (n->seen[i].pidfd >= 0) {
			close(n->seen[i].pidfd);
			n->seen[i].pidfd = -1;
			seen_held--;
		}
	sbx_evlog_free(&n->log);
	for (size_t i = 0; i < n->nmemfd; i++)
		close(n->memfd[i]);
	memfds_held -= n->nmemfd;
	free(n->memfd);
	n->memfd = NULL;
	n->nmemfd = 0;
	free(n->payload);
	n->payload = NULL;
	n->npayload = 0;
	sbx_lock_close(n);
	sbx_sleep_close(n);
	sbx_scripts_free(&n->scripts);
}

/* Is fd a seccomp listener (1), the step's own pidfd still there (0), or
 * something else (-1)?  (Its anon inode's name.) */
static int is_listener(int fd)
{
	char path[64], name[64];
	ssize_t r;
	snprintf(path, sizeof path, "/proc/self/fd/%d", fd);
	r = readlink(path, name, sizeof name - 1);
	if (r <= 0)
		return -1;
	name[r] = '\0';
	if (strcmp(name, "anon_inode:seccomp notify") == 0)
		return 1;
	return strcmp(name, "anon_inode:[pidfd]") == 0 ? 0 : -1;
}

int sbx_notify_take(struct sbx_notify *n)
{
	int fd;
	uint64_t f = SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP;

	if (n->fd >= 0)
		return 1;
	if (n->pidfd < 0 || n->want < 0)
		return -1;
	/* the step is a few system calls from its filter when it announces:
	 * a few yields may find the listener there; else the loop looks
	 * again 50 us later (loop.c, NOTIFY_RETRY) */
	for (int tries = 0;; tries++) {
		fd = (int)syscall(SYS_pidfd_getfd, n->pidfd, n->want, 0);
		if (fd >= 0) {
			int l = is_listener(fd);
			if (l != 0)
				break;
			close(fd);
			fd = -1;
			errno = EBADF;
		}
		if (fd < 0 && errno != EBADF)
			break;
		if (tries == 8)
			break;
		sched_yield();
	}
	if (fd < 0) {
		/* the slot is still free: the step has not loaded the filter
		 * yet (it announced the number just before) */
		if (errno == EBADF)
			return 0;
		n->err = errno;
		n->want = -1;
		return -1;
	}
	/* the slot holds the step's pidfd until it closes it after the
	 * announcement, then nothing, then the listener: the step takes no
	 * other descriptor before the filter */
	switch (is_listener(fd)) {
	case 0:
		close(fd);
		return 0;
	case -1:
		close(fd);
		n->err = EBADFD;
		n->want = -1;
		return -1;
	default:
		break;
	}
	n->fd = fd;
	close(n->pidfd);
	n->pidfd = -1;
	/* the supervisor answers on the CPU the program waits on */
	n->sync = ioctl(fd, SECCOMP_IOCTL_NOTIF_SET_FLAGS, f) == 0;
	return 1;
}

/* ---- reading the task ---- */

/* Reads a NUL-terminated string at addr of pid into buf (size > 1), page
 * by page (a string may end just before an unmapped page), and a longer
 * one as its first size - 1 bytes; returns its length (size - 1: at
 * least that), or -EFAULT (a string that runs into an unreadable page:
 * the kernel's answer too). */
static long read_long(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	size_t got = 0;
	buf[0] = '\0';
	if (addr == 0)
		return -EFAULT;
	while (got + 1 < size) {
		size_t page = 4096 - ((addr + got) & 4095);
		size_t want = size - 1 - got < page ? size - 1 - got : page;
		struct iovec l = {buf + got, want};
		struct iovec r = {(void *)(uintptr_t)(addr + got), want};
		ssize_t k = process_vm_readv(pid, &l, 1, &r, 1, 0);
		char *nul;
		if (k <= 0) {
			buf[0] = '\0';
			return -EFAULT;
		}
		nul = memchr(buf + got, '\0', (size_t)k);
		if (nul)
			return (long)(nul - buf);
		got += (size_t)k;
	}
	buf[got] = '\0';
	return (long)got;
}

/* read_long, for a string the call takes whole: 0, -EFAULT, or
 * -ENAMETOOLONG for one longer than buf (never a prefix that would name
 * another path).  The box controls the bytes. */
static int read_str(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	long l = read_long(pid, addr, buf, size);
	if (l < 0)
		return (int)l;
	if ((size_t)l == size - 1) {
		buf[0] = '\0';
		return -ENAMETOOLONG;
	}
	return 0;
}

long sbx_task_str(pid_t pid, uint64_t addr, char *buf, size_t size)
{
	return read_long(pid, addr, buf, size);
}

int sbx_task_mem(pid_t pid, uint64_t addr, void *buf, size_t size)
{
	struct iovec l = {buf, size};
	struct iovec r = {(void *)(uintptr_t)addr, size};
	if (addr == 0)
		return -EFAULT;
	return process_vm_readv(pid, &l, 1, &r, 1, 0) == (ssize_t)size
		   ? 0
		   : -EFAULT;
}

/* A task's process id in the box (the last NStgid of its status, read in
 * its /proc directory dfd: a thread's events are its process's), how many
 * pid namespaces it is seen in (NStgid's entries) and its parent's host
 * pid (PPid); 0 when its status cannot be read. */
static int status_ids(int dfd, int *levels, pid_t *ppid)
{
	char buf[4096], *s;
	*levels = 0;
	*ppid = 0;
	if (dfd < 0 || sbx_read_once_at(dfd, "status", 0, buf, sizeof buf) <= 0)
		return 0;
	s = strstr(buf, "\nPPid:");
	if (s)
		*ppid = (pid_t)strtol(s + 6, NULL, 10);
	s = strstr(buf, "\nNStgid:");
	return s ? sbx_pid_list_last(s + 8, levels) : 0;
}

/*
 * The task's process id in the box into e->pid, and its parent's into
 * e->ppid as the kernel names it, each through a pidfd (pidfd.h), never a
 * bare number: the task's status in its /proc directory (opened while its
 * pidfd still names host: its PPid, a host pid), a pidfd of that parent,
 * then the task's status again.  A parent that exits is replaced as the
 * task's parent (reparenting) before its number is freed, so an unchanged
 * PPid means the parent's pidfd, taken in between, is the parent's own;
 * its pid in the box is its fdinfo's (NSpid), read through that pidfd.
 * The parent is the box's only if it is seen in as many pid namespaces
 * (the box's init's parent is not: 0).
 */
static void read_ids(pid_t host, int pidfd, struct sbx_event *e)
{
	int levels, plevels = 0, again, parent = 0;
	int dfd = sbx_pidfd_proc(pidfd, host), pfd = -1;
	pid_t phost, now;

	e->pid = status_ids(dfd, &levels, &phost);
	e->ppid = 0;
	if (e->pid && phost > 0)
		pfd = sbx_pidfd_open(phost);
	if (pfd >= 0 && status_ids(dfd, &again, &now) == e->pid && now == phost)
		parent = sbx_pidfd_nspid(pfd, &plevels);
	if (parent && plevels == levels)
		e->ppid = parent;
	if (pfd >= 0)
		close(pfd);
	if (dfd >= 0)
		close(dfd);
}

/* Does the pidfd's task still live (its pidfd not readable)? */
static int alive(int pidfd)
{
	struct pollfd p = {pidfd, POLLIN, 0};
	return pidfd >= 0 && poll(&p, 1, 0) == 0;
}

/*
 * The task's ids (read_ids), kept while it lives: a task seen before whose
 * pidfd says it lives has the ids read then (its parent when first seen,
 * as the tree wants it); any other is read now through a pidfd of its tid
 * opened first, so that what was read is that task's.  The caller checks
 * the notification's id afterwards: the task is the one that made the
 * call.  The pidfd is kept while the task lives, up to SBX_SEEN_HELD for
 * the whole process (a batch's boxes together); past that the ids are
 * read all the same, and not kept.
 */
static void box_ids(struct sbx_notify *n, pid_t host, struct sbx_event *e)
{
	struct sbx_seen *s;
	int fd;
	for (int i = 0; i < SBX_SEEN; i++) {
		s = &n->seen[i];
		if (s->host == host && alive(s->pidfd)) {
			e->pid = s->pid;
			e->ppid = s->ppid;
			return;
		}
	}
	fd = sbx_pidfd_open(host);
	read_ids(host, fd, e);
	s = &n->seen[n->nseen++ % SBX_SEEN];
	if (s->pidfd >= 0) {
		close(s->pidfd);
		seen_held--;
	}
	s->pidfd = -1;
	if (fd >= 0 && (!e->pid || !alive(fd) || seen_held >= SBX_SEEN_HELD)) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0)
		seen_held++;
	*s = (struct sbx_seen){host, e->pid, e->ppid, fd};
}

static int64_t since_ms(double start);

/* For lockguard.c (lockguard.h): a refusal's time and ids, then the
 * event kept. */
void sbx_notify_name(struct sbx_notify *n, pid_t pid, struct sbx_event *e)
{
	e->time_ms = since_ms(n->start);
	box_ids(n, pid, e);
}

void sbx_notify_record(struct sbx_notify *n, const struct sbx_event *e)
{
	sbx_evlog_add(&n->log, e);
}

/* Milliseconds since start (CLOCK_MONOTONIC seconds), never negative. */
static int64_t since_ms(double start)
{
	struct timespec ts;
	double now;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	now = (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
	return now > start ? (int64_t)((now - start) * 1000) : 0;
}

void sbx_clean_path(char *p)
{
	char *out = p, *in = p;
	while (*in) {
		while (*in == '/')
			in++;
		if (!*in)
			break;
		char *e = strchr(in, '/');
		size_t len = e ? (size_t)(e - in) : strlen(in);
		if (len == 1 && in[0] == '.') {
		} else if (len == 2 && in[0] == '.' && in[1] == '.') {
			while (out > p && *--out != '/')
				;
		} else {
			*out++ = '/';
			memmove(out, in, len);
			out += len;
		}
		in += len;
	}
	if (out == p)
		*out++ = '/';
	*out = '\0';
}

/*
 * The path argument at addr, named against dirfd (AT_FDCWD: the cwd) of
 * the task; a name for the report, never opened.  Read whole (up to the
 * kernel's PATH_MAX: a longer one fails the call anyway), cleaned, then
 * kept cut when longer than out (sbx_event_cut): returns its whole length
 * then, else 0.  "?" only for a path that cannot be read at all.
 */
static size_t read_path(pid_t pid, int dirfd, uint64_t addr, char *out,
			size_t size)
{
	char rel[SBX_PATH_READ + 1], full[2 * SBX_PATH_READ + 2], link[64];
	long l = read_long(pid, addr, rel, sizeof rel);
	ssize_t r = -1;
	if (l < 0) {
		snprintf(out, size, "?");
		return 0;
	}
	if (rel[0] != '/') {
		if (dirfd == AT_FDCWD)
			snprintf(link, sizeof link, "/proc/%d/cwd", (int)pid);
		else
			snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid,
				 dirfd);
		r = readlink(link, full, SBX_PATH_READ);
	}
	if (r > 0 && full[0] == '/') {
		full[r] = '/';
		memcpy(full + r + 1, rel, (size_t)l + 1);
	} else {
		memcpy(full, rel, (size_t)l + 1);
	}
	if (full[0] == '/')
		sbx_clean_path(full);
	return sbx_event_cut(out, size, full, strlen(full));
}

/* The name of the task's descriptor fd (the f* variants: fchmod, fchown,
 * fsetxattr, ...), as its /proc link reads from outside; never followed.
 * The kernel reads an fd argument as a 32-bit int and ignores the upper
 * bits, so the name is that of the low 32 (a program that sets the upper
 * ones changes the same file, and must not hide its name behind "?"). */
static size_t fd_path(pid_t pid, uint64_t fd, char *out, size_t size)
{
	char link[64], name[SBX_PATH_READ + 1];
	ssize_t r;
	fd &= 0xffffffff;
	if (fd > 0x7fffffff) {
		snprintf(out, size, "?");
		return 0;
	}
	snprintf(link, sizeof link, "/proc/%d/fd/%d", (int)pid, (int)fd);
	r = readlink(link, name, sizeof name - 1);
	if (r <= 0) {
		snprintf(out, size, "?");
		return 0;
	}
	/* a name as long as the buffer: kept cut, its length at least that */
	return sbx_event_cut(out, size, name, (size_t)r);
}

/* The kernel's bound on one argument (MAX_ARG_STRLEN: 32 pages). */
#define ARG_MAX_LEN (32 * 4096)

/* Argument i of the exec's list at addr into e->argv: whole when it fits,
 * else cut (sbx_event_cut, its whole length in argv_cut_len) into what is
 * left; 1 stored whole, 0 the end of the list, -1 stopped (cut, or not
 * readable). */
static int read_arg(pid_t pid, uint64_t addr, int i, struct sbx_event *e)
{
	static void *kept; /* the supervisor runs one thread */
	char *s = sbx_kept(&kept, ARG_MAX_LEN + 1);
	size_t left = sizeof e->argv - e->argv_len;
	uint64_t p;
	long l;
	if (sbx_task_mem(pid, addr + 8 * (uint64_t)i, &p, sizeof p) < 0)
		return -1;
	if (p == 0)
		return 0;
	if (!s)
		return -1;
	l = read_long(pid, p, s, ARG_MAX_LEN + 1);
	if (l < 0)
		return -1;
	if ((size_t)l < left) {
		memcpy(e->argv + e->argv_len, s, (size_t)l + 1);
		e->argv_len += (size_t)l + 1;
		return 1;
	}
	if (left > 64) { /* room for a cut one: its head and tail */
		e->argv_cut_len =
		    sbx_event_cut(e->argv + e->argv_len, left, s, (size_t)l);
		e->argv_len += left;
	}
	return -1;
}

/* The exec's arguments, as many as fit (the last kept cut when it is too
 * long); argv_cut when the list read stops before its NULL (too many, too
 * long, unreadable: the box chooses), so that the list is never taken for
 * the whole. */
static void read_argv(pid_t pid, uint64_t addr, struct sbx_event *e)
{
	e->argv_len = 0;
	e->argv_cut = addr != 0;
	for (int i = 0; i < 64 && addr; i++) {
		int r = read_arg(pid, addr, i, e);
		if (r <= 0) {
			e->argv_cut = r < 0;
			return;
		}
	}
	if (addr) { /* 64 read: whole if the next is the NULL */
		uint64_t p;
		if (sbx_task_mem(pid, addr + 8 * 64, &p, sizeof p) == 0 &&
		    p == 0)
			e->argv_cut = 0;
	}
}

/* "ip:port" of a socket address in the task's memory; 0 or -1. */
static int read_addr(pid_t pid, uint64_t addr, uint64_t len,
		     struct sbx_event *e)
{
	struct sockaddr_storage ss;
	char ip[INET6_ADDRSTRLEN];
	if (addr == 0 || len < sizeof(sa_family_t))
		return -1;
	if (len > sizeof ss)
		len = sizeof ss;
	memset(&ss, 0, sizeof ss);
	if (sbx_task_mem(pid, addr, &ss, (size_t)len) < 0)
		return -1;
	e->family = ss.ss_family;
	if (ss.ss_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		const struct sockaddr_in *in = (const void *)&ss;
		inet_ntop(AF_INET, &in->sin_addr, ip, sizeof ip);
		snprintf(e->addr, sizeof e->addr, "%s:%u", ip,
			 ntohs(in->sin_port));
	} else if (ss.ss_family == AF_INET6 &&
		   len >= sizeof(struct sockaddr_in6)) {
		const struct sockaddr_in6 *in6 = (const void *)&ss;
		inet_ntop(AF_INET6, &in6->sin6_addr, ip, sizeof ip);
		snprintf(e->addr, sizeof e->addr, "[%s]:%u", ip,
			 ntohs(in6->sin6_port));
	} else if (ss.ss_family == AF_UNIX) {
		const struct sockaddr_un *un = (const void *)&ss;
		size_t l = (size_t)len - offsetof(struct sockaddr_un, sun_path);
		int abstract = l > 0 && un->sun_path[0] == '\0';
		const char *name = un->sun_path + abstract;
		size_t nl;
		if (l > sizeof un->sun_path)
			l = sizeof un->sun_path; /* the kernel's cap */
		nl = abstract ? l - 1 : strnlen(un->sun_path, l);
		/* a name that does not fit, or an abstract one with a NUL in
		 * it, is "?": never a prefix that would name another socket */
		if (nl + 2 > sizeof e->addr ||
		    (abstract && memchr(name, '\0', nl)))
			snprintf(e->addr, sizeof e->addr, "%s?",
				 abstract ? "@" : "");
		else
			snprintf(e->addr, sizeof e->addr, "%s%.*s",
				 abstract ? "@" : "", (int)nl, name);
	} else {
		snprintf(e->addr, sizeof e->addr, "family %d", ss.ss_family);
	}
	return 0;
}

/* ---- deciding ---- */

static int under(const char *path, const char *dir)
{
	size_t l = strlen(dir);
	while (l > 1 && dir[l - 1] == '/')
		l--;
	if (l == 1 && dir[0] == '/')
		return 1;
	return strncmp(path, dir, l) == 0 &&
	       (path[l] == '\0' || path[l] == '/');
}

/* Is path under none of the prefixes list (a list given)? */
static int outside(const char *const *list, size_t n, const char *path)
{
	int out = list != NULL;
	for (size_t i = 0; i < n && out; i++)
		out = !under(path, list[i]);
	return out;
}

/* Is path outside what an open may name: under no prefix of open and
 * equal to no entry of open_exact (either list given)? */
static int outside_open(const struct sbx_notify_spec *s, const char *path)
{
	if (!s->open && !s->open_exact)
		return 0;
	if (s->open && !outside(s->open, s->nopen, path))
		return 0;
	for (size_t i = 0; i < s->nopen_exact; i++)
		if (strcmp(path, s->open_exact[i]) == 0)
			return 0;
	return 1;
}

/* Does the table hold paths (a path kept cut is then outside them)? */
static int is_list(const struct sbx_notify_spec *s)
{
	return s->change || s->open || s->open_exact;
}

/* ... of the paths a delete, rename or attribute change may name */
static int outside_change(const struct sbx_notify_spec *s, const char *path)
{
	return s->change ? outside(s->change, s->nchange, path)
			 : outside_open(s, path);
}

/* fchmodat2 (Linux 6.6): libseccomp's number, as the toolchain's headers
 * may not have it; -1 when libseccomp does not know it either. */
static int nr_fchmodat2(void)
{
	static int nr = -2;
	if (nr == -2) {
		nr = seccomp_syscall_resolve_name("fchmodat2");
		if (nr < 0)
			nr = -1;
	}
	return nr;
}

/* e is a call of this kind on the path at addr (against dirfd): 1. */
static int on_path(pid_t pid, struct sbx_event *e, int kind, int dirfd,
		   uint64_t addr)
{
	e->kind = kind;
	e->path_len = read_path(pid, dirfd, addr, e->path, sizeof e->path);
	return 1;
}

/* e is a call of this kind on the file open as fd in the task: 1. */
static int on_fd(pid_t pid, struct sbx_event *e, int kind, uint64_t fd)
{
	e->kind = kind;
	e->path_len = fd_path(pid, fd, e->path, sizeof e->path);
	return 1;
}

/* The file calls that change what is on disk: a delete, a rename or an
 * attribute change, named as an open is (the path against the cwd or
 * dirfd; an f* variant's descriptor by its /proc link).  0: not one. */
static int describe_file(pid_t pid, const struct seccomp_data *d,
			 struct sbx_event *e)
{
	const __u64 *a = d->args;
	int nr = d->nr;
	if (nr == nr_fchmodat2())
		nr = SYS_fchmodat;
	switch (nr) {
	case SYS_unlink:
	case SYS_rmdir:
		return on_path(pid, e, SBX_EV_DELETE, AT_FDCWD, a[0]);
	case SYS_unlinkat:
		e->flags = a[2];
		return on_path(pid, e, SBX_EV_DELETE, (int)a[0], a[1]);
	case SYS_rename:
		e->to_len = read_path(pid, AT_FDCWD, a[1], e->to, sizeof e->to);
		return on_path(pid, e, SBX_EV_RENAME, AT_FDCWD, a[0]);
	case SYS_renameat:
	case SYS_renameat2:
		e->to_len =
		    read_path(pid, (int)a[2], a[3], e->to, sizeof e->to);
		e->flags = nr == SYS_renameat2 ? a[4] : 0;
		return on_path(pid, e, SBX_EV_RENAME, (int)a[0], a[1]);
	case SYS_chmod:
	case SYS_chown:
	case SYS_lchown:
	case SYS_utime:
	case SYS_utimes:
	case SYS_setxattr:
	case SYS_lsetxattr:
	case SYS_removexattr:
	case SYS_lremovexattr:
		return on_path(pid, e, SBX_EV_ATTRIBUTE, AT_FDCWD, a[0]);
	case SYS_fchmod:
	case SYS_fchown:
	case SYS_fsetxattr:
	case SYS_fremovexattr:
		return on_fd(pid, e, SBX_EV_ATTRIBUTE, a[0]);
	case SYS_fchmodat:
	case SYS_fchownat:
	case SYS_futimesat:
	case SYS_utimensat:
		/* utimensat(fd, NULL, ...) is futimens(fd) */
		if (nr == SYS_utimensat && a[1] == 0)
			return on_fd(pid, e, SBX_EV_ATTRIBUTE, a[0]);
		return on_path(pid, e, SBX_EV_ATTRIBUTE, (int)a[0], a[1]);
	default:
		return 0;
	}
}

/* Whether the comparison c holds for the arguments a (libseccomp's
 * semantics: 64-bit, unsigned; MASKED_EQ is (arg & datum_a) == datum_b). */
static int cmp_holds(const struct sbx_arg_cmp *c, const __u64 *a)
{
	uint64_t v = a[c->arg];
	switch (c->op) {
	case SCMP_CMP_NE:
		return v != c->a;
	case SCMP_CMP_LT:
		return v < c->a;
	case SCMP_CMP_LE:
		return v <= c->a;
	case SCMP_CMP_EQ:
		return v == c->a;
	case SCMP_CMP_GE:
		return v >= c->a;
	case SCMP_CMP_GT:
		return v > c->a;
	case SCMP_CMP_MASKED_EQ:
		return (v & c->a) == c->b;
	default:
		return 1; /* unknown: refuse rather than let through */
	}
}

/* The errno of the profile's first named refusal whose comparisons all
 * hold for this call, else 0.  The arguments are the registers the
 * notification carries, the very values the filter compared: no race. */
static int filter_errno(const struct sbx_notify_spec *s,
			const struct seccomp_data *d)
{
	for (size_t i = 0; i < s->nerrnos; i++) {
		const struct sbx_notify_errno *r = &s->errnos[i];
		unsigned k = 0;
		if (r->nr != d->nr)
			continue;
		while (k < r->ncmp && cmp_holds(&r->cmp[k], d->args))
			k++;
		if (k == r->ncmp)
			return r->err;
	}
	return 0;
}

/* An open's path and flags (openat2's from its struct open_how). */
static void describe_open(pid_t pid, const struct seccomp_data *d,
			  struct sbx_event *e)
{
	const __u64 *a = d->args;
	int at = d->nr == SYS_openat || d->nr == SYS_openat2;
	on_path(pid, e, SBX_EV_OPEN, at ? (int)a[0] : AT_FDCWD,
		at ? a[1] : a[0]);
	if (d->nr == SYS_open)
		e->flags = a[1];
	else if (d->nr == SYS_openat)
		e->flags = a[2];
	else if (d->nr == SYS_creat)
		e->flags = O_CREAT | O_WRONLY | O_TRUNC;
	else if (sbx_task_mem(pid, a[2], &e->flags, sizeof e->flags) < 0)
		e->flags = 0;
}

/* A copy of descriptor fd of task pid (pidfd_getfd), or -1.  The caller
 * closes it at once; its ID_VALID check that follows says whether the
 * task is still the one that made the call. */
int sbx_task_fd(pid_t pid, uint64_t fd)
{
	int copy, pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	/* a thread that does not lead its group: ENOENT on 6.18 (EINVAL on
	 * earlier kernels); PIDFD_THREAD (O_EXCL, 6.9) takes it */
	if (pidfd < 0 && (errno == ENOENT || errno == EINVAL))
		pidfd = (int)syscall(SYS_pidfd_open, pid, O_EXCL);
	if (pidfd < 0 || fd > 0x7fffffff)
		return pidfd < 0 ? -1 : (close(pidfd), -1);
	copy = (int)syscall(SYS_pidfd_getfd, pidfd, (int)fd, 0);
	close(pidfd);
	return copy;
}

/* The type of the socket at descriptor fd of task pid (SOCK_STREAM,
 * SOCK_DGRAM, ...); 0 when it cannot be told. */
static int sock_type(pid_t pid, uint64_t fd)
{
	int type = 0, copy = sbx_task_fd(pid, fd);
	socklen_t len = sizeof type;
	if (copy < 0)
		return 0;
	if (getsockopt(copy, SOL_SOCKET, SO_TYPE, &type, &len) != 0)
		type = 0;
	close(copy);
	return type;
}

/* The most of an executed memfd the supervisor reads to hash it: the box's
 * file-size limit's default (docs/limits.md); past it, no hash.  And the
 * most it hashes over a run: a program that execs a memfd in a loop must
 * not keep the supervisor reading (its CPU is no box's). */
#define MEMFD_HASH_MAX ((off_t)64 << 20)
#define MEMFD_HASH_RUN ((uint64_t)256 << 20)

/* The copy of the descriptor an exec names (exec_memfd), taken before the
 * notification's id is checked, read by hash_memfd after it; -1: none.
 * One at a time: the loop handles one notification at a time. */
static int exec_copy = -1;

/* The device of a memfd of sbxlua's own: every memfd of shmem lies on the
 * kernel's one internal mount; 0 when it cannot be told. */
static dev_t memfd_dev(void)
{
	static dev_t dev;
	struct stat st;
	int fd;
	if (dev)
		return dev;
	fd = (int)syscall(SYS_memfd_create, "sbx-probe", MFD_CLOEXEC);
	if (fd >= 0 && fstat(fd, &st) == 0)
		dev = st.st_dev;
	if (fd >= 0)
		close(fd);
	return dev;
}

/* Is the descriptor copy a memfd?  From the file itself: its device is
 * the memfds' (a hugetlb memfd: its file system and name), and its own
 * link says "/memfd:" (name, its size bytes, takes that link). */
static int is_memfd(int copy, char *name, size_t size)
{
	char link[64];
	struct stat st;
	struct statfs sf;
	ssize_t r;
	snprintf(link, sizeof link, "/proc/self/fd/%d", copy);
	r = readlink(link, name, size - 1);
	if (r <= 7 || (size_t)r >= size - 1 || fstat(copy, &st) < 0 ||
	    !S_ISREG(st.st_mode))
		return 0;
	name[r] = '\0';
	if (strncmp(name, "/memfd:", 7) != 0)
		return 0;
	if (memfd_dev() && st.st_dev == memfd_dev())
		return 1;
	return fstatfs(copy, &sf) == 0 && sf.f_type == HUGETLBFS_MAGIC;
}

/* The descriptor an exec runs, by its own arguments: execveat(fd, "",
 * AT_EMPTY_PATH), or a path through the descriptor's magic link
 * (/proc/self/fd/N, /proc/thread-self/fd/N, /dev/fd/N; execveat's only
 * when absolute).  -1: the exec names a path, not a descriptor. */
static int exec_fd(pid_t pid, const struct seccomp_data *d,
		   const struct sbx_event *e)
{
	char raw[SBX_EVENT_PATH];
	unsigned fd = 0;
	int n = 0;
	if (d->nr == SYS_execveat) {
		if (read_str(pid, d->args[1], raw, sizeof raw) < 0)
			return -1;
		if (raw[0] == '\0')
			return d->args[4] & AT_EMPTY_PATH &&
				       (unsigned)d->args[0] <= 0x7fffffff
				   ? (int)(unsigned)d->args[0]
				   : -1;
		if (raw[0] != '/')
			return -1; /* relative to a directory: a path */
	}
	if ((sscanf(e->path, "/proc/self/fd/%u%n", &fd, &n) == 1 ||
	     sscanf(e->path, "/proc/thread-self/fd/%u%n", &fd, &n) == 1 ||
	     sscanf(e->path, "/dev/fd/%u%n", &fd, &n) == 1) &&
	    e->path[n] == '\0' && fd <= 0x7fffffff)
		return (int)fd;
	return -1;
}

/* An exec of a memfd (a fileless program): recorded only when the file
 * the exec runs is one, from the descriptor itself (a copy taken now,
 * through a pidfd opened before the notification's id is checked: a pid
 * reused after the check is never read), never from a name the program
 * chose ("/memfd:x" as a path is a path).  Its name made the exec's path;
 * the descriptor's number, or -1 when the exec is not of a memfd. */
static int exec_memfd(pid_t pid, const struct seccomp_data *d,
		      struct sbx_event *e)
{
	char name[SBX_EVENT_PATH];
	int fd = exec_fd(pid, d, e), copy;
	sbx_close_fd(&exec_copy); /* a check that failed left its copy */
	if (fd < 0 || (copy = sbx_task_fd(pid, (uint64_t)fd)) < 0)
		return -1;
	if (!is_memfd(copy, name, sizeof name)) {
		close(copy);
		return -1;
	}
	memcpy(e->path, name, sizeof name);
	exec_copy = copy;
	return fd;
}

static struct sbx_payload *payload_of(const struct sbx_notify *n,
				      const char *sha256)
{
	for (size_t i = 0; i < n->npayload; i++)
		if (strcmp(n->payload[i].sha256, sha256) == 0)
			return &n->payload[i];
	return NULL;
}

void sbx_notify_typed(const struct sbx_notify *n, struct sbx_event *e)
{
	const struct sbx_payload *p;
	if (e->kind != SBX_EV_EXEC || e->memfd < 0 || e->type[0] ||
	    !e->sha256[0] || !(p = payload_of(n, e->sha256)))
		return;
	memcpy(e->type, p->type, sizeof e->type);
	memcpy(e->mime, p->mime, sizeof e->mime);
}

/* The worker's answer for payload idx of the run (ctx). */
static void memfd_typed(void *ctx, size_t idx, const char *type,
			const char *mime)
{
	struct sbx_notify *n = ctx;
	if (idx >= n->npayload)
		return;
	snprintf(n->payload[idx].type, sizeof n->payload[idx].type, "%s", type);
	snprintf(n->payload[idx].mime, sizeof n->payload[idx].mime, "%s", mime);
}

const struct sbx_hash_hex *sbx_notify_hashes(const struct sbx_notify *n,
					     const struct sbx_event *e)
{
	const struct sbx_payload *p;
	if (e->kind != SBX_EV_EXEC || e->memfd < 0 || !e->sha256[0] ||
	    !(p = payload_of(n, e->sha256)))
		return NULL;
	return &p->hx;
}

/* Records an executed memfd's payload (its hashes, hx), once per payload
 * in a run, and types its head (len bytes) by the worker, against the
 * run's budget (an exec of a payload recorded before takes the same
 * answer when the events are pushed). */
static void add_memfd(struct sbx_notify *n, const void *head, size_t len,
		      const struct sbx_hash_hex *hx)
{
	struct sbx_payload *p;
	if (payload_of(n, hx->sha256) || n->npayload >= SBX_PAYLOADS_MAX)
		return;
	p = realloc(n->payload, (n->npayload + 1) * sizeof *p);
	if (!p)
		return;
	n->payload = p;
	p += n->npayload;
	memset(p, 0, sizeof *p);
	memcpy(p->sha256, hx->sha256, sizeof p->sha256);
	p->hx = *hx;
	n->npayload++;
	if (n->spec->filetype && n->insp)
		sbx_inspect_submit(n->insp, head, len, memfd_typed, n,
				   n->npayload - 1);
}

/* The payload of an executed memfd: its sha256 and size, read from the
 * copy exec_memfd took with pread (the task's offset is not moved),
 * within the run's budget (n->hashed), with its other hashes (hashes.h);
 * its type asked of the worker from the first read (add_memfd), the
 * event's until it answers.  What is
 * hashed is what the memfd held at the call: another thread of the
 * program could write to it before the kernel reads it, which the docs
 * say. */
/* --keep: the copy of an executed memfd's payload, made as it is hashed,
 * under the keep directory's memfd/ (0700): written as memfd/.part, named
 * memfd/<sha256> once whole (keep_memfd_end).  The keep directory is
 * sbxlua's (0700, held by descriptor since before the box existed); the
 * box names nothing here.  The copy's descriptor and *dir, or -1. */
static int keep_memfd_open(const struct sbx_notify *n, int *dir)
{
	int kfd = n->cap && n->cap->spec ? n->cap->spec->keep_fd : -1;
	int fd;
	*dir = -1;
	if (kfd < 0 || (mkdirat(kfd, "memfd", 0700) < 0 && errno != EEXIST))
		return -1;
	*dir = openat(kfd, "memfd",
		      O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (*dir < 0)
		return -1;
	fd =
	    openat(*dir, ".part",
		   O_WRONLY | O_CREAT | O_TRUNC | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0) {
		close(*dir);
		*dir = -1;
	}
	return fd;
}

/* Ends a copy keep_memfd_open began: named by sha256 when whole (ok),
 * else removed. */
static void keep_memfd_end(int fd, int dir, int ok, const char *sha256)
{
	if (fd < 0)
		return;
	if (close(fd) < 0)
		ok = 0;
	if (!ok || renameat(dir, ".part", dir, sha256) < 0)
		unlinkat(dir, ".part", 0);
	close(dir);
}

/* Writes all of buf to fd; 0, or -1 (the copy is dropped). */
static int write_all(int fd, const unsigned char *buf, size_t len)
{
	while (len > 0) {
		ssize_t w = write(fd, buf, len);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		buf += w;
		len -= (size_t)w;
	}
	return 0;
}

static void hash_memfd(struct sbx_notify *n, struct sbx_event *e)
{
	static unsigned char buf[1 << 16], head[SBX_MAGIC_BYTES];
	struct sbx_hashes h;
	struct sbx_hash_hex hx;
	size_t head_len = 0;
	off_t at = 0;
	ssize_t r;
	int copy = exec_copy, kept, kdir, keep_ok = 1;

	exec_copy = -1;
	if (copy < 0)
		return;
	if (n->hashed >= MEMFD_HASH_RUN) {
		close(copy);
		return;
	}
	sbx_hashes_init(&h);
	kept = keep_memfd_open(n, &kdir);
	while (at <= MEMFD_HASH_MAX &&
	       (r = pread(copy, buf, sizeof buf, at)) > 0) {
		if (at == 0) /* the head, to type */
			memcpy(head, buf, head_len = (size_t)r);
		sbx_hashes_update(&h, buf, (size_t)r);
		if (kept >= 0 && write_all(kept, buf, (size_t)r) < 0)
			keep_ok = 0;
		at += r;
	}
	close(copy);
	n->hashed += (uint64_t)at;
	if (at > MEMFD_HASH_MAX) {
		keep_memfd_end(kept, kdir, 0, NULL);
		sbx_hashes_free(&h);
		return; /* hashed and typed only when read whole */
	}
	sbx_hashes_final(&h, &hx);
	keep_memfd_end(kept, kdir, keep_ok, hx.sha256);
	memcpy(e->sha256, hx.sha256, sizeof e->sha256);
	e->size = (uint64_t)at;
	add_memfd(n, head, head_len, &hx);
}

/* A connect, bind or sendto with its address; returns whether the table
 * refuses it (a send without an address, on a connected socket, never). */
static int describe_net(pid_t pid, const struct seccomp_data *d,
			const struct sbx_notify_spec *s, struct sbx_event *e,
			int *err)
{
	const __u64 *a = d->args;
	int refuse;
	e->kind = d->nr == SYS_connect ? SBX_EV_CONNECT
		  : d->nr == SYS_bind  ? SBX_EV_BIND
				       : SBX_EV_SEND;
	if (d->nr == SYS_sendto ? read_addr(pid, a[4], a[5], e)
				: read_addr(pid, a[1], a[2], e))
		return 0;
	if (e->family == AF_INET || e->family == AF_INET6)
		e->socktype = sock_type(pid, a[0]);
	refuse = s->connect != NULL;
	for (size_t i = 0; i < s->nconnect && refuse; i++)
		refuse = strcmp(e->addr, s->connect[i]) != 0;
	if (e->family == AF_UNIX)
		refuse = 0; /* the mounts and Landlock hold paths */
	if (d->nr == SYS_connect)
		*err = strncmp(e->addr, "127.", 4) == 0 ||
			       strncmp(e->addr, "[::1]", 5) == 0
			   ? ECONNREFUSED
			   : ENETUNREACH;
	return refuse;
}

/* Calls named by what they do, with no table entry of their own: a memfd
 * made, a signal sent, memory made executable.  Refused as any other
 * notified call is (an allow-list that did not list them refuses them),
 * unless the table only watches.  0: not one. */
/* A task's argv[0] as it reads now from outside (/proc/PID/cmdline: the
 * bytes the program's own memory holds, which it may have rewritten since
 * its exec), into out; "" when unreadable.  The box controls the bytes:
 * they are cut at size - 1 and at their first NUL, never followed. */
static void task_argv0(pid_t pid, char *out, size_t size)
{
	char path[64];
	ssize_t r;
	int fd;

	out[0] = '\0';
	snprintf(path, sizeof path, "/proc/%d/cmdline", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW);
	if (fd < 0)
		return;
	r = read(fd, out, size - 1);
	close(fd);
	out[r > 0 ? r : 0] = '\0';
}

/* A prctl(PR_SET_NAME) (the profile notifies no other option): the new
 * name in path, as the kernel takes it (its first 15 bytes), and argv[0]
 * as the task's memory holds it now in to; a socket(): its family and
 * type (the profile notifies raw ones). */
static int describe_task_call(pid_t pid, const struct seccomp_data *d,
			      struct sbx_event *e)
{
	const __u64 *a = d->args;
	switch (d->nr) {
	case SYS_prctl:
		if (a[0] != PR_SET_NAME)
			return 0;
		if (read_long(pid, a[1], e->path, SBX_COMM_LEN) < 0)
			e->path[0] = '\0';
		task_argv0(pid, e->to, sizeof e->to);
		return 1;
	case SYS_socket:
		e->family = (int)a[0];
		e->socktype = (int)(a[1] & 0xf);
		return 1;
	case SYS_mknod: /* the node's path and mode (type and permissions) */
		if (read_str(pid, a[0], e->path, sizeof e->path) < 0)
			e->path[0] = '\0';
		e->flags = a[1];
		return 1;
	default:
		return 0;
	}
}

static int describe_watched(pid_t pid, const struct seccomp_data *d,
			    struct sbx_event *e)
{
	const __u64 *a = d->args;
	switch (d->nr) {
	case SYS_memfd_create:
		e->kind = SBX_EV_MEMFD;
		if (read_str(pid, a[0], e->path, sizeof e->path) < 0)
			e->path[0] = '\0';
		e->flags = a[1];
		return 1;
	case SYS_kill:
	case SYS_tkill:
		e->kind = SBX_EV_SIGNAL;
		e->target = (int64_t)(int)a[0];
		e->sig = (int)a[1];
		return 1;
	case SYS_tgkill:
		e->kind = SBX_EV_SIGNAL;
		e->target = (int64_t)(int)a[1];
		e->sig = (int)a[2];
		return 1;
	case SYS_mprotect:
		e->kind = SBX_EV_PROTECT;
		e->size = a[1];
		e->flags = a[2];
		return 1;
	default:
		return 0;
	}
}

/* An exec's working directory, in e->to (an exec has no new name): the
 * task's cwd link as it reads from outside; a name, never followed. */
static void exec_cwd(pid_t pid, struct sbx_event *e)
{
	char link[64], cwd[SBX_PATH_READ + 1];
	ssize_t r;
	snprintf(link, sizeof link, "/proc/%d/cwd", (int)pid);
	r = readlink(link, cwd, sizeof cwd - 1);
	if (r > 0 && cwd[0] == '/')
		e->to_len = sbx_event_cut(e->to, sizeof e->to, cwd, (size_t)r);
	else
		e->to[0] = '\0';
}

/* Whether the file an exec names is there to run, looked up as the
 * kernel will, inside the box: from the task's root (/proc/<pid>/root,
 * whose pid the caller checks is still this call's), no link out of it
 * or through /proc's magic links followed, opened O_PATH (nothing of the
 * file is read, no device or FIFO opened).  0: a regular file with an
 * execute bit; an errno when the exec cannot succeed (the path is the
 * one read: a thread that rewrites it after the read meets the kernel's
 * own answer); -1: not looked up (a path kept cut, or not absolute). */
static int exec_lookup(pid_t pid, const struct sbx_event *e)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC,
			       .resolve =
				   RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS};
	char root[64];
	struct stat st;
	int rfd, fd, err;

	if (e->memfd >= 0)
		return 0;
	if (e->path_len || e->path[0] != '/')
		return -1;
	snprintf(root, sizeof root, "/proc/%d/root", (int)pid);
	rfd = open(root, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (rfd < 0)
		return -1;
	fd = sbx_openat2(rfd, e->path, &how);
	err = fd < 0 ? errno : 0;
	close(rfd);
	if (fd < 0)
		return err == ENOENT || err == ENOTDIR || err == ELOOP ||
			       err == ENAMETOOLONG || err == EACCES
			   ? err
			   : -1;
	err = fstat(fd, &st) < 0 ? -1 : 0;
	close(fd);
	if (err == 0 && (!S_ISREG(st.st_mode) || !(st.st_mode & 0111)))
		err = EACCES;
	return err;
}

/* An execve or execveat: its path, argv, memfd and working directory. */
static void describe_exec(pid_t pid, const struct seccomp_data *d,
			  struct sbx_event *e)
{
	const __u64 *a = d->args;

	if (d->nr == SYS_execve) {
		on_path(pid, e, SBX_EV_EXEC, AT_FDCWD, a[0]);
		read_argv(pid, a[1], e);
	} else {
		on_path(pid, e, SBX_EV_EXEC, (int)a[0], a[1]);
		read_argv(pid, a[2], e);
	}
	e->memfd = exec_memfd(pid, d, e);
	exec_cwd(pid, e);
	e->exec_err = exec_lookup(pid, e);
}

/* A new process or namespace; returns whether it asks for a namespace
 * (refused). */
static int describe_clone(pid_t pid, const struct seccomp_data *d,
			  struct sbx_event *e)
{
	const __u64 *a = d->args;

	e->kind = SBX_EV_CLONE;
	if (d->nr == SYS_clone || d->nr == SYS_unshare)
		e->flags = a[0];
	else if (d->nr == SYS_clone3 &&
		 sbx_task_mem(pid, a[0], &e->flags, sizeof e->flags) < 0)
		e->flags = 0;
	e->ns = (int)(e->flags &
		      (NS_FLAGS |
		       (d->nr == SYS_unshare ? CLONE_NEWTIME_UNSHARE : 0)));
	return e->ns != 0;
}

/* A call with no case of its own in describe: a file change checked
 * against the table's paths, a watched call, or any other. */
static int describe_other(pid_t pid, const struct seccomp_data *d,
			  const struct sbx_notify_spec *s, struct sbx_event *e,
			  int *err)
{
	if (describe_file(pid, d, e)) {
		/* the table's paths; the errnos a program meets without the
		 * right (to the directory; to the inode) */
		/* a rename's new name is checked even when empty (unread, or
		 * named against a descriptor with no path): an unnamed
		 * target is refused, as a path */
		*err = e->kind == SBX_EV_ATTRIBUTE ? EPERM : EACCES;
		return outside_change(s, e->path) ||
		       (e->kind == SBX_EV_RENAME && outside_change(s, e->to)) ||
		       (is_list(s) && (e->path_len || e->to_len));
	}
	if (!describe_watched(pid, d, e)) {
		e->kind = SBX_EV_SYSCALL;
		e->a0 = d->args[0];
		describe_task_call(pid, d, e);
	}
	return !s->watch;
}

/* Reads the call into e; returns whether the table refuses it, and in
 * *err the errno a refusal answers with; *held is set when the refusal is
 * the profile's own (a named errno rule): it holds in every mode. */
static int describe(pid_t pid, const struct seccomp_data *d,
		    const struct sbx_notify_spec *s, struct sbx_event *e,
		    int *err, int *held)
{
	const __u64 *a = d->args;
	int refuse = 0;

	e->nr = d->nr;
	*err = EPERM;
	switch (d->nr) {
	case SYS_open:
	case SYS_creat:
	case SYS_openat:
	case SYS_openat2:
		describe_open(pid, d, e);
		/* a path kept cut names no file a list could hold */
		refuse = outside_open(s, e->path) ||
			 (e->path_len && (s->open || s->open_exact));
		*err = EACCES;
		break;
	case SYS_execve:
	case SYS_execveat:
		describe_exec(pid, d, e);
		*err = EACCES;
		break;
	case SYS_connect:
	case SYS_bind:
	case SYS_sendto:
		refuse = describe_net(pid, d, s, e, err);
		break;
	case SYS_clone:
	case SYS_clone3:
	case SYS_fork:
	case SYS_vfork:
	case SYS_unshare:
		refuse = describe_clone(pid, d, e);
		break;
	case SYS_mmap:
		e->kind = SBX_EV_MMAP;
		e->size = a[1];
		e->flags = a[2];
		refuse = s->mmap_cap && a[1] > s->mmap_cap;
		*err = ENOMEM;
		break;
	case SYS_ptrace:
		e->kind = SBX_EV_PTRACE;
		e->flags = a[0];
		/* watched (the analysis box): let through, as any watched
		 * call; a table that lists it refuses it in every mode but
		 * log */
		refuse = !s->watch;
		break;
	default:
		refuse = describe_other(pid, d, s, e, err);
		break;
	}
	*held = filter_errno(s, d);
	if (*held) {
		refuse = 1;
		*err = *held;
	}
	return refuse;
}

/* A task's host ids (fsuid, fsgid: the ids its files get), from the
 * fourth field of its status file's Uid: and Gid: lines; 0 or -1. */
static int task_fsids(pid_t pid, uid_t *uid, gid_t *gid)
{
	char path[64], buf[4096];
	const char *u, *g;
	unsigned long a, b, c, d, e, f, h, k;
	ssize_t r;
	int fd;
	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	r = read(fd, buf, sizeof buf - 1);
	close(fd);
	if (r <= 0)
		return -1;
	buf[r] = '\0';
	u = strstr(buf, "\nUid:");
	g = strstr(buf, "\nGid:");
	if (!u || !g ||
	    sscanf(u, "\nUid: %lu %lu %lu %lu", &a, &b, &c, &d) != 4 ||
	    sscanf(g, "\nGid: %lu %lu %lu %lu", &e, &f, &h, &k) != 4)
		return -1;
	*uid = (uid_t)d;
	*gid = (gid_t)k;
	return 0;
}

/*
 * A memfd_create let through: the supervisor makes the memfd and puts it
 * in the task as the call's result (SECCOMP_IOCTL_NOTIF_ADDFD with
 * SECCOMP_ADDFD_FLAG_SEND, Linux 5.14), keeping a descriptor of its own,
 * so that the sampler counts its pages: a memfd written and never mapped
 * is in no process's memory and no mount of the box (docs/limits.md).
 * It is made with the task's own file ids (the box sees it as its own),
 * its name and flags as asked; the pages are charged to whoever writes
 * them.  Held until the run ends: a memfd the box closed still counts (on
 * the side of the limit).  Returns 0 (answered); an errno the call gets
 * as the kernel would give it (a name it cannot read, flags it refuses:
 * the call was let through and failed); or -EMFILE, a refusal of
 * sbxlua's: past SBX_MEMFDS_MAX memfds a run, or SBX_MEMFDS_HELD in all
 * (each held memfd is a descriptor of sbxlua's).
 * Its name and the task's ids are read by pid after the notification's id
 * was checked: what vouches for them is the ADDFD that follows, which
 * succeeds only while the task still waits in this call (a task that
 * waits has lived, its pid its own, through the reads); when it fails the
 * memfd made from them is closed, never handed to anyone.
 */
static int answer_memfd(struct sbx_notify *n, const struct seccomp_notif *req)
{
	struct seccomp_notif_addfd add;
	char name[250];
	unsigned flags = (unsigned)req->data.args[1];
	uid_t uid, ouid;
	gid_t gid, ogid;
	int fd, *grown, rc;

	if (n->nmemfd >= SBX_MEMFDS_MAX || memfds_held >= SBX_MEMFDS_HELD)
		return -EMFILE;
	rc = read_str(req->pid, req->data.args[0], name, sizeof name);
	if (rc < 0) /* the kernel: EFAULT, or EINVAL for a name too long */
		return rc == -ENAMETOOLONG ? EINVAL : EFAULT;
	if (task_fsids(req->pid, &uid, &gid) < 0)
		return ESRCH;
	/* the name and the ids were read by pid: they are the task's only
	 * if it still waits in this call after the reads (a pid freed and
	 * reused meanwhile would lend another process's fsuid to the memfd) */
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) < 0)
		return ESRCH;
	grown = realloc(n->memfd, (n->nmemfd + 1) * sizeof *n->memfd);
	if (!grown)
		return ENOMEM;
	n->memfd = grown;
	ogid = (gid_t)setfsgid(gid);
	ouid = (uid_t)setfsuid(uid);
	fd = (int)syscall(SYS_memfd_create, name, flags | MFD_CLOEXEC);
	rc = fd < 0 ? errno : 0;
	setfsuid(ouid);
	setfsgid(ogid);
	if (fd < 0)
		return rc;
	memset(&add, 0, sizeof add);
	add.id = req->id;
	add.flags = SECCOMP_ADDFD_FLAG_SEND;
	add.srcfd = (unsigned)fd;
	add.newfd_flags = flags & MFD_CLOEXEC ? O_CLOEXEC : 0;
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ADDFD, &add) < 0) {
		rc = errno == ENOENT ? 0 : errno; /* ENOENT: the task is gone */
		close(fd);
		return rc;
	}
	n->memfd[n->nmemfd++] = fd;
	memfds_held++;
	return 0;
}

uint64_t sbx_notify_memfd_bytes(const struct sbx_notify *n)
{
	uint64_t sum = 0;
	struct stat st;
	for (size_t i = 0; i < n->nmemfd; i++)
		if (fstat(n->memfd[i], &st) == 0)
			sum += (uint64_t)st.st_blocks * 512;
	return sum;
}

/* Answers a task's notification: CONTINUE, or the errno err. */
static void send_answer(struct sbx_notify *n, uint64_t id, int ans, int err)
{
	struct seccomp_notif_resp resp;
	memset(&resp, 0, sizeof resp);
	resp.id = id;
	if (ans == SBX_ANS_ALLOW)
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	else
		resp.error = -err;
	ioctl(n->fd, SECCOMP_IOCTL_NOTIF_SEND, &resp); /* ENOENT: it died */
}

/* The budgets: a creation or an exec the table lets through counts, and
 * the one past the budget is refused (EAGAIN: what fork gets at
 * RLIMIT_NPROC, and execve's own there; e->limit set); the hand-over's
 * own execve, before the program, is not the program's.  Returns whether
 * the call is over a budget. */
static int over_budget(struct sbx_notify *n, int nr, struct sbx_event *e)
{
	if (e->kind == SBX_EV_CLONE && nr != SYS_unshare &&
	    ++n->ntasks > n->spec->tasks && n->spec->tasks) {
		e->limit = n->spec->tasks;
		return 1;
	}
	if (e->kind == SBX_EV_EXEC && !n->first_exec) {
		n->first_exec = 1;
		return 0;
	}
	if (e->kind == SBX_EV_EXEC && ++n->nexecs > n->spec->execs &&
	    n->spec->execs) {
		e->limit = n->spec->execs;
		return 1;
	}
	return 0;
}

/* The answer to a described call: the table's, in the box's mode, then
 * the Lua rule's where the box has one. */
static int decide(struct sbx_notify *n, int refuse, int held,
		  struct sbx_event *e)
{
	int ans;
	held = held || e->limit;
	if (!refuse)
		ans = SBX_ANS_ALLOW;
	else if (held || n->spec->mode != SBX_MODE_LOG)
		/* the profile's own refusal (its errno) and a budget hold in
		 * every mode; log mode lets the rest through, recorded */
		ans = n->spec->mode == SBX_MODE_STOP ? SBX_ANS_STOP
						     : SBX_ANS_DENY;
	else
		ans = SBX_ANS_ALLOW;
	if (n->rule && !n->stopped) {
		int r;
		e->answer = ans;
		r = n->rule(n->rule_ctx, e, n->rule_error,
			    sizeof n->rule_error);
		/* a rule lifts neither the profile's errno refusals nor a
		 * budget */
		if (r >= 0 && !(r == SBX_ANS_ALLOW && held))
			ans = r;
	}
	return ans;
}

/* The calls answered aside from the event path, in order, like init's
 * stages: an entry whose match takes the call answers it (handle gives
 * SBX_ANS_*, or -1 to leave it to the event path after all).  Nothing
 * here is an event or a refusal. */
static int is_stopped(const struct sbx_notify *n, const struct seccomp_data *d)
{
	(void)d;
	return n->stopped;
}

/* the box is being killed for a stop: nothing more is answered */
static int stopped(struct sbx_notify *n, const struct seccomp_notif *req)
{
	(void)n;
	(void)req;
	return SBX_ANS_STOP;
}

static int is_lock(const struct sbx_notify *n, const struct seccomp_data *d)
{
	return n->spec->locks && sbx_lock_call(d);
}

/* a lock: answered by lockguard.c */
static int lock(struct sbx_notify *n, const struct seccomp_notif *req)
{
	sbx_lock_handle(n, req);
	return SBX_ANS_ALLOW;
}

static int is_gate(const struct sbx_notify *n, const struct seccomp_data *d)
{
	return d->nr == SYS_execve && !n->spec->exec_events && !n->gate_seen;
}

/* the hand-over's execve (spec.c gate_filter) of a profile that does not
 * notify execve: let through, nothing read */
static int gate(struct sbx_notify *n, const struct seccomp_notif *req)
{
	n->gate_seen = 1;
	send_answer(n, req->id, SBX_ANS_ALLOW, 0);
	return SBX_ANS_ALLOW;
}

static int is_sleep(const struct sbx_notify *n, const struct seccomp_data *d)
{
	(void)n;
	return sbx_sleep_call(d);
}

/* a sleep the analysis box holds (sleep.c answers it), or lets run; a
 * timer set, noted and let run; else the event path's */
static int sleep_or_timer(struct sbx_notify *n, const struct seccomp_notif *req)
{
	int r = sbx_sleep_check(n, req);
	if (r == SBX_SLEEP_NOT)
		return -1;
	if (r == SBX_SLEEP_RUN)
		send_answer(n, req->id, SBX_ANS_ALLOW, 0);
	return SBX_ANS_ALLOW;
}

static const struct {
	int (*match)(const struct sbx_notify *n, const struct seccomp_data *d);
	int (*handle)(struct sbx_notify *n, const struct seccomp_notif *req);
} asides[] = {
    {is_stopped, stopped},
    {is_lock, lock},
    {is_gate, gate},
    {is_sleep, sleep_or_timer},
};

/* The answer of a call answered aside (asides[]), or -1 */
static int answered_aside(struct sbx_notify *n, const struct seccomp_notif *req)
{
	for (size_t i = 0; i < sizeof asides / sizeof asides[0]; i++)
		if (asides[i].match(n, &req->data))
			return asides[i].handle(n, req);
	return -1;
}

int sbx_notify_handle(struct sbx_notify *n)
{
	struct seccomp_notif req;
	struct sbx_event e;
	int refuse, err, ans, held, failed = 0, answered = 0;
	pid_t pid;

	memset(&req, 0, sizeof req);
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0)
		return SBX_ANS_ALLOW; /* gone meanwhile (ENOENT), or EINTR */
	n->calls++;
	if ((ans = answered_aside(n, &req)) >= 0)
		return ans;
	pid = (pid_t)req.pid;
	memset(&e, 0, sizeof e);
	e.time_ms = since_ms(n->start);
	refuse = describe(pid, &req.data, n->spec, &e, &err, &held);
	box_ids(n, pid, &e);
	/* what was read (the call, the ids) belongs to this call only if the
	 * task still waits in it: a task killed and its pid reused would
	 * give another's */
	if (ioctl(n->fd, SECCOMP_IOCTL_NOTIF_ID_VALID, &req.id) < 0) {
		sbx_close_fd(&exec_copy); /* an exec's memfd copy, if taken */
		return SBX_ANS_ALLOW;
	}
	if (e.kind == SBX_EV_EXEC && e.memfd >= 0)
		hash_memfd(n, &e);
	if (!refuse && over_budget(n, req.data.nr, &e)) {
		refuse = 1;
		err = EAGAIN;
	}
	ans = decide(n, refuse, held, &e);
	/* a memfd let through is made here, and counted (answer_memfd):
	 * answered already; or failed as the kernel would fail it (the
	 * answer stays "allow", the errno goes to the task); or refused */
	if (ans == SBX_ANS_ALLOW && req.data.nr == SYS_memfd_create) {
		failed = answer_memfd(n, &req);
		answered = failed == 0;
		if (failed < 0) {
			ans = SBX_ANS_DENY;
			err = -failed;
		}
	}
	e.answer = ans;
	e.err = ans == SBX_ANS_DENY ? err : 0;
	e.keep = e.kind == SBX_EV_OPEN && n->spec->keep &&
		 !outside(n->spec->keep, n->spec->nkeep, e.path);
	sbx_evlog_add(&n->log, &e);
	if (ans == SBX_ANS_STOP) {
		/* left unanswered: the caller kills the box, and the task
		 * never returns from the call */
		if (!n->stopped) {
			n->stopped = 1;
			n->stop_ev = e;
			n->stop_ev.count = 1;
		}
		return SBX_ANS_STOP;
	}
	/* a script an interpreter runs, taken while it waits (script.c) */
	if (ans == SBX_ANS_ALLOW && e.kind == SBX_EV_EXEC)
		sbx_script_exec(&n->scripts, n->fd, &req, &e);
	else if (ans == SBX_ANS_ALLOW && e.kind == SBX_EV_OPEN)
		sbx_script_open(&n->scripts, n->fd, &req, &e);
	if (failed > 0) /* let through, failed: the kernel's own errno */
		send_answer(n, req.id, SBX_ANS_DENY, failed);
	else if (!answered)
		send_answer(n, req.id, ans, err);
	return ans;
}

int sbx_notify_wait_killable(void)
{
	static int known = -1;
	if (known < 0) {
		/* the flags are checked before the program is copied in: a
		 * NULL program is EFAULT with flags the kernel takes */
		long r = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				 SECCOMP_FILTER_FLAG_NEW_LISTENER |
				     SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV,
				 NULL);
		known = r < 0 && errno == EFAULT;
	}
	return known;
}

int sbx_notify_probe(char *why, size_t size)
{
	struct seccomp_notif_sizes sz;
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &sz) != 0) {
		snprintf(why, size, "SECCOMP_GET_NOTIF_SIZES: %s",
			 strerror(errno));
		return 0;
	}
	why[0] = '\0';
	return 1;
}
