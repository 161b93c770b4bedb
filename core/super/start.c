/* SPDX-License-Identifier: MIT */
/*
 * start.c: a job's start, in the sbxlua process.  The box's cgroup made or
 * not (and the memory backstop when none holds the limit), the bind
 * sources' trees opened, the box init cloned straight into its namespaces
 * with a pidfd (as the box's own id when the caller is root), the id maps
 * written from outside (the box cannot map a host id it does not hold),
 * the stdio pipes or pty, then go.  A start that fails leaves the job done
 * with end kind SBX_END_CANNOT and nothing of the box running.
 */
#include "super.h"

#include "compat.h"
#include "fileio.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/fsuid.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <termios.h>
#include <unistd.h>

void sbx_job_init(struct sbx_job *j)
{
	memset(j, 0, sizeof *j);
	j->pid = -1;
	j->pidfd = j->ctl = j->in = j->out[0] = j->out[1] = -1;
	j->plan_slot = -1;
	j->cmd_pidfd = j->exec_fd = -1;
	j->io.in_fd = -1;
	sbx_notify_init(&j->nt);
	j->last[0] = j->last[1] = '\n';
	sbx_cgroup_init(&j->cg);
	sbx_procev_init(&j->pe, sbx_keep_death, j);
	sbx_kmem_init(&j->kmem);
	sbx_sink_init(&j->sink, NULL);
}

/*
 * The cgroup base a box without a named one uses, probed once per process:
 * for root it may create <v2 mount>/sbxlua.  A named base was probed when
 * its spec was compiled (spec.c).
 */
const struct sbx_cgroup_base *sbx_cgroup_base(void)
{
	static struct sbx_cgroup_base auto_base;
	static int probed;
	if (!probed) {
		probed = 1;
		if (sbx_cgroup_probe(NULL, &auto_base) < 0)
			auto_base.usable = 0;
	}
	return auto_base.usable ? &auto_base : NULL;
}

/* A cgroup of the box's own, when a base is usable: the box is cloned
 * into it, so no instant of it runs outside; its limits are written first.
 * Without a base the box runs without one (the limits are then sampled).
 * This is where the way each limit is enforced is decided: the result
 * says it (box.c, push_enforcement). */
static void make_cgroup(struct sbx_job *j)
{
	const struct sbx_cgroup_base *b;
	struct sbx_cgroup_limits lim = {0, 0, 0, 0};
	int r;
	if (j->io.cgroup == SBX_CGMODE_NONE)
		return;
	b = j->io.cgroup == SBX_CGMODE_PATH ? j->io.cgroup_named
					    : sbx_cgroup_base();
	if (!b)
		return;
	lim.memory = j->io.memory_limit;
	lim.pids = j->io.task_limit;
	r = sbx_cgroup_create(b, &lim, &j->cg);
	if (r < 0) {
		j->cg_error = -r;
		j->cg_what = j->cg.what;
	} else {
		j->cg_base = b->path;
	}
}

/* A memory limit the cgroup does not hold is sampled: RLIMIT_DATA holds
 * one process between two samples (the spec's memory_backstop). */
static void memory_backstop(struct sbx_job *j, struct sbx_plan *cp)
{
	size_t i;
	if (!j->io.memory_backstop || (j->cg.limited & SBX_CG_MEMORY))
		return;
	for (i = 0; i < cp->nrlimits; i++)
		if (cp->rlimits[i].resource == RLIMIT_DATA)
			break;
	if (i == cp->nrlimits) {
		if (i == SBX_MAX_RLIMITS)
			return; /* (not reached: a place per resource) */
		cp->nrlimits++;
	}
	cp->rlimits[i].resource = RLIMIT_DATA;
	cp->rlimits[i].lim.rlim_cur = cp->rlimits[i].lim.rlim_max =
	    (rlim_t)j->io.memory_backstop;
	/* a mapping past it is refused by the kernel: notified, named */
	cp->gate_mmap = j->io.memory_backstop;
}

/*
 * The maps are written by the supervisor: only it holds the host ids (and,
 * for a root caller, CAP_SETUID over them).  An unprivileged caller must
 * deny setgroups before writing gid_map; a root caller leaves it allowed so
 * that init can drop the host's supplementary groups, then the box has no
 * capability to add any.
 */
