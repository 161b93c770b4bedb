/* SPDX-License-Identifier: MIT */
/*
 * end.c: how a job ends.  The box's limits sampled while it runs (memory,
 * tasks, CPU), the box killed (init takes its pid namespace with it), init
 * reaped with its rusage, the deaths merged, the end classified, the job
 * released.
 */
#include "super.h"

#include "compat.h"
#include "fileio.h"
#include "stamp.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

void sbx_set_cannot(struct sbx_job *j, int stage, int err)
{
	if (!j->have_cannot) {
		j->cannot.type = SBX_MSG_CANNOT;
		j->cannot.stage = stage;
		j->cannot.err = err;
		j->cannot.index = -1;
		j->have_cannot = 1;
	}
}

/* Whether the command's execve has happened (or it has ended) and its
 * status is not read yet: the exec pipe is at EOF. */
static int exec_pending(const struct sbx_job *j)
{
	struct pollfd pf = {j->exec_fd, POLLIN, 0};
	return j->exec_fd >= 0 && poll(&pf, 1, 0) > 0;
}

void sbx_kill_box(struct sbx_job *j, int why)
{
	/* the program's own status first, if it has started and was not read
	 * yet (its probe and its first output can come in one wait, and a
	 * limit hit by that output kills before the exec pipe is looked at):
	 * once killed it may be reaped, and its claims could only be
	 * reported failed */
	if (exec_pending(j))
		sbx_probe_exec(j);
	if (j->end_kind == SBX_END_NONE)
		j->end_kind = why;
	/* a following box killed after its command ended: what ended the
	 * processes that ran on (the command's own end stays its status) */
	if (j->have_status && !j->outlived_kill)
		j->outlived_kill = why;
	if (j->pidfd >= 0 && !j->exited)
		sbx_pidfd_send_signal(j->pidfd, SIGKILL);
	j->pe.teardown = 1;
	/* init's death ends its pid namespace; the cgroup's kill also takes
	 * a box that has none, at once */
	if (j->cg.fd >= 0)
		sbx_cgroup_kill(&j->cg);
}

/*
 * Samples the whole box: its memory (anonymous + shared resident), its
 * tasks and, for a CPU budget, its CPU time, summed over every process
 * (the CPU from the cgroup's cpu.stat where the box has one); kills it
 * past a limit the cgroup does not hold itself.
 *
 * When: the rate rises as the box nears a limit (memory, tasks), and a CPU
 * budget is looked at again no later than the box could reach it with
 * every task on a core of its own.  Whatever the box holds, sampling takes
 * at most SAMPLE_SHARE of one core: a sample costs in proportion to the
 * box's processes (one to three /proc reads each), so the next one waits at
 * least its measured cost (this thread's CPU time, plus the wake-up around
 * it) divided by SAMPLE_SHARE.  Between two samples RLIMIT_DATA,
 * RLIMIT_NPROC and RLIMIT_CPU hold a runaway process (docs/limits.md).
 */
#define SAMPLE_SLOW 0.050 /* below 1/4 of the memory, 1/2 of the tasks */

#define SAMPLE_MID 0.010

#define SAMPLE_NEAR 0.001 /* from half the memory limit; the shortest */

/* of one core: 2 %, less a margin for the wake-up the measure leaves out
 * and the loop around the samples (measured: 0.3 % with 100 processes) */
#define SAMPLE_SHARE 0.015

#define SAMPLE_WAKE 20e-6 /* poll's return and the loop around a sample */

