/*
 * supervise.c: the supervisor side of a box, in the sbxlua process.
 *
 * A job clones the box init straight into its namespaces with a pidfd,
 * writes the id maps from outside (the box cannot map a host id it does not
 * hold), tells the child to go, then an event loop over every running job's
 * pidfd, control socket and stdio pipes relays stdin, captures output up to
 * a cap, enforces the wall clock by killing init (which takes the whole pid
 * namespace with it) and classifies how the run ended.  Nothing here calls
 * Lua or includes lua.h: box.c turns a finished job into a result table,
 * and installs a box's rule as a C callback of the explain channel.
 */
#include "compat.h"
#include "fileio.h"
#include "job.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
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
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

double sbx_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void keep_death(void *job, const struct sbx_death *dp);

void sbx_job_init(struct sbx_job *j)
{
	memset(j, 0, sizeof *j);
	j->pid = -1;
	j->pidfd = j->ctl = j->in = j->out[0] = j->out[1] = -1;
	j->cmd_pidfd = j->exec_fd = -1;
	j->io.in_fd = -1;
	sbx_notify_init(&j->nt);
	j->last[0] = j->last[1] = '\n';
	sbx_cgroup_init(&j->cg);
	sbx_procev_init(&j->pe, keep_death, j);
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
}

static void set_cannot(struct sbx_job *j, int stage, int err)
{
	if (!j->have_cannot) {
		j->cannot.type = SBX_MSG_CANNOT;
		j->cannot.stage = stage;
		j->cannot.err = err;
		j->cannot.index = -1;
		j->have_cannot = 1;
	}
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

static void probe_exec(struct sbx_job *j);

/* Whether the command's execve has happened (or it has ended) and its
 * status is not read yet: the exec pipe is at EOF. */
static int exec_pending(const struct sbx_job *j)
{
	struct pollfd pf = {j->exec_fd, POLLIN, 0};
	return j->exec_fd >= 0 && poll(&pf, 1, 0) > 0;
}

static void kill_box(struct sbx_job *j, int why)
{
	/* the program's own status first, if it has started and was not read
	 * yet (its probe and its first output can come in one wait, and a
	 * limit hit by that output kills before the exec pipe is looked at):
	 * once killed it may be reaped, and its claims could only be
	 * reported failed */
	if (exec_pending(j))
		probe_exec(j);
	if (j->end_kind == SBX_END_NONE)
		j->end_kind = why;
	if (j->pidfd >= 0 && !j->exited)
		sbx_pidfd_send_signal(j->pidfd, SIGKILL);
	j->pe.teardown = 1;
	/* init's death ends its pid namespace; the cgroup's kill also takes
	 * a box that has none, at once */
	if (j->cg.fd >= 0)
		sbx_cgroup_kill(&j->cg);
}

/*
 * Samples the whole box: its memory (anonymous + shared resident), its
 * tasks and, for a CPU budget, its CPU time, summed over every process
 * (the CPU from the cgroup's cpu.stat where the box has one); kills it
 * past a limit the cgroup does not hold itself.
 *
 * When: the rate rises as the box nears a limit (memory, tasks), and a CPU
 * budget is looked at again no later than the box could reach it with
 * every task on a core of its own.  Whatever the box holds, sampling takes
 * at most SAMPLE_SHARE of one core: a sample costs in proportion to the
 * box's processes (one to three /proc reads each), so the next one waits at
 * least its measured cost (this thread's CPU time, plus the wake-up around
 * it) divided by SAMPLE_SHARE.  Between two samples RLIMIT_DATA,
 * RLIMIT_NPROC and RLIMIT_CPU hold a runaway process (docs/limits.md).
 */
#define SAMPLE_SLOW 0.050 /* below 1/4 of the memory, 1/2 of the tasks */
#define SAMPLE_MID 0.010
#define SAMPLE_NEAR 0.001 /* from half the memory limit; the shortest */
/* of one core: 2 %, less a margin for the wake-up the measure leaves out
 * and the loop around the samples (measured: 0.3 % with 100 processes) */
#define SAMPLE_SHARE 0.015
#define SAMPLE_WAKE 20e-6 /* poll's return and the loop around a sample */

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void sample_box(struct sbx_job *j, double now)
{
	static long ncpu;
	struct sbx_sample s;
	uint64_t ml = j->io.memory_limit, tl = j->io.task_limit;
	double cl = j->io.cpu_limit, c0 = thread_cpu(), cpu = -1, gap, cost;
	int r;
	if (j->cg.fd >= 0) {
		r = sbx_sample_cgroup(j->cg.fd, j->pid, &s);
		if (cl > 0 && sbx_sample_cgroup_cpu(j->cg.fd, &cpu) < 0)
			cpu = -1;
	} else {
		r = sbx_sample(j->pid, 1, cl > 0 ? &j->cpu_track : NULL, &s);
		if (r == 0 && cl > 0)
			cpu = s.cpu;
	}
	/* before the command's execve its process is still a copy of this
	 * one: only its tasks count then */
	if (r == 0 && !j->execed)
		s.memory = s.rss_anon = s.rss_shmem = 0;
	else if (r == 0) /* tmpfs, SysV shm, socket buffers (kmem.c), and
			   the memfds made for the box (notify.c) */
		s.memory += sbx_kmem_sample(&j->kmem, NULL) +
			    sbx_notify_memfd_bytes(&j->nt);
	if (r < 0) {
		j->next_sample = now + SAMPLE_MID;
		return;
	}
	if (ml && s.memory >= ml / 2)
		gap = SAMPLE_NEAR;
	else if ((ml && s.memory >= ml / 4) || (tl && s.tasks >= tl / 2))
		gap = SAMPLE_MID;
	else
		gap = SAMPLE_SLOW;
	if (cpu > j->cpu_seen)
		j->cpu_seen = cpu;
	if (cl > 0 && j->cpu_seen < cl) {
		/* the soonest the budget can be used up */
		double par = (double)(s.tasks ? s.tasks : 1);
		if (!ncpu)
			ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		if (ncpu > 0 && par > (double)ncpu)
			par = (double)ncpu;
		if ((cl - j->cpu_seen) / par < gap)
			gap = (cl - j->cpu_seen) / par;
	}
	if (gap < SAMPLE_NEAR)
		gap = SAMPLE_NEAR;
	/* the cost bound: a cost that rises counts at once, one that falls
	 * is believed slowly (one cheap sample of a large box is luck) */
	cost = thread_cpu() - c0 + SAMPLE_WAKE;
	j->sample_cost =
	    cost > j->sample_cost ? cost : 0.75 * j->sample_cost + 0.25 * cost;
	if (gap < j->sample_cost / SAMPLE_SHARE)
		gap = j->sample_cost / SAMPLE_SHARE;
	j->next_sample = now + gap;
	j->samples++;
	if (s.memory > j->memory_peak)
		j->memory_peak = s.memory;
	if (s.tasks > j->tasks_peak)
		j->tasks_peak = s.tasks;
	if (ml && s.memory > ml && !(j->cg.limited & SBX_CG_MEMORY))
		kill_box(j, SBX_END_MEMORY);
	else if (tl && s.tasks >= tl && !(j->cg.limited & SBX_CG_PIDS))
		kill_box(j, SBX_END_TASKS);
	else if (cl > 0 && j->cpu_seen >= cl)
		kill_box(j, SBX_END_CPU);
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
	size_t kplen;
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
	/* the plan the box reads, out of the Lua heap (plancopy.c) */
	if (!(kp = sbx_plan_copy(cp, &kplen)))
		return -errno;
	sbx_stamp(SBX_T_CLONE);
	if (own_id)
		r = clone_as(&ca, p->host_uid);
	else if ((r = sbx_clone3(&ca)) < 0)
		r = -errno;
	sbx_stamp(SBX_T_CLONED);
	if (r == 0)
		sbx_child_main(kp); /* the box: never returns */
	munmap(kp, kplen);
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
	set_cannot(j, stage, e);
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
	set_cannot(j, stage, e);
	kill_box(j, SBX_END_CANNOT);
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
	for (int s = 0; s < 2; s++) {
		/* output the caller's terminal shows is filtered (ttyfilter.c)
		 * unless the caller asked for it raw */
		j->filter[s] = io->out_mode[s] == SBX_OUT_PASS &&
			       !io->tty_raw && isatty(s + 1);
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

/*
 * Keeps the probe datagram's text and the descriptors that came with it
 * (fds[0]: the exec pipe, fds[1]: the command's pidfd; -1 if none).  The
 * status read inside is not kept as the command's: it was read before the
 * filter and the execve (probe_exec reads the program's own); only its
 * Uid: and Gid: lines are, in box_ids.
 */
static void keep_probe(struct sbx_job *j, const char *buf, size_t n, int fds[2])
{
	const char *text = buf + sizeof(struct sbx_msg), *rest = NULL;
	size_t len = n - sizeof(struct sbx_msg);
	if (!j->probe && n > sizeof(struct sbx_msg))
		rest = memchr(text, '\0', len);
	if (!rest)
		goto drop;
	j->box_ids_len = 0;
	for (const char *l = text; l < rest;) {
		const char *e = memchr(l, '\n', (size_t)(rest - l));
		size_t ll = e ? (size_t)(e - l + 1) : (size_t)(rest - l);
		if ((strncmp(l, "Uid:", 4) == 0 ||
		     strncmp(l, "Gid:", 4) == 0) &&
		    j->box_ids_len + ll <= sizeof j->box_ids) {
			memcpy(j->box_ids + j->box_ids_len, l, ll);
			j->box_ids_len += ll;
		}
		l += ll;
	}
	len -= (size_t)(rest - text);
	j->probe = malloc(len);
	if (!j->probe)
		goto drop;	     /* the claims stay unverified */
	memcpy(j->probe, rest, len); /* an empty status, \0, the rest */
	j->probe_len = len;
	if (fds[0] >= 0 && fds[1] >= 0) {
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
		j->exec_fd = fds[0];
		j->cmd_pidfd = fds[1];
		return;
	}
drop:
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* The current pid of the process of pidfd in our pid namespace (its
 * fdinfo's Pid: line); -1 once it has been reaped, 0 if unknown. */
static pid_t pidfd_pid(int pidfd)
{
	char path[64], buf[512], *s;
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", pidfd);
	if (sbx_read_once_at(AT_FDCWD, path, 0, buf, sizeof buf) <= 0)
		return 0;
	s = strstr(buf, "\nPid:");
	return s ? (pid_t)strtol(s + 5, NULL, 10) : 0;
}

/* Copies the lines of status to out, the box's own Uid: and Gid: lines
 * (j->box_ids) in place of those seen from here; returns the length (at
 * most the length of status plus box_ids_len). */
static size_t merge_status(const struct sbx_job *j, char *out,
			   const char *status)
{
	size_t n = 0;
	for (const char *l = status; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l + 1) : strlen(l);
		if (strncmp(l, "Uid:", 4) == 0 || strncmp(l, "Gid:", 4) == 0) {
			const char *in = j->box_ids,
				   *end = j->box_ids + j->box_ids_len;
			while (in < end) {
				const char *ie =
				    memchr(in, '\n', (size_t)(end - in));
				size_t il = ie ? (size_t)(ie - in + 1)
					       : (size_t)(end - in);
				if (memcmp(in, l, 4) == 0) {
					memcpy(out + n, in, il);
					n += il;
					break;
				}
				in += il;
			}
		} else {
			memcpy(out + n, l, len);
			n += len;
		}
		l += len;
	}
	return n;
}

/*
 * The command's status, read from outside once its execve has happened
 * (the exec pipe at EOF) or it has ended (init keeps its zombie until the
 * supervisor has read this), becomes the probe's status: the filter,
 * no_new_privs and the capabilities are verified on the program's own
 * process, as the kernel holds them for it.  Read after the program
 * started, it can only be more restrictive than at the execve, never less:
 * no_new_privs and a filter cannot be removed, capability sets only shrink
 * (one exception errs the other way: in a user namespace the program made
 * itself, if its profile lets it, the sets are that namespace's, and the
 * claim is reported failed).  The process is named by its pidfd: /proc/<pid>
 * is opened, then the pidfd must still name that pid (not reaped, so the
 * number was not reused).  The status's Uid:
 * and Gid: lines are the host's ids seen from here; the box's own (from the
 * probe inside, which neither the filter nor an execve under no_new_privs
 * can change) stand in their place.  Anything that fails leaves the status
 * empty: its claims are reported failed, never verified.
 */
static void probe_exec(struct sbx_job *j)
{
	static char status[16384], merged[16384 + sizeof j->box_ids];
	char path[64], *np;
	size_t n = 0;
	pid_t pid;
	int dfd;

	sbx_close_fd(&j->exec_fd);
	if (j->cmd_pidfd < 0 || !j->probe || j->probe_len == 0 ||
	    j->probe[0] != '\0')
		goto out;
	if (j->have_cannot || (pid = pidfd_pid(j->cmd_pidfd)) <= 0)
		goto out;
	snprintf(path, sizeof path, "/proc/%d", (int)pid);
	dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		goto out;
	if (pidfd_pid(j->cmd_pidfd) == pid &&
	    sbx_read_at(dfd, "status", O_NOFOLLOW, status, sizeof status) > 0)
		n = merge_status(j, merged, status);
	close(dfd);
	if (n == 0 || !(np = malloc(n + j->probe_len)))
		goto out;
	memcpy(np, merged, n);
	memcpy(np + n, j->probe, j->probe_len);
	free(j->probe);
	j->probe = np;
	j->probe_len += n;
out:
	sbx_close_fd(&j->cmd_pidfd);
}

/* One datagram of the control socket, like recv(MSG_DONTWAIT); fds gets
 * the two descriptors a probe carries (close-on-exec), else -1; the job
 * takes those of the memory meters (kmem.h), of the written places
 * (capture.c) and the sink's listeners (sink.h): any other descriptor
 * that came is closed. */
static ssize_t recv_ctl(struct sbx_job *j, char *buf, size_t size, int fds[2])
{
	int ctl = j->ctl;
	struct sbx_kmem *k = &j->kmem;
	struct sbx_sink *sk = &j->sink;
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE((SBX_KMEM_FDS > SBX_SINK_FDS
					 ? SBX_KMEM_FDS
					 : SBX_SINK_FDS) *
				    sizeof(int))];
	} cm;
	struct iovec iov = {buf, size};
	struct msghdr mh;
	struct cmsghdr *c;
	int got[2] = {-1, -1};
	ssize_t n;

	fds[0] = fds[1] = -1;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.buf;
	mh.msg_controllen = sizeof cm.buf;
	n = recvmsg(ctl, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (n >= (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type ==
		SBX_MSG_METERS) {
		sbx_kmem_take(k, buf, c);
		return n;
	}
	if (n == (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type ==
		SBX_MSG_PLACES) {
		sbx_capture_take(&j->cap, buf, c);
		return n;
	}
	if (n >= (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type == SBX_MSG_SINK) {
		sbx_sink_take(sk, c);
		return n;
	}
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof got))
		memcpy(got, CMSG_DATA(c), sizeof got);
	else if (c && c->cmsg_level == SOL_SOCKET &&
		 c->cmsg_type == SCM_RIGHTS &&
		 c->cmsg_len == CMSG_LEN(sizeof got[0]) &&
		 n == (ssize_t)sizeof(struct sbx_msg) &&
		 ((const struct sbx_msg *)(const void *)buf)->type ==
		     SBX_MSG_LISTENER) {
		memcpy(&fds[0], CMSG_DATA(c), sizeof fds[0]);
		return n;
	} else if (c) /* none kept: closed there */
		sbx_kmem_take(NULL, NULL, c);
	if (n > (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type ==
		SBX_MSG_PROBE) {
		fds[0] = got[0];
		fds[1] = got[1];
	} else {
		for (int i = 0; i < 2; i++)
			if (got[i] >= 0)
				close(got[i]);
	}
	return n;
}

/* The command has ended (init said so, and keeps its zombie): its status
 * from outside if not read yet, then init may let it go.  The events the
 * connector has queued came before the command's end: deaths by SIGKILL
 * after them are the box's end (init kills what is left). */
static void command_ended(struct sbx_job *j)
{
	struct sbx_msg done = {SBX_MSG_GO, 0, 0, -1, 0};
	sbx_stamp(SBX_T_ENDED);
	if (j->cmd_pidfd >= 0)
		probe_exec(j);
	if (j->deaths_sync) {
		sbx_procev_read(&j->pe);
		j->pe.teardown = 1;
	}
	if (j->plan->probe || j->deaths_sync)
		send(j->ctl, &done, sizeof done, MSG_NOSIGNAL);
}

/* Every process of the box has ended (init said so, and waits): once the
 * connector has brought every one's exit event, the supervisor says
 * whether init must search the box's writable mounts for a file at the
 * size limit (a death by SIGXFSZ it did not see is named only on that).
 * Without the events (the connector lost them, or they did not all come
 * within a second) it answers with what it has. */
static void answer_reaped(struct sbx_job *j, int late)
{
	struct sbx_msg m = {SBX_MSG_GO, 0, 0, -1, 0};
	if (j->answered || !j->reaped_at)
		return;
	sbx_procev_read(&j->pe);
	if (j->pe.on && !sbx_procev_settled(&j->pe)) {
		if (!late)
			return;
		sbx_procev_fail(&j->pe, "exit events missing at the end", 0);
	}
	for (int i = 0; i < j->ndeaths; i++)
		if ((j->deaths[i].flags & SBX_DEATH_CONNECTOR) &&
		    WIFSIGNALED(j->deaths[i].status) &&
		    WTERMSIG(j->deaths[i].status) == SIGXFSZ)
			m.status = 1;
	j->answered = 1;
	send(j->ctl, &m, sizeof m, MSG_NOSIGNAL);
}

/* init's search: its answer is each SIGXFSZ death the connector saw */
static void found(struct sbx_job *j, int flags)
{
	for (int i = 0; i < j->ndeaths; i++) {
		struct sbx_death *d = &j->deaths[i];
		if ((d->flags & SBX_DEATH_CONNECTOR) &&
		    WIFSIGNALED(d->status) && WTERMSIG(d->status) == SIGXFSZ)
			d->flags = (d->flags & ~(SBX_DEATH_FILE_AT_LIMIT |
						 SBX_DEATH_FILES_PARTIAL)) |
				   (flags & (SBX_DEATH_FILE_AT_LIMIT |
					     SBX_DEATH_FILES_PARTIAL));
	}
}

/* Keeps a death init recorded or the connector saw in the job's records;
 * the command's always has a place (the last one, when the others have
 * taken every other). */
static void keep_death(void *job, const struct sbx_death *dp)
{
	struct sbx_job *j = job;
	struct sbx_death d = *dp;
	d.comm[sizeof d.comm - 1] = '\0';
	if (j->ndeaths == SBX_DEATH_MAX - 1 && !(d.flags & SBX_DEATH_COMMAND)) {
		j->deaths_unseen++;
		return;
	}
	if (j->ndeaths >= SBX_DEATH_MAX) {
		j->deaths_unseen++;
		return;
	}
	j->deaths[j->ndeaths++] = d;
}

static void read_ctl(struct sbx_job *j)
{
	static char buf[SBX_PROBE_MAX + 64];
	struct sbx_msg m;
	ssize_t n;
	int fds[2];
	j->sink.plan = &j->plan->sink;
	while (j->ctl >= 0) {
		n = recv_ctl(j, buf, sizeof buf, fds);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
				sbx_close_fd(&j->ctl);
			return;
		}
		if (n < (ssize_t)sizeof m)
			continue;
		memcpy(&m, buf, sizeof m);
		if (m.type == SBX_MSG_PROBE) {
			keep_probe(j, buf, (size_t)n, fds);
			continue;
		}
		if (m.type == SBX_MSG_DEATH &&
		    n == (ssize_t)sizeof(struct sbx_death_msg)) {
			struct sbx_death d;
			memcpy(&d, buf + offsetof(struct sbx_death_msg, d),
			       sizeof d);
			d.flags &= SBX_DEATH_COMMAND | SBX_DEATH_FILE_AT_LIMIT |
				   SBX_DEATH_FILES_PARTIAL;
			keep_death(j, &d);
			continue;
		}
		if (n != (ssize_t)sizeof m)
			continue;
		if (m.type == SBX_MSG_CANNOT && !j->have_cannot) {
			j->cannot = m;
			j->have_cannot = 1;
		} else if (m.type == SBX_MSG_EXEC) {
			j->execed = 1;
		} else if (m.type == SBX_MSG_LISTENER) {
			/* the explain channel: taken in the wait loop */
			if (j->io.notify && j->nt.pidfd < 0 && fds[0] >= 0) {
				j->nt.pidfd = fds[0];
				j->nt.want = m.index;
				j->nt.spec = j->io.notify;
			} else if (fds[0] >= 0) {
				close(fds[0]);
			}
		} else if (m.type == SBX_MSG_STATUS) {
			j->status = m.status;
			j->have_status = 1;
			command_ended(j);
		} else if (m.type == SBX_MSG_UNSEEN && m.index > 0) {
			j->deaths_unseen += (unsigned long)m.index;
		} else if (m.type == SBX_MSG_REAPED && j->deaths_sync &&
			   !j->reaped_at) {
			j->reaped_at = sbx_now();
			answer_reaped(j, 0);
		} else if (m.type == SBX_MSG_FOUND && j->answered) {
			found(j, m.status);
		}
	}
}

/* Room for more bytes after what stream s holds: 0, or -1 (no memory). */
static int grow_out(struct sbx_job *j, int s, size_t more)
{
	size_t ns = j->size[s] ? j->size[s] : 65536;
	char *nb;
	if (j->len[s] + more <= j->size[s])
		return 0;
	while (ns < j->len[s] + more)
		ns *= 2;
	nb = realloc(j->buf[s], ns);
	if (!nb)
		return -ENOMEM;
	j->buf[s] = nb;
	j->size[s] = ns;
	return 0;
}

/* The end of a stream the caller's terminal shows: the modes it left set
 * that outlast it are reset (ttyfilter.c). */
static void end_filter(struct sbx_job *j, int s)
{
	if (!j->filter[s] || grow_out(j, s, SBX_TTYF_END) < 0)
		return;
	/* what the program left unfinished is its last byte, not ours */
	j->tail_last[s] = j->len[s] ? j->buf[s][j->len[s] - 1] : j->last[s];
	j->tail[s] = sbx_ttyf_end(&j->tf[s], j->buf[s] + j->len[s]);
	j->len[s] += j->tail[s];
}

/* Reads what is available on stream s; past the cap, kills the box. */
static void read_out(struct sbx_job *j, int s)
{
	char tmp[65536];
	for (;;) {
		ssize_t n = read(j->out[s], tmp, sizeof tmp);
		size_t keep;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EIO)
			return; /* EAGAIN */
		if (n <= 0) {	/* EIO: a pty whose slave side is all closed */
			sbx_close_fd(&j->out[s]);
			j->eof[s] = 1;
			end_filter(j, s);
			return;
		}
		keep = (size_t)n;
		if (j->io.out_limit && j->total[s] + keep > j->io.out_limit) {
			keep = j->io.out_limit - j->total[s];
			kill_box(j, SBX_END_OUTPUT);
		}
		j->total[s] += keep;
		/* passed-through output is buffered too, and written out as
		 * the caller's descriptor takes it (pass_out): a reader that
		 * stalls must not stall the loop that enforces the limits */
		if (j->io.out_mode[s] != SBX_OUT_DISCARD && keep) {
			if (grow_out(j, s, keep + SBX_TTYF_SEQ + 2) < 0) {
				kill_box(j, SBX_END_OUTPUT);
				return;
			}
			if (j->filter[s])
				/* to the caller's terminal: only what draws
				 * (ttyfilter.c); the cap counts what the box
				 * wrote */
				j->len[s] +=
				    sbx_ttyf_run(&j->tf[s], tmp, keep,
						 j->buf[s] + j->len[s]);
			else {
				memcpy(j->buf[s] + j->len[s], tmp, keep);
				j->len[s] += keep;
			}
		}
		if (j->end_kind == SBX_END_OUTPUT) {
			sbx_close_fd(&j->out[s]);
			j->eof[s] = 1;
			end_filter(j, s);
			return;
		}
	}
}

/* Writes stdin to the box from memory or from the relayed descriptor. */
static void write_in(struct sbx_job *j)
{
	int reads = 0;
	for (;;) {
		const char *d;
		size_t left;
		ssize_t w;
		if (j->io.in_fd >= 0) {
			if (j->inbuf_off == j->inbuf_len) {
				ssize_t n;
				if (j->in_eof) {
					sbx_close_fd(&j->in);
					return;
				}
				/* one read per wakeup: the source may be the
				 * caller's terminal, which must not block us */
				if (reads++)
					return;
				if (j->io.in_pread)
					n = pread(j->io.in_fd, j->inbuf,
						  sizeof j->inbuf, j->in_pos);
				else
					n = read(j->io.in_fd, j->inbuf,
						 sizeof j->inbuf);
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0 && errno == EAGAIN)
					return;
				if (n <= 0) {
					sbx_close_fd(&j->in);
					return;
				}
				j->inbuf_len = (size_t)n;
				j->inbuf_off = 0;
				j->in_pos += n;
			}
			d = j->inbuf + j->inbuf_off;
			left = j->inbuf_len - j->inbuf_off;
		} else {
			d = j->io.in_data + j->in_off;
			left = j->io.in_len - j->in_off;
			if (left == 0) {
				sbx_close_fd(&j->in);
				return;
			}
		}
		w = write(j->in, d, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				sbx_close_fd(
				    &j->in); /* EPIPE: the box closed it */
			return;
		}
		if (j->io.in_fd >= 0)
			j->inbuf_off += (size_t)w;
		else
			j->in_off += (size_t)w;
	}
}

/* Writes buffered pass-through output to the caller's stdout or stderr:
 * at most PIPE_BUF bytes per wakeup, which a pipe that polled writable
 * takes without blocking; all of it (blocking) once the box is over. */
static void pass_out(struct sbx_job *j, int s, int all)
{
	do {
		size_t left = j->len[s] - j->sent[s];
		ssize_t w;
		if (left == 0)
			break;
		w = write(s + 1, j->buf[s] + j->sent[s],
			  all || left < 4096 ? left : 4096);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			j->sent[s] = j->len[s]; /* the caller's end is gone */
			break;
		}
		j->sent[s] += (size_t)w;
		j->last[s] = j->sent[s] + j->tail[s] > j->len[s]
				 ? j->tail_last[s]
				 : j->buf[s][j->sent[s] - 1];
	} while (all);
	if (j->sent[s] == j->len[s])
		j->sent[s] = j->len[s] = j->tail[s] = 0;
}

/* Whether connector record c and init's record o are one death: the same
 * pid in the box where the connector read it, else (its zombie was gone
 * before it could be read) the same command name, or, without a name,
 * the same signal. */
static int same_death(const struct sbx_death *c, const struct sbx_death *o)
{
	if ((o->flags & SBX_DEATH_CONNECTOR) ||
	    (o->status & 0x7f) != (c->status & 0x7f))
		return 0;
	if (c->pid > 0)
		return o->pid == c->pid;
	/* no name either (its exec's comm could not be read in time): the
	 * signal alone */
	return !c->comm[0] || strncmp(o->comm, c->comm, sizeof c->comm) == 0;
}

/* A death the connector saw that init recorded too (a process whose
 * parent died before reaping it, reaped by init after all) is init's.
 * Each of init's records stands for one death: where the connector knows
 * no pid in the box, two deaths of one name and signal, one reaped by its
 * parent, could be taken for one (one note fewer, never one more). */
static void dedup_deaths(struct sbx_job *j)
{
	unsigned char used[SBX_DEATH_MAX], drop[SBX_DEATH_MAX];
	int k = 0;
	memset(used, 0, sizeof used);
	memset(drop, 0, sizeof drop);
	for (int i = 0; i < j->ndeaths; i++)
		for (int o = 0; (j->deaths[i].flags & SBX_DEATH_CONNECTOR) &&
				o < j->ndeaths && !drop[i];
		     o++)
			if (!used[o] &&
			    same_death(&j->deaths[i], &j->deaths[o]))
				drop[i] = used[o] = 1;
	for (int i = 0; i < j->ndeaths; i++)
		if (!drop[i])
			j->deaths[k++] = j->deaths[i];
	j->ndeaths = k;
}

/* Reaps init: its status, the CPU time of the box (init's usage, the
 * sampler's count, or the cgroup's), the cgroup's counters; the cgroup is
 * removed. */
static void reap_init(struct sbx_job *j)
{
	siginfo_t si;
	struct rusage ru;
	sbx_stamp(SBX_T_FINISH);
	memset(&si, 0, sizeof si);
	memset(&ru, 0, sizeof ru);
	/* the raw call returns init's usage, which holds every process of
	 * the box that init reaped */
	while (syscall(SYS_waitid, P_PIDFD, j->pidfd, &si, WEXITED, &ru) < 0 &&
	       errno == EINTR)
		;
	j->init_status = si.si_status;
	j->init_signal = si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED
			     ? si.si_status
			     : 0;
	j->cpu = (double)ru.ru_utime.tv_sec +
		 (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	/* init's usage misses what was never waited for (children of a
	 * process that ignores SIGCHLD): the sampler's count is a lower bound
	 * that keeps it */
	if (j->cpu_seen > j->cpu)
		j->cpu = j->cpu_seen;
	sbx_cpu_track_free(&j->cpu_track);
	if (j->cg.fd >= 0) {
		if (sbx_cgroup_events(&j->cg, &j->ev) == 0) {
			j->have_events = 1;
			if (j->ev.cpu_usec >= 0)
				j->cpu = (double)j->ev.cpu_usec / 1e6;
			if (j->ev.memory_peak > (int64_t)j->memory_peak)
				j->memory_peak = (uint64_t)j->ev.memory_peak;
		}
		sbx_cgroup_remove(&j->cg);
	}
}

/* What ended the run, from what the supervisor did and saw. */
static void decide_end(struct sbx_job *j)
{
	if (j->have_cannot)
		j->end_kind = SBX_END_CANNOT;
	else if (j->have_status && WIFEXITED(j->status) &&
		 j->end_kind != SBX_END_OUTPUT)
		/* the command exited on its own before a kill of ours landed
		 * (output past the cap stays a kill: bytes were dropped) */
		j->end_kind = SBX_END_EXIT;
	else if (j->end_kind != SBX_END_NONE)
		return; /* the supervisor's own kill names the cause */
	else if (j->have_events && j->ev.oom_kill > 0 &&
		 (!j->have_status ||
		  (WIFSIGNALED(j->status) && WTERMSIG(j->status) == SIGKILL)))
		/* the kernel's record: the cgroup's OOM killer ended the box
		 * (with memory.oom.group, init and all), or the command */
		j->end_kind = SBX_END_MEMORY;
	else if (j->have_status && WIFSIGNALED(j->status))
		j->end_kind = SBX_END_SIGNAL;
	else if (j->execed && j->init_signal)
		/* init killed from outside the box (nothing inside can signal
		 * it) after the command started: the command died with its pid
		 * namespace, a run of its own, not a set-up failure */
		j->end_kind = SBX_END_INIT;
	else
		/* init ended before the command's execve, or without a
		 * signal and without the command's status: set-up */
		j->end_kind = SBX_END_LOST;
}

/* Closes the job's channels to its box: init's pidfd, the control socket,
 * the box's stdin and its two outputs. */
static void close_channels(struct sbx_job *j)
{
	sbx_close_fd(&j->pidfd);
	sbx_close_fd(&j->ctl);
	sbx_close_fd(&j->in);
	sbx_close_fd(&j->out[0]);
	sbx_close_fd(&j->out[1]);
}

static void finish(struct sbx_job *j)
{
	reap_init(j);
	read_ctl(j);
	/* every process of the box has ended (its init is reaped): what it
	 * left in its written places, through the descriptors init sent */
	sbx_capture_run(&j->cap);
	if (j->deaths_sync) {
		/* init killed before it asked (the supervisor's own kill):
		 * the deaths before the kill were seen, those of it are the
		 * box's end; a SIGXFSZ death keeps files_partial (no search) */
		sbx_procev_read(&j->pe);
		dedup_deaths(j);
		/* closed; what it says of the coverage stays */
		if (j->pe.fd >= 0) {
			int on = j->pe.on;
			sbx_procev_close(&j->pe);
			j->pe.on = on;
		}
	}
	close_channels(j);
	sbx_close_fd(&j->nt.fd);
	sbx_close_fd(&j->nt.pidfd);
	sbx_sink_finish(&j->sink);
	j->done = 1;
	j->end = sbx_now();
	for (int s = 0; s < 2; s++)
		if (j->io.out_mode[s] == SBX_OUT_PASS)
			pass_out(j, s, 1);
	decide_end(j);
}

static int job_ready(const struct sbx_job *j)
{
	/* init has exited and both streams reached EOF: every process of the
	 * box is gone (init's exit tore down its pid namespace) */
	return j->exited && j->out[0] < 0 && j->out[1] < 0;
}

/*
 * The operator's stop: while boxes run, the supervisor owns SIGINT, SIGTERM
 * and SIGHUP (the interpreter's SIGINT handler never runs meanwhile), reads
 * them from a signalfd in its loop and kills, reaps and reports the boxes;
 * one the caller set to SIG_IGN is left alone.
 * Blocked before the clone: the child inherits the mask, and init resets it
 * (child.c reset_signals) before anything of the box runs.  A signal that
 * arrives after the loop stays pending and is delivered on release.
 */
void sbx_stop_own(struct sbx_stop *s, int winch)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	sigset_t stop;
	int any = 0;
	sigemptyset(&stop);
	s->fd = -1;
	/* a relayed pty follows the caller's window: SIGWINCH (ignored by
	 * default) is read here too, and resizes each box's pty */
	if (winch) {
		sigaddset(&stop, SIGWINCH);
		any = 1;
	}
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction cur;
		/* a signal the caller ignores (nohup's SIGHUP) stays ignored:
		 * blocked, it would be queued for the signalfd all the same */
		if (sigaction(sigs[i], NULL, &cur) == 0 &&
		    cur.sa_handler == SIG_IGN)
			continue;
		sigaddset(&stop, sigs[i]);
		any = 1;
	}
	if (!any || sigprocmask(SIG_BLOCK, &stop, &s->old) < 0)
		return;
	s->fd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->fd < 0)
		/* no descriptor: the signals keep their handlers */
		sigprocmask(SIG_SETMASK, &s->old, NULL);
}