static int write_maps(const struct sbx_plan *p, pid_t pid, int *stage)
{
	char path[64], map[64];
	int r;
	*stage = SBX_ST_SETGROUPS;
	if (!p->caller_root) {
		snprintf(path, sizeof path, "/proc/%d/setgroups", (int)pid);
		if ((r = sbx_write_at(AT_FDCWD, path, "deny")) < 0)
			return r;
	}
	*stage = SBX_ST_SETID;
	snprintf(path, sizeof path, "/proc/%d/gid_map", (int)pid);
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)p->gid,
		 (unsigned)p->host_gid);
	if ((r = sbx_write_at(AT_FDCWD, path, map)) < 0)
		return r;
	snprintf(path, sizeof path, "/proc/%d/uid_map", (int)pid);
	snprintf(map, sizeof map, "%u %u 1\n", (unsigned)p->uid,
		 (unsigned)p->host_uid);
	return sbx_write_at(AT_FDCWD, path, map);
}

/*
 * Trust boundary: a root caller's box runs as a host id of its own, and
 * its user namespace must be created by that id (below), so the box cannot
 * open its sources with the caller's rights.  The supervisor, which has
 * them, opens each bind's source for this run as a detached mount tree
 * (open_tree OPEN_TREE_CLONE, a copy the box can move into its own mount
 * namespace), following no symlink, and only if it is the file mount.c
 * recorded when the spec was compiled; the box attaches each tree as it is
 * (the kernel lets a process move a detached tree into its own mount
 * namespace, never clone one made elsewhere).  Returns 0 with *trees an
 * array of nmounts descriptors (-1 where none), or -errno with *bad the
 * mount's index.  *trees is NULL when this process may not clone a tree at
 * all (only a caller with CAP_SYS_ADMIN over its mount namespace may), or
 * has no memory for the array: then the child opens the sources itself, as
 * an unprivileged caller's does.
 */
static int open_trees(const struct sbx_plan *p, int **trees, int *bad)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC,
			       .resolve =
				   RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
	int *t = malloc((p->nmounts ? p->nmounts : 1) * sizeof(*t)), e = 0;
	*trees = NULL;
	if (!t)
		return 0;
	for (size_t i = 0; i < p->nmounts; i++)
		t[i] = -1;
	size_t first = p->nmounts;
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct sbx_mount *m = &p->mounts[i];
		struct stat st;
		int fd;
		if (m->op != SBX_OP_BIND || (m->flags & SBX_MOUNT_ABSENT))
			continue;
		if (first == p->nmounts)
			first = i;
		*bad = (int)i;
		fd = sbx_openat2(AT_FDCWD, m->src, &how);
		if (fd < 0) {
			if (errno == ENOENT && (m->flags & SBX_MOUNT_OPTIONAL))
				continue;
			e = errno;
			goto fail;
		}
		if (fstat(fd, &st) < 0)
			e = errno;
		else if (st.st_dev != m->src_dev || st.st_ino != m->src_ino)
			e = ESTALE; /* replaced since the spec was compiled */
		if (e) {
			close(fd);
			goto fail;
		}
		t[i] = sbx_open_tree(fd, "",
				     OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
					 AT_RECURSIVE | AT_EMPTY_PATH);
		e = t[i] < 0 ? errno : 0;
		close(fd);
		if (e == EPERM && i == first) {
			/* no CAP_SYS_ADMIN over this mount namespace (a root
			 * inside a user namespace that does not own it): the
			 * child opens the sources itself */
			free(t);
			*bad = -1;
			return 0;
		}
		if (e)
			goto fail;
		/* the box's flags on every mount of the copy before the box
		 * has it; private, so that nothing mounted under it in the box
		 * can propagate to the host's peers of the source */
		struct mount_attr a = {.attr_set = m->attr,
				       .propagation = MS_PRIVATE};
		if (sbx_mount_setattr(t[i], "", AT_EMPTY_PATH | AT_RECURSIVE,
				      &a) < 0) {
			e = errno;
			goto fail;
		}
	}
	*trees = t;
	return 0;
fail:
	for (size_t i = 0; i < p->nmounts; i++)
		if (t[i] >= 0)
			close(t[i]);
	free(t);
	return -e;
}

static void close_trees(int **t, size_t n)
{
	if (!*t)
		return;
	for (size_t i = 0; i < n; i++)
		if ((*t)[i] >= 0)
			close((*t)[i]);
	free(*t);
	*t = NULL;
}

