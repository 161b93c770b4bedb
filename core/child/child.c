/* SPDX-License-Identifier: MIT */
/*
 * child.c: the box's init and the command's process, between clone and
 * execve: init's stages in order, then the command's steps.  What they
 * call lives beside it, under the same rules (child.h): the tree
 * (tree.c), the network namespace (net.c), what init hands to the
 * supervisor (handover.c), capabilities and Landlock (lock.c), the probe
 * (probe.c).
 *
 * Trust boundary.  This code runs in the freshly cloned box init (pid 1 of
 * the new pid namespace) and in the command's process forked from it.  It
 * reads only the plan compiled in the supervisor before the clone and makes
 * only raw system calls and async-signal-safe libc calls (no allocator, no
 * stdio, no Lua, no locks): a copy of a multi-threaded host's heap may hold
 * locks that would never be released.  Every step is checked; a failure is
 * sent to the supervisor as (stage, errno, index) and the process exits 126.
 * A box is never left half-built and running.
 *
 * Order in init: descriptors first (nothing of the host stays open), wait
 * for the supervisor to write the id maps, take the box's ids, build the
 * tree on a tmpfs and pivot into it, detach the host's root, make the root
 * read-only, hostname, lo; then init becomes undumpable, drops its own
 * capabilities and forks the command.  Order in the command's process:
 * session, stdio, cwd, rlimits, capabilities, no_new_privs, Landlock, the
 * probe, and the seccomp filter last: the filter governs the program, not
 * sbxlua, so after it nothing runs but execve (see step()).
 */
#include "child.h"

#include "affinity.h"

#include "compat.h"
#include "fileio.h"
#include "plan.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <time.h>