void sbx_stop_release(struct sbx_stop *s)
{
	if (s->fd < 0)
		return;
	sbx_close_fd(&s->fd);
	sigprocmask(SIG_SETMASK, &s->old, NULL);
}

/*
 * The caller's window size (its stdin, the terminal the pty relays) to each
 * running box's pty: setting it on the master sends SIGWINCH to the box
 * terminal's foreground process group, as a terminal emulator's resize
 * does.  The master is the descriptor the box's output is read from.
 */
static void follow_window(struct sbx_job **jobs, size_t n)
{
	struct winsize ws;
	if (ioctl(0, TIOCGWINSZ, &ws) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct sbx_job *j = jobs[i];
		if (j->io.pty && !j->done && j->out[0] >= 0)
			ioctl(j->out[0], TIOCSWINSZ, &ws);
	}
}

/* Reads the signals pending on fd: a window change resizes the boxes'
 * ptys; the first stop kills every box still running. */
static void read_stop(int fd, struct sbx_job **jobs, size_t n)
{
	struct signalfd_siginfo si;
	while (read(fd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGWINCH) {
			follow_window(jobs, n);
			continue;
		}
		for (size_t i = 0; i < n; i++) {
			struct sbx_job *j = jobs[i];
			if (j->done || j->exited ||
			    j->end_kind == SBX_END_INTERRUPTED)
				continue;
			kill_box(j, SBX_END_INTERRUPTED);
			if (j->end_kind == SBX_END_INTERRUPTED)
				j->stop_signal = (int)si.ssi_signo;
		}
	}
}

