/*
 * sbx.h: the internal interface shared by the files of sbx.core.
 *
 * The Lua-facing files (box.c, mount.c, ns.c, caps.c, limit.c, filter.c,
 * landlock.c, ...) validate a spec and compile it into a struct sbx_plan
 * before any clone.  child.c runs the plan between clone and execve with raw
 * system calls only; supervise.c runs the event loop in the sbxlua process.
 */
#ifndef SBX_H
#define SBX_H

#include <lauxlib.h>
#include <linux/filter.h>
#include <lua.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <termios.h>

#define SBX_VERSION "0.1.0"
#define SBX_API __attribute__((visibility("default")))
#define SBX_LOCAL __attribute__((visibility("hidden")))

/* ---- the plan: everything the child needs, built before the clone ---- */

enum sbx_op {
	SBX_OP_TMPFS,	/* dst, data = mount options, attr */
	SBX_OP_BIND,	/* src (host, resolved) -> dst, attr, recursive */
	SBX_OP_PROC,	/* dst, attr */
	SBX_OP_DEV,	/* dst; data = options of dev/shm tmpfs */
	SBX_OP_MKDIR,	/* dst, mode */
	SBX_OP_SYMLINK, /* src = link text, dst */
	SBX_OP_FILE,	/* dst, data/datalen = contents, mode */
	SBX_OP_REMOUNT, /* dst (inside the box): bind onto itself, set attr */
	SBX_OP_HIDE,	/* dst (inside the box): cover with an empty ro node */
	SBX_OP_COUNT
};

#define SBX_MOUNT_OPTIONAL 1 /* a missing source or target is skipped */
#define SBX_MOUNT_ABSENT 2   /* an optional source missing at compile time */

struct sbx_mount {
	int op;
	int flags; /* SBX_MOUNT_* */
	const char *src;
	const char *dst;
	const char *data;
	size_t datalen;
	uint64_t attr; /* MOUNT_ATTR_* applied recursively */
	unsigned mode;
	/* SBX_OP_BIND: the source as the supervisor opened it at compile time;
	 * the child binds only that same file (device and inode) */
	dev_t src_dev;
	ino_t src_ino;
};

struct sbx_rlimit {
	int resource;
	struct rlimit lim;
};

#define SBX_MAX_RLIMITS 16
#define SBX_MAX_SYSCTLS 16

/* A sysctl of the box's own user namespace (/proc/sys/user/...), written
 * by init while it holds the namespace's capabilities. */
struct sbx_sysctl {
	const char *name; /* "user.max_inotify_instances", for the report */
	char path[64];	  /* "sys/user/max_inotify_instances", under proc */
	char value[24];	  /* decimal, as written */
};
#define SBX_MAX_LANDLOCK 64

struct sbx_landlock_rule {
	const char *path; /* inside the box */
	uint64_t access;
	int optional;
};

struct sbx_landlock {
	int abi; /* 0: no Landlock */
	uint64_t handled_fs;
	uint64_t handled_net;
	uint64_t scoped;
	size_t nrules;
	struct sbx_landlock_rule rules[SBX_MAX_LANDLOCK];
	size_t nports;
	struct {
		uint64_t port, access;
	} ports[16];
};

/* Stages a setup failure can be reported at: see sbx_stage_name(). */
enum sbx_stage {
	SBX_ST_NONE,
	SBX_ST_CLONE,
	SBX_ST_SYNC,
	SBX_ST_SETGROUPS,
	SBX_ST_SETID,
	SBX_ST_MOUNT,
	SBX_ST_PIVOT,
	SBX_ST_HOSTNAME,
	SBX_ST_NET,
	SBX_ST_REMOUNT_ROOT,
	SBX_ST_FORK,
	SBX_ST_SETSID,
	SBX_ST_STDIO,
	SBX_ST_CLOSE_FDS,
	SBX_ST_CWD,
	SBX_ST_RLIMIT,
	SBX_ST_CAPS,
	SBX_ST_NO_NEW_PRIVS,
	SBX_ST_LANDLOCK,
	SBX_ST_SECCOMP,
	SBX_ST_EXEC,
	SBX_ST_DUMPABLE,
	SBX_ST_SYSCTL,
	SBX_ST_METERS,
	SBX_ST_COUNT
};

