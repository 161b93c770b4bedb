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

/* The worker's messages: a request is one datagram of the bytes alone
 * (SOCK_SEQPACKET keeps its bounds); the answer, and the first message
 * (ready: err 0 once confined, or why not), are this. */
struct sbx_inspect_answer {
	int32_t err;	 /* 0, or an errno */
	uint32_t cpu_us; /* the worker's CPU on this request */
	char type[SBX_FILETYPE_MAX];
	char mime[SBX_MIME_MAX];
};

#endif