/*
 * The clone of a root caller's box whose host id is not root.  The kernel
 * charges a user namespace's per-user counters (inotify instances, pending
 * signals, message queues, user namespaces...) at the host's level to the
 * id that created it: a namespace created by root would spend host root's
 * quotas.  So the supervisor clones with that id as its effective uid (raw
 * setresuid: this thread only, and sbxlua runs one), keeping uid 0 as real
 * and saved id to return to at once.  The effective capabilities drop for
 * the moment and come back from the permitted set; the change makes the
 * process undumpable, which is undone.  The clone enters the box's
 * cgroup (CLONE_INTO_CGROUP) with the effective capabilities raised again
 * from the permitted set for the call: the kernel checks the write access
 * to cgroup.procs with the cloning credentials, and moving the child there
 * afterwards costs a grace period of RCU in the kernel (milliseconds) per
 * box.  The box's own credentials are those of its new user namespace,
 * whatever the parent's effective set.  Where that clone is refused the
 * flag is dropped (ca->flags says so) and the child is moved there before
 * it is told to go.  Returns the clone's pid (0 in the box), or -errno.
 */
static long clone_as(struct clone_args *ca, uid_t id)
{
	int dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0), e;
	long r;
	if (syscall(SYS_setresuid, -1, id, -1) < 0) {
		/* an id our own namespace does not map: no map of the box
		 * could name it either, so the box cannot be made with it; the
		 * plain clone says why first (EINVAL from the map otherwise) */
		ca->flags &= ~(uint64_t)CLONE_INTO_CGROUP;
		if (errno != EINVAL)
			return -errno;
		r = sbx_clone3(ca);
		return r < 0 ? -errno : r;
	}
	r = -1;
	if (ca->flags & CLONE_INTO_CGROUP) {
		struct __user_cap_header_struct h = {
		    _LINUX_CAPABILITY_VERSION_3, 0};
		struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
		if (syscall(SYS_capget, &h, d) == 0) {
			for (int i = 0; i < _LINUX_CAPABILITY_U32S_3; i++)
				d[i].effective = d[i].permitted;
			if (syscall(SYS_capset, &h, d) == 0)
				r = sbx_clone3(ca);
		}
		if (r < 0)
			ca->flags &= ~(uint64_t)CLONE_INTO_CGROUP;
	}
	if (r < 0)
		r = sbx_clone3(ca);
	if (r == 0)
		return 0; /* the box: it keeps the host id */
	e = r < 0 ? errno : 0;
	if (syscall(SYS_setresuid, -1, 0, -1) < 0)
		abort(); /* cannot happen (uid 0 is the real id); never go on */
	if (dumpable > 0)
		prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0);
	return e ? -e : r;
}

/*
 * The box's stdio pipes and pty are made with the box's host id as this
 * process's file system ids.  A pipe's inode and a devpts slave belong to
 * the fsuid and fsgid that made them, mode 0600 and 0620: the box's user
 * reopens its own descriptors (/dev/stdin, /dev/stdout, /dev/stderr,
 * /proc/self/fd/N) and opens its terminal by name (/dev/console) only as
 * their owner.  Made by host root, they would belong to an id the box does
 * not map, and each such open would fail with EACCES.  Only a root caller's
 * box has a host id apart (an unprivileged caller's is the caller's own).
 * setfsuid acts on this thread alone (sbxlua runs one) and is undone as
 * soon as the pipes and the pty exist; the file capabilities it drops come
 * back from the permitted set with fsuid 0.
 */
struct fsid {
	int uid, gid; /* the caller's, to return to; -1: unchanged */
};

static void box_fsid(const struct sbx_plan *p, struct fsid *f)
{
	f->gid = setfsgid(p->host_gid);
	if (setfsgid((gid_t)-1) != (int)p->host_gid) {
		setfsgid((gid_t)f->gid);
		f->gid = -1;
		return;
	}
	f->uid = setfsuid(p->host_uid);
	if (setfsuid((uid_t)-1) != (int)p->host_uid) {
		setfsuid((uid_t)f->uid);
		setfsgid((gid_t)f->gid);
		f->uid = f->gid = -1;
	}
}