struct sbx_plan {
	uint64_t nsflags; /* CLONE_NEW* */
	uid_t uid, host_uid;
	gid_t gid, host_gid;
	int caller_root; /* drop supplementary groups instead of deny */
	const char *hostname;
	/* tree: when root_opts is set, a tmpfs root is built and pivoted to */
	const char *root_opts;
	int ro_root;
	const struct sbx_mount *mounts;
	size_t nmounts;
	int net_lo;
	/* the command */
	const char *path;
	char *const *argv;
	char *const *envp;
	const char *cwd;
	struct sbx_rlimit rlimits[SBX_MAX_RLIMITS];
	size_t nrlimits;
	struct sbx_sysctl sysctls[SBX_MAX_SYSCTLS];
	size_t nsysctls;
	int no_new_privs; /* always 1 in a box; kept explicit for the report */
	int drop_caps;
	const struct sock_fprog *filter; /* NULL: no filter */
	unsigned filter_flags;		 /* SECCOMP_FILTER_FLAG_* */
	struct sbx_landlock landlock;
	int new_session;
	int ctty;  /* make stdin the controlling terminal (a box pty) */
	int probe; /* send the kernel's view of the command before exec */
	/* the supervisor follows the box's processes (procev.c): init waits
	 * for its answer after the command's status and at its end */
	int deaths_sync;
	int kmem; /* send the supervisor the meters of kmem.h (sampled) */
	/* descriptors, numbered as the child sees them before it moves them */
	int ctl_fd;
	int stdio[3];
	/* per mount, a detached tree of a bind's source the supervisor opened
	 * for this run (-1: none); NULL: the child opens the sources itself */
	const int *trees;
	int last_cap;
};

/* Messages on the control socket (SOCK_SEQPACKET, one per datagram). */
enum {
	SBX_MSG_GO = 1,
	SBX_MSG_CANNOT,
	SBX_MSG_STATUS,
	SBX_MSG_PROBE,
	SBX_MSG_EXEC,	/* the command's process is about to execve */
	SBX_MSG_DEATH,	/* a process init reaped died of a limit's signal:
			   the header, then a struct sbx_death */
	SBX_MSG_UNSEEN, /* index: deaths init did not send (past its cap) */
	SBX_MSG_REAPED, /* every process of the box has ended (deaths_sync);
			   the supervisor answers SBX_MSG_GO, status 1 to ask
			   for a search for a file at the box's size limit */
	SBX_MSG_FOUND,	/* status: SBX_DEATH_* flags of that search */
	SBX_MSG_METERS, /* descriptors of kmem.h's meters (SCM_RIGHTS) */
};
#define SBX_PROBE_MAX 65536 /* bytes of one probe datagram */
struct sbx_msg {
	int type;
	int stage;
	int err;
	int index;  /* mount or rlimit index for SBX_MSG_CANNOT, -1 if none */
	int status; /* wait status of the command for SBX_MSG_STATUS */
};

/*
 * How a process that init reaped died, with the kernel's own record of
 * what a limit would have left (child.c, reap): sent for deaths by the
 * signals a limit sends (SIGXCPU, SIGXFSZ, SIGKILL) and by SIGSYS.
 */
/* SBX_DEATH_* flags: the box's command; a regular file in a writable
 * mount of the box is at least fsize bytes; the search for it stopped
 * early (or was not made); seen by the proc connector (procev.c), not
 * reaped by init; its zombie was gone (pid, cpu, limits unknown). */
#define SBX_DEATH_COMMAND 1
#define SBX_DEATH_FILE_AT_LIMIT 2
#define SBX_DEATH_FILES_PARTIAL 4
#define SBX_DEATH_CONNECTOR 8
#define SBX_DEATH_UNREAD 16
#define SBX_DEATH_MAX 64 /* records a job keeps */
struct sbx_death {
	int pid;    /* in the box's pid namespace */
	int status; /* wait status */
	int flags;  /* SBX_DEATH_* */
	int pad;
	int64_t cpu_ns;	  /* its CPU time on the clock RLIMIT_CPU is checked
			     against (CPUCLOCK_PROF); -1: unknown */
	int64_t cpu_soft; /* its RLIMIT_CPU at death, seconds; -1: none or */
	int64_t cpu_hard; /* unknown (the kernel adds 1 s to the soft limit
			     each time it sends SIGXCPU) */
	int64_t fsize;	  /* its RLIMIT_FSIZE soft limit at death; -1 */
	char comm[16];	  /* its command name ("" unknown) */
};
struct sbx_death_msg { /* the datagram of SBX_MSG_DEATH */
	struct sbx_msg m;
	struct sbx_death d;
};

