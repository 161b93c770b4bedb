/* SPDX-License-Identifier: MIT */
/*
 * loop.c: the supervisor's event loop, in the sbxlua process: one poll over
 * every running job's pidfd, control socket, stdio pipes, explain channel
 * and sink, and its timers (wall clock, samples).  Nothing of the
 * supervisor (start.c, control.c, relay.c, end.c, stop.c, loop.c) calls Lua
 * or includes lua.h: box.c turns a finished job into a result table, and
 * installs a box's rule as a C callback of the explain channel.
 */
#include "inspect.h"
#include "lockguard.h"
#include "super.h"

#include "fileio.h"

#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <time.h>

double sbx_now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

/* What the event loop waits on, one entry per descriptor: the job it is
 * for (none for the stop descriptor) and what its readiness means. */
enum {
	W_PIDFD,    /* init exited */
	W_CTL,	    /* a message from the box */
	W_IN,	    /* the box's stdin can be written, or its source read */
	W_OUT,	    /* W_OUT + s: the box wrote to stdout (0), stderr (1) */
	W_PASS = 5, /* W_PASS + s: the caller's stdout/stderr can take more */
	W_STOP = 7, /* the operator's stop signal */
	W_EXEC,	    /* the command's execve happened, or it ended */
	W_PROCEV,   /* the proc connector has events */
	W_SINK,	    /* a listener or connection of the network sink */
	W_NOTIFY,   /* the explain channel's listener has a call */
	W_INSPECT,  /* the inspection worker answered (inspect.c) */
	W_SCRIPT    /* a relay of an interpreter's stdin can move (script.c) */
};

#define JOB_WATCH (10 + SBX_SINK_WATCH + SBX_RELAYS) /* at most, per job */

#define MAX_WATCH (JOB_WATCH * 64 + 2)

struct watch_set {
	struct pollfd pfd[MAX_WATCH];
	struct sbx_job *who[MAX_WATCH];
	int what[MAX_WATCH];
	size_t np;
};

static void watch(struct watch_set *w, int fd, short events, struct sbx_job *j,
		  int what)
{
	w->pfd[w->np] = (struct pollfd){fd, events, 0};
	w->who[w->np] = j;
	w->what[w->np++] = what;
}

/* next: the earliest of next and t (-1: none yet) */
static void sooner(double *next, double t)
{
	if (*next < 0 || t < *next)
		*next = t;
}

/* The job's deadlines: the wall clock, the next sample, the grace after
 * init's exit and after the last reap; acts on those that passed and
 * keeps the earliest left in *next.  Returns 1 when the job is finished. */
static int job_timers(struct sbx_job *j, double now, double *next)
{
	if (j->io.wall > 0 && !j->exited) {
		double dl = j->start + j->io.wall;
		if (now >= dl)
			sbx_kill_box(j, SBX_END_WALL);
		else
			sooner(next, dl);
	}
	if ((j->io.memory_limit || j->io.task_limit || j->io.cpu_limit > 0) &&
	    !j->exited && j->end_kind == SBX_END_NONE) {
		if (now >= j->next_sample)
			sbx_sample_box(j, now);
		sooner(next, j->next_sample);
	}
	/* a box without its own pid namespace may leave a process holding
	 * the pipes: stop waiting 1 s after init's exit */
	if (j->exited && now > j->end + 1.0) {
		sbx_job_finish(j);
		return 1;
	}
	if (j->exited)
		sooner(next, j->end + 1.0);
	/* init waits for the last exit events: at most 1 s */
	if (j->reaped_at && !j->answered) {
		if (now > j->reaped_at + 1.0)
			sbx_answer_reaped(j, 1);
		else
			sooner(next, j->reaped_at + 1.0);
	}
	if (j->tty_back) {
		sbx_tty_try_back(j, now);
		if (j->tty_back)
			sooner(next, j->tty_back_by);
	}
	sbx_sink_timers(&j->sink, now);
	return 0;
}

/* how soon the listener is looked for again (sbx_notify_take) */
#define NOTIFY_RETRY 0.00005

/* The explain channel: the listener is taken once the command's process
 * has loaded its filter (it cannot say so after: nothing of sbxlua runs
 * under the filter but execve); until then, looked for again. */
static void take_listener(struct sbx_job *j, double now, double *next)
{
	int t;
	if (j->nt.want < 0 || j->nt.fd >= 0 || j->nt.pidfd < 0 || j->exited ||
	    j->end_kind != SBX_END_NONE) /* being killed: nothing to take */
		return;
	t = sbx_notify_take(&j->nt);
	if (t == 0) {
		sooner(next, now + NOTIFY_RETRY);
	} else if (t < 0) {
		/* its execve would wait forever: the program never ran, a
		 * set-up failure */
		sbx_set_cannot(j, SBX_ST_LISTENER, j->nt.err);
		sbx_kill_box(j, SBX_END_CANNOT);
	}
}

