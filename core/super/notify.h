/* SPDX-License-Identifier: MIT */
/*
 * notify.h: the explain channel.  A profile whose action is "notify" sends
 * the call to the supervisor, which names it (an event), decides (the
 * box's table, then its rule) and answers (notify.c).  The table is
 * compiled by spec.c; the listener is taken by the supervisor (loop.c)
 * from the command's process (child.c step) and handed here.
 */
#ifndef SBX_NOTIFY_H
#define SBX_NOTIFY_H

#include "capture.h" /* SBX_FILETYPE_MAX, SBX_MIME_MAX */
#include "hashes.h"
#include "plan.h"
#include "script.h"

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* What a box does on a refusal. */
enum { SBX_MODE_STOP, SBX_MODE_DENY, SBX_MODE_LOG };
/* The answer to one notified call. */
enum { SBX_ANS_ALLOW, SBX_ANS_DENY, SBX_ANS_STOP };
/* Event kinds (the words are notify.c's sbx_event_kind). */
enum {
	SBX_EV_OPEN,
	SBX_EV_EXEC,
	SBX_EV_CONNECT,
	SBX_EV_BIND,
	SBX_EV_SEND,
	SBX_EV_CLONE,
	SBX_EV_MMAP,
	SBX_EV_PTRACE,
	SBX_EV_DELETE,	  /* unlink, unlinkat, rmdir */
	SBX_EV_RENAME,	  /* rename, renameat, renameat2: path and to */
	SBX_EV_ATTRIBUTE, /* chmod, chown, utimes, xattr families */
	SBX_EV_MEMFD,	  /* memfd_create: path its name */
	SBX_EV_SIGNAL,	  /* kill, tkill, tgkill: target and sig */
	SBX_EV_PROTECT,	  /* mprotect: size and flags (PROT_*) */
	SBX_EV_SYSCALL,
	SBX_EV_COUNT
};

/* A call the profile refuses with an errno and also notifies (the errno
 * stays the answer: the supervisor only names the call), under the rule's
 * own comparisons: the supervisor applies them to the arguments the
 * notification carries (the registers seccomp saw, not memory), so that a
 * call the profile notifies for another reason is refused only where the
 * rule holds. */
struct sbx_notify_errno {
	int nr;
	int err;
	unsigned ncmp;
	struct sbx_arg_cmp {
		unsigned arg;
		int op;	       /* enum scmp_compare */
		uint64_t a, b; /* libseccomp's datum_a, datum_b */
	} cmp[6];
};

/* The box's table, compiled by spec.c (strings anchored in the box). */
struct sbx_notify_spec {
	int on; /* the filter notifies: the step hands over a listener */
	int exec_events; /* the profile notifies execve itself: the step's
			    own (the hand-over's, spec.c) is an event too */
	int mode;	 /* SBX_MODE_* */
	/* NULL (no list): every open, every address is let through, named
	 * (the mounts, Landlock and the network namespace hold them) */
	const char *const *open; /* path prefixes an open may name */
	size_t nopen;
	/* paths an open may name exactly, nothing under them (a learned
	 * profile's: an opened directory allows itself, not its subtree);
	 * with open NULL, these alone are the list */
	const char *const *open_exact;
	size_t nopen_exact;
	/* path prefixes a delete, a rename (both names) and an attribute
	 * change may name; NULL: open's (a profile that names the paths
	 * opened names those changed too) */
	const char *const *change;
	size_t nchange;
	const char *const *connect; /* "ip:port" a connect/bind/send may */
	size_t nconnect;
	uint64_t mmap_cap; /* bytes; 0: no cap */
	/* path prefixes whose opens are kept whole in a budget of their own
	 * (SBX_KEEP_BYTES: evlog.c), never summarised with a flood: the
	 * files a sample is judged on (the analysis box's credentials and
	 * decoys, sbx.stdbox) */
	const char *const *keep;
	size_t nkeep;
	/* budgets over the run (0: none): notified process (task) creations
	 * (clone, clone3, fork, vfork) and execs past the program's first */
	unsigned long tasks, execs;
	/* the profile notifies to watch, not to refuse: a call the table
	 * has no list for (memfd_create, kill, mprotect, any other) is let
	 * through in every mode; the lists, budgets and errnos still hold */
	int watch;
	/* an executed memfd's payload is typed from its first bytes, by the
	 * inspection worker (inspect.h), against the run's budget; 0: not */
	int filetype;
	/* the filter sends flock and fcntl's locks here (filter.c's lock
	 * prefix): lockguard.c answers them */
	int locks;
	const struct sbx_notify_errno *errnos;
	size_t nerrnos;
	/* ns: a sleep longer is held, and skipped once the whole box waits
	 * (sleep.c); 0: every sleep runs */
	uint64_t sleep_skip;
};