/* What the event loop waits on, one entry per descriptor: the job it is
 * for (none for the stop descriptor) and what its readiness means. */
enum {
	W_PIDFD,    /* init exited */
	W_CTL,	    /* a message from the box */
	W_IN,	    /* the box's stdin can be written, or its source read */
	W_OUT,	    /* W_OUT + s: the box wrote to stdout (0), stderr (1) */
	W_PASS = 5, /* W_PASS + s: the caller's stdout/stderr can take more */
	W_STOP = 7, /* the operator's stop signal */
	W_EXEC,	    /* the command's execve happened, or it ended */
	W_PROCEV,   /* the proc connector has events */
	W_SINK,	    /* a listener or connection of the network sink */
	W_NOTIFY    /* the explain channel's listener has a call */
};
#define JOB_WATCH (10 + SBX_SINK_WATCH) /* at most, per job */
#define MAX_WATCH (JOB_WATCH * 64 + 1)

struct watch_set {
	struct pollfd pfd[MAX_WATCH];
	struct sbx_job *who[MAX_WATCH];
	int what[MAX_WATCH];
	size_t np;
};

static void watch(struct watch_set *w, int fd, short events, struct sbx_job *j,
		  int what)
{
	w->pfd[w->np] = (struct pollfd){fd, events, 0};
	w->who[w->np] = j;
	w->what[w->np++] = what;
}

