/* SPDX-License-Identifier: MIT */
/*
 * reap.c: the box init's last part, after it has forked the command: it
 * reaps the box's processes and records how they ended.
 *
 * This runs in the box's init, a copy of the supervisor made by clone: the
 * rules of child.h hold (raw system calls and async-signal-safe libc calls
 * over static or stack buffers; no allocator, no stdio, no Lua).  Init has
 * dropped its capabilities and is undumpable; it reads only what the
 * kernel keeps of its own dead children and the box's writable files, and
 * writes only to the control socket.
 */
#include "compat.h"
#include "fileio.h"
#include "plan.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>

#define CTL 3 /* the control socket (child.c puts it there) */

static void send_msg(int type, int index, int status)
{
	struct sbx_msg m = {type, 0, 0, index, status};
	ssize_t r;
	do
		r = send(CTL, &m, sizeof m, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
}

/*
 * Init reaps every process of the box that its own parent does not: the
 * command, orphans, and, once the command has ended, every process left
 * (killed by init; in a following box, p->follow, not killed: reaped as
 * each ends, and init's end, no child left, is the box's).  For a death by a
 * signal a limit sends, it reads the kernel's own record of the dead process
 * before reaping it (the zombie still holds it) and sends it to the supervisor,
 * which names a limit only on that record: a signal says nothing of its sender
 * (the kernel sends SIGXFSZ as SI_USER from the writer itself, and the sender
 * of any signal is visible only to the process that gets it).
 *
 * - CPU: the process's CPU time on CPUCLOCK_PROF, the very clock the
 *   kernel compares with RLIMIT_CPU (tick-based utime + stime; wait4's
 *   rusage is the scheduler's time scaled, which can read a little less),
 *   and its RLIMIT_CPU as it is at death.
 * - file size: its RLIMIT_FSIZE at death, and whether a regular file of a
 *   writable mount of the box has reached that size.  The kernel sends
 *   SIGXFSZ for a write that starts at or past the limit, after cutting the
 *   write before it to end exactly there: a file that long is what a
 *   sequential writer leaves.  A file deleted or written with a seek past
 *   the limit leaves none; the search is bounded and says when it stopped.
 *
 * All of it is raw calls over static buffers: init runs no allocator.
 *
 * A process reaped by its own parent never reaches init: the supervisor
 * sees it by the proc connector (procev.c).  Then (p->deaths_sync) init
 * waits for the supervisor after sending the command's status (the events
 * queued before then came before init's kill of what is left), and at its
 * end, every process gone and the box's mounts still there, it says so and
 * searches them for a file at the box's file size limit if the supervisor
 * asks (end_sync).
 */
#define DEATH_SENT_MAX 256 /* records init sends per run */
#define WALK_DEPTH 16
#define WALK_ENTRIES 65536

static int death_signal(int sig)
{
	return sig == SIGXCPU || sig == SIGXFSZ || sig == SIGKILL ||
	       sig == SIGSYS;
}

/* 1: a regular file of at least size bytes under dir; 0: none; -1: none
 * found, but the search stopped early somewhere */
static int walk_size(int dir, int64_t size, int depth, long *budget)
{
	char buf[2048];
	int r = 0;
	for (;;) {
		long n = syscall(SYS_getdents64, dir, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -1 : r;
		for (long off = 0; off < n;) {
			const struct dirent64 *d = (const void *)(buf + off);
			const char *name = d->d_name;
			struct stat st;
			int sub, s;
			off += d->d_reclen;
			if (name[0] == '.' &&
			    (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			if (--*budget < 0)
				return -1;
			if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				r = -1;
				continue;
			}
			if (S_ISREG(st.st_mode) && st.st_size >= size)
				return 1;
			if (!S_ISDIR(st.st_mode))
				continue;
			if (depth + 1 >= WALK_DEPTH) {
				r = -1;
				continue;
			}
			sub = openat(dir, name,
				     O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					 O_CLOEXEC);
			if (sub < 0) {
				r = -1;
				continue;
			}
			s = walk_size(sub, size, depth + 1, budget);
			close(sub);
			if (s == 1)
				return 1;
			if (s < 0)
				r = -1;
		}
	}
}

/* Searches the writable mounts of the box (tmpfs and binds without
 * read-only, the shm of a /dev) for a regular file of at least size
 * bytes; returns SBX_DEATH_* flags. */
static int file_at_limit(const struct sbx_plan *p, int64_t size)
{
	char path[4096];
	long budget = WALK_ENTRIES;
	int partial = 0;
	if (!p->root_opts)
		return SBX_DEATH_FILES_PARTIAL; /* no tree of the box's own */
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct sbx_mount *m = &p->mounts[i];
		const char *dst = m->dst;
		int fd, r;
		if (m->op == SBX_OP_DEV) {
			size_t l = strlen(m->dst);
			if (l + 5 > sizeof path)
				continue;
			memcpy(path, m->dst, l);
			memcpy(path + l, "/shm", 5);
			dst = path;
		} else if (!((m->op == SBX_OP_TMPFS || m->op == SBX_OP_BIND) &&
			     !(m->attr & MOUNT_ATTR_RDONLY) &&
			     !(m->flags & SBX_MOUNT_ABSENT))) {
			continue;
		}
		fd = open(dst, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0) {
			partial = 1;
			continue;
		}
		r = walk_size(fd, size, 0, &budget);
		close(fd);
		if (r == 1)
			return SBX_DEATH_FILE_AT_LIMIT;
		if (r < 0)
			partial = 1;
	}
	return partial ? SBX_DEATH_FILES_PARTIAL : 0;
}

/* The box's own /proc, or NULL (a box without one: the host's /proc, if
 * it sees one, names the host's processes, not the box's pids). */
static const char *proc_dir(const struct sbx_plan *p)
{
	if (!p->root_opts)
		return NULL;
	for (size_t i = 0; i < p->nmounts; i++)
		if (p->mounts[i].op == SBX_OP_PROC)
			return p->mounts[i].dst;
	return NULL;
}

/* Reads what the kernel keeps of the zombie pid (not yet reaped). */
static void read_death(const struct sbx_plan *p, pid_t pid, int sig,
		       struct sbx_death *d)
{
	const char *proc = proc_dir(p);
	struct rlimit rl;
	memset(d, 0, sizeof *d);
	d->pid = (int)pid;
	d->cpu_ns = d->cpu_soft = d->cpu_hard = d->fsize = -1;
	d->cpu_ns = sbx_process_cpu_ns(pid);
	if (syscall(SYS_prlimit64, pid, RLIMIT_CPU, NULL, &rl) == 0) {
		if (rl.rlim_cur != RLIM_INFINITY)
			d->cpu_soft = (int64_t)rl.rlim_cur;
		if (rl.rlim_max != RLIM_INFINITY)
			d->cpu_hard = (int64_t)rl.rlim_max;
	}
	if (syscall(SYS_prlimit64, pid, RLIMIT_FSIZE, NULL, &rl) == 0 &&
	    rl.rlim_cur != RLIM_INFINITY)
		d->fsize = (int64_t)rl.rlim_cur;
	if (proc) {
		char path[4200], *w = path;
		size_t l = strlen(proc);
		ssize_t n;
		char num[16], *q = num + sizeof num;
		unsigned v = (unsigned)pid;
		if (l + 32 > sizeof path)
			goto done;
		memcpy(w, proc, l);
		w += l;
		*w++ = '/';
		do
			*--q = (char)('0' + v % 10);
		while (v /= 10);
		memcpy(w, q, (size_t)(num + sizeof num - q));
		w += num + sizeof num - q;
		memcpy(w, "/comm", 6);
		n = sbx_read_once_at(AT_FDCWD, path, 0, d->comm,
				     sizeof d->comm);
		if (n > 0 && d->comm[n - 1] == '\n')
			d->comm[n - 1] = '\0';
	}
done:
	if (sig == SIGXFSZ && d->fsize >= 0)
		d->flags |= file_at_limit(p, d->fsize);
}

static void send_death(struct sbx_death *d)
{
	struct sbx_death_msg b;
	ssize_t r;
	memset(&b, 0, sizeof b);
	b.m.type = SBX_MSG_DEATH;
	b.m.index = -1;
	b.d = *d;
	do
		r = send(CTL, &b, sizeof b, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
}

/*
 * The reap loop of init.  Each child is looked at before it is reaped
 * (WNOWAIT), so that its record is still there.  When the command ends,
 * its status goes to the supervisor at once; then, in a pid namespace of
 * the box's own, init kills what is left (as its own exit would) and
 * reaps all of it, so that a process that died of a limit just before is
 * still recorded; those that die of that kill are not.  A following box
 * (p->follow, the analysis box) is the one place that decides otherwise:
 * init says what is left (send_outlived) and goes on reaping until no
 * process is left, every death recorded as before the command's end;
 * only the supervisor's kill (the wall clock, a limit, a stop) ends it
 * sooner, and init dies first of that kill.
 */
/* The wait status of a zombie from the siginfo of waitid(WNOWAIT). */
static int wait_status(const siginfo_t *si)
{
	switch (si->si_code) {
	case CLD_EXITED:
		return (si->si_status & 0xff) << 8;
	case CLD_DUMPED:
		return (si->si_status & 0x7f) | 0x80;
	default:
		return si->si_status & 0x7f;
	}
}

/* Waits for the supervisor's one answer (any message, or the end of its
 * socket); returns its status field (0 when none). */
static int await_supervisor(void)
{
	struct sbx_msg m;
	ssize_t r;
	do
		r = recv(CTL, &m, sizeof m, 0);
	while (r < 0 && errno == EINTR);
	return r == (ssize_t)sizeof m ? m.status : 0;
}

/*
 * The box's end, when the supervisor follows its processes by the proc
 * connector (p->deaths_sync): every process of the box has ended, and the
 * box's mounts live as long as init does.  Init says so and waits for one
 * answer: whether a process init did not reap died of SIGXFSZ.  If one
 * did, it searches the writable mounts for a file at the box's file size
 * limit (the plan's RLIMIT_FSIZE) and sends what it found.
 */
static void end_sync(const struct sbx_plan *p)
{
	int64_t size = -1;
	send_msg(SBX_MSG_REAPED, -1, 0);
	if (!await_supervisor())
		return;
	for (size_t i = 0; i < p->nrlimits; i++)
		if (p->rlimits[i].resource == RLIMIT_FSIZE &&
		    p->rlimits[i].lim.rlim_cur != RLIM_INFINITY)
			size = (int64_t)p->rlimits[i].lim.rlim_cur;
	send_msg(SBX_MSG_FOUND, -1,
		 size < 0 ? SBX_DEATH_FILES_PARTIAL : file_at_limit(p, size));
}

/*
 * A box without a pid namespace of its own (the process backend) has no
 * init whose death ends it: init is instead the subreaper of the command's
 * tree (child.c), so whatever the command left behind (a child that called
 * setsid, a double fork, another process group) is init's child once its
 * parent is gone.  At the end init kills every child it has, again after
 * each death, until none is left: a child that forked before its SIGKILL
 * landed leaves orphans that come back to init and die in the next round.
 * The list is the kernel's (/proc/thread-self/children: init has one
 * thread).
 */
static void kill_children(void)
{
	char list[4096];
	long pid = 0;
	if (sbx_read_at(AT_FDCWD, "/proc/thread-self/children", 0, list,
			sizeof list) <= 0)
		return;
	for (const char *c = list;; c++) {
		if (*c >= '0' && *c <= '9') {
			pid = pid * 10 + (*c - '0');
			continue;
		}
		/* each pid is followed by a space: a number the buffer cut is
		 * never taken for a pid (another round kills it) */
		if (*c == ' ' && pid > 1)
			kill((pid_t)pid, SIGKILL);
		pid = 0;
		if (!*c)
			break;
	}
}

/* The decimal digits of a /proc entry's name as a pid; 0 when not one. */
static int pid_of_name(const char *s)
{
	int v = 0;
	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 99999999)
			return 0;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/* The process name (a /proc entry under dir): 1 alive, 2 a zombie, 0
 * gone; its name from its stat: "pid (comm) S ...", the comm the box
 * chose (it may hold ')' or spaces: the last ')' ends it). */
static int proc_comm(int dir, const char *name, char comm[16])
{
	char path[32], buf[512];
	size_t l = strlen(name);
	ssize_t n;
	const char *open_p, *close_p;
	if (l + 6 > sizeof path)
		return 0;
	memcpy(path, name, l);
	memcpy(path + l, "/stat", 6);
	n = sbx_read_once_at(dir, path, O_NOFOLLOW, buf, sizeof buf - 1);
	if (n <= 0)
		return 0; /* gone already */
	buf[n] = '\0';
	open_p = strchr(buf, '(');
	close_p = strrchr(buf, ')');
	if (!open_p || !close_p || close_p < open_p || close_p[1] != ' ')
		return 0;
	l = (size_t)(close_p - open_p - 1);
	if (l > 15)
		l = 15;
	memcpy(comm, open_p + 1, l);
	comm[l] = '\0';
	return close_p[2] == 'Z' || close_p[2] == 'X' ? 2 : 1;
}

/* The zombies send_outlived saw (processes that had ended when the
 * command's end was looked at: not counted as running on) and their
 * names; init's own memory, no allocator. */
static pid_t zombies[SBX_OUTLIVED_NAMES];
static char zombie_comm[SBX_OUTLIVED_NAMES][16];
static unsigned nzombies;

/*
 * A following box (p->follow), once the command has ended: the processes
 * still alive in it, from the box's own /proc (init and the command
 * left out), sent to the supervisor (SBX_MSG_OUTLIVED) with the first
 * names, then those that had ended by then (zombies, named for the tree:
 * before the command or after it, unknown).  Without a /proc of the box's own
 * the count is unknown (-1), unless init has no child at all (then none is
 * left: every process of the box would be init's, or a descendant of one of
 * init's).
 */
static void send_outlived(const struct sbx_plan *p, pid_t cmd)
{
	struct sbx_outlived_msg o;
	const char *proc = proc_dir(p);
	char buf[2048];
	int dir, count = 0;
	ssize_t r;
	memset(&o, 0, sizeof o);
	o.m.type = SBX_MSG_OUTLIVED;
	dir = proc && (p->nsflags & CLONE_NEWPID)
		  ? open(proc, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
		  : -1;
	if (dir < 0) {
		siginfo_t si;
		memset(&si, 0, sizeof si);
		count =
		    waitid(P_ALL, 0, &si, WEXITED | WNOHANG | WNOWAIT) < 0 &&
			    errno == ECHILD
			? 0
			: -1;
	}
	for (long n; dir >= 0;) {
		n = syscall(SYS_getdents64, dir, buf, sizeof buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (long off = 0; off < n;) {
			const struct dirent64 *d = (const void *)(buf + off);
			int pid = pid_of_name(d->d_name), st;
			char comm[16];
			off += d->d_reclen;
			if (pid <= 1 || pid == cmd)
				continue;
			st = proc_comm(dir, d->d_name, comm);
			if (st == 2 && nzombies < SBX_OUTLIVED_NAMES) {
				memcpy(zombie_comm[nzombies], comm,
				       sizeof comm);
				zombies[nzombies++] = pid;
			}
			if (st != 1)
				continue;
			if (o.n < SBX_OUTLIVED_NAMES) {
				o.p[o.n].pid = pid;
				memcpy(o.p[o.n].comm, comm, sizeof comm);
				o.n++;
			}
			count++;
		}
	}
	if (dir >= 0)
		close(dir);
	/* the ended ones in the room left: names for the tree */
	for (unsigned i = 0; i < nzombies && o.n < SBX_OUTLIVED_NAMES; i++) {
		o.p[o.n].pid = zombies[i];
		o.p[o.n].ended = 1;
		memcpy(o.p[o.n].comm, zombie_comm[i], sizeof zombie_comm[i]);
		o.n++;
	}
	o.m.index = count;
	do
		r = send(CTL, &o, sizeof o, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
}

/*
 * A following box, after the command's end: a process init is about to
 * reap (an orphan: a daemon, its first fork), by pid and name as its
 * zombie's stat says, added to what ran on (SBX_MSG_OUTLIVED, stage 1)
 * unless it was a zombie already when send_outlived looked.  The snapshot
 * of send_outlived can miss a daemon that acted and ended at once; every
 * orphan's end comes to init, whatever its timing.  At most
 * SBX_OUTLIVED_NAMES (*sent counts them).
 */
static void send_reaped(const struct sbx_plan *p, pid_t pid, unsigned *sent)
{
	struct sbx_outlived_msg o;
	const char *proc = proc_dir(p);
	char name[16], *q = name + sizeof name;
	unsigned v = (unsigned)pid;
	int dir;
	ssize_t r;
	if (!proc || !(p->nsflags & CLONE_NEWPID) ||
	    *sent >= SBX_OUTLIVED_NAMES)
		return;
	for (unsigned i = 0; i < nzombies; i++)
		if (zombies[i] == pid)
			return;
	memset(&o, 0, sizeof o);
	*--q = '\0';
	do
		*--q = (char)('0' + v % 10);
	while (v /= 10);
	dir = open(proc, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return;
	if (proc_comm(dir, q, o.p[0].comm)) {
		o.m.type = SBX_MSG_OUTLIVED;
		o.m.stage = 1;
		o.n = 1;
		o.p[0].pid = (int)pid;
		do
			r = send(CTL, &o, sizeof o, MSG_NOSIGNAL);
		while (r < 0 && errno == EINTR);
		++*sent;
	}
	close(dir);
}

/*
 * The command is reaped last of its own death's steps: where the
 * supervisor verifies the report (p->probe) it reads the command's status
 * from outside after the execve, and a command that ended at once (a
 * /bin/true) must still be there to be read.  Its zombie keeps that status
 * until the supervisor answers.
 */
_Noreturn void sbx_init_reap(const struct sbx_plan *p, pid_t cmd)
{
	int own_ns = (p->nsflags & CLONE_NEWPID) != 0, ending = 0, status;
	int ran_on = 0; /* a following box's command has ended */
	unsigned sent = 0, unseen = 0, named = 0;
	for (;;) {
		siginfo_t si;
		struct sbx_death d;
		int sig = 0, keep, is_cmd;
		pid_t w;
		if (ending && !own_ns)
			kill_children();
		memset(&si, 0, sizeof si);
		if (waitid(P_ALL, 0, &si, WEXITED | WNOWAIT) < 0) {
			if (errno == EINTR)
				continue;
			break; /* ECHILD: nobody left */
		}
		is_cmd = si.si_pid == cmd;
		if (is_cmd && p->follow && !ran_on) {
			/* what lives now ran on: looked at first, since a
			 * daemon can act and end while init reports the
			 * command's end and waits for the supervisor */
			send_outlived(p, cmd);
			ran_on = 1;
		} else if (ran_on && !is_cmd) {
			send_reaped(p, si.si_pid, &named);
		}
		if (si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED)
			sig = si.si_status;
		keep = death_signal(sig) && !(ending && sig == SIGKILL);
		if (keep && !is_cmd && sent >= DEATH_SENT_MAX) {
			keep = 0;
			unseen++;
		}
		if (keep)
			read_death(p, si.si_pid, sig, &d);
		if (is_cmd && p->probe) {
			status = wait_status(&si);
			w = cmd;
		} else {
			do
				w = waitpid(si.si_pid, &status, 0);
			while (w < 0 && errno == EINTR);
			if (w < 0)
				continue;
		}
		if (keep) {
			d.status = status;
			if (is_cmd)
				d.flags |= SBX_DEATH_COMMAND;
			send_death(&d);
			sent++;
		}
		if (!is_cmd)
			continue;
		send_msg(SBX_MSG_STATUS, -1, status);
		if (p->deaths_sync && !p->probe)
			await_supervisor();
		if (p->probe) {
			await_supervisor();
			while (waitpid(cmd, &status, 0) < 0 && errno == EINTR)
				;
		}
		if (p->follow) {
			/* the box lives on while any process does: init
			 * reaps each, and its own end (ECHILD) is the box's */
			continue;
		}
		ending = 1;
		if (!own_ns) {
			kill_children();
			continue;
		}
		/* pid 1 of the box's own namespace: -1 is the box */
		kill(-1, SIGKILL);
	}
	if (unseen)
		send_msg(SBX_MSG_UNSEEN, (int)unseen, 0);
	if (own_ns && p->deaths_sync)
		end_sync(p);
	_exit(0);
}