#define SBX_SEEN 8 /* tasks whose ids are kept (pidfds: notify.c) */
/* An event's path, new name or cwd, and its arguments: a longer one is
 * kept cut (evlog.c sbx_event_cut: its head, SBX_CUT_MARK, its tail), its
 * whole length in path_len/to_len and the cut argument's in argv_cut_len.
 * A path is read whole first (SBX_PATH_READ: the kernel's PATH_MAX) and
 * cleaned ("/./", "//", "/../" collapsed) before it is cut. */
#define SBX_EVENT_PATH 512
#define SBX_EVENT_ARGV 512
#define SBX_PATH_READ 4096
#define SBX_CUT_MARK "[...]"
/*
 * Budgets of the event log (evlog.c; docs/behaviour.md, "Budgets"), in
 * bytes of records (an event is kept as its numbers and its strings, each
 * as long as it is: an open of a 40-byte path takes 197 bytes):
 * - the flood kinds (an open for reading, mmap, mprotect, any other call
 *   let through: what every program makes by the thousand) are kept whole
 *   up to SBX_FLOOD_BYTES, about 85,000 opens: gcc compiling a file makes
 *   325 (63 KB), a make of 13 files 3,268 (645 KB), python3 -m
 *   compileall of 30 modules 171 (measured, docs/behaviour.md);
 * - the kinds that carry intent (exec, connect, bind, send, clone, delete,
 *   rename, attribute, memfd, signal, ptrace, an open for writing, and any
 *   refused call) up to SBX_INTENT_BYTES: at least 4,000 execs of the
 *   longest record (1,700 bytes), about 15,000 of a build's;
 * - past its budget an event is summarised (struct sbx_agg): one summary
 *   per kind, answer and directory (an open's, an exec's, a delete's: its
 *   path's; none for the rest) with its count and its first and last
 *   events, up to SBX_AGGS summaries; past them, counted in lost by kind;
 * - the first SBX_SAMPLES events of each summary are kept whole all the
 *   same (up to SBX_SAMPLE_BYTES in all): a flood fills its own
 *   directory's, and a read of /etc/shadow after a flood of /tmp is
 *   among the first of /etc's.
 * - an open under the spec's keep list (the files a sample is judged on)
 *   is kept whole up to SBX_KEEP_BYTES of its own, whatever came before.
 * The bound: SBX_FLOOD_BYTES + SBX_INTENT_BYTES + SBX_SAMPLE_BYTES
 * + SBX_KEEP_BYTES (27 MiB)
 * of records in a buffer grown to that at most, 8 bytes of index per
 * record (each at least 157 bytes: 2 MiB at most, doubled) and SBX_AGGS
 * summaries (sizeof(struct sbx_agg): 4,888 bytes, 1.2 MiB): under 30 MiB
 * a run, what the program makes past it summarised or counted.
 */
#define SBX_FLOOD_BYTES ((size_t)16 << 20)
#define SBX_INTENT_BYTES ((size_t)8 << 20)
#define SBX_AGGS 256
#define SBX_SAMPLES 16
#define SBX_SAMPLE_BYTES ((size_t)2 << 20)
/* opens under the spec's keep list: about 5,000, a budget of their own
 * (a flood of other names, or of other directories, never takes their
 * room, nor they an exec's) */