static void caller_fsid(struct fsid *f)
{
	if (f->uid >= 0)
		setfsuid((uid_t)f->uid);
	if (f->gid >= 0)
		setfsgid((gid_t)f->gid);
	f->uid = f->gid = -1;
}

/* A pseudo-terminal pair from the host's devpts, with the caller's terminal
 * settings as they were before the caller's terminal went raw for the relay
 * (io->termios, taken by the one who made it raw), and the caller's size,
 * when the caller has a terminal. */
static int open_pty(const struct sbx_io *io, int *master, int *slave)
{
	char name[128];
	struct winsize ws;
	int e;
	*master = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*master < 0)
		return -errno;
	if (grantpt(*master) < 0 || unlockpt(*master) < 0 ||
	    ptsname_r(*master, name, sizeof name) != 0)
		goto fail;
	*slave = open(name, O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (*slave < 0)
		goto fail;
	if (io->has_termios)
		tcsetattr(*slave, TCSANOW, &io->termios);
	if (ioctl(0, TIOCGWINSZ, &ws) == 0)
		ioctl(*slave, TIOCSWINSZ, &ws);
	return 0;
fail:
	e = errno;
	close(*master);
	*master = -1;
	return -e;
}

/* The descriptors a start opens: the control socket and the three stdio
 * channels, each [0] read end (or the parent's), [1] write end (or the
 * box's). */
struct start_fds {
	int sv[2], pin[2], pout[2], perr[2];
};

/* The box's stdio: a pseudo-terminal of its own, or three pipes.  0 or
 * -errno. */
static int open_stdio(const struct sbx_io *io, struct start_fds *f,
		      struct sbx_plan *cp)
{
	if (io->pty) {
		/* master: stdin and stdout of the relay; the slave is all
		 * three stdio of the box, and its controlling terminal */
		int r = open_pty(io, &f->pin[1], &f->pin[0]);
		if (r < 0)
			return r;
		if ((f->pout[0] = fcntl(f->pin[1], F_DUPFD_CLOEXEC, 0)) < 0 ||
		    pipe2(f->perr, O_CLOEXEC) < 0)
			return -errno;
		cp->ctty = 1;
		cp->stdio[0] = cp->stdio[1] = cp->stdio[2] = f->pin[0];
		return 0;
	}
	if (pipe2(f->pin, O_CLOEXEC) < 0 || pipe2(f->pout, O_CLOEXEC) < 0 ||
	    pipe2(f->perr, O_CLOEXEC) < 0)
		return -errno;
	cp->stdio[0] = f->pin[0];
	cp->stdio[1] = f->pout[1];
	cp->stdio[2] = f->perr[1];
	return 0;
}

/* Where the C library's heap (the brk area) starts: field 47 of
 * /proc/self/stat, start_brk; 0 when it cannot be read. */
static uintptr_t brk_start(void)
{
	char buf[1024];
	ssize_t n =
	    sbx_read_at(AT_FDCWD, "/proc/self/stat", 0, buf, sizeof buf - 1);
	const char *c;
	int field = 2;
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	if (!(c = strrchr(buf, ')')))
		return 0;
	for (c++; *c && field < 47; c++)
		if (*c == ' ')
			field++;
	return (uintptr_t)strtoull(c, NULL, 10);
}

/*
 * The C library's heap (the supervisor's own allocations: its jobs,
 * event logs, buffers) is marked MADV_DONTFORK for the clone only.  The
 * box's init reads nothing of it (child.c: no allocator, no stdio; its
 * plan is copied out, plancopy.c), and each page of it a clone shares is
 * left write-protected in the supervisor, which then takes a fault at its
 * first write there after every clone, whether the box still lives or
 * not: about 40 a box in a batch, at some 11 us each on this machine
 * kind (docs/performance.md).  Marked back right after: the inspection
 * worker is a fork that needs it.  Not under AddressSanitizer, whose
 * allocator is not the brk area.
 */
static void heap_fork(int advice)
{
#ifndef __SANITIZE_ADDRESS__
	static uintptr_t start;
	uintptr_t end = (uintptr_t)sbrk(0);
	if (!start)
		start = brk_start();
	if (start && end > start && end - start < ((uintptr_t)1 << 40))
		(void)madvise((void *)start, end - start, advice);
#else
	(void)advice;
#endif
}