static void send_msg(int type, int stage, int err, int index, int status)
{
	struct sbx_msg m = {type, stage, err, index, status};
	ssize_t r;
	do
		r = send(CTL, &m, sizeof m, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
}

_Noreturn void sbx_die(int stage, int index)
{
	send_msg(SBX_MSG_CANNOT, stage, errno, index, 0);
	_exit(126);
}

/*
 * Writes the plan's sysctls, all of the box's own user namespace
 * (/proc/sys/user/..., checked when the plan was made), e.g. its inotify
 * limits: the kernel counts those per user namespace and again in every
 * parent, so a box held to a few instances cannot exhaust the host id's.
 *
 * Trust boundary: the procfs is a new one of the box's pid namespace,
 * attached nowhere, and each file is opened beneath it without following
 * any link; the value is the box's because /proc/sys/user is looked up in
 * the writer's user namespace, and the write succeeds because init holds
 * CAP_SYS_RESOURCE there.  It runs before the tree is built: the kernel
 * mounts a new procfs in a user namespace only where the mount namespace
 * already shows one fully (the host's, still here).  On failure *index is
 * the sysctl that failed.
 */
static int set_sysctls(const struct sbx_plan *p, int *index)
{
	int proc, fd, r = 0;

	*index = -1;
	proc = sbx_proc_fs();
	if (proc < 0)
		return -1;
	for (size_t i = 0; i < p->nsysctls && r == 0; i++) {
		const struct sbx_sysctl *c = &p->sysctls[i];
		struct open_how how = {
		    .flags = O_WRONLY | O_CLOEXEC | O_NOCTTY,
		    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			       RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
		};

		*index = (int)i;
		fd = sbx_openat2(proc, c->path, &how);
		if (fd < 0) {
			r = -1;
			break;
		}
		r = sbx_write_once(fd, c->value, strlen(c->value));
		if (r < 0)
			errno = -r;
		r = sbx_drop(fd, r < 0 ? -1 : 0);
	}
	if (r == 0)
		*index = -1;
	return r;
}

/* The hexadecimal mask after name (a line of /proc/self/status); -1 when
 * there is none. */
static int status_mask(const char *buf, const char *name,
		       unsigned long long *mask)
{
	const char *p = strstr(buf, name);
	int digits = 0;
	if (!p)
		return -1;
	p += strlen(name);
	while (*p == ' ' || *p == '\t')
		p++;
	*mask = 0;
	for (;; p++, digits++) {
		int v = *p >= '0' && *p <= '9'	 ? *p - '0'
			: *p >= 'a' && *p <= 'f' ? *p - 'a' + 10
						 : -1;
		if (v < 0)
			break;
		*mask = *mask << 4 | (unsigned long long)v;
	}
	return digits > 0 && digits <= 16 ? 0 : -1;
}

/* The signals whose action is not the default (/proc/self/status SigIgn
 * and SigCgt: ignored or caught); all of them when that cannot be read. */
static unsigned long long changed_signals(void)
{
	char buf[4096];
	unsigned long long ign, cgt;
	if (sbx_read_at(AT_FDCWD, "/proc/self/status", 0, buf, sizeof buf) <=
		0 ||
	    status_mask(buf, "\nSigIgn:", &ign) < 0 ||
	    status_mask(buf, "\nSigCgt:", &cgt) < 0)
		return ~0ULL;
	return ign | cgt;
}

/* Every signal's action back to the default (a handler of sbxlua's would
 * run its code in init, an ignored one would stay ignored across the
 * command's execve), none blocked: a call for each signal whose action is
 * not the default already, not one for each of the 64.  The raw call, as
 * the C library's refuses 32 and 33 (its own), which a caller may have
 * left ignored all the same. */
static void reset_signals(void)
{
	/* the kernel's struct sigaction: handler, flags, restorer, mask */
	struct {
		void *handler;
		unsigned long flags;
		void *restorer;
		unsigned long long mask;
	} dfl = {SIG_DFL, 0, NULL, 0};
	sigset_t none;
	unsigned long long set = changed_signals();
	for (int s = 1; s <= 64; s++)
		if (s != SIGKILL && s != SIGSTOP && (set >> (s - 1) & 1))
			syscall(SYS_rt_sigaction, s, &dfl, NULL,
				sizeof dfl.mask);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

/* Appends the contents of path to buf (at most room bytes, and a NUL
 * that the next text overwrites); returns the count.  A file that cannot be
 * read adds nothing. */
size_t sbx_slurp(const char *path, char *buf, size_t room)
{
	ssize_t n = sbx_read_at(AT_FDCWD, path, 0, buf, room + 1);
	return n < 0 ? 0 : (size_t)n;
}

/* The box's resource limits, set in init, which the command inherits. */
static void set_rlimits(const struct sbx_plan *p)
{
	for (size_t i = 0; i < p->nrlimits; i++)
		CHECK(setrlimit((__rlimit_resource_t)p->rlimits[i].resource,
				&p->rlimits[i].lim),
		      SBX_ST_RLIMIT, (int)i);
}

/* The offset of the box's clocks (make_time), in seconds: the command's
 * stamps are taken in its time namespace. */
static int64_t time_offset;

/* Whether init holds the session and the box's terminal, the command
 * leading the foreground process group as a shell's job does: a
 * following box on a pty (init_session). */
static int init_holds_tty(const struct sbx_plan *p)
{
	return p->follow && p->ctty && p->new_session;
}

/* The command's session and terminal.  Its own session, the box's own
 * pseudo-terminal its controlling one (never the caller's); or, where init
 * holds them (init_holds_tty), a process group of its own made the
 * terminal's foreground one (SIGTTOU blocked meanwhile: the command is in
 * the background until then): the command's exit then hangs nothing up,
 * and what it leaves in the background runs on, as after a shell's job
 * ends on a host (a leader's exit sends SIGHUP to the foreground group). */
static void cmd_session(const struct sbx_plan *p)
{
	if (init_holds_tty(p)) {
		sigset_t ttou;
		pid_t me = getpid();
		sigemptyset(&ttou);
		sigaddset(&ttou, SIGTTOU);
		CHECK(setpgid(0, 0), SBX_ST_SETSID, -1);
		CHECK(sigprocmask(SIG_BLOCK, &ttou, NULL), SBX_ST_STDIO, -1);
		CHECK(ioctl(0, TIOCSPGRP, &me), SBX_ST_STDIO, -1);
		CHECK(sigprocmask(SIG_UNBLOCK, &ttou, NULL), SBX_ST_STDIO, -1);
		return;
	}
	if (p->new_session)
		CHECK(setsid(), SBX_ST_SETSID, -1);
	if (p->ctty)
		CHECK(ioctl(0, TIOCSCTTY, 0), SBX_ST_STDIO, -1);
}

static int shares_memory(const struct sbx_plan *p);

/* The command's process: pid 2 of the box. */
static _Noreturn void step(const struct sbx_plan *p)
{
	struct sbx_msg failed = {SBX_MSG_CANNOT, SBX_ST_EXEC, 0, -1, 0};

	/* a copy of init is in the box's time namespace from its fork on;
	 * a process sharing init's memory enters it at its execve only */
	sbx_stamp_offset = shares_memory(p) ? 0 : time_offset * 1000000000;
	sbx_stamp(SBX_T_STEP);
	/* the signals and the resource limits are init's: every signal
	 * default (init_begin), none blocked, the plan's limits (seal_init),
	 * and init changes none of them before the fork */
	cmd_session(p);
	CHECK(chdir(p->cwd ? p->cwd : "/"), SBX_ST_CWD, -1);
	if (p->drop_caps) {
		/* securebits back to 0 while CAP_SETPCAP is still held */
		if (p->nsflags & CLONE_NEWUSER)
			CHECK(prctl(PR_SET_SECUREBITS, 0, 0, 0, 0), SBX_ST_CAPS,
			      -1);
		CHECK(sbx_drop_caps(p->last_cap, 1), SBX_ST_CAPS, -1);
	}
	if (p->no_new_privs)
		CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
		      SBX_ST_NO_NEW_PRIVS, -1);
	/* Landlock after no_new_privs (it requires it without CAP_SYS_ADMIN),
	 * seccomp last: the filter may refuse what the steps above use */
	sbx_stamp(SBX_T_LANDLOCK0);
	if (p->landlock.abi > 0)
		CHECK(sbx_apply_landlock(&p->landlock), SBX_ST_LANDLOCK, -1);
	sbx_stamp(SBX_T_LANDLOCK1);
	if (p->probe)
		sbx_send_probe();
	sbx_stamp(SBX_T_PROBE1);
	/* until now this process was a copy of the supervisor (its pages
	 * shared copy-on-write): the supervisor counts the box's memory from
	 * here on, where only the filter and execve are left */
	send_msg(SBX_MSG_EXEC, 0, 0, -1, 0);
	/*
	 * Trust boundary: the filter governs the program, not sbxlua.  From
	 * the seccomp call on, this process makes no system call but execve
	 * and, if execve fails, one write of its errno on the control socket
	 * (prepared before) and the exit: a profile that refuses or traps
	 * what the set-up used (sendmsg, readlink, openat, prctl...) cannot
	 * stop or confuse it.  A write the profile refuses loses only the
	 * errno of a failed execve: the report then says "exit 126" (or the
	 * trap's signal) instead of "cannot execute".
	 */
	if (p->filter && p->notify) {
		/*
		 * Trust boundary: pidfd_getfd needs ptrace access to this
		 * process.  It is still init's copy of the supervisor, made
		 * undumpable by init, with the supervisor's memory descriptor
		 * (of the host's user namespace, where an unprivileged
		 * supervisor has no CAP_SYS_PTRACE).  An unprivileged caller's
		 * box runs as the caller's own host uid: dumpable again, this
		 * process is open to that uid only (who owns the supervisor
		 * anyway) until the execve, which sets dumpable afresh.  A
		 * root caller needs none of it (CAP_SYS_PTRACE on the host),
		 * and its box's host id is never made able to read this copy.
		 */
		if (!p->caller_root)
			CHECK(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0),
			      SBX_ST_LISTENER, -1);
		sbx_announce_listener();
	}
	if (p->filter)
		CHECK((int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				   p->filter_flags, p->filter),
		      SBX_ST_SECCOMP, -1);
	sbx_stamp(SBX_T_EXECVE);
	execve(p->path, p->argv, p->envp);
	failed.err = errno;
	if (write(CTL, &failed, sizeof failed) < 0) {
		/* nothing more to try under the filter */
	}
	_exit(126);
}

