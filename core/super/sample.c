/* SPDX-License-Identifier: MIT */
/*
 * sample.c: how many tasks a box has and how much memory they hold, read
 * by the supervisor every few milliseconds where no cgroup controller
 * enforces those limits.
 *
 * Membership: every process of a box descends from its init, which is the
 * reaper of the box's pid namespace, so orphans are re-parented to init (or
 * to a subreaper below it) and stay in the tree; the walk follows
 * /proc/<pid>/task/<tid>/children from init.  A process that is re-parented
 * while the walk runs can be missed by one sample and is seen by the next.
 * When the box has a cgroup, sbx_sample_cgroup reads cgroup.procs instead:
 * the kernel's own membership, one read, nothing to miss.  A scan of all of
 * /proc would cost in proportion to the host, not to the box.
 *
 * Memory: RssAnon + RssShmem of each process (from /proc/<pid>/status):
 * what the box itself made resident.  File-backed pages (program text,
 * libraries) are left out: the kernel can drop them, and counting them
 * would charge every process for the same shared libraries.  Shared memory
 * mapped by several processes of the box is counted once per process, an
 * overestimate that errs on the side of the limit.
 *
 * CPU (a box without a cgroup): utime, stime, cutime, cstime and starttime
 * of each process from /proc/<pid>/stat, summed two ways (struct
 * sbx_cpu_track in cgroup.h).  The walk reads a parent before its
 * children, so a child reaped while the walk runs is missed by this sample
 * (it is in the parent's cutime, read before), never counted twice.  With
 * a cgroup, cpu.stat's usage_usec is the kernel's own count for the whole
 * box, one read.
 *
 * Cost: the pid queue and the read buffer live on the stack; the CPU
 * table grows with the box (one allocation per doubling).  Per process:
 * one open+read+close of status and one of children (a multi-threaded
 * process: its task directory and one children file per thread), and one
 * of stat where the CPU is tracked; per process gone since the last sample,
 * one more of stat.
 */
#include "cgroup.h"
#include "fileio.h"
#include "kept.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>
struct walk {
	pid_t pid[SBX_SAMPLE_MAX];
	pid_t parent[SBX_SAMPLE_MAX]; /* expected PPid; 0: not checked */
	size_t n;
	int truncated;
	char buf[8192];
};

/* The walk of one sample, kept on the heap for the next (40 KiB, kept.h):
 * on the stack, every call below it would run as far down.  NULL when
 * there is no memory for it. */
static struct walk *walk_mem(void)
{
	static void *kept;
	struct walk *w = sbx_kept(&kept, sizeof *w);
	if (w) {
		w->n = 0;
		w->truncated = 0;
	}
	return w;
}

static void push(struct walk *w, pid_t pid, pid_t parent)
{
	if (w->n == SBX_SAMPLE_MAX) {
		w->truncated = 1;
		return;
	}
	w->pid[w->n] = pid;
	w->parent[w->n++] = parent;
}

/* Queues every pid of a whitespace-separated list read from fd; a number
 * may span two reads. */
static void read_pids(struct walk *w, int fd, pid_t parent)
{
	long v = -1;
	for (;;) {
		ssize_t n = read(fd, w->buf, sizeof w->buf);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		for (ssize_t i = 0; i < n; i++) {
			char c = w->buf[i];
			if (c >= '0' && c <= '9') {
				v = (v < 0 ? 0 : v * 10) + (c - '0');
			} else if (v >= 0) {
				push(w, (pid_t)v, parent);
				v = -1;
			}
		}
	}
	if (v >= 0)
		push(w, (pid_t)v, parent);
}