/* next: the earliest of next and t (-1: none yet) */
static void sooner(double *next, double t)
{
	if (*next < 0 || t < *next)
		*next = t;
}

/* The job's deadlines: the wall clock, the next sample, the grace after
 * init's exit and after the last reap; acts on those that passed and
 * keeps the earliest left in *next.  Returns 1 when the job is finished. */
static int job_timers(struct sbx_job *j, double now, double *next)
{
	if (j->io.wall > 0 && !j->exited) {
		double dl = j->start + j->io.wall;
		if (now >= dl)
			kill_box(j, SBX_END_WALL);
		else
			sooner(next, dl);
	}
	if ((j->io.memory_limit || j->io.task_limit || j->io.cpu_limit > 0) &&
	    !j->exited && j->end_kind == SBX_END_NONE) {
		if (now >= j->next_sample)
			sample_box(j, now);
		sooner(next, j->next_sample);
	}
	/* a box without its own pid namespace may leave a process holding
	 * the pipes: stop waiting 1 s after init's exit */
	if (j->exited && now > j->end + 1.0) {
		finish(j);
		return 1;
	}
	if (j->exited)
		sooner(next, j->end + 1.0);
	/* init waits for the last exit events: at most 1 s */
	if (j->reaped_at && !j->answered) {
		if (now > j->reaped_at + 1.0)
			answer_reaped(j, 1);
		else
			sooner(next, j->reaped_at + 1.0);
	}
	sbx_sink_timers(&j->sink, now);
	return 0;
}