/* The descriptors of one job the loop waits on. */
static void job_watches(struct watch_set *w, struct sbx_job *j)
{
	if (!j->exited)
		watch(w, j->pidfd, POLLIN, j, W_PIDFD);
	if (j->ctl >= 0)
		watch(w, j->ctl, POLLIN, j, W_CTL);
	if (j->pe.fd >= 0 && !j->exited)
		watch(w, j->pe.fd, POLLIN, j, W_PROCEV);
	if (j->nt.fd >= 0 && !j->exited)
		watch(w, j->nt.fd, POLLIN, j, W_NOTIFY);
	if (j->exec_fd >= 0)
		watch(w, j->exec_fd, POLLIN, j, W_EXEC);
	{
		int fds[SBX_RELAYS];
		short ev[SBX_RELAYS];
		size_t nr = sbx_script_watch(&j->nt.scripts, fds, ev);
		for (size_t i = 0; i < nr; i++)
			watch(w, fds[i], ev[i], j, W_SCRIPT);
	}
	if (j->in >= 0 && j->io.in_fd >= 0 && j->inbuf_off == j->inbuf_len)
		/* wait for the source, not the box */
		watch(w, j->io.in_fd, POLLIN, j, W_IN);
	else if (j->in >= 0 && (j->io.in_fd >= 0 || j->in_off < j->io.in_len))
		watch(w, j->in, POLLOUT, j, W_IN);
	for (int s = 0; s < 2; s++) {
		if (j->out[s] >= 0)
			watch(w, j->out[s], POLLIN, j, W_OUT + s);
		if (j->io.out_mode[s] == SBX_OUT_PASS && j->sent[s] < j->len[s])
			watch(w, SBX_OUT_FD(&j->io, s), POLLOUT, j, W_PASS + s);
	}
}

/* The sink's descriptors of one job, and its next deadline. */
static void sink_watches(struct watch_set *w, struct sbx_job *j, double *next)
{
	int fds[SBX_SINK_WATCH];
	double t;
	int n = sbx_sink_watches(&j->sink, fds, &t);
	for (int i = 0; i < n; i++)
		watch(w, fds[i], POLLIN, j, W_SINK);
	if (t >= 0)
		sooner(next, t);
}

/* Acts on one ready descriptor. */
static void on_ready(const struct watch_set *w, size_t k, struct sbx_job **jobs,
		     size_t n, int stopfd)
{
	struct sbx_job *j = w->who[k];
	short re = w->pfd[k].revents;
	switch (w->what[k]) {
	case W_STOP:
		sbx_read_stop(stopfd, jobs, n);
		sbx_inspect_cancel_all(); /* the files left untyped, counted */
		break;
	case W_INSPECT:
		sbx_inspect_service(sbx_now());
		break;
	case W_PIDFD:
		j->exited = 1;
		j->end = sbx_now();
		break;
	case W_CTL:
		sbx_read_ctl(j);
		break;
	case W_PROCEV:
		sbx_procev_read(&j->pe);
		sbx_answer_reaped(j, 0);
		break;
	case W_NOTIFY:
		if (re & POLLIN) {
			/* a stop: the box first, the refused call never
			 * returns */
			if (sbx_notify_handle(&j->nt) == SBX_ANS_STOP)
				sbx_kill_box(j, SBX_END_REFUSED);
		} else {
			/* POLLHUP: no task uses the filter any more */
			sbx_close_fd(&j->nt.fd);
		}
		break;
	case W_EXEC:
		/* the command's execve happened (or it ended): a failure it
		 * sent comes first */
		sbx_read_ctl(j);
		sbx_probe_exec(j);
		break;
	case W_IN:
		if ((re & (POLLERR | POLLNVAL)) ||
		    ((re & POLLHUP) && !(re & POLLIN)))
			sbx_close_fd(&j->in);
		else
			sbx_write_in(j);
		break;
	case W_SCRIPT:
		sbx_script_pump(&j->nt.scripts);
		break;
	case W_SINK:
		sbx_sink_ready(&j->sink, w->pfd[k].fd, sbx_now());
		break;
	case W_OUT:
	case W_OUT + 1:
		sbx_read_out(j, w->what[k] - W_OUT);
		break;
	default:
		sbx_pass_out(j, w->what[k] - W_PASS, 0);
		sbx_tty_try_back(j, 0);
		break;
	}
}