/* ---- supervise.c: running boxes ---- */
#include "cgroup.h" /* (it includes this file: the guard is set above) */
#include "kmem.h"
#include "procev.h"
#include "ttyfilter.h"

enum { SBX_OUT_CAPTURE, SBX_OUT_PASS, SBX_OUT_DISCARD };
enum {
	SBX_END_NONE,
	SBX_END_EXIT,	     /* the command exited */
	SBX_END_SIGNAL,	     /* the command was killed by a signal */
	SBX_END_WALL,	     /* the wall clock ran out: the box was killed */
	SBX_END_OUTPUT,	     /* an output stream passed its cap */
	SBX_END_CANNOT,	     /* the box could not be set up */
	SBX_END_LOST,	     /* init ended without saying how the command did */
	SBX_END_MEMORY,	     /* the sampler saw the memory limit passed, or
				the cgroup counted an OOM kill */
	SBX_END_TASKS,	     /* the sampler saw the task limit reached */
	SBX_END_INIT,	     /* init was killed after the command's execve */
	SBX_END_INTERRUPTED, /* sbxlua got SIGINT, SIGTERM or SIGHUP */
	SBX_END_CPU,	     /* the sampler saw the box's CPU budget used */
	SBX_END_COUNT
};

/* Where a box's cgroup comes from. */
enum { SBX_CGMODE_NONE, SBX_CGMODE_AUTO, SBX_CGMODE_PATH };

struct sbx_io {
	const char *in_data; /* stdin from memory (in_fd < 0) */
	size_t in_len;
	int in_fd;    /* stdin from a descriptor, relayed; -1: none */
	int in_pread; /* in_fd is a regular file, read from its start with
			 pread (its shared offset untouched) */
	int out_mode[2];
	size_t out_limit;   /* bytes per stream; 0: none */
	double wall;	    /* seconds; 0: none */
	int pty;	    /* stdio on a pseudo-terminal of the box's own */
	int no_proc_events; /* do not follow the box by the proc connector */
	int has_termios;    /* the box's pty starts with these settings */
	struct termios termios; /* (the caller's, taken before it went raw) */
	int tty_raw;	       /* output passed to a terminal goes unfiltered */
	uint64_t memory_limit; /* bytes, whole box: cgroup or sampled; 0 none */
	uint64_t task_limit;   /* tasks, whole box: cgroup or sampled */
	double cpu_limit;      /* seconds of CPU, whole box: sampled; 0 none */
	int cgroup;	       /* SBX_CGMODE_* */
	const char *cgroup_base; /* for SBX_CGMODE_PATH */
};