/*
 * Init is a copy of the supervisor: its /proc/1/cmdline would show the
 * host's command line (paths, --env values) to the box.  The argument and
 * environment areas of this copy are private pages: zero them, then write
 * the plan's command line for init at the start of the argument area when
 * it fits (the area keeps its length: the kernel shows the zeros after
 * it).  Their bounds are fields 48 to 51 of /proc/self/stat (the host's
 * procfs, still mounted here), counted after the ")" that ends the
 * command name.  The name (/proc/1/comm) is the plan's too.
 */
static void wipe_args(const struct sbx_plan *p)
{
	char buf[2048];
	unsigned long v[4] = {0, 0, 0, 0};
	size_t n = sbx_slurp("/proc/self/stat", buf, sizeof buf - 1);
	char *c;
	int field = 2;
	buf[n] = '\0';
	c = strrchr(buf, ')');
	if (!c)
		return;
	for (c++; *c && field < 51; c++) {
		if (*c != ' ')
			continue;
		field++;
		if (field >= 48) {
			unsigned long x = 0;
			const char *d = c + 1;
			while (*d >= '0' && *d <= '9')
				x = x * 10 + (unsigned long)(*d++ - '0');
			v[field - 48] = x;
		}
	}
	if (v[0] && v[1] > v[0]) {
		size_t len = strlen(p->init_cmdline);
		memset((void *)v[0], 0, v[1] - v[0]);
		if (len && len < v[1] - v[0])
			memcpy((void *)v[0], p->init_cmdline, len);
	}
	if (v[2] && v[3] > v[2])
		memset((void *)v[2], 0, v[3] - v[2]);
	if (p->init_comm[0])
		(void)prctl(PR_SET_NAME, p->init_comm, 0, 0, 0);
}