#define SBX_KEEP_BYTES ((size_t)1 << 20)
struct sbx_event {
	int kind;	 /* SBX_EV_* */
	int answer;	 /* SBX_ANS_* */
	int keep;	 /* open: its path is under the spec's keep list */
	int nr;		 /* the system call */
	int pid;	 /* in the box's pid namespace; 0: unknown */
	int ppid;	 /* its parent's in the same namespace, as the kernel
			    named it at this call (notify.c box_ids); 0: the
			    parent is outside the box, or unknown */
	int64_t time_ms; /* when the supervisor received the call, in
			    milliseconds since the box started (monotonic) */
	int err;	 /* the errno answered (SBX_ANS_DENY) */
	int family;	 /* AF_* of addr */
	int socktype;	 /* SOCK_* of the socket addressed; 0: unknown */
	int ns;		 /* clone: namespace flags asked for */
	uint64_t flags;	 /* open: O_* flags; clone: its flags;
			    unlinkat, renameat2: their flags */
	uint64_t size;	 /* mmap, mprotect: the length asked for;
			    exec of a memfd: the payload's */
	uint64_t a0;	 /* syscall: its first argument, as passed (a
			    number: never read through) */
	int64_t target;	 /* signal: the pid named (box's namespace) */
	int sig;	 /* signal: its number */
	unsigned long limit; /* clone, exec: the budget it passed; 0: none */
	unsigned long count;
	char path[SBX_EVENT_PATH];
	char to[SBX_EVENT_PATH]; /* rename: the new name; exec: the cwd */
	char addr[80];
	char argv[SBX_EVENT_ARGV]; /* exec: NUL-separated */
	char sha256[65];	   /* exec of a memfd: its payload's, hex */
	/* exec of a memfd: its payload's type and MIME type (the inspection
	 * worker's, on its first SBX_MAGIC_BYTES, filled when it answers);
	 * "" when not typed */
	char type[SBX_FILETYPE_MAX];
	char mime[SBX_MIME_MAX];
	int memfd; /* exec of a memfd: its descriptor; else -1 */
	/* exec: the supervisor's lookup of the file it names, in the box, at
	 * the call (notify.c exec_lookup): 0 there, a regular file with an
	 * execute bit (or a memfd); an errno (ENOENT, ENOTDIR, ELOOP, EACCES)
	 * when the exec cannot succeed; -1 not looked up */
	int exec_err;
	size_t argv_len;
	int argv_cut; /* exec: argv holds less than the program's */
	/* the whole lengths of path and to when they were cut (0: whole);
	 * exec: the whole length of argv's last argument, when it is cut */
	size_t path_len, to_len, argv_cut_len;
};

/* Events past their budget, summarised (evlog.c). */
struct sbx_agg {
	int kind, answer;
	char dir[SBX_EVENT_PATH]; /* the paths' directory; "": no path */
	unsigned long count;	  /* events summarised, each counted */
	unsigned samples;	  /* of them, kept whole too */
	struct sbx_event first, last;
};

/* The log of one run's events (evlog.c): records in order, each a run of
 * bytes in buf at off[i]; consecutive equal events are one, counted. */
struct sbx_evlog {
	unsigned char *buf;
	size_t len, size;		     /* bytes used, allocated */
	size_t flood, intent, sampled, kept; /* bytes of each budget used */
	size_t *off;			     /* each record's offset in buf */
	size_t n, cap;			     /* records, allocated */
	struct sbx_event last; /* the last event recorded, whole */
	int have_last;	       /* last is the newest record */
	struct sbx_agg *agg;   /* summaries, in order of their first */
	size_t nagg;
	unsigned long summarised;	  /* events in the summaries */
	unsigned long lost[SBX_EV_COUNT]; /* past the summaries, by kind */
	unsigned long nomem;		  /* not kept: no memory */
};