struct sbx_job {
	const struct sbx_plan *plan;
	struct sbx_io io;
	pid_t pid;
	int pidfd, ctl, in, out[2];
	size_t in_off;
	char *buf[2];
	size_t len[2], size[2], total[2];
	size_t sent[2]; /* bytes of buf already passed through */
	char last[2];	/* the last byte passed through ('\n' before any) */
	int eof[2], exited, done;
	double start, end;
	int end_kind;
	int status; /* wait status of the command (have_status) */
	int have_status;
	struct sbx_msg cannot; /* first setup failure (have_cannot) */
	int have_cannot;
	int init_status; /* si_status of init's end */
	int init_signal; /* the signal that killed init, else 0 */
	char inbuf[65536];
	size_t inbuf_len, inbuf_off;
	off_t in_pos; /* next pread offset of io.in_fd (io.in_pread) */
	int in_eof;
	char *probe; /* the probe datagram's text, after the header */
	size_t probe_len;
	/* from the probe: a pidfd of the command's process, and a pipe that
	 * reaches EOF at its execve (-1: none, or read already) */
	int cmd_pidfd, exec_fd;
	char box_ids[256]; /* the Uid: and Gid: lines of the probe's status */
	size_t box_ids_len;
	/* limits of the whole box */
	struct sbx_cgroup cg;
	int have_events;
	struct sbx_cgroup_events ev;
	uint64_t memory_peak;
	unsigned long tasks_peak;
	unsigned long samples;
	int execed; /* SBX_MSG_EXEC seen: the box's memory is its own */
	struct sbx_kmem kmem; /* the box's kernel memory, when sampled */
	double next_sample;
	double cpu; /* seconds of CPU used by the box (cgroup, or the larger
		       of the sampler's count and init's rusage) */
	struct sbx_cpu_track cpu_track; /* the sampler's count, no cgroup */
	double cpu_seen;    /* seconds: the highest CPU time sampled */
	double sample_cost; /* seconds of supervisor CPU per sample, smoothed */
	int cg_error;
	const char *cg_what;
	int stop_signal; /* SBX_END_INTERRUPTED: the signal sbxlua got */
	/* deaths that init reaped and recorded (SBX_MSG_DEATH), in order */
	struct sbx_death deaths[SBX_DEATH_MAX];
	int ndeaths;
	unsigned long deaths_unseen; /* past either cap */
	/* the proc connector: the deaths init does not see */
	struct sbx_procev pe;
	int deaths_sync;       /* init waits for the supervisor (plan) */
	double reaped_at;      /* init said every process ended; 0: not yet */
	int answered;	       /* the supervisor has answered that */
	int filter[2];	       /* passed to a terminal: through tf */
	struct sbx_ttyf tf[2]; /* (ttyfilter.c) */
	size_t tail[2];	       /* resets at the end of buf (not content) */
	char tail_last[2];     /* the last byte of content before them */
};

/* The cgroup base of this process, probed once (NULL: none usable). */
SBX_LOCAL const struct sbx_cgroup_base *sbx_cgroup_base(const char *explicit);

SBX_LOCAL void sbx_job_init(struct sbx_job *j);
/* Starts the box; returns 0, or -1 with errno (the job is then done, with
 * end_kind SBX_END_CANNOT and cannot.stage set). */
SBX_LOCAL int sbx_job_start(struct sbx_job *j, const struct sbx_plan *p,
			    const struct sbx_io *io);
/* SIGINT, SIGTERM and SIGHUP to sbxlua while boxes run (and SIGWINCH when
 * winch: a box's pty follows the caller's window): blocked and read from fd
 * (a signalfd; -1 when none could be made, the mask then untouched) by
 * sbx_jobs_wait, the previous mask restored by sbx_stop_release. */
struct sbx_stop {
	sigset_t old;
	int fd;
};
SBX_LOCAL void sbx_stop_own(struct sbx_stop *s, int winch);
SBX_LOCAL void sbx_stop_release(struct sbx_stop *s);
/* Supervises the started jobs until every one is done; a signal read from
 * stopfd (-1: none) kills every box still running (SBX_END_INTERRUPTED). */
SBX_LOCAL void sbx_jobs_wait(struct sbx_job **jobs, size_t n, int stopfd);
/* Kills and reaps a job still running; frees its buffers. Idempotent. */
SBX_LOCAL void sbx_job_release(struct sbx_job *j);
/* Keeps a death in the job's records (the command's always has a place). */
SBX_LOCAL void sbx_job_keep_death(struct sbx_job *j, const struct sbx_death *d);
SBX_LOCAL double sbx_now(void);

/* child.c: entered in the cloned child; never returns. */
SBX_LOCAL _Noreturn void sbx_child_main(const struct sbx_plan *p);
/* reap.c: init's reap loop once the command is forked; exits. */
SBX_LOCAL _Noreturn void sbx_init_reap(const struct sbx_plan *p, pid_t cmd);

/* ---- file.c: host files held by descriptor ---- */
#define SBX_FILE "sbx.file"
/* An input opened once by the supervisor (a checked regular file, or the
 * caller's own stdin as a stream); its name is user value 1. */
struct sbx_file {
	int fd;	    /* -1 once closed */
	int stream; /* read in sequence (the caller's stdin), not from 0 */
};