/* no handler of the supervisor's (Lua's SIGINT hook) stays in init: as
 * pid 1 of its namespace, init then ignores every signal the box can send
 * it */
static void init_begin(const struct sbx_plan *p)
{
	sbx_stamp(SBX_T_CHILD);
	reset_signals();
	sbx_setup_fds(p);
	wipe_args(p);
}

/* the supervisor writes setgroups, uid_map and gid_map, then says go */
static void wait_go(const struct sbx_plan *p)
{
	struct sbx_msg go;
	ssize_t r;

	(void)p;
	do
		r = recv(CTL, &go, sizeof go, 0);
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof go || go.type != SBX_MSG_GO) {
		errno = r < 0 ? errno : EPIPE;
		sbx_die(SBX_ST_SYNC, -1);
	}
}

/* the network namespace is made here, not by the supervisor's clone
 * (start.c clone_box): its setup is the costliest of the namespaces,
 * and here it runs beside the supervisor, not in it.  Nothing before this
 * point uses the network. */
static void unshare_net(const struct sbx_plan *p)
{
	if (p->nsflags & CLONE_NEWNET)
		CHECK(unshare(CLONE_NEWNET), SBX_ST_NETNS, -1);
	if (p->root_opts && !p->trees)
		sbx_open_sources(p);
}

static void take_ids(const struct sbx_plan *p)
{
	if (!(p->nsflags & CLONE_NEWUSER))
		return;
	/* a root caller's supplementary groups (host gid 0) must not follow
	 * it into the box; an unprivileged caller's setgroups is denied
	 * before its gid_map, as the kernel requires */
	if (p->caller_root)
		CHECK((int)syscall(SYS_setgroups, 0, NULL), SBX_ST_SETGROUPS,
		      -1);
	/* keep the namespace's capabilities across the id change */
	CHECK(prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0),
	      SBX_ST_SETID, -1);
	/* raw calls: glibc's wrappers would signal the threads of the
	 * parent's copy, which do not exist here */
	CHECK((int)syscall(SYS_setresgid, p->gid, p->gid, p->gid), SBX_ST_SETID,
	      -1);
	CHECK((int)syscall(SYS_setresuid, p->uid, p->uid, p->uid), SBX_ST_SETID,
	      -1);
}