SBX_LOCAL void sbx_evlog_free(struct sbx_evlog *l);
/* Keeps e (counted with the last when equal), or summarises it. */
SBX_LOCAL void sbx_evlog_add(struct sbx_evlog *l, const struct sbx_event *e);
/* Record i (< l->n) into out, whole. */
SBX_LOCAL void sbx_evlog_get(const struct sbx_evlog *l, size_t i,
			     struct sbx_event *out);
/* Events not kept whole: summarised, lost and not kept for memory. */
SBX_LOCAL unsigned long sbx_evlog_dropped(const struct sbx_evlog *l);
/* Copies the string src (its length len) into dst (size bytes): whole
 * when it fits, else its head, SBX_CUT_MARK and its tail (size > 64).
 * Returns 0 when whole, else len. */
SBX_LOCAL size_t sbx_event_cut(char *dst, size_t size, const char *src,
			       size_t len);

struct sbx_notify {
	int fd;	       /* the listener; -1 until taken */
	int pidfd;     /* the command's process, to take it from */
	int want;      /* its number there; -1: no listener announced */
	int sync;      /* SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP set */
	int gate_seen; /* the hand-over's execve was answered */
	int err;       /* why it could not be taken (errno) */
	const struct sbx_notify_spec *spec;
	/* the box's rule, installed by its owner (box.c): its answer for e
	 * (SBX_ANS_*), or -1 to leave the table's; a rule that fails answers
	 * SBX_ANS_STOP and says why in error (size bytes), unless error
	 * already holds words.  NULL: no rule */
	int (*rule)(void *ctx, const struct sbx_event *e, char *error,
		    size_t size);
	void *rule_ctx;
	struct sbx_evlog log; /* the events, in order (evlog.c) */
	int stopped;	      /* a stop answer: stop_ev ended it */
	struct sbx_event stop_ev;
	char rule_error[256]; /* a rule that raised */
	unsigned long calls;
	unsigned long ntasks, nexecs; /* creations, execs let through */
	int first_exec;		      /* the hand-over's execve was seen */
	double start; /* the box's start (CLOCK_MONOTONIC, seconds): the
			 origin of each event's time_ms; set by its owner */
	/* the tasks whose ids were read last (notify.c box_ids), each held
	 * by a pidfd: while it is not readable the task lives, so its host
	 * tid is still its own and the ids read are its */
	struct sbx_seen {
		pid_t host;    /* its tid on the host */
		int pid, ppid; /* in the box, read when first seen */
		int pidfd;     /* -1: an empty slot */
	} seen[SBX_SEEN];
	unsigned nseen;
	/* the memfds made for the box (notify.c answer_memfd): held to the
	 * end of the run, their pages counted by the sampler */
	int *memfd;
	size_t nmemfd;
	uint64_t hashed; /* bytes of executed memfds hashed this run */
	/* the run's share of the inspection worker (its owner links it:
	 * box.c); NULL: executed memfds are not typed */
	struct sbx_inspect_run *insp;
	/* the run's written places (box.c links it): with --keep, each
	 * executed memfd's payload is copied as it is hashed (notify.c
	 * keep_memfd); NULL: none */
	const struct sbx_capstate *cap;
	/* the executed memfds' payloads asked of the worker this run, by
	 * sha256 (notify.c type_memfd): each once; its type filled when the
	 * worker answers, an event's taken as the events are pushed (the
	 * log's records are not rewritten) */
	struct sbx_payload {
		char sha256[65];
		char type[SBX_FILETYPE_MAX];
		char mime[SBX_MIME_MAX];
		struct sbx_hash_hex hx; /* every hash of the payload */
	} * payload;
	size_t npayload;
	struct sbx_lockguard *lg;   /* lockguard.c's state; NULL: none */
	struct sbx_scripts scripts; /* the interpreters' scripts (script.c) */
	struct {
		unsigned long calls;	 /* sleeps skipped (sleep.c) */
		uint64_t ns, longest_ns; /* the box's time jumped: in all, the
					    longest jump */
	} sleeps;
	struct sbx_sleeper *sleeper; /* the held sleeps (sleep.c); NULL none */
};