/* The loop's wait until next (NULL: none), to the microsecond: a retry
 * 0.2 ms away waits 0.2 ms, not poll's next whole millisecond.  At least
 * POLL_FLOOR, so that a deadline already past is acted on without a spin. */
#define POLL_FLOOR 20e-6

static const struct timespec *poll_timeout(double next, double now,
					   struct timespec *ts)
{
	double d;
	if (next < 0)
		return NULL;
	d = next - now;
	if (d > 86400.0)
		d = 86400.0; /* a day: wake up and look again */
	if (d < POLL_FLOOR)
		d = POLL_FLOOR;
	ts->tv_sec = (time_t)d;
	ts->tv_nsec = (long)((d - (double)ts->tv_sec) * 1e9);
	return ts;
}

int sbx_job_collected(const struct sbx_job *j)
{
	return j->done && j->cap.insp.pending == 0;
}

/* The inspection worker, while a request of any run waits: its socket
 * and its deadline; returns whether it is watched. */
static int inspect_watch(struct watch_set *w, double now, double *next)
{
	int fd;
	sbx_inspect_timers(now);
	fd = sbx_inspect_watch(now, next);
	if (fd >= 0)
		watch(w, fd, POLLIN, NULL, W_INSPECT);
	return fd >= 0;
}

/* A job done is collected once its files are inspected: the loop goes
 * on serving the other jobs (and the worker) meanwhile. */
static void jobs_wait(struct watch_set *w, struct sbx_job **jobs, size_t n,
		      int stopfd, int any)
{
	for (;;) {
		size_t active = 0, ended = 0, typing = 0;
		double now = sbx_now(), next = -1;

		w->np = 0;
		if (stopfd >= 0)
			watch(w, stopfd, POLLIN, NULL, W_STOP);
		for (size_t i = 0; i < n; i++) {
			struct sbx_job *j = jobs[i];
			if (!j->done && sbx_job_ready(j))
				sbx_job_finish(j);
			if (j->done) {
				if (sbx_job_collected(j))
					ended++;
				else
					typing++;
				continue;
			}
			if (job_timers(j, now, &next))
				continue;
			if (w->np + JOB_WATCH > MAX_WATCH)
				break;
			take_listener(j, now, &next);
			sbx_lock_retry(&j->nt, now, &next); /* lockguard.c */
			sbx_sleep_tick(&j->nt, j->pid, now,
				       &next); /* sleep.c */
			active++;
			job_watches(w, j);
			sink_watches(w, j, &next);
		}
		if (any && ended > 0)
			return;
		if (!inspect_watch(w, now, &next) && typing > 0) {
			/* nothing in flight: the worker lost meanwhile */
			sbx_inspect_service(now);
			continue;
		}
		if (active == 0 && typing == 0) {
			int left = 0;
			for (size_t i = 0; i < n; i++)
				left |= !jobs[i]->done;
			if (!left)
				return;
			continue;
		}
		struct timespec ts;
		if (ppoll(w->pfd, w->np, poll_timeout(next, now, &ts), NULL) <
		    0) {
			if (errno == EINTR)
				continue;
			return;
		}
		for (size_t k = 0; k < w->np; k++)
			if (w->pfd[k].revents)
				on_ready(w, k, jobs, n, stopfd);
	}
}

/* The watch set of one wait: from the heap, not the stack, where its 64
 * KiB would put every call the loop makes as far below: each page of the
 * stack a box's clone shares is write-protected in this process, which
 * then takes a fault at its next write there (about 25 a box, where a
 * batch's loop runs); the heap is kept out of the clone (start.c
 * heap_fork).  Kept for the next wait; on the stack when there is no
 * memory for it. */
static struct watch_set *kept_watches;

static __attribute__((noinline)) void
jobs_wait_on_stack(struct sbx_job **jobs, size_t n, int stopfd, int any)
{
	struct watch_set w;
	jobs_wait(&w, jobs, n, stopfd, any);
}

void sbx_jobs_wait(struct sbx_job **jobs, size_t n, int stopfd, int any)
{
	struct watch_set *w = kept_watches;
	kept_watches = NULL; /* a wait inside this one takes its own */
	if (!w)
		w = malloc(sizeof *w);
	if (!w) {
		jobs_wait_on_stack(jobs, n, stopfd, any);
		return;
	}
	jobs_wait(w, jobs, n, stopfd, any);
	if (kept_watches)
		free(w);
	else
		kept_watches = w;
}