#ifndef CLONE_NEWTIME
#define CLONE_NEWTIME 0x00000080 /* unshare's; in clone it is CSIGNAL */
#endif

/* "name off 0\n" at out (off in decimal); returns the end */
static char *offset_line(char *out, const char *name, int64_t off)
{
	char digits[24];
	uint64_t v = off < 0 ? (uint64_t)-off : (uint64_t)off;
	int n = 0;
	while (*name)
		*out++ = *name++;
	*out++ = ' ';
	if (off < 0)
		*out++ = '-';
	do
		digits[n++] = (char)('0' + v % 10);
	while ((v /= 10) > 0);
	while (n > 0)
		*out++ = digits[--n];
	memcpy(out, " 0\n", 4); /* with its NUL */
	return out + 3;
}

/* The command's clocks: a time namespace whose CLOCK_BOOTTIME (and
 * /proc/uptime) and CLOCK_MONOTONIC start at the plan's uptime.  Its
 * offsets can be written only until a process is in it
 * (docs/kernel-notes.md), so init unshares it (its children enter it,
 * init stays in the host's) and writes them before its fork, with the
 * CAP_SYS_TIME it holds in the box's user namespace; before its ids
 * change (take_ids). */
static void make_time(const struct sbx_plan *p)
{
	struct timespec now;
	char line[96];
	int64_t off;
	int r, dumpable;

	if (!p->uptime)
		return;
	CHECK(unshare(CLONE_NEWTIME), SBX_ST_TIMENS, -1);
	CHECK(clock_gettime(CLOCK_BOOTTIME, &now), SBX_ST_TIMENS, -1);
	/* a root caller's init is cloned as the box's host id (start.c
	 * clone_as), undumpable since that id change: its /proc files are
	 * root's while it is; dumpable for this write only */
	dumpable = prctl(PR_GET_DUMPABLE, 0, 0, 0, 0);
	CHECK(dumpable, SBX_ST_TIMENS, -1);
	CHECK(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0), SBX_ST_TIMENS, -1);
	off = p->uptime - (int64_t)now.tv_sec;
	time_offset = off;
	offset_line(offset_line(line, "monotonic", off), "boottime", off);
	r = sbx_write_at(AT_FDCWD, "/proc/self/timens_offsets", line);
	CHECK(prctl(PR_SET_DUMPABLE, dumpable, 0, 0, 0), SBX_ST_TIMENS, -1);
	if (r < 0) {
		errno = -r;
		sbx_die(SBX_ST_TIMENS, -1);
	}
}

/* the box dies with its supervisor (set after the id change, which
 * clears it); a supervisor already gone has closed its end of CTL */
static void tie_to_supervisor(const struct sbx_plan *p)
{
	struct pollfd pf = {CTL, POLLIN, 0};

	(void)p;
	CHECK(prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), SBX_ST_SYNC, -1);
	sbx_stamp(SBX_T_IDS);
	if (poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR)))
		_exit(126);
}

static void set_kernel(const struct sbx_plan *p)
{
	if (p->nsysctls > 0) {
		int index;
		CHECK(set_sysctls(p, &index), SBX_ST_SYSCTL, index);
	}
	if (p->kmem)
		CHECK(sbx_open_meters(p), SBX_ST_METERS, -1);
}

static void make_net(const struct sbx_plan *p)
{
	if (p->hostname)
		CHECK(sethostname(p->hostname, strlen(p->hostname)),
		      SBX_ST_HOSTNAME, -1);
	if (p->net_lo)
		CHECK(sbx_lo_up(), SBX_ST_NET, -1);
	if (p->sink.on)
		CHECK(sbx_start_sink(&p->sink), SBX_ST_SINK, -1);
}

/* what the supervisor reads from the box it cannot open itself */
static void send_box(const struct sbx_plan *p)
{
	if (p->kmem)
		CHECK(sbx_send_meters(p), SBX_ST_METERS, -1);
	if (p->notify) /* the lock guard's places (lockguard.c) */
		sbx_send_locks(p);
	if (p->nplaces > 0 && p->root_opts)
		sbx_send_places(p);
}