/* ---- spec.c, box.c: the sbx.box object ---- */
#define SBX_BOX "sbx.box"
/* A compiled spec (spec.c), run by box.c. */
struct sbx_box {
	struct sbx_plan plan;
	struct sbx_io io;
	const struct sbx_file *in_file; /* stdin, an sbx.file kept alive by
					   the anchor; dup'ed at each run */
	int closed;
	int has_filter;
};

struct stat;
/* fs.c: pushes { type, mode, uid, gid, size } */
SBX_LOCAL void sbx_push_stat(lua_State *L, const struct stat *st);

/* ---- shared helpers (util.c) ---- */
SBX_LOCAL int sbx_fail(lua_State *L, const char *what, const char *operand,
		       int err);
SBX_LOCAL const char *sbx_errno_name(int err);
SBX_LOCAL const char *sbx_signal_name(int sig);
SBX_LOCAL const char *sbx_stage_name(int stage);
SBX_LOCAL void sbx_check_keys(lua_State *L, int idx, const char *const *keys);
SBX_LOCAL int sbx_opt_bool(lua_State *L, int idx, const char *k, int def);
SBX_LOCAL lua_Integer sbx_opt_int(lua_State *L, int idx, const char *k,
				  lua_Integer def, lua_Integer min,
				  lua_Integer max);
SBX_LOCAL const char *sbx_opt_str(lua_State *L, int idx, const char *k,
				  const char *def);
SBX_LOCAL void *sbx_anchor(lua_State *L, int anchor, size_t size);
SBX_LOCAL const char *sbx_anchor_str(lua_State *L, int anchor, int idx);
SBX_LOCAL void sbx_anchor_value(lua_State *L, int anchor, int idx);
SBX_LOCAL void sbx_new_class(lua_State *L, const char *name,
			     const luaL_Reg *meta, const luaL_Reg *methods);

/* ---- per-area registration ---- */
SBX_LOCAL void sbx_open_util(lua_State *L);
SBX_LOCAL void sbx_open_ns(lua_State *L);
SBX_LOCAL void sbx_open_mount(lua_State *L);
SBX_LOCAL void sbx_open_caps(lua_State *L);
SBX_LOCAL void sbx_open_limit(lua_State *L);
SBX_LOCAL void sbx_open_filter(lua_State *L);
SBX_LOCAL void sbx_open_landlock(lua_State *L);
SBX_LOCAL void sbx_open_spec(lua_State *L);
SBX_LOCAL void sbx_open_box(lua_State *L);
SBX_LOCAL void sbx_open_fs(lua_State *L);
SBX_LOCAL void sbx_open_file(lua_State *L);
SBX_LOCAL void sbx_open_walk(lua_State *L);

/* ns.c */
SBX_LOCAL uint64_t sbx_ns_flags(lua_State *L, int idx);
/* mount.c: parse spec.mounts (a list) into an anchored array in p; raises
 * on misuse; returns -1 with errno and *bad = the host path that could not
 * be resolved */
SBX_LOCAL int sbx_mounts_parse(lua_State *L, int idx, int anchor,
			       struct sbx_plan *p, const char **bad);
/* mount.c: checks that a path inside the box is absolute and clean */
SBX_LOCAL const char *sbx_check_boxpath(lua_State *L, int idx,
					const char *what);
/* limit.c: parse spec.rlimits (a table name -> number) */
SBX_LOCAL void sbx_rlimits_parse(lua_State *L, int idx, struct sbx_plan *p);
/* limit.c: parse spec.sysctl (a table "user.NAME" or "kernel.shmmax"...
 * -> integer); *ipc: one of the IPC namespace's is named */
SBX_LOCAL void sbx_sysctls_parse(lua_State *L, int idx, int anchor,
				 struct sbx_plan *p, int *ipc);
/* caps.c */
SBX_LOCAL int sbx_last_cap(void);
/* filter.c: the compiled program of an sbx.filter at idx (raises) */
SBX_LOCAL const struct sock_fprog *sbx_filter_prog(lua_State *L, int idx);
/* landlock.c: parse spec.landlock into p->landlock (raises) */
SBX_LOCAL void sbx_landlock_parse(lua_State *L, int idx, int anchor,
				  struct sbx_landlock *ll);

SBX_API int luaopen_sbx_core(lua_State *L);

#endif