static void children_of(struct walk *w, pid_t pid, pid_t tid)
{
	char path[64];
	int fd;
	snprintf(path, sizeof path, "/proc/%d/task/%d/children", (int)pid,
		 (int)tid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return;
	read_pids(w, fd, pid);
	close(fd);
}

/* The children of every thread of pid (a child belongs to the thread that
 * forked it). */
static void children_of_threads(struct walk *w, pid_t pid)
{
	char path[64], dents[4096];
	pid_t tids[256];
	size_t nt = 0;
	long n;
	int fd;
	snprintf(path, sizeof path, "/proc/%d/task", (int)pid);
	fd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (fd < 0)
		return;
	/* collect first: children_of reuses w->buf, not dents */
	while ((n = syscall(SYS_getdents64, fd, dents, sizeof dents)) > 0) {
		for (long off = 0; off < n;) {
			/* struct linux_dirent64: ino, off, reclen, type, name
			 */
			unsigned short reclen;
			const char *name = dents + off + 19;
			memcpy(&reclen, dents + off + 16, sizeof reclen);
			if (name[0] >= '0' && name[0] <= '9') {
				if (nt == sizeof tids / sizeof tids[0]) {
					for (size_t i = 0; i < nt; i++)
						children_of(w, pid, tids[i]);
					nt = 0;
				}
				tids[nt++] = (pid_t)strtol(name, NULL, 10);
			}
			off += reclen;
		}
	}
	close(fd);
	for (size_t i = 0; i < nt; i++)
		children_of(w, pid, tids[i]);
}

static uint64_t kb_field(const char *s, const char *key)
{
	const char *p = strstr(s, key);
	return p ? strtoull(p + strlen(key), NULL, 10) * 1024 : 0;
}

/*
 * Reads /proc/<pid>/status into the sample.  Returns the thread count, 0
 * when the process is gone or is not the child expected (its pid was
 * reused after it exited).
 */
/*
 * The fields of /proc/<pid>/stat that the CPU count needs.  The command
 * name (field 2) is the program's to choose and may hold spaces and ')':
 * the fields are counted from the last ')'.
 */
struct stat_fields {
	long ppid;
	uint64_t own;	 /* utime + stime, ticks */
	uint64_t reaped; /* cutime + cstime, ticks */
	unsigned long long start;
};

static int read_stat(struct walk *w, pid_t pid, struct stat_fields *f)
{
	char path[64];
	const char *p;
	unsigned long long v[20];
	int k;
	snprintf(path, sizeof path, "/proc/%d/stat", (int)pid);
	if (sbx_read_once_at(AT_FDCWD, path, 0, w->buf, sizeof w->buf) <= 0)
		return -1;
	p = strrchr(w->buf, ')');
	if (!p)
		return -1;
	p++;
	/* field 3 (state) is token 0: ppid 1, utime 11, stime 12, cutime 13,
	 * cstime 14, starttime 19 */
	for (k = 0; k < 20; k++) {
		char *end;
		while (*p == ' ')
			p++;
		if (!*p)
			return -1;
		v[k] = strtoull(p, &end, 10);
		if (end == p) /* the state letter */
			while (*end && *end != ' ')
				end++;
		p = end;
	}
	f->ppid = (long)v[1];
	f->own = v[11] + v[12];
	f->reaped = v[13] + v[14];
	f->start = v[19];
	return 0;
}

/* The slot of pid in the table, or a free one to take it; NULL when the
 * table cannot grow (the process then counts in the live sum only). */
static struct sbx_cpu_task *track_slot(struct sbx_cpu_track *t, pid_t pid)
{
	size_t i;
	if (t->n + 1 > t->cap / 2) {
		size_t ncap = t->cap ? t->cap * 2 : 64;
		struct sbx_cpu_task *nt = calloc(ncap, sizeof *nt);
		if (!nt)
			return NULL;
		t->n = 0;
		for (size_t k = 0; k < t->cap; k++) {
			if (t->t[k].pid <= 0)
				continue;
			i = (size_t)t->t[k].pid & (ncap - 1);
			while (nt[i].pid)
				i = (i + 1) & (ncap - 1);
			nt[i] = t->t[k];
			t->n++;
		}
		free(t->t);
		t->t = nt;
		t->cap = ncap;
	}
	i = (size_t)pid & (t->cap - 1);
	while (t->t[i].pid && t->t[i].pid != pid)
		i = (i + 1) & (t->cap - 1);
	return &t->t[i];
}

static void track_seen(struct sbx_cpu_track *t, pid_t pid,
		       const struct stat_fields *f)
{
	struct sbx_cpu_task *e = track_slot(t, pid);
	if (!e)
		return;
	if (e->pid && e->start != f->start) {
		t->dead += e->ticks; /* gone, and its pid taken again */
		e->ticks = 0;
	}
	if (!e->pid)
		t->n++;
	e->pid = pid;
	e->start = f->start;
	e->gen = t->gen;
	if (f->own > e->ticks)
		e->ticks = f->own;
}

/*
 * After a walk: a process the walk did not see is either gone (its last
 * count moves to dead) or was missed (re-parented while the walk ran, or
 * past SBX_SAMPLE_MAX): its stat says which.  Returns the per-task sum.
 */
static uint64_t track_sweep(struct sbx_cpu_track *t, struct walk *w)
{
	uint64_t sum = t->dead;
	int removed = 0;
	for (size_t i = 0; i < t->cap; i++) {
		struct sbx_cpu_task *e = &t->t[i];
		struct stat_fields f;
		if (e->pid <= 0)
			continue;
		if (e->gen != t->gen) {
			if (read_stat(w, e->pid, &f) == 0 &&
			    f.start == e->start) {
				if (f.own > e->ticks)
					e->ticks = f.own;
			} else {
				t->dead += e->ticks;
				sum += e->ticks;
				e->pid = -1; /* a tombstone: probes go on */
				removed = 1;
				continue;
			}
		}
		sum += e->ticks;
	}
	if (removed) {
		/* drop the tombstones: the living entries into a new table
		 * (without memory, the tombstones stay, which is still right)
		 */
		struct sbx_cpu_task *nt = calloc(t->cap, sizeof *nt);
		if (nt) {
			t->n = 0;
			for (size_t i = 0; i < t->cap; i++) {
				size_t k;
				if (t->t[i].pid <= 0)
					continue;
				k = (size_t)t->t[i].pid & (t->cap - 1);
				while (nt[k].pid)
					k = (k + 1) & (t->cap - 1);
				nt[k] = t->t[i];
				t->n++;
			}
			free(t->t);
			t->t = nt;
		}
	}
	return sum;
}

void sbx_cpu_track_free(struct sbx_cpu_track *t)
{
	free(t->t);
	t->t = NULL;
	t->n = t->cap = 0;
}

static long sample_one(struct walk *w, pid_t pid, pid_t parent, int memory,
		       struct sbx_cpu_track *cpu, uint64_t *live,
		       struct sbx_sample *out)
{
	char path[64];
	const char *p;
	ssize_t n, got = 0;
	long threads;
	uint64_t anon, shmem;
	int fd;

	snprintf(path, sizeof path, "/proc/%d/status", (int)pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	/* status is made by one call of its show function: a read into a
	 * buffer larger than it returns all of it, so a short read is the
	 * end and saves the read that would return 0 */
	while ((size_t)got < sizeof w->buf - 1) {
		n = read(fd, w->buf + got, sizeof w->buf - 1 - (size_t)got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		got += n;
		if (got < 4096)
			break;
	}
	close(fd);
	w->buf[got] = '\0';
	if (parent && ((p = strstr(w->buf, "\nPPid:")) == NULL ||
		       strtol(p + 6, NULL, 10) != (long)parent))
		return 0;
	p = strstr(w->buf, "\nThreads:");
	if (!p)
		return 0;
	threads = strtol(p + 9, NULL, 10);
	if (threads < 1)
		threads = 1;
	/* a zombie has no Rss lines: it holds a pid and no memory */
	anon = memory ? kb_field(w->buf, "\nRssAnon:") : 0;
	shmem = memory ? kb_field(w->buf, "\nRssShmem:") : 0;
	out->processes++;
	out->tasks += (unsigned long)threads;
	out->rss_anon += anon;
	out->rss_shmem += shmem;
	out->memory += anon + shmem;
	if (cpu) {
		struct stat_fields f;
		/* the same process as status showed: a reused pid has
		 * another parent, or starts later than the table says */
		if (read_stat(w, pid, &f) == 0 &&
		    (!parent || f.ppid == parent)) {
			*live += f.own + f.reaped;
			track_seen(cpu, pid, &f);
		}
	}
	return threads;
}

int sbx_sample(pid_t init, int skip_init_memory, struct sbx_cpu_track *cpu,
	       struct sbx_sample *out)
{
	static long hz;
	struct walk *w = walk_mem();
	uint64_t live = 0;
	memset(out, 0, sizeof *out);
	if (init <= 0)
		return -EINVAL;
	if (!w)
		return -ENOMEM;
	if (cpu)
		cpu->gen++;
	push(w, init, 0);
	for (size_t i = 0; i < w->n; i++) {
		long threads =
		    sample_one(w, w->pid[i], w->parent[i],
			       !(i == 0 && skip_init_memory), cpu, &live, out);
		if (threads == 0) {
			if (i == 0)
				return -ESRCH;
			continue;
		}
		if (threads == 1)
			children_of(w, w->pid[i], w->pid[i]);
		else
			children_of_threads(w, w->pid[i]);
	}
	out->truncated = w->truncated;
	if (cpu) {
		uint64_t per_task = track_sweep(cpu, w);
		if (live > cpu->best)
			cpu->best = live;
		if (per_task > cpu->best)
			cpu->best = per_task;
		if (!hz)
			hz = sysconf(_SC_CLK_TCK);
		out->cpu = (double)cpu->best / (double)(hz > 0 ? hz : 100);
	}
	return 0;
}

int sbx_sample_cgroup_cpu(int cgfd, double *secs)
{
	char buf[512];
	const char *p;
	ssize_t n = sbx_read_once_at(cgfd, "cpu.stat", 0, buf, sizeof buf);
	if (n < 0)
		return (int)n;
	if (n == 0)
		return -EIO;
	p = strstr(buf, "usage_usec ");
	if (!p)
		return -EIO;
	*secs = (double)strtoull(p + 11, NULL, 10) / 1e6;
	return 0;
}

int sbx_sample_cgroup(int cgfd, pid_t skip_memory_of, struct sbx_sample *out)
{
	struct walk *w = walk_mem();
	int fd;
	memset(out, 0, sizeof *out);
	if (!w)
		return -ENOMEM;
	fd = openat(cgfd, "cgroup.procs", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	read_pids(w, fd, 0);
	close(fd);
	for (size_t i = 0; i < w->n; i++)
		sample_one(w, w->pid[i], 0, w->pid[i] != skip_memory_of, NULL,
			   NULL, out);
	out->truncated = w->truncated;
	return 0;
}
