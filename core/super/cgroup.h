/* SPDX-License-Identifier: MIT */
/*
 * cgroup.h: a cgroup v2 per box (cgroup.c) and sampling the processes of a
 * box from the supervisor (sample.c).
 *
 * Plain C helpers: no Lua, no exit; they return 0 or -errno.  The Lua
 * functions (core.cgroup_probe, core.cgroup_open, core.sample) are
 * registered by sbx_open_cgroup() and sbx_open_sample() (sbx.h).
 *
 * Use from the supervisor, in this order:
 *   sbx_cgroup_probe(base or NULL, &b)        once, before any box
 *   sbx_cgroup_create(&b, &lim, &cg)          per run, before clone3
 *   clone_args.flags |= CLONE_INTO_CGROUP; clone_args.cgroup = cg.fd
 *   sbx_sample(pid) or sbx_sample_cgroup(cg.fd) every few ms while it runs
 *   sbx_cgroup_kill(&cg)                      to end every process of it
 *   sbx_cgroup_events(&cg, &ev)               after the run: oom kills...
 *   sbx_cgroup_remove(&cg)                    after init has been reaped
 */
#ifndef SBX_CGROUP_H
#define SBX_CGROUP_H

#include "plan.h"

#include <limits.h>
#include <stdint.h>
#include <sys/types.h>

/* Controllers a box cgroup can use (bits of available / enabled). */
enum { SBX_CG_MEMORY = 1, SBX_CG_PIDS = 2, SBX_CG_CPU = 4 };

/* Where a base came from. */
enum { SBX_CGB_NONE, SBX_CGB_EXPLICIT, SBX_CGB_OWN, SBX_CGB_CREATED };

struct sbx_cgroup_base {
	int usable;	      /* boxes can be created under path */
	int v2;		      /* a cgroup v2 hierarchy is mounted */
	int source;	      /* SBX_CGB_* */
	int kill;	      /* cgroup.kill exists (Linux >= 5.14) */
	unsigned available;   /* SBX_CG_* listed in path/cgroup.controllers */
	unsigned enabled;     /* SBX_CG_* in path/cgroup.subtree_control: what
				 a box cgroup created under path can limit */
	char mount[PATH_MAX]; /* the cgroup v2 mount point, "" if none */
	char path[PATH_MAX];  /* the base directory, "" if none */
	char reason[512];     /* why unusable, or a note on what is missing */
};

/*
 * Finds a base: explicit (an absolute directory the operator named), else
 * the caller's own cgroup when it is delegated (not the hierarchy's root)
 * and writable, else, for root only, <v2 mount>/sbxlua, created if missing
 * with every available controller of memory, pids and cpu enabled in its
 * subtree_control (it never holds a process, so the kernel's "no internal
 * processes" rule allows that).  Returns 0 with *b filled (b->usable says
 * whether boxes can be created; b->reason says why not), or -errno when an
 * explicit base cannot be opened or /proc/self cannot be read.
 */
SBX_LOCAL int sbx_cgroup_probe(const char *explicit_base,
			       struct sbx_cgroup_base *b);

/* Limits of one box cgroup; 0 leaves a limit unset. */
struct sbx_cgroup_limits {
	uint64_t memory;	/* bytes: memory.max; swap 0, oom.group 1 */
	uint64_t pids;		/* pids.max: processes and threads */
	uint64_t cpu_quota_us;	/* cpu.max "quota period": a rate, */
	uint64_t cpu_period_us; /* not a budget; period 0 = 100000 */
};

struct sbx_cgroup {
	int fd;		  /* O_PATH|O_DIRECTORY: clone_args.cgroup */
	int base_fd;	  /* O_PATH|O_DIRECTORY of the base, for rmdir */
	unsigned limited; /* SBX_CG_* whose limit was written */
	const char *what; /* the file a failed create could not write */
	char name[48];	  /* box-<pid>-<n>, under the base */
};

/* Puts cg in the closed state (descriptors -1): call before create. */
SBX_LOCAL void sbx_cgroup_init(struct sbx_cgroup *cg);
/* Creates <base>/box-<unique> and writes each limit whose controller is
 * enabled (cg->limited says which were).  On failure nothing is left
 * behind, cg is closed and cg->what names the file that failed. */
SBX_LOCAL int sbx_cgroup_create(const struct sbx_cgroup_base *b,
				const struct sbx_cgroup_limits *lim,
				struct sbx_cgroup *cg);