/* Makes the box's cgroup and the proc connector, then clones the box
 * into its cgroup (as its own host id too: clone_as; where that clone
 * could not enter it, *in_cgroup is 0 and attach_own_cgroup moves the
 * box after).  Returns the clone's pid (0 in the box: it never returns),
 * or -errno. */
static long clone_box(struct sbx_job *j, const struct sbx_plan *p,
		      struct sbx_plan *cp, int own_id, int *in_cgroup)
{
	struct clone_args ca;
	struct sbx_plan *kp;
	long r;
	sbx_stamp(SBX_T_CGROUP0);
	make_cgroup(j);
	sbx_stamp(SBX_T_CGROUP1);
	memory_backstop(j, cp);
	/* the proc connector before the box exists, so that its first fork
	 * is seen; only a box with a pid namespace of its own has an init
	 * that outlives every process of it */
	if ((p->nsflags & CLONE_NEWPID) && !j->io.no_proc_events &&
	    sbx_procev_open(&j->pe) == 0)
		cp->deaths_sync = j->deaths_sync = 1;
	memset(&ca, 0, sizeof ca);
	/* every namespace but the network's, which init makes itself
	 * (child.c sbx_child_main) */
	ca.flags = (p->nsflags & ~(uint64_t)CLONE_NEWNET) | CLONE_PIDFD;
	if (j->cg.fd >= 0) {
		ca.flags |= CLONE_INTO_CGROUP;
		ca.cgroup = (uint64_t)j->cg.fd;
	}
	ca.pidfd = (uint64_t)(uintptr_t)&j->pidfd;
	ca.exit_signal = SIGCHLD;
	/* the plan the box reads, out of the Lua heap, in a mapping of its
	 * own that this clone alone inherits (plancopy.c) */
	if (!(kp = sbx_plan_copy(cp, &j->plan_slot)))
		return -errno;
	if (sbx_plan_fork(j->plan_slot, 1) != 0) {
		r = -errno;
		sbx_plan_release(&j->plan_slot);
		return r;
	}
	sbx_stamp(SBX_T_CLONE);
	heap_fork(MADV_DONTFORK);
	if (own_id)
		r = clone_as(&ca, p->host_uid);
	else if ((r = sbx_clone3(&ca)) < 0)
		r = -errno;
	if (r == 0)
		sbx_child_main(kp); /* the box: never returns */
	heap_fork(MADV_DOFORK);
	sbx_plan_fork(j->plan_slot, 0);
	if (r < 0)
		sbx_plan_release(&j->plan_slot);
	sbx_stamp(SBX_T_CLONED);
	*in_cgroup = (ca.flags & CLONE_INTO_CGROUP) != 0;
	return r;
}

/* After the clone: the proc connector follows init, the box's ends of
 * the channels are closed, the parent's kept, non-blocking. */
static void keep_channels(struct sbx_job *j, struct start_fds *f)
{
	if (j->deaths_sync) {
		/* init's own fork event is queued by now: not there, the
		 * connector's pids are not this process's */
		sbx_procev_track(&j->pe, j->pid);
		sbx_procev_read(&j->pe);
		if (!j->pe.seen_init)
			sbx_procev_fail(
			    &j->pe, "init not seen (pids of another namespace)",
			    0);
	}
	sbx_close_fd(&f->sv[1]);
	sbx_close_fd(&f->pin[0]);
	sbx_close_fd(&f->pout[1]);
	sbx_close_fd(&f->perr[1]);
	j->ctl = f->sv[0];
	j->in = f->pin[1];
	j->out[0] = f->pout[0];
	j->out[1] = f->perr[0];
	fcntl(j->in, F_SETFL, O_NONBLOCK);
	fcntl(j->out[0], F_SETFL, O_NONBLOCK);
	fcntl(j->out[1], F_SETFL, O_NONBLOCK);
	fcntl(j->ctl, F_SETFL, O_NONBLOCK);
	if (j->io.in_fd < 0 && j->io.in_len == 0 && !j->io.pty)
		sbx_close_fd(&j->in);
}

/* A box created as its own host id whose clone could not enter its
 * cgroup is moved there after the clone; if that fails, it runs as a box
 * without one. */