#define SBX_MEMFDS_MAX 4096  /* memfds one run may make */
#define SBX_PAYLOADS_MAX 256 /* executed memfd payloads typed per run */

/* The hashes of the payload of e, an exec of a memfd read whole; NULL
 * when e is none. */
SBX_LOCAL const struct sbx_hash_hex *
sbx_notify_hashes(const struct sbx_notify *n, const struct sbx_event *e);

/* e's type and MIME type from the run's payloads, when e is an exec of a
 * memfd the worker typed (and e has none yet). */
SBX_LOCAL void sbx_notify_typed(const struct sbx_notify *n,
				struct sbx_event *e);

SBX_LOCAL void sbx_notify_init(struct sbx_notify *n);
SBX_LOCAL void sbx_notify_close(struct sbx_notify *n);
/* Takes the listener from the command's process: 1 taken, 0 not there
 * yet (the step has not loaded its filter), -1 never (n->err). */
SBX_LOCAL int sbx_notify_take(struct sbx_notify *n);
/* Answers one pending notification; returns SBX_ANS_STOP when the box
 * must end (the call is then left unanswered: the caller kills the box
 * and the kernel drops the notification with the task). */
SBX_LOCAL int sbx_notify_handle(struct sbx_notify *n);
SBX_LOCAL const char *sbx_event_kind(int kind);
/* A copy of descriptor fd of task pid (pidfd_getfd), or -1; size bytes of
 * its memory at addr into buf: 0 or -EFAULT.  Check the notification's id
 * after either (the task may have died, its pid reused). */
SBX_LOCAL int sbx_task_fd(pid_t pid, uint64_t fd);
SBX_LOCAL int sbx_task_mem(pid_t pid, uint64_t addr, void *buf, size_t size);
/* The NUL-terminated string at addr of task pid into buf (size > 1), cut
 * at size - 1 bytes: its length (size - 1: at least that), or -EFAULT. */
SBX_LOCAL long sbx_task_str(pid_t pid, uint64_t addr, char *buf, size_t size);
/* Collapses "//", "/./" and "/../" of an absolute path, in place. */
SBX_LOCAL void sbx_clean_path(char *p);
SBX_LOCAL const char *sbx_answer_name(int answer);
/* Does the kernel take SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV? (probed
 * once: a flag it does not know is EINVAL before the program is read) */
SBX_LOCAL int sbx_notify_wait_killable(void);
/* The bytes the box's memfds hold (st_blocks of each): memory no process
 * of the box may show (a memfd written and never mapped). */
SBX_LOCAL uint64_t sbx_notify_memfd_bytes(const struct sbx_notify *n);
/* A notified call as a sleep or a timer (sleep.c): not one of them (0),
 * a sleep held (answered later by sbx_sleep_tick), one to run (CONTINUE),
 * or one whose task is gone (no answer). */
enum { SBX_SLEEP_NOT, SBX_SLEEP_HELD, SBX_SLEEP_RUN, SBX_SLEEP_GONE };
struct seccomp_notif;
struct seccomp_data;
/* Whether a call is one sleep.c may take (by its number alone) */
SBX_LOCAL int sbx_sleep_call(const struct seccomp_data *d);
SBX_LOCAL int sbx_sleep_check(struct sbx_notify *n,
			      const struct seccomp_notif *req);
/* The held sleeps of the box whose init is host pid init: each answered
 * at its time, early on a signal (EINTR), or skipped when every task of
 * the box waits with no sooner deadline; the next time to look again
 * goes in *next (sbx_now's clock; left as it was when nothing is held). */
SBX_LOCAL void sbx_sleep_tick(struct sbx_notify *n, pid_t init, double now,
			      double *next);
SBX_LOCAL void sbx_sleep_close(struct sbx_notify *n);
/* Does the caller (the supervisor) have what the channel needs? */
SBX_LOCAL int sbx_notify_probe(char *why, size_t size);

#endif