/* Writes 1 to cgroup.kill: SIGKILL to every process of the cgroup. */
SBX_LOCAL int sbx_cgroup_kill(const struct sbx_cgroup *cg);
/* Moves an existing process into the cgroup (tests, REPL; a box should be
 * cloned into it instead, so that no instant runs outside). */
SBX_LOCAL int sbx_cgroup_attach(const struct sbx_cgroup *cg, pid_t pid);

/* Counters read after (or during) a run; -1 when the file is absent. */
struct sbx_cgroup_events {
	int64_t oom;	     /* memory.events oom: memory.max was hit */
	int64_t oom_kill;    /* memory.events oom_kill: processes killed */
	int64_t memory_peak; /* memory.peak, bytes */
	int64_t pids_max;    /* pids.events max: forks refused at pids.max */
	int64_t pids_current;
	int64_t cpu_usec;  /* cpu.stat usage_usec: CPU time of the group */
	int64_t populated; /* cgroup.events populated: 0 once empty */
};
SBX_LOCAL int sbx_cgroup_events(const struct sbx_cgroup *cg,
				struct sbx_cgroup_events *ev);
/* Removes the cgroup (rmdir, retried for up to 200 ms while the kernel
 * still counts exiting processes) and closes it; idempotent.  Call after
 * init is reaped; returns -EBUSY if processes remain. */
SBX_LOCAL int sbx_cgroup_remove(struct sbx_cgroup *cg);

/* ---- sample.c ---- */

#define SBX_SAMPLE_MAX 4096 /* processes followed per sample */

struct sbx_sample {
	unsigned long processes; /* thread groups found */
	unsigned long tasks;	 /* threads: Threads: summed */
	uint64_t memory;	 /* bytes: RssAnon + RssShmem summed */
	uint64_t rss_anon, rss_shmem;
	int truncated; /* more than SBX_SAMPLE_MAX processes: the
			  counts are lower bounds */
	double cpu;    /* seconds: the box's CPU time so far, a lower
			  bound (only with a struct sbx_cpu_track) */
};

/*
 * The CPU time of a box without a cgroup, kept from one sample to the next
 * (sbx_sample).  Two lower bounds of the CPU the box has used:
 *  - live: over the processes found, utime+stime (every thread, living and
 *    gone) plus cutime+cstime (the children each one waited for, with
 *    theirs); init's share holds every process it reaped.  A child that
 *    was never waited for (SIGCHLD ignored, SA_NOCLDWAIT) leaves no trace
 *    in any cutime: this sum can fall;
 *  - per task: every process ever seen at the utime+stime last read for
 *    it, those gone included (dead): it never falls, and never counts the
 *    children of a process twice.
 * best is the largest either ever was: monotone, and still a lower bound.
 * In clock ticks (sysconf(_SC_CLK_TCK)).
 */
struct sbx_cpu_task {
	pid_t pid;		  /* 0: a free slot */
	unsigned gen;		  /* the sample that last saw it */
	unsigned long long start; /* starttime: tells a reused pid */
	uint64_t ticks;		  /* utime+stime last read */
};
struct sbx_cpu_track {
	struct sbx_cpu_task *t; /* open addressing by pid; NULL: none yet */
	size_t n, cap;		/* cap: a power of two, or 0 */
	unsigned gen;
	uint64_t dead; /* ticks of the processes seen and gone since */
	uint64_t best; /* the bound: max over time of live and per task */
};
/* Frees the table; the counts stay.  Idempotent. */
SBX_LOCAL void sbx_cpu_track_free(struct sbx_cpu_track *t);

/* Samples the tree under the host pid init (init included), following
 * /proc/<pid>/task/<tid>/children.  -ESRCH once init is gone.  With
 * skip_init_memory, init's tasks count but not its memory: a box init is a
 * copy of the supervisor, whose pages it shares copy-on-write and never
 * uses, and counting them would charge the supervisor's size to the box.
 * With cpu (NULL: none), /proc/<pid>/stat of each process is read too and
 * out->cpu is the box's CPU time so far (struct sbx_cpu_track). */
SBX_LOCAL int sbx_sample(pid_t init, int skip_init_memory,
			 struct sbx_cpu_track *cpu, struct sbx_sample *out);
/* Samples the processes listed in cgroup.procs of the cgroup directory
 * cgfd (sbx_cgroup.fd): exact membership, no walk. */
SBX_LOCAL int sbx_sample_cgroup(int cgfd, pid_t skip_memory_of,
				struct sbx_sample *out);

/* The cgroup's CPU time (cpu.stat usage_usec) in seconds, into *secs. */
SBX_LOCAL int sbx_sample_cgroup_cpu(int cgfd, double *secs);

#endif
