/* SPDX-License-Identifier: MIT */
/*
 * plan.h: the child's contract.  The plan a box's init and command read
 * between clone and execve (child.c, reap.c), compiled by the supervisor
 * before the clone (spec.c, mount.c, limit.c, landlock.c, ...), and the
 * messages and stages they send back on the control socket.  Nothing here
 * needs Lua or the supervisor's state (job.h).
 */
#ifndef SBX_PLAN_H
#define SBX_PLAN_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>

#define SBX_API __attribute__((visibility("default")))
#define SBX_LOCAL __attribute__((visibility("hidden")))

/* ---- the plan: everything the child needs, built before the clone ---- */

/* The network sink (sink.h): the ports init listens on and hands over. */
#define SBX_SINK_PORTS 16		      /* ports per box */
#define SBX_SINK_FDS (1 + 2 * SBX_SINK_PORTS) /* UDP 53, TCP+UDP per port */

/* The sink of a plan (spec key `sink`). */
struct sbx_sink_plan {
	int on;
	uint32_t addr; /* the sink address (host order) */
	uint16_t ports[SBX_SINK_PORTS];
	int nports;
	const char *nxdomain; /* name suffixes answered NXDOMAIN, '\n'-joined */
};

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
	SBX_OP_SYSNET,	/* dst: a sysfs's network devices (the box's), ro */
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
	SBX_ST_NETNS,
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
	SBX_ST_SINK,
	SBX_ST_LISTENER, /* the explain channel's listener (notify.c) */
	SBX_ST_TIMENS,	 /* the command's time namespace (child.c) */
	SBX_ST_COUNT
};

struct sbx_plan {
	uint64_t nsflags; /* CLONE_NEW* */
	uid_t uid, host_uid;
	gid_t gid, host_gid;
	int caller_root; /* drop supplementary groups instead of deny */
	const char *hostname;
	/* s: CLOCK_BOOTTIME and CLOCK_MONOTONIC in the box at its start (a
	 * time namespace init makes for the command); 0: the host's */
	int64_t uptime;
	/* init's name (/proc/1/comm) and command line (/proc/1/cmdline, one
	 * word) in the box; "": sbxlua's name, an empty command line */
	char init_comm[16];
	char init_cmdline[64];
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
	int no_new_privs; /* 1 unless the spec sets no_new_privs = false */
	int drop_caps;
	const struct sock_fprog *filter; /* NULL: no filter */
	unsigned filter_flags;		 /* SECCOMP_FILTER_FLAG_* */
	/* the filter notifies: the command's process announces the number
	 * its listener will get (SBX_MSG_LISTENER), then loads the filter
	 * with SECCOMP_FILTER_FLAG_NEW_LISTENER */
	int notify;
	/* with notify: the length past which a private writable mmap is
	 * notified (the RLIMIT_DATA backstop of a sampled memory limit, which
	 * refuses it: the report names the limit); 0: none is */
	uint64_t gate_mmap;
	struct sbx_landlock landlock;
	int new_session;
	int ctty;  /* make stdin the controlling terminal (a box pty) */
	int probe; /* send the kernel's view of the command before exec */
	/* the supervisor follows the box's processes (procev.c): init waits
	 * for its answer after the command's status and at its end */
	int deaths_sync;
	/* the box ends when its last process has (or at the wall clock), not
	 * with the command: init kills nothing when the command ends, reaps
	 * until no process is left, and says which ran on (SBX_MSG_OUTLIVED);
	 * 0: what is left is killed when the command ends (the jail) */
	int follow;
	int kmem; /* send the supervisor the meters of kmem.h (sampled) */
	/* the box's written places (capture.c): init opens each once the
	 * tree is built and sends them (SBX_MSG_PLACES); the supervisor walks
	 * them after the box has ended */
	const char *const *places;
	size_t nplaces;		   /* at most SBX_PLACES_MAX */
	struct sbx_sink_plan sink; /* the network sink (sink.h) */
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
	SBX_MSG_EXEC,	  /* the command's process is about to execve */
	SBX_MSG_DEATH,	  /* a process init reaped died of a limit's signal:
			     the header, then a struct sbx_death */
	SBX_MSG_UNSEEN,	  /* index: deaths init did not send (past its cap) */
	SBX_MSG_REAPED,	  /* every process of the box has ended (deaths_sync);
			     the supervisor answers SBX_MSG_GO, status 1 to ask
			     for a search for a file at the box's size limit */
	SBX_MSG_FOUND,	  /* status: SBX_DEATH_* flags of that search */
	SBX_MSG_METERS,	  /* descriptors of kmem.h's meters (SCM_RIGHTS) */
	SBX_MSG_PLACES,	  /* an O_PATH descriptor of each written place that
			     init could open (SCM_RIGHTS, in the plan's order);
			     index: the bit mask of those places (capture.c) */
	SBX_MSG_SINK,	  /* the sink's listeners (sink.h, SCM_RIGHTS) */
	SBX_MSG_LISTENER, /* index: the descriptor number the listener will
			     get; a pidfd of the command's process attached */
	SBX_MSG_OUTLIVED, /* (follow) the processes left when the command
			     ended: index their count (-1 unknown), then a
			     struct sbx_outlived_msg's list */
	SBX_MSG_LOCKS,	  /* an O_PATH descriptor of each of the box's own
			     tmpfs places (SCM_RIGHTS), sent when the plan
			     notifies: the only file systems whose files the
			     lock guard lets the box lock (lockguard.c) */
};
#define SBX_LOCK_PLACES 16 /* tmpfs places of one box that may hold locks */
#define SBX_PLACES_MAX 16  /* written places per box */
/* SBX_MSG_METERS (kmem.h): index says which meters follow, in this order:
 * the sockets' two, the IPC namespace's three, then each tmpfs */