/* the box's resource limits in init too, before the fork: its own (the
 * supervisor's, the caller's) would otherwise show in /proc/1/limits, and
 * the command inherits these; then init holds nothing of the host, and
 * cannot be read through /proc by the command (runc /proc/self/exe
 * class) */
static void seal_init(const struct sbx_plan *p)
{
	set_rlimits(p);
	CHECK(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), SBX_ST_DUMPABLE, -1);
	/* no pid namespace whose end takes the box (the process backend):
	 * init adopts whatever the command's tree orphans (a setsid, a double
	 * fork) and kills it at the end (reap.c kill_children) */
	if (!(p->nsflags & CLONE_NEWPID))
		CHECK(prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0),
		      SBX_ST_DUMPABLE, -1);
}

/*
 * The command's process shares init's memory until its execve, as
 * posix_spawn's does (CLONE_VM | CLONE_VFORK: init waits meanwhile), on a
 * stack of its own: no copy of init's page tables is made and torn down
 * again, about a millisecond a box on this machine kind (docs/performance.md).
 * What step() writes to memory (errno, the probe's buffer, the stamps'
 * offset) init does not read after.  Its tasks are its own: credentials,
 * descriptors, cwd, signal handlers, limits, Landlock and filter (none of
 * CLONE_FILES, CLONE_FS, CLONE_SIGHAND, CLONE_THREAD).  The dumpable flag
 * is the memory's, not the task's: where step() makes itself dumpable (an
 * unprivileged caller's notify box, for pidfd_getfd) it would make init
 * dumpable too, so that box forks a copy as before.
 */
static char cmd_stack[64 << 10] __attribute__((aligned(16)));

static int shares_memory(const struct sbx_plan *p)
{
	return !(p->filter && p->notify && !p->caller_root);
}

static int run_step(void *p)
{
	step(p);
}

/* Init's stages, run in this order, which is the trust boundary: ids
 * before PDEATHSIG, limits before the fork, DUMPABLE off before it.  Each
 * is a checked call or few; read top to bottom it is the list to review
 * against the async-signal-safe calls.  A stage that fails dies. */
/* Every CPU the supervisor may use, where it was kept on one (a batch's
 * worker, affinity.c): the command's processes, and init as they see it in
 * /proc/1/status, run as a program on the host does.  A set that cannot be
 * given back (a cpuset narrowed since) leaves init where it is. */
static void all_cpus(const struct sbx_plan *p)
{
	(void)p;
	(void)sbx_box_affinity();
}

static void (*const init_stages[])(const struct sbx_plan *) = {
    init_begin, wait_go,	   unshare_net, make_time,
    take_ids,	tie_to_supervisor, set_kernel,	sbx_make_tree,
    make_net,	send_box,	   seal_init,	all_cpus,
};

_Noreturn void sbx_child_main(const struct sbx_plan *p)
{
	pid_t cmd;

	for (size_t i = 0; i < sizeof init_stages / sizeof init_stages[0]; i++)
		init_stages[i](p);
	/* a following box's terminal is init's (cmd_session) */
	if (init_holds_tty(p)) {
		CHECK(setsid(), SBX_ST_SETSID, -1);
		CHECK(ioctl(0, TIOCSCTTY, 0), SBX_ST_STDIO, -1);
	}

	if (shares_memory(p))
		cmd = clone(run_step, cmd_stack + sizeof cmd_stack,
			    CLONE_VM | CLONE_VFORK | SIGCHLD, (void *)p);
	else
		cmd = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (cmd < 0)
		sbx_die(SBX_ST_FORK, -1);
	if (cmd == 0)
		step(p);

	/* init: no stdio, no capabilities; reap until the command ends */
	close(0);
	close(1);
	close(2);
	if (p->drop_caps)
		CHECK(sbx_drop_caps(p->last_cap, 0), SBX_ST_CAPS, -1);
	sbx_init_reap(p, cmd);
}