/* how soon the listener is looked for again (sbx_notify_take) */
#define NOTIFY_RETRY 0.00005

/* The explain channel: the listener is taken once the command's process
 * has loaded its filter (it cannot say so after: nothing of sbxlua runs
 * under the filter but execve); until then, looked for again. */
static void take_listener(struct sbx_job *j, double now, double *next)
{
	int t;
	if (j->nt.want < 0 || j->nt.fd >= 0 || j->nt.pidfd < 0 || j->exited)
		return;
	t = sbx_notify_take(&j->nt);
	if (t == 0) {
		sooner(next, now + NOTIFY_RETRY);
	} else if (t < 0) {
		/* its execve would wait forever: the program never ran, a
		 * set-up failure */
		set_cannot(j, SBX_ST_LISTENER, j->nt.err);
		kill_box(j, SBX_END_CANNOT);
	}
}

/* The descriptors of one job the loop waits on. */
static void job_watches(struct watch_set *w, struct sbx_job *j)
{
	if (!j->exited)
		watch(w, j->pidfd, POLLIN, j, W_PIDFD);
	if (j->ctl >= 0)
		watch(w, j->ctl, POLLIN, j, W_CTL);
	if (j->pe.fd >= 0 && !j->exited)
		watch(w, j->pe.fd, POLLIN, j, W_PROCEV);
	if (j->nt.fd >= 0 && !j->exited)
		watch(w, j->nt.fd, POLLIN, j, W_NOTIFY);
	if (j->exec_fd >= 0)
		watch(w, j->exec_fd, POLLIN, j, W_EXEC);
	if (j->in >= 0 && j->io.in_fd >= 0 && j->inbuf_off == j->inbuf_len)
		/* wait for the source, not the box */
		watch(w, j->io.in_fd, POLLIN, j, W_IN);
	else if (j->in >= 0 && (j->io.in_fd >= 0 || j->in_off < j->io.in_len))
		watch(w, j->in, POLLOUT, j, W_IN);
	for (int s = 0; s < 2; s++) {
		if (j->out[s] >= 0)
			watch(w, j->out[s], POLLIN, j, W_OUT + s);
		if (j->io.out_mode[s] == SBX_OUT_PASS && j->sent[s] < j->len[s])
			watch(w, s + 1, POLLOUT, j, W_PASS + s);
	}
}

