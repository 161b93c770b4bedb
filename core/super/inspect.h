/* SPDX-License-Identifier: MIT */
/*
 * inspect.h: content inspection out of the supervisor (inspect.c, the
 * queue and the worker's descriptor; inspect_worker.c, the worker).
 *
 * A file's type is named by libmagic in a worker process forked from
 * sbxlua once, confined before it reads a byte of a box's (no
 * capabilities, no_new_privs, Landlock with nothing allowed, a seccomp
 * filter of read, write and memory calls, CPU and memory limits), fed
 * over a socketpair.  The supervisor's loop never waits on it: a request
 * is queued and its answer handed back by a callback when the worker's
 * descriptor, one more thing the loop polls, says so.  Each run has a
 * budget of the worker's CPU; what is past it, or lost with a worker that
 * crashed or overran, is left untyped and counted (skipped).
 */
#ifndef SBX_INSPECT_H
#define SBX_INSPECT_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef SBX_LOCAL
#define SBX_LOCAL __attribute__((visibility("hidden")))
#endif

/* A file's type is named from its first SBX_MAGIC_BYTES, in memory; the
 * names are cut to these sizes (with their NUL). */
#define SBX_MAGIC_BYTES 65536
#define SBX_FILETYPE_MAX 256
#define SBX_MIME_MAX 96
/* a YARA scan's matches, as text (inspect_yara.c) */
#define SBX_YARA_TEXT 16384
/* seconds of the worker's CPU one run's files and memfds may use */
#define SBX_INSPECT_BUDGET 10.0

/* One run's share of the worker (zeroed by its owner). */
struct sbx_inspect_req;
struct sbx_inspect_run {
	/* inspect.c's: its requests queued, in order, and its place in the
	 * turn of the runs with requests queued */
	struct sbx_inspect_req *head, *tail;
	struct sbx_inspect_run *next;
	int ringed;
	double used;	/* seconds of the worker's CPU its requests took */
	long pending;	/* requests not answered yet (queued or in flight) */
	long typed;	/* answered with a type */
	long skipped;	/* left untyped: past the budget, the worker lost or
			   unavailable */
	int budget_hit; /* the budget ran out */
};

/* An answer: type and mime are the worker's (NUL-terminated), for the
 * request's ctx and idx. */
typedef void (*sbx_inspect_cb)(void *ctx, size_t idx, const char *type,
			       const char *mime);

/* idx for a ctx the request owns: freed (free) once answered or
 * dropped, after the callback */
#define SBX_INSPECT_OWN ((size_t)-1)

/* Queues the first len bytes of buf (at most SBX_MAGIC_BYTES: copied)
 * for typing; cb is called with ctx and idx when the answer comes.
 * Returns 0 (queued), or -errno when it is not (counted skipped:
 * -EDQUOT past the run's budget, -ENOMEM). */
SBX_LOCAL int sbx_inspect_submit(struct sbx_inspect_run *run, const void *buf,
				 size_t len, sbx_inspect_cb cb, void *ctx,
				 size_t idx);
/* Drops the run's requests, queued or in flight (no callback; counted
 * skipped): its owner is going away. */
SBX_LOCAL void sbx_inspect_cancel(struct sbx_inspect_run *run);
/* Drops every request of every run (the operator's stop). */
SBX_LOCAL void sbx_inspect_cancel_all(void);
/* The descriptor the loop polls (POLLIN) while a request waits, and the
 * time (*next, CLOCK_MONOTONIC seconds, sooner only) by which the worker
 * must have answered; -1 when nothing waits. */
SBX_LOCAL int sbx_inspect_watch(double now, double *next);
/* Acts on a worker past its deadline (sbx_inspect_service); cheap when
 * none is. */
SBX_LOCAL void sbx_inspect_timers(double now);
/* Acts on the worker: reads its answers, sends the next request, kills
 * a worker past its deadline.  Never blocks. */
SBX_LOCAL void sbx_inspect_service(double now);
/* Serves the worker until the run has no request left, or timeout
 * seconds passed (the rest then skipped): for a caller outside the loop. */
SBX_LOCAL void sbx_inspect_drain(struct sbx_inspect_run *run, double timeout);
/* Ends the worker when nothing is queued or in flight (killed, reaped);
 * the next request starts another. */
SBX_LOCAL void sbx_inspect_stop(void);
/* The worker's pid, started (and its database loaded) if it was not;
 * -errno when it cannot be. */
SBX_LOCAL int sbx_inspect_worker(pid_t *pid);

/* inspect_worker.c: the worker's body, in the child of the fork, on its
 * end sock of the socketpair; never returns. */
SBX_LOCAL void sbx_inspect_worker_main(int sock) __attribute__((noreturn));

/* The worker's messages: a request is one datagram, 'T' and the bytes
 * to type (SOCK_SEQPACKET keeps its bounds), or 'Y' and a struct
 * sbx_yara_req (the bytes to scan in the shared area); the answer, and
 * the first message (ready: err 0 once confined, or why not), are this. */
