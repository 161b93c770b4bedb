/* SPDX-License-Identifier: MIT */
/*
 * procev.h: the kernel's process events (the proc connector) for one box:
 * which processes belong to it, and how those its init does not reap died.
 */
#ifndef SBX_PROCEV_H
#define SBX_PROCEV_H

#include "plan.h"

#include <stddef.h>
#include <sys/types.h>

/* A process of the box (a thread group), by its pid on the host. */
struct sbx_procev_member {
	pid_t tgid;    /* 0: a free slot */
	int threads;   /* fork events of its threads minus exit events */
	int boxpid;    /* in the box's pid namespace; 0: unknown */
	int dead;      /* an exit by a signal was seen: recorded once */
	char comm[16]; /* as /proc/<pid>/status names it ("" unknown) */
};

struct sbx_procev {
	int fd;		 /* the connector's socket; -1: none */
	int on;		 /* membership exact so far (no event lost) */
	int err;	 /* why not: errno of what (0: see why) */
	const char *why; /* why not, in fixed words; NULL: complete so far */
	pid_t init;	 /* the box init's pid on the host */
	int seen_init;	 /* init's own fork event was seen */
	int teardown;	 /* SIGKILL deaths from now on are the box's end */
	struct sbx_procev_member *tab;
	size_t cap, n; /* slots (a power of two), members */
	/* the box's tasks (threads) live now and the most at once, init
	 * included (as the sampler counts them): exact while the connector
	 * follows every process */
	unsigned long live, peak;
	unsigned long events;  /* events received */
	unsigned long records; /* /proc reads made for them */
	/* where a death the connector saw goes (its owner's records) */
	void (*on_death)(void *ctx, const struct sbx_death *d);
	void *ctx;
};

/* Closed (no socket); each death seen goes to on_death(ctx, d). */
SBX_LOCAL void sbx_procev_init(struct sbx_procev *pe,
			       void (*on_death)(void *ctx,
						const struct sbx_death *d),
			       void *ctx);
/* Opens the connector and subscribes (fork, exec, comm and exit events
 * only, where the kernel filters); 0, or -1 with pe->why and pe->err. */
SBX_LOCAL int sbx_procev_open(struct sbx_procev *pe);
/* Follows the box from its init's host pid; checks that the connector's
 * pids are this process's (the fork of init is already queued). */
SBX_LOCAL void sbx_procev_track(struct sbx_procev *pe, pid_t init);
/* Reads every queued event; hands each death to pe->on_death (every
 * box that shares the socket gets its own). */
SBX_LOCAL void sbx_procev_read(struct sbx_procev *pe);
/* Whether every process of the box but init has ended, on the events. */
SBX_LOCAL int sbx_procev_settled(const struct sbx_procev *pe);
/* Marks coverage incomplete (why: fixed words). */
SBX_LOCAL void sbx_procev_fail(struct sbx_procev *pe, const char *why, int err);
SBX_LOCAL void sbx_procev_close(struct sbx_procev *pe);

#endif