static void attach_own_cgroup(struct sbx_job *j)
{
	int cr;
	if (j->cg.fd < 0)
		return;
	cr = sbx_cgroup_attach(&j->cg, j->pid);
	if (cr < 0) {
		/* as a cgroup that could not be made: sampled (the box is
		 * cloned: RLIMIT_DATA stays the plan's) */
		j->cg_error = -cr;
		j->cg_what = "attach";
		j->cg_base = NULL;
		sbx_cgroup_remove(&j->cg);
		j->cg.limited = 0;
	}
}

/* A start that failed before the box existed with errno e: every
 * descriptor closed, the job done with the stage that failed; -e. */
static int start_failed(struct sbx_job *j, struct start_fds *f, int stage,
			int bad, int e)
{
	for (int i = 0; i < 2; i++) {
		sbx_close_fd(&f->sv[i]);
		sbx_close_fd(&f->pin[i]);
		sbx_close_fd(&f->pout[i]);
		sbx_close_fd(&f->perr[i]);
	}
	sbx_procev_close(&j->pe);
	sbx_set_cannot(j, stage, e);
	if (stage == SBX_ST_MOUNT)
		j->cannot.index = bad;
	j->end_kind = SBX_END_CANNOT;
	j->done = 1;
	j->end = sbx_now();
	return -e;
}

/* The id maps, then the go-ahead: the box's setup begins. */
static int release_box(struct sbx_job *j, const struct sbx_plan *p)
{
	struct sbx_msg go = {SBX_MSG_GO, 0, 0, -1, 0};
	int stage = SBX_ST_CLONE, e = 0;
	if (p->nsflags & CLONE_NEWUSER)
		e = -write_maps(p, j->pid, &stage);
	if (e == 0) {
		sbx_stamp(SBX_T_MAPS);
		stage = SBX_ST_SYNC;
		if (send(j->ctl, &go, sizeof go, MSG_NOSIGNAL) < 0)
			e = errno;
	}
	if (e == 0)
		return 0;
	sbx_set_cannot(j, stage, e);
	sbx_kill_box(j, SBX_END_CANNOT);
	return -e;
}

int sbx_job_start(struct sbx_job *j, const struct sbx_plan *p,
		  const struct sbx_io *io)
{
	struct start_fds f = {{-1, -1}, {-1, -1}, {-1, -1}, {-1, -1}};
	int stage = SBX_ST_CLONE, own_id, bad = -1, in_cgroup = 0;
	int *trees = NULL;
	struct fsid fsid = {-1, -1};
	struct sbx_plan cp = *p;
	long r;

	sbx_stamp(SBX_T_START);
	j->plan = p;
	j->io = *io;
	j->cap.spec = io->capture;
	j->start = sbx_now();
	j->nt.start = j->start; /* the origin of the events' time_ms */
	for (int s = 0; s < 2; s++) {
		/* output the caller's terminal shows is filtered (ttyfilter.c)
		 * unless the caller asked for it raw */
		j->filter[s] = io->out_mode[s] == SBX_OUT_PASS &&
			       !io->tty_raw && isatty(SBX_OUT_FD(io, s));
		sbx_ttyf_init(&j->tf[s]);
	}
	own_id =
	    p->caller_root && (p->nsflags & CLONE_NEWUSER) && p->host_uid != 0;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, f.sv) < 0)
		return start_failed(j, &f, stage, bad, errno);
	if (own_id)
		/* an id our namespace does not map cannot be an fsuid: the
		 * clone and the maps say why the box cannot be made */
		box_fsid(p, &fsid);
	r = open_stdio(io, &f, &cp);
	if (own_id)
		caller_fsid(&fsid);
	if (r < 0)
		return start_failed(j, &f, stage, bad, (int)-r);
	cp.ctl_fd = f.sv[1];
	cp.kmem = io->memory_limit != 0;

	if (p->root_opts && p->caller_root) {
		r = open_trees(p, &trees, &bad);
		if (r < 0)
			return start_failed(j, &f, SBX_ST_MOUNT, bad, (int)-r);
		cp.trees = trees;
	}
	r = clone_box(j, p, &cp, own_id, &in_cgroup);
	close_trees(&trees, p->nmounts);
	if (r < 0)
		return start_failed(j, &f, stage, bad, (int)-r);
	j->pid = (pid_t)r;
	keep_channels(j, &f);
	if (own_id && !in_cgroup)
		attach_own_cgroup(j);
	return release_box(j, p);
}