/* The sink's descriptors of one job, and its next deadline. */
static void sink_watches(struct watch_set *w, struct sbx_job *j, double *next)
{
	int fds[SBX_SINK_WATCH];
	double t;
	int n = sbx_sink_watches(&j->sink, fds, &t);
	for (int i = 0; i < n; i++)
		watch(w, fds[i], POLLIN, j, W_SINK);
	if (t >= 0)
		sooner(next, t);
}

/* Acts on one ready descriptor. */
static void on_ready(const struct watch_set *w, size_t k, struct sbx_job **jobs,
		     size_t n, int stopfd)
{
	struct sbx_job *j = w->who[k];
	short re = w->pfd[k].revents;
	switch (w->what[k]) {
	case W_STOP:
		read_stop(stopfd, jobs, n);
		break;
	case W_PIDFD:
		j->exited = 1;
		j->end = sbx_now();
		break;
	case W_CTL:
		read_ctl(j);
		break;
	case W_PROCEV:
		sbx_procev_read(&j->pe);
		answer_reaped(j, 0);
		break;
	case W_NOTIFY:
		if (re & POLLIN) {
			/* a stop: the box first, the refused call never
			 * returns */
			if (sbx_notify_handle(&j->nt) == SBX_ANS_STOP)
				kill_box(j, SBX_END_REFUSED);
		} else {
			/* POLLHUP: no task uses the filter any more */
			sbx_close_fd(&j->nt.fd);
		}
		break;
	case W_EXEC:
		/* the command's execve happened (or it ended): a failure it
		 * sent comes first */
		read_ctl(j);
		probe_exec(j);
		break;
	case W_IN:
		if ((re & (POLLERR | POLLNVAL)) ||
		    ((re & POLLHUP) && !(re & POLLIN)))
			sbx_close_fd(&j->in);
		else
			write_in(j);
		break;
	case W_SINK:
		sbx_sink_ready(&j->sink, w->pfd[k].fd, sbx_now());
		break;
	case W_OUT:
	case W_OUT + 1:
		read_out(j, w->what[k] - W_OUT);
		break;
	default:
		pass_out(j, w->what[k] - W_PASS, 0);
		break;
	}
}