#define SBX_KMEM_TMPFS 16 /* tmpfs mounts counted per box */
#define SBX_KMEM_FDS (SBX_KMEM_TMPFS + 2 + 3)

enum { SBX_KMEM_SOCKETS = 1, SBX_KMEM_IPC = 2 };
enum { SBX_KMEM_SHM, SBX_KMEM_MSG, SBX_KMEM_SEM, SBX_KMEM_NIPC };
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

/* SBX_MSG_OUTLIVED: the processes of a following box (plan's follow) that
 * were alive when the command ended, as the box's /proc listed them: the
 * count, and the first SBX_OUTLIVED_NAMES by pid in the box and name;
 * then, in the room left, those already ended then (zombies: whether they
 * ended before the command or after it, before init looked, is unknown). */
#define SBX_OUTLIVED_NAMES 16
struct sbx_outlived_msg {
	struct sbx_msg m; /* index: the count; -1: unknown (no /proc) */
	int n;		  /* entries in p */
	struct {
		int pid;
		int ended; /* a zombie when init looked: not in the count */
		char comm[16];
	} p[SBX_OUTLIVED_NAMES];
};

/* spec.c: points the explain channel's gate at the head of a notifying
 * plan's filter at path, the address the step's execve passes. */
SBX_LOCAL void sbx_gate_point(struct sock_filter *f, const char *path);
/* spec.c: sets the gate's mmap length (plan's gate_mmap; 0: none). */
SBX_LOCAL void sbx_gate_mmap(struct sock_filter *f, uint64_t len);
/* plancopy.c: p and all it points to in one shared mapping of its own
 * (the clone's copy: the Lua heap is not copied into it), the slot *slot
 * (busy until sbx_plan_release).  NULL when it cannot be mapped (errno). */
SBX_LOCAL struct sbx_plan *sbx_plan_copy(const struct sbx_plan *p, int *slot);
/* plancopy.c: slot's mapping inherited by the next fork (inherit 1, just
 * before the box's clone) or by none (0, right after).  0, or -1 (errno). */
SBX_LOCAL int sbx_plan_fork(int slot, int inherit);
/* plancopy.c: slot free again, once the box that read it is reaped (all
 * its processes gone); *slot set to -1. */
SBX_LOCAL void sbx_plan_release(int *slot);
/* child.c: entered in the cloned child; never returns. */
SBX_LOCAL _Noreturn void sbx_child_main(const struct sbx_plan *p);
/* reap.c: init's reap loop once the command is forked; exits. */
SBX_LOCAL _Noreturn void sbx_init_reap(const struct sbx_plan *p, pid_t cmd);

#endif