struct sbx_inspect_answer {
	int32_t err;	 /* 0, or an errno */
	uint32_t cpu_us; /* the worker's CPU on this request */
	char type[SBX_FILETYPE_MAX];
	char mime[SBX_MIME_MAX];
	char text[SBX_YARA_TEXT]; /* a scan's matches (inspect_yara.c) */
};

/* ---- YARA (inspect_yara.c; docs/written-files.md) ----
 *
 * The operator's rules are compiled in a child of sbxlua's (forked for
 * it, confined as the worker is, libyara opened there), which sends the
 * compiled rules back as bytes; sbxlua keeps them without reading them,
 * and every worker forked after loads them before it locks itself down.
 * A scan is a request of its own: its bytes (at most SBX_YARA_BYTES) are
 * copied into an area of memory shared with the worker (mapped before
 * its fork; sbxlua writes it, never reads it), a datagram says how many,
 * and libyara's own timeout bounds it, with the run's budget above it. */
#define SBX_YARA_BYTES ((size_t)64 << 20)     /* of one file scanned */
#define SBX_YARA_RULES_MAX ((size_t)64 << 20) /* compiled rules' bytes */
#define SBX_YARA_OFFSETS 16	   /* string matches listed per rule */
#define SBX_YARA_TIMEOUT 5	   /* seconds: libyara's timeout of one scan */
#define SBX_YARA_ERR 1024	   /* bytes of a compile's messages */
#define SBX_YARA_COMPILE_WAIT 60.0 /* seconds a compile may take */

struct sbx_yara_req {
	uint64_t len;
	int32_t timeout;
};

/* a rules file: its name (for messages), namespace and text (NUL ended) */
struct sbx_yara_source {
	const char *name, *ns, *text;
};

/* Compiles the sources in a confined child: 0 and *blob (malloc'ed,
 * *len bytes), or -EINVAL with libyara's messages in err (file:line:
 * message), or -errno. */
SBX_LOCAL int sbx_inspect_yara_compile(const struct sbx_yara_source *src,
				       size_t n, unsigned char **blob,
				       size_t *len, char *err, size_t cap);
/* The compiled rules every worker forked from now loads (copied; NULL:
 * none); an idle worker with others is ended.  -EBUSY while a request
 * is queued or in flight. */
SBX_LOCAL int sbx_inspect_yara_rules(const void *blob, size_t len);
/* Queues len bytes (at most SBX_YARA_BYTES: copied) for a scan by the
 * rules set; cb gets (ctx, idx, matches text, NULL), or (ctx, idx, NULL,
 * why) when libyara stopped (its timeout) or failed; no call when the
 * request was skipped (budget, worker lost), counted so. */
SBX_LOCAL int sbx_inspect_yara_submit(struct sbx_inspect_run *run,
				      const void *buf, size_t len,
				      sbx_inspect_cb cb, void *ctx, size_t idx);

/* During a run: the rules loaded by the worker, which then scans each
 * type request's bytes too (a dropped file's, a memfd payload's first
 * SBX_MAGIC_BYTES); the answers with matches, or a scan stopped, are
 * kept by the sha256 and size of those bytes (at most
 * SBX_YARA_INLINE_MAX) until sbx_inspect_yara_inline_take.  NULL ends
 * it. */
#define SBX_YARA_INLINE_MAX 256
struct sbx_yara_inline {
	char sha256[65];
	size_t len;
	char *text; /* malloc'ed */
};
SBX_LOCAL int sbx_inspect_yara_inline(const void *blob, size_t len);
/* The answers kept (malloc'ed, *n of them; the caller frees each text
 * and the list), and how many were left out past the bound. */
SBX_LOCAL struct sbx_yara_inline *sbx_inspect_yara_inline_take(size_t *n,
							       size_t *lost);

/* inspect_yara.c, in the worker or the compiling child only */
SBX_LOCAL int sbx_yara_open(void);
SBX_LOCAL int sbx_yara_compile(const struct sbx_yara_source *src, size_t n,
			       unsigned char **blob, size_t *len, char *err,
			       size_t cap);
SBX_LOCAL int sbx_yara_load(const void *blob, size_t len, void **rules);
SBX_LOCAL int sbx_yara_scan(void *rules, const void *buf, size_t len,
			    int timeout, char *text, size_t cap);
/* inspect.c's, for the worker: the rules to load and the shared area */
SBX_LOCAL const void *sbx_inspect_yara_blob(size_t *len);
SBX_LOCAL const unsigned char *sbx_inspect_yara_area(void);
/* inspect_worker.c: the compiling child's body; never returns */
SBX_LOCAL void sbx_yara_compile_main(int sock,
				     const struct sbx_yara_source *src,
				     size_t n) __attribute__((noreturn));

#endif