/* The loop's wait until next (NULL: none), to the microsecond: a retry
 * 0.2 ms away waits 0.2 ms, not poll's next whole millisecond.  At least
 * POLL_FLOOR, so that a deadline already past is acted on without a spin. */
#define POLL_FLOOR 20e-6
static const struct timespec *poll_timeout(double next, double now,
					   struct timespec *ts)
{
	double d;
	if (next < 0)
		return NULL;
	d = next - now;
	if (d > 86400.0)
		d = 86400.0; /* a day: wake up and look again */
	if (d < POLL_FLOOR)
		d = POLL_FLOOR;
	ts->tv_sec = (time_t)d;
	ts->tv_nsec = (long)((d - (double)ts->tv_sec) * 1e9);
	return ts;
}

void sbx_jobs_wait(struct sbx_job **jobs, size_t n, int stopfd, int any)
{
	struct watch_set w;

	for (;;) {
		size_t active = 0, ended = 0;
		double now = sbx_now(), next = -1;

		w.np = 0;
		if (stopfd >= 0)
			watch(&w, stopfd, POLLIN, NULL, W_STOP);
		for (size_t i = 0; i < n; i++) {
			struct sbx_job *j = jobs[i];
			if (j->done) {
				ended++;
				continue;
			}
			if (job_ready(j)) {
				finish(j);
				ended++;
				continue;
			}
			if (job_timers(j, now, &next))
				continue;
			if (w.np + JOB_WATCH > MAX_WATCH)
				break;
			take_listener(j, now, &next);
			active++;
			job_watches(&w, j);
			sink_watches(&w, j, &next);
		}
		if (any && ended > 0)
			return;
		if (active == 0) {
			int left = 0;
			for (size_t i = 0; i < n; i++)
				left |= !jobs[i]->done;
			if (!left)
				return;
			continue;
		}
		struct timespec ts;
		if (ppoll(w.pfd, w.np, poll_timeout(next, now, &ts), NULL) <
		    0) {
			if (errno == EINTR)
				continue;
			return;
		}
		for (size_t k = 0; k < w.np; k++)
			if (w.pfd[k].revents)
				on_ready(&w, k, jobs, n, stopfd);
	}
}

void sbx_job_release(struct sbx_job *j)
{
	if (j->pidfd >= 0) {
		if (!j->exited)
			sbx_pidfd_send_signal(j->pidfd, SIGKILL);
		while (waitid((idtype_t)P_PIDFD, (id_t)j->pidfd, NULL,
			      WEXITED) < 0 &&
		       errno == EINTR)
			;
	}
	close_channels(j);
	sbx_close_fd(&j->io.in_fd);
	sbx_close_fd(&j->cmd_pidfd);
	sbx_close_fd(&j->exec_fd);
	sbx_notify_close(&j->nt);
	sbx_cgroup_remove(&j->cg);
	sbx_procev_close(&j->pe);
	sbx_kmem_close(&j->kmem);
	sbx_sink_close(&j->sink);
	sbx_cpu_track_free(&j->cpu_track);
	free(j->buf[0]);
	free(j->buf[1]);
	free(j->probe);
	sbx_capture_free(&j->cap);
	j->buf[0] = j->buf[1] = NULL;
	j->probe = NULL;
	j->len[0] = j->len[1] = 0;
}