static double thread_cpu(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void sbx_sample_box(struct sbx_job *j, double now)
{
	static long ncpu;
	struct sbx_sample s;
	uint64_t ml = j->io.memory_limit, tl = j->io.task_limit;
	double cl = j->io.cpu_limit, c0 = thread_cpu(), cpu = -1, gap, cost;
	int r;
	if (j->cg.fd >= 0) {
		r = sbx_sample_cgroup(j->cg.fd, j->pid, &s);
		if (cl > 0 && sbx_sample_cgroup_cpu(j->cg.fd, &cpu) < 0)
			cpu = -1;
	} else {
		r = sbx_sample(j->pid, 1, cl > 0 ? &j->cpu_track : NULL, &s);
		if (r == 0 && cl > 0)
			cpu = s.cpu;
	}
	/* before the command's execve its process is still a copy of this
	 * one (its pages shared copy-on-write, in its RssAnon): only its
	 * tasks count then.  MSG_EXEC comes before the filter and the
	 * execve; the exec pipe (probe.c), where there is one, says when
	 * the execve has happened, however long the two take under load */
	if (r == 0 && (!j->execed || (j->exec_fd >= 0 && !exec_pending(j))))
		s.memory = s.rss_anon = s.rss_shmem = 0;
	else if (r == 0) /* tmpfs, SysV shm, socket buffers (kmem.c), and
			   the memfds made for the box (notify.c) */
		s.memory += sbx_kmem_sample(&j->kmem, NULL) +
			    sbx_notify_memfd_bytes(&j->nt);
	if (r < 0) {
		j->next_sample = now + SAMPLE_MID;
		return;
	}
	if (ml && s.memory >= ml / 2)
		gap = SAMPLE_NEAR;
	else if ((ml && s.memory >= ml / 4) || (tl && s.tasks >= tl / 2))
		gap = SAMPLE_MID;
	else
		gap = SAMPLE_SLOW;
	if (cpu > j->cpu_seen)
		j->cpu_seen = cpu;
	if (cl > 0 && j->cpu_seen < cl) {
		/* the soonest the budget can be used up */
		double par = (double)(s.tasks ? s.tasks : 1);
		if (!ncpu)
			ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		if (ncpu > 0 && par > (double)ncpu)
			par = (double)ncpu;
		if ((cl - j->cpu_seen) / par < gap)
			gap = (cl - j->cpu_seen) / par;
	}
	if (gap < SAMPLE_NEAR)
		gap = SAMPLE_NEAR;
	/* the cost bound: a cost that rises counts at once, one that falls
	 * is believed slowly (one cheap sample of a large box is luck) */
	cost = thread_cpu() - c0 + SAMPLE_WAKE;
	j->sample_cost =
	    cost > j->sample_cost ? cost : 0.75 * j->sample_cost + 0.25 * cost;
	if (gap < j->sample_cost / SAMPLE_SHARE)
		gap = j->sample_cost / SAMPLE_SHARE;
	j->next_sample = now + gap;
	j->samples++;
	if (s.memory > j->memory_peak)
		j->memory_peak = s.memory;
	if (s.tasks > j->tasks_peak)
		j->tasks_peak = s.tasks;
	if (ml && s.memory > ml && !(j->cg.limited & SBX_CG_MEMORY))
		sbx_kill_box(j, SBX_END_MEMORY);
	else if (tl && s.tasks >= tl && !(j->cg.limited & SBX_CG_PIDS))
		sbx_kill_box(j, SBX_END_TASKS);
	else if (cl > 0 && j->cpu_seen >= cl)
		sbx_kill_box(j, SBX_END_CPU);
}

void sbx_outlived_add(struct sbx_job *j, const struct sbx_outlived_msg *o)
{
	struct sbx_outlived_msg *l = &j->outlived;
	if (o->m.stage == 0) { /* the list, once */
		if (!j->have_outlived && o->n >= 0 &&
		    o->n <= SBX_OUTLIVED_NAMES) {
			*l = *o;
			j->have_outlived = 1;
			sbx_tty_give_back(j); /* the command's end */
		}
		return;
	}
	/* one the list missed: it ended before init looked, or was born
	 * after, and ran on all the same */
	if (!j->have_outlived || o->n != 1)
		return;
	for (int i = 0; i < l->n; i++)
		if (l->p[i].pid == o->p[0].pid)
			return;
	if (l->n < SBX_OUTLIVED_NAMES)
		l->p[l->n++] = o->p[0];
	if (l->m.index >= 0)
		l->m.index++;
}

/* Whether connector record c and init's record o are one death: the same
 * pid in the box where the connector read it, else (its zombie was gone
 * before it could be read) the same command name, or, without a name,
 * the same signal. */
static int same_death(const struct sbx_death *c, const struct sbx_death *o)
{
	if ((o->flags & SBX_DEATH_CONNECTOR) ||
	    (o->status & 0x7f) != (c->status & 0x7f))
		return 0;
	if (c->pid > 0)
		return o->pid == c->pid;
	/* no name either (its exec's comm could not be read in time): the
	 * signal alone */
	return !c->comm[0] || strncmp(o->comm, c->comm, sizeof c->comm) == 0;
}

/* A death the connector saw that init recorded too (a process whose
 * parent died before reaping it, reaped by init after all) is init's.
 * Each of init's records stands for one death: where the connector knows
 * no pid in the box, two deaths of one name and signal, one reaped by its
 * parent, could be taken for one (one note fewer, never one more). */
static void dedup_deaths(struct sbx_job *j)
{
	unsigned char used[SBX_DEATH_MAX], drop[SBX_DEATH_MAX];
	int k = 0;
	memset(used, 0, sizeof used);
	memset(drop, 0, sizeof drop);
	for (int i = 0; i < j->ndeaths; i++)
		for (int o = 0; (j->deaths[i].flags & SBX_DEATH_CONNECTOR) &&
				o < j->ndeaths && !drop[i];
		     o++)
			if (!used[o] &&
			    same_death(&j->deaths[i], &j->deaths[o]))
				drop[i] = used[o] = 1;
	for (int i = 0; i < j->ndeaths; i++)
		if (!drop[i])
			j->deaths[k++] = j->deaths[i];
	j->ndeaths = k;
}

/* Reaps init: its status, the CPU time of the box (init's usage, the
 * sampler's count, or the cgroup's), the cgroup's counters; the cgroup is
 * removed. */
static void reap_init(struct sbx_job *j)
{
	siginfo_t si;
	struct rusage ru;
	sbx_stamp(SBX_T_FINISH);
	memset(&si, 0, sizeof si);
	memset(&ru, 0, sizeof ru);
	/* the raw call returns init's usage, which holds every process of
	 * the box that init reaped */
	while (syscall(SYS_waitid, P_PIDFD, j->pidfd, &si, WEXITED, &ru) < 0 &&
	       errno == EINTR)
		;
	/* every process of the box is gone: its plan's mapping is free */
	sbx_plan_release(&j->plan_slot);
	j->init_status = si.si_status;
	j->init_signal = si.si_code == CLD_KILLED || si.si_code == CLD_DUMPED
			     ? si.si_status
			     : 0;
	j->cpu = (double)ru.ru_utime.tv_sec +
		 (double)ru.ru_utime.tv_usec / 1e6 +
		 (double)ru.ru_stime.tv_sec + (double)ru.ru_stime.tv_usec / 1e6;
	/* init's usage misses what was never waited for (children of a
	 * process that ignores SIGCHLD): the sampler's count is a lower bound
	 * that keeps it */
	if (j->cpu_seen > j->cpu)
		j->cpu = j->cpu_seen;
	sbx_cpu_track_free(&j->cpu_track);
	if (j->cg.fd >= 0) {
		if (sbx_cgroup_events(&j->cg, &j->ev) == 0) {
			j->have_events = 1;
			if (j->ev.cpu_usec >= 0)
				j->cpu = (double)j->ev.cpu_usec / 1e6;
			if (j->ev.memory_peak > (int64_t)j->memory_peak)
				j->memory_peak = (uint64_t)j->ev.memory_peak;
		}
		sbx_cgroup_remove(&j->cg);
	}
}

/* What ended the run, from what the supervisor did and saw. */
static void decide_end(struct sbx_job *j)
{
	if (j->have_cannot && j->end_kind != SBX_END_INTERRUPTED)
		/* (the operator's stop killed the box, maybe in its set-up: a
		 * step that then failed, the listener's hand-over with ESRCH,
		 * is the stop's consequence, not the box's own failure) */
		j->end_kind = SBX_END_CANNOT;
	else if (j->have_status && WIFEXITED(j->status) &&
		 j->end_kind != SBX_END_OUTPUT &&
		 !(j->plan && j->plan->follow &&
		   j->end_kind == SBX_END_INTERRUPTED))
		/* the command exited on its own before a kill of ours landed
		 * (output past the cap stays a kill: bytes were dropped; a
		 * following box the operator stopped while what the command
		 * left ran on was cut short: its run is not whole) */
		j->end_kind = SBX_END_EXIT;
	else if (j->end_kind != SBX_END_NONE)
		return; /* the supervisor's own kill names the cause */
	else if (j->have_events && j->ev.oom_kill > 0 &&
		 (!j->have_status ||
		  (WIFSIGNALED(j->status) && WTERMSIG(j->status) == SIGKILL)))
		/* the kernel's record: the cgroup's OOM killer ended the box
		 * (with memory.oom.group, init and all), or the command */
		j->end_kind = SBX_END_MEMORY;
	else if (j->have_status && WIFSIGNALED(j->status))
		j->end_kind = SBX_END_SIGNAL;
	else if (j->execed && j->init_signal)
		/* init killed from outside the box (nothing inside can signal
		 * it) after the command started: the command died with its pid
		 * namespace, a run of its own, not a set-up failure */
		j->end_kind = SBX_END_INIT;
	else
		/* init ended before the command's execve, or without a
		 * signal and without the command's status: set-up */
		j->end_kind = SBX_END_LOST;
}

/* Closes the job's channels to its box: init's pidfd, the control socket,
 * the box's stdin and its two outputs. */
static void close_channels(struct sbx_job *j)
{
	sbx_close_fd(&j->pidfd);
	sbx_close_fd(&j->ctl);
	sbx_close_fd(&j->in);
	sbx_close_fd(&j->out[0]);
	sbx_close_fd(&j->out[1]);
}

void sbx_job_finish(struct sbx_job *j)
{
	reap_init(j);
	sbx_read_ctl(j);
	/* every process of the box has ended (its init is reaped): what it
	 * left in its written places, through the descriptors init sent */
	sbx_capture_run(&j->cap);
	if (j->deaths_sync) {
		/* init killed before it asked (the supervisor's own kill):
		 * the deaths before the kill were seen, those of it are the
		 * box's end; a SIGXFSZ death keeps files_partial (no search) */
		sbx_procev_read(&j->pe);
		dedup_deaths(j);
		/* closed; what it says of the coverage stays */
		if (j->pe.fd >= 0) {
			int on = j->pe.on;
			sbx_procev_close(&j->pe);
			j->pe.on = on;
		}
	}
	close_channels(j);
	sbx_close_fd(&j->nt.fd);
	sbx_close_fd(&j->nt.pidfd);
	sbx_sink_finish(&j->sink, sbx_now());
	j->done = 1;
	/* the last process's end: init's word that none is left, else init's
	 * own exit (j->end, when its pidfd said so) */
	j->last_end = j->reaped_at ? j->reaped_at : j->end ? j->end : sbx_now();
	j->end = sbx_now();
	for (int s = 0; s < 2; s++)
		if (j->io.out_mode[s] == SBX_OUT_PASS)
			sbx_pass_out(j, s, 1);
	decide_end(j);
}

int sbx_job_ready(const struct sbx_job *j)
{
	/* init has exited and both streams reached EOF: every process of the
	 * box is gone (init's exit tore down its pid namespace) */
	return j->exited && j->out[0] < 0 && j->out[1] < 0;
}

void sbx_job_release(struct sbx_job *j)
{
	if (j->pidfd >= 0) {
		if (!j->exited)
			sbx_pidfd_send_signal(j->pidfd, SIGKILL);
		while (waitid((idtype_t)P_PIDFD, (id_t)j->pidfd, NULL,
			      WEXITED) < 0 &&
		       errno == EINTR)
			;
	}
	sbx_plan_release(&j->plan_slot);
	close_channels(j);
	sbx_close_fd(&j->io.in_fd);
	sbx_close_fd(&j->cmd_pidfd);
	sbx_close_fd(&j->exec_fd);
	sbx_notify_close(&j->nt);
	sbx_cgroup_remove(&j->cg);
	sbx_procev_close(&j->pe);
	sbx_kmem_close(&j->kmem);
	sbx_sink_close(&j->sink);
	sbx_cpu_track_free(&j->cpu_track);
	free(j->buf[0]);
	free(j->buf[1]);
	free(j->head[0]);
	free(j->head[1]);
	j->head[0] = j->head[1] = NULL;
	j->head_len[0] = j->head_len[1] = 0;
	free(j->probe);
	sbx_capture_free(&j->cap);
	j->buf[0] = j->buf[1] = NULL;
	j->probe = NULL;
	j->len[0] = j->len[1] = 0;
}
