/* SPDX-License-Identifier: MIT */
/*
 * job.h: the supervisor's state.  A job is one run of a box's plan
 * (plan.h): its io settings (struct sbx_io), what the supervisor tracks
 * while the box runs and what the result is built from (struct sbx_job),
 * and the operator's stop signals (struct sbx_stop).  No Lua: sbx.h includes
 * it for the Lua-facing files, the supervisor's files include it alone.
 */
#ifndef SBX_JOB_H
#define SBX_JOB_H

#include "plan.h"

#include "capture.h"
#include "cgroup.h"
#include "kmem.h"
#include "notify.h"
#include "procev.h"
#include "sink.h"
#include "ttyfilter.h"

#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <termios.h>

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
	SBX_END_REFUSED,     /* a notified call answered "stop" (notify.c) */
	SBX_END_COUNT
};

/* The caller's descriptor passed stream s goes to. */
#define SBX_OUT_FD(io, s) ((s) == 0 && (io)->out_swap ? 2 : (s) + 1)

/* Where a box's cgroup comes from. */
enum { SBX_CGMODE_NONE, SBX_CGMODE_AUTO, SBX_CGMODE_PATH };

struct sbx_io {
	const char *in_data; /* stdin from memory (in_fd < 0) */
	size_t in_len;
	int in_fd;    /* stdin from a descriptor, relayed; -1: none */
	int in_pread; /* in_fd is a regular file, read from its start with
			 pread (its shared offset untouched) */
	int out_mode[2];
	int out_swap;	    /* stdout passed to the caller's stderr */
	size_t keep_head;   /* bytes of a passed stream kept for the result,
			       as written (unfiltered); 0: none */
	size_t out_limit;   /* bytes per stream; 0: none */
	double wall;	    /* seconds; 0: none */
	int pty;	    /* stdio on a pseudo-terminal of the box's own */
	int no_proc_events; /* do not follow the box by the proc connector */
	int has_termios;    /* the box's pty starts with these settings */
	struct termios termios; /* (the caller's, taken before it went raw) */
	int tty_raw;	       /* output passed to a terminal goes unfiltered */
	uint64_t memory_limit; /* bytes, whole box: cgroup or sampled; 0 none */
	uint64_t memory_backstop; /* RLIMIT_DATA, soft and hard, of every
				     process when the memory limit is sampled
				     (no cgroup holds it); 0: the plan's */
	uint64_t task_limit;	  /* tasks, whole box: cgroup or sampled */
	double cpu_limit; /* seconds of CPU, whole box: sampled; 0 none */
	int cgroup;	  /* SBX_CGMODE_* */
	/* SBX_CGMODE_PATH: the base the operator named, probed when the spec
	 * was compiled (kept alive by the box) */
	const struct sbx_cgroup_base *cgroup_named;
	/* the written places to record at the end (capture.c); NULL none */
	const struct sbx_capture *capture;
	const struct sbx_notify_spec *notify; /* NULL: no explain channel */
};

struct sbx_job {
	const struct sbx_plan *plan;
	struct sbx_io io;
	pid_t pid;
	int pidfd, ctl, in, out[2];
	int plan_slot; /* the plan's mapping (plancopy.c) until init is reaped
			*/
	size_t in_off;
	char *buf[2];
	size_t len[2], size[2], total[2];
	size_t sent[2]; /* bytes of buf already passed through */
	char *head[2];	/* a passed stream's first io.keep_head bytes */
	size_t head_len[2];
	char last[2]; /* the last byte passed through ('\n' before any) */
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
	struct sbx_sink sink; /* the network sink, when the plan has one */
	double next_sample;
	double cpu; /* seconds of CPU used by the box (cgroup, or the larger
		       of the sampler's count and init's rusage) */
	struct sbx_cpu_track cpu_track; /* the sampler's count, no cgroup */
	double cpu_seen;    /* seconds: the highest CPU time sampled */
	double sample_cost; /* seconds of supervisor CPU per sample, smoothed */
	int cg_error;
	const char *cg_what;
	const char *cg_base; /* the base of the box's cgroup, when it had one */
	int stop_signal;     /* SBX_END_INTERRUPTED: the signal sbxlua got */
	/* deaths that init reaped and recorded (SBX_MSG_DEATH), in order */
	struct sbx_death deaths[SBX_DEATH_MAX];
	int ndeaths;
	unsigned long deaths_unseen; /* past either cap */
	/* the proc connector: the deaths init does not see */
	struct sbx_procev pe;
	int deaths_sync;	 /* init waits for the supervisor (plan) */
	double reaped_at;	 /* init said every process ended; 0: not yet */
	int answered;		 /* the supervisor has answered that */
	int filter[2];		 /* passed to a terminal: through tf */
	struct sbx_ttyf tf[2];	 /* (ttyfilter.c) */
	size_t tail[2];		 /* resets at the end of buf (not content) */
	char tail_last[2];	 /* the last byte of content before them */
	struct sbx_capstate cap; /* the written places (capture.c) */
	struct sbx_notify nt;	 /* the explain channel (notify.c) */
	/* a following box (plan's follow): the processes alive when the
	 * command ended (init's SBX_MSG_OUTLIVED: have_outlived), when that
	 * was and when the last process ended (sbx_now), and what the
	 * supervisor killed the box for after it (SBX_END_*; 0: nothing) */
	struct sbx_outlived_msg outlived;
	int have_outlived, outlived_kill;
	double cmd_end, last_end;
	/* the caller's terminal is to be given back (relay.c) once the bytes
	 * passed through (passed) reach back_at, all there was to show at
	 * the command's end */
	int tty_back;
	size_t passed[2], back_at[2];
	double tty_back_by; /* and at the latest then (sbx_now) */
};

/* The cgroup base this process finds, probed once (NULL: none usable). */
SBX_LOCAL const struct sbx_cgroup_base *sbx_cgroup_base(void);

SBX_LOCAL void sbx_job_init(struct sbx_job *j);
/* Starts the box; returns 0, or -errno (the job is then done, with
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
/* Supervises the started jobs until every one is collected, or with any
 * set until one is (a job collected before the call counts), serving the
 * inspection worker (inspect.h) the while; a signal read from
 * stopfd (-1: none) kills every box still running (SBX_END_INTERRUPTED). */
SBX_LOCAL void sbx_jobs_wait(struct sbx_job **jobs, size_t n, int stopfd,
			     int any);
/* end.c: init's word on what ran on after the command's end (a following
 * box): the list when the command ended (stage 0), or one more process
 * it reaped after (stage 1). */
SBX_LOCAL void sbx_outlived_add(struct sbx_job *j,
				const struct sbx_outlived_msg *o);
/* Is the job done and every file of it inspected (its result whole)?
 * (loop.c) */
SBX_LOCAL int sbx_job_collected(const struct sbx_job *j);
/* Kills and reaps a job still running; frees its buffers. Idempotent. */
SBX_LOCAL void sbx_job_release(struct sbx_job *j);
SBX_LOCAL double sbx_now(void);

#endif
