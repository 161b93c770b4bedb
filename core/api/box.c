/* SPDX-License-Identifier: MIT */
/*
 * box.c: running sbx.box objects (spec.c compiles them).  box:run()
 * executes a box's plan once and returns a result table;
 * core.run_many({box, ...}) runs several boxes at once under one event loop.
 */
#include "compat.h"
#include "sbx.h"

#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <termios.h>
#include <unistd.h>

#define JOBS "sbx.jobs"
#define MAX_PARALLEL 64

static struct sbx_box *check_box(lua_State *L, int idx)
{
	struct sbx_box *b = luaL_checkudata(L, idx, SBX_BOX);
	if (b->closed)
		luaL_error(L, "attempt to use a closed box");
	return b;
}

/* ---- running ---- */

struct jobs {
	size_t n;
	struct sbx_job job[];
};

static void jobs_release(struct jobs *js)
{
	for (size_t i = 0; i < js->n; i++)
		sbx_job_release(&js->job[i]);
	js->n = 0;
}

static int jobs_gc(lua_State *L)
{
	jobs_release(luaL_checkudata(L, 1, JOBS));
	return 0;
}

/* Why the proc connector did not see every process of the box, in fixed
 * words (pushed). */
static void procev_reason(lua_State *L, const struct sbx_job *j)
{
	const struct sbx_procev *pe = &j->pe;
	const char *why = pe->why ? pe->why : "not asked";
	if (j->io.no_proc_events)
		lua_pushliteral(L, "proc connector: not asked");
	else if (pe->err)
		lua_pushfstring(L, "proc connector: %s: %s", why,
				sbx_errno_name(pe->err));
	else
		lua_pushfstring(L, "proc connector: %s", why);
}

/* The deaths init recorded or the proc connector saw (deaths = {{pid,
 * name, signal, signame, core, cpu, cpu_soft, cpu_hard, file_size,
 * file_at_limit, files_partial, command, seen, record}, ...}),
 * deaths_unseen, and which processes were seen: death_coverage "all" (the
 * connector followed every process of the box), "init" (the command,
 * orphans, and what was left when the command ended: a pid namespace of
 * the box's own; death_coverage_reason says why no more) or "command". */
static void push_deaths(lua_State *L, const struct sbx_job *j)
{
	lua_createtable(L, j->ndeaths, 0);
	for (int i = 0; i < j->ndeaths; i++) {
		const struct sbx_death *d = &j->deaths[i];
		lua_createtable(L, 0, 14);
		if (d->pid > 0)
			sbx_set_int(L, "pid", d->pid);
		sbx_set_text(L, "name", d->comm);
		sbx_set_str(L, "seen",
			    d->flags & SBX_DEATH_CONNECTOR ? "connector"
							   : "init");
		/* the kernel's record of it (cpu, limits) was read */
		sbx_set_bool(L, "record", !(d->flags & SBX_DEATH_UNREAD));
		if (WIFSIGNALED(d->status)) {
			sbx_set_int(L, "signal", WTERMSIG(d->status));
			sbx_set_str(L, "signame",
				    sbx_signal_name(WTERMSIG(d->status)));
			sbx_set_bool(L, "core", WCOREDUMP(d->status));
		}
		if (d->cpu_ns >= 0)
			sbx_set_num(L, "cpu", (double)d->cpu_ns / 1e9);
		if (d->cpu_soft >= 0)
			sbx_set_int(L, "cpu_soft", d->cpu_soft);
		if (d->cpu_hard >= 0)
			sbx_set_int(L, "cpu_hard", d->cpu_hard);
		if (d->fsize >= 0)
			sbx_set_int(L, "file_size", d->fsize);
		sbx_set_bool(L, "file_at_limit",
			     d->flags & SBX_DEATH_FILE_AT_LIMIT);
		sbx_set_bool(L, "files_partial",
			     d->flags & SBX_DEATH_FILES_PARTIAL);
		sbx_set_bool(L, "command", d->flags & SBX_DEATH_COMMAND);
		lua_rawseti(L, -2, i + 1);
	}
	lua_setfield(L, -2, "deaths");
	sbx_set_int(L, "deaths_unseen", (lua_Integer)j->deaths_unseen);
	if (!j->plan || !(j->plan->nsflags & CLONE_NEWPID)) {
		lua_pushstring(L, "command");
	} else if (j->deaths_sync && j->pe.on && !j->pe.why) {
		lua_pushstring(L, "all");
	} else {
		lua_pushstring(L, "init");
		procev_reason(L, j);
		lua_setfield(L, -3, "death_coverage_reason");
	}
	lua_setfield(L, -2, "death_coverage");
	sbx_set_int(L, "proc_events", (lua_Integer)j->pe.events);
	/* the most tasks live at once on the connector's fork and exit
	 * events: evidence only while it lost none */
	if (j->pe.events > 0 && !j->pe.why && !j->io.no_proc_events)
		sbx_set_int(L, "tasks_seen", (lua_Integer)j->pe.peak);
}

/* The explain channel's events (notify.c), in order, and what ended the
 * box when a call was answered "stop". */
static void push_events(lua_State *L, const struct sbx_job *j)
{
	const struct sbx_notify *n = &j->nt;
	if (!j->io.notify)
		return;
	sbx_push_events(L, n);
	lua_setfield(L, -2, "events");
	sbx_push_scripts(L, (struct sbx_scripts *)&n->scripts);
	lua_setfield(L, -2, "scripts");
	if (n->scripts.over > 0) { /* past the scripts' budgets */
		sbx_set_int(L, "scripts_over", (lua_Integer)n->scripts.over);
	}
	sbx_set_int(L, "events_dropped",
		    (lua_Integer)sbx_evlog_dropped(&n->log));
	if (n->log.nagg > 0) { /* past the budgets (evlog.c) */
		sbx_push_summaries(L, &n->log);
		lua_setfield(L, -2, "events_summarised");
	}
	if (sbx_evlog_dropped(&n->log) > n->log.summarised) {
		sbx_push_lost(L, &n->log);
		lua_setfield(L, -2, "events_lost");
	}
	sbx_set_int(L, "notified", (lua_Integer)n->calls);
	sbx_set_bool(L, "notify_sync", n->sync);
	if (n->sleeps.calls > 0) { /* sleep.c */
		lua_createtable(L, 0, 3);
		sbx_set_int(L, "calls", (lua_Integer)n->sleeps.calls);
		sbx_set_num(L, "seconds", (lua_Number)n->sleeps.ns / 1e9);
		sbx_set_num(L, "longest",
			    (lua_Number)n->sleeps.longest_ns / 1e9);
		lua_setfield(L, -2, "sleeps_skipped");
	}
	if (n->stopped) {
		sbx_push_event(L, &n->stop_ev);
		lua_setfield(L, -2, "refused");
	}
	sbx_set_text(L, "rule_error", n->rule_error);
	if (n->err) {
		lua_pushfstring(L, "pidfd_getfd: %s", strerror(n->err));
		lua_setfield(L, -2, "notify_error");
	}
}

/* How the core enforced each limit of the whole box it holds:
 * enforcement = {memory, tasks, cpu, wall, output}, each "cgroup" (the
 * box's cgroup holds it), "sampled" (the supervisor reads the box and
 * kills it past the limit), "supervisor" (counted exactly: time, bytes)
 * or "none" (no such limit); cgroup_base, the base of the box's cgroup. */
static void push_enforcement(lua_State *L, const struct sbx_job *j)
{
	const struct sbx_io *io = &j->io;
	lua_createtable(L, 0, 5);
	sbx_set_str(L, "memory",
		    !io->memory_limit		    ? "none"
		    : j->cg.limited & SBX_CG_MEMORY ? "cgroup"
						    : "sampled");
	sbx_set_str(L, "tasks",
		    !io->task_limit		  ? "none"
		    : j->cg.limited & SBX_CG_PIDS ? "cgroup"
						  : "sampled");
	sbx_set_str(L, "cpu", io->cpu_limit > 0 ? "sampled" : "none");
	sbx_set_str(L, "wall", io->wall > 0 ? "supervisor" : "none");
	sbx_set_str(L, "output", io->out_limit ? "supervisor" : "none");
	lua_setfield(L, -2, "enforcement");
	if (j->cg_base)
		sbx_set_str(L, "cgroup_base", j->cg_base);
}

/* the result's outcome, by end kind */
static const char *const ends[SBX_END_COUNT] = {
    [SBX_END_NONE] = "none",
    [SBX_END_EXIT] = "exit",
    [SBX_END_SIGNAL] = "signal",
    [SBX_END_WALL] = "wall",
    [SBX_END_OUTPUT] = "output",
    [SBX_END_CANNOT] = "cannot",
    [SBX_END_LOST] = "lost",
    [SBX_END_MEMORY] = "memory",
    [SBX_END_TASKS] = "tasks",
    [SBX_END_INIT] = "init",
    [SBX_END_INTERRUPTED] = "interrupted",
    [SBX_END_CPU] = "cpu",
    [SBX_END_REFUSED] = "refused",
};

/* outcome, and the status that goes with it: code, or the signal (the
 * command's, init's, or the one sbxlua got) */
static void push_end(lua_State *L, const struct sbx_job *j)
{
	int sig = 0;
	sbx_set_str(L, "outcome", ends[j->end_kind]);
	if (j->end_kind == SBX_END_EXIT)
		sbx_set_int(L, "code", WEXITSTATUS(j->status));
	if (j->end_kind == SBX_END_SIGNAL) {
		sig = WTERMSIG(j->status);
		sbx_set_bool(L, "core", WCOREDUMP(j->status));
	} else if (j->end_kind == SBX_END_INIT) {
		sig =
		    j->init_signal; /* the signal that killed the box's init */
	} else if (j->end_kind == SBX_END_INTERRUPTED) {
		sig = j->stop_signal; /* the one sbxlua got, that stopped it */
	}
	if (sig) {
		sbx_set_int(L, "signal", sig);
		sbx_set_str(L, "signame", sbx_signal_name(sig));
	}
}

/* Whether processes of a following box ran on after the command ended:
 * init said so, or the supervisor killed the box after the command's end
 * and before init said that none was left (init's word came too late:
 * its count is unknown then). */
static int ran_on(const struct sbx_job *j)
{
	if (j->have_outlived)
		return j->outlived.m.index != 0;
	return j->plan && j->plan->follow && j->have_status &&
	       j->outlived_kill && !j->reaped_at;
}

/* Pushes the entries of o whose ended flag is ended, as a list of
 * {pid, name}. */
static void push_outlived_list(lua_State *L, const struct sbx_outlived_msg *o,
			       int ended)
{
	int k = 0;
	lua_newtable(L);
	for (int i = 0; i < o->n && i < SBX_OUTLIVED_NAMES; i++) {
		if (!o->p[i].ended != !ended)
			continue;
		lua_createtable(L, 0, 2);
		sbx_set_int(L, "pid", o->p[i].pid);
		lua_pushlstring(L, o->p[i].comm,
				strnlen(o->p[i].comm, sizeof o->p[i].comm));
		lua_setfield(L, -2, "name");
		lua_rawseti(L, -2, ++k);
	}
}

/* A following box: outlived = {count (absent: unknown; 0: none ran on),
 * processes = {{pid, name}, ...} (the first of those that ran on, pids in
 * the box), ended (those that had ended when init looked at the command's
 * end, before it or after it), seconds (from the command's end to the
 * last process's), after_ms (the command's end, on the events' clock),
 * killed (what the supervisor ended them for: "wall", ...)}; absent when
 * none ran on and none had ended. */
static void push_outlived(lua_State *L, const struct sbx_job *j)
{
	const struct sbx_outlived_msg *o = &j->outlived;
	double s = j->last_end - j->cmd_end;
	if (!ran_on(j) && !(j->have_outlived && o->n > 0))
		return;
	lua_createtable(L, 0, 6);
	if (j->have_outlived && o->m.index >= 0)
		sbx_set_int(L, "count", o->m.index);
	push_outlived_list(L, o, 0);
	lua_setfield(L, -2, "processes");
	push_outlived_list(L, o, 1);
	lua_setfield(L, -2, "ended");
	sbx_set_num(L, "seconds", s > 0 ? s : 0);
	sbx_set_int(L, "after_ms",
		    (lua_Integer)((j->cmd_end - j->start) * 1000));
	if (j->outlived_kill > SBX_END_NONE &&
	    j->outlived_kill < SBX_END_COUNT) {
		sbx_set_str(L, "killed", ends[j->outlived_kill]);
	}
	lua_setfield(L, -2, "outlived");
}

/* cannot = {stage, errno, errname, path}: the set-up step that failed */
static void push_cannot(lua_State *L, const struct sbx_job *j)
{
	const struct sbx_plan *p = j->plan;
	lua_createtable(L, 0, 5);
	sbx_set_str(L, "stage", sbx_stage_name(j->cannot.stage));
	sbx_set_int(L, "errno", j->cannot.err);
	sbx_set_str(L, "errname", sbx_errno_name(j->cannot.err));
	if (j->cannot.stage == SBX_ST_MOUNT && j->cannot.index >= 0 &&
	    (size_t)j->cannot.index < p->nmounts) {
		sbx_set_str(L, "path", p->mounts[j->cannot.index].dst);
	}
	if (j->cannot.stage == SBX_ST_SYSCTL && j->cannot.index >= 0 &&
	    (size_t)j->cannot.index < p->nsysctls) {
		sbx_set_str(L, "path", p->sysctls[j->cannot.index].name);
	}
	if (j->cannot.stage == SBX_ST_EXEC)
		sbx_set_str(L, "path", p->path);
	lua_setfield(L, -2, "cannot");
}

/* stdout, stderr (captured), their byte counts, and whether a stream
 * passed through left the caller in the middle of a line */
static void push_streams(lua_State *L, const struct sbx_job *j)
{
	for (int s = 0; s < 2; s++) {
		const char *name = s ? "stderr" : "stdout";
		if (j->io.out_mode[s] == SBX_OUT_CAPTURE) {
			lua_pushlstring(L, j->buf[s] ? j->buf[s] : "",
					j->len[s]);
			lua_setfield(L, -2, name);
		}
		sbx_set_int(L, s ? "stderr_bytes" : "stdout_bytes",
			    (lua_Integer)j->total[s]);
		if (j->io.out_mode[s] == SBX_OUT_PASS && j->io.keep_head) {
			/* its first bytes, as the box wrote them */
			lua_pushlstring(L, j->head[s] ? j->head[s] : "",
					j->head_len[s]);
			lua_setfield(L, -2, name);
		}
		if (j->io.out_mode[s] == SBX_OUT_PASS) {
			/* what the caller saw ends in the middle of a line */
			lua_pushboolean(L, j->last[s] != '\n');
			lua_setfield(L, -2,
				     s ? "stderr_partial" : "stdout_partial");
		}
	}
}

/* probe = {status, mountinfo, ns}: status \0 mountinfo \0 namespace links */
static void push_probe(lua_State *L, const struct sbx_job *j)
{
	const char *a = j->probe, *end = j->probe + j->probe_len;
	const char *b = memchr(a, '\0', (size_t)(end - a));
	const char *c = b ? memchr(b + 1, '\0', (size_t)(end - b - 1)) : NULL;
	lua_createtable(L, 0, 3);
	if (b && c) {
		lua_pushlstring(L, a, (size_t)(b - a));
		lua_setfield(L, -2, "status");
		lua_pushlstring(L, b + 1, (size_t)(c - b - 1));
		lua_setfield(L, -2, "mountinfo");
		lua_pushlstring(L, c + 1, (size_t)(end - c - 1));
		lua_setfield(L, -2, "ns");
	}
	lua_setfield(L, -2, "probe");
}

/* elapsed, cpu, the sampler's peaks, the cgroup's and its OOM kills */
static void push_measures(lua_State *L, const struct sbx_job *j)
{
	sbx_set_num(L, "elapsed", j->end - j->start);
	sbx_set_num(L, "cpu", j->cpu);
	if (j->samples) {
		sbx_set_int(L, "memory_peak", (lua_Integer)j->memory_peak);
		sbx_set_int(L, "tasks_peak", (lua_Integer)j->tasks_peak);
		sbx_set_int(L, "samples", (lua_Integer)j->samples);
	}
	sbx_set_bool(L, "cgroup", j->cg.limited || j->have_events);
	if (j->have_events && j->ev.oom_kill >= 0)
		sbx_set_int(L, "oom_kill", j->ev.oom_kill);
}

/* The result of one run (docs/lua-api.md, "the result"). */
static void push_result(lua_State *L, struct sbx_job *j)
{
	lua_createtable(L, 0, 16);
	push_end(L, j);
	if (j->have_cannot)
		push_cannot(L, j);
	push_streams(L, j);
	if (j->probe)
		push_probe(L, j);
	push_measures(L, j);
	push_deaths(L, j);
	push_outlived(L, j);
	push_events(L, j);
	push_enforcement(L, j);
	sbx_capture_push(L, &j->cap);
	sbx_sink_push(L, &j->sink);
	if (j->cg_error) {
		lua_pushfstring(L, "%s: %s", j->cg_what ? j->cg_what : "mkdir",
				strerror(j->cg_error));
		lua_setfield(L, -2, "cgroup_error");
	}
}

/* Why one box of a run_many did not start: its stdin could not be copied
 * (what, errno), or its stdin file was closed (what, 0). */
struct not_run {
	const char *what;
	int err;
};

/* Pushes the entry of a box that did not start, in place of a result. */
static void push_not_run(lua_State *L, const struct not_run *f, size_t i)
{
	lua_createtable(L, 0, 4);
	lua_pushliteral(L, "error");
	lua_setfield(L, -2, "outcome");
	sbx_set_int(L, "index", (lua_Integer)i + 1);
	if (f->err) {
		lua_pushfstring(L, "dup %s: %s", f->what, strerror(f->err));
		lua_setfield(L, -2, "error");
		sbx_set_int(L, "errno", f->err);
	} else {
		sbx_set_str(L, "error", f->what);
	}
}

/*
 * Runs boxes (stack indices) together; pushes a list of results.  One box
 * alone (many == 0) raises when its stdin file was closed and fails when
 * its stdin cannot be copied; in a run_many only that box does not start,
 * its entry says why (push_not_run), and the others run.
 */
/* A copy per run of each box's stdin: its stdin file (a regular file is
 * read from its start with pread, the caller's stdin in sequence), or the
 * caller's stdin for a box pty (*pty set).  In a run_many a box whose copy
 * fails does not start (fail[i]); one box alone returns -1 with *why. */
static int copy_stdin(lua_State *L, struct jobs *js, const int *idx, size_t n,
		      int many, struct not_run *fail, struct not_run *why,
		      int *pty)
{
	for (size_t i = 0; i < n; i++) {
		struct sbx_box *b = lua_touserdata(L, idx[i]);
		struct not_run f = {NULL, 0};
		int fd = -1;
		sbx_job_init(&js->job[i]);
		/* a memfd it executes is typed against its run's budget */
		js->job[i].nt.insp = &js->job[i].cap.insp;
		js->job[i].nt.cap = &js->job[i].cap;
		js->n = i + 1;
		if (fail[i].what)
			continue;
		js->job[i].io = b->io;
		if (b->in_file) {
			fd = fcntl(b->in_file->fd, F_DUPFD_CLOEXEC, 3);
			if (fd < 0)
				f = (struct not_run){"stdin file", errno};
			js->job[i].io.in_pread = !b->in_file->stream;
		} else if (b->io.pty) {
			fd = fcntl(0, F_DUPFD_CLOEXEC, 0);
			if (fd < 0)
				f = (struct not_run){"stdin", errno};
			*pty = 1;
		}
		if (f.what && !many) {
			*why = f;
			return -1;
		}
		if (f.what)
			fail[i] = f;
		else if (fd >= 0)
			js->job[i].io.in_fd = fd;
	}
	return 0;
}

/* The function on top of the stack as n's rule (event.c), its context a
 * userdata kept on the stack above it while the jobs run. */
static void install_rule(lua_State *L, struct sbx_notify *n)
{
	struct sbx_lua_rule *r = lua_newuserdatauv(L, sizeof *r, 0);

	r->L = L;
	r->idx = lua_gettop(L) - 1;
	n->rule = sbx_lua_rule;
	n->rule_ctx = r;
}

/* Each box's rule (the explain channel), on the stack above every index
 * of the boxes while the jobs run: notify.c calls it.  Pushed before the
 * supervisor takes the signals and the terminal, since growing the stack
 * may raise. */
static void push_rules(lua_State *L, struct jobs *js, const int *idx, size_t n,
		       const struct not_run *fail)
{
	for (size_t i = 0; i < n; i++) {
		struct sbx_box *b = lua_touserdata(L, idx[i]);
		if (fail[i].what || !b->rule || !b->io.notify)
			continue;
		luaL_checkstack(L, 4, "too many rules");
		lua_getiuservalue(L, idx[i], 1);
		lua_rawgeti(L, -1, b->rule);
		lua_remove(L, -2);
		install_rule(L, &js->job[i].nt);
	}
}

/* Starts every box that can start and waits for them all, the operator's
 * stop, SIGPIPE and the caller's terminal held by the supervisor
 * meanwhile. */
static void supervise_all(lua_State *L, struct jobs *js, const int *idx,
			  size_t n, const struct not_run *fail, int pty)
{
	struct sbx_job *ptr[MAX_PARALLEL];
	struct sigaction ign, old;
	struct sbx_stop stop;
	struct termios saved, raw;
	int restore = 0, cooked = 0;
	size_t started = 0;

	/* from here to the results, the supervisor owns the operator's stop */
	sbx_stop_own(&stop, pty);
	/* a box that closes its stdin must not kill the supervisor */
	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGPIPE, &ign, &old);
	/* with a box pty, the caller's terminal passes keys through raw: the
	 * box's own line discipline does the editing, so the box's pty
	 * starts with the caller's settings as they were before going raw
	 * (echo, icanon, isig, icrnl, opost), taken here, once */
	if (pty && tcgetattr(0, &saved) == 0) {
		cooked = 1;
		raw = saved;
		cfmakeraw(&raw);
		restore = tcsetattr(0, TCSANOW, &raw) == 0;
	}
	for (size_t i = 0; i < n; i++) {
		struct sbx_box *b = lua_touserdata(L, idx[i]);
		struct sbx_io io = js->job[i].io;
		if (fail[i].what)
			continue;
		if (io.pty && cooked) {
			io.has_termios = 1;
			io.termios = saved;
		}
		sbx_job_start(&js->job[i], &b->plan, &io);
		ptr[started++] = &js->job[i];
	}
	if (started > 0)
		sbx_jobs_wait(ptr, started, stop.fd, 0);
	if (restore)
		tcsetattr(0, TCSANOW, &saved);
	sigaction(SIGPIPE, &old, NULL);
	sbx_stop_release(&stop);
}

static int run_boxes(lua_State *L, const int *idx, size_t n, int many)
{
	struct jobs *js =
	    lua_newuserdatauv(L, sizeof *js + n * sizeof js->job[0], 0);
	struct not_run fail[MAX_PARALLEL], why = {NULL, 0};
	int pty = 0;

	js->n = 0;
	luaL_setmetatable(L, JOBS);
	memset(fail, 0, sizeof fail);
	for (size_t i = 0; i < n; i++) {
		struct sbx_box *b = check_box(L, idx[i]);
		if (b->in_file && b->in_file->fd < 0) {
			if (!many)
				luaL_error(L, "attempt to run a box whose "
					      "stdin file was closed");
			fail[i].what = "its stdin file was closed";
		}
	}
	if (copy_stdin(L, js, idx, n, many, fail, &why, &pty) < 0) {
		jobs_release(js);
		return sbx_fail(L, "dup", why.what, why.err);
	}
	push_rules(L, js, idx, n, fail);
	/* a caller started with 0, 1 or 2 closed would get the box's pipes at
	 * those numbers, and pass output into them: fill the gaps first */
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDWR) < 0) {
			int e = errno;
			jobs_release(js);
			return sbx_fail(L, "open", "/dev/null", e);
		}
	supervise_all(L, js, idx, n, fail, pty);
	sbx_inspect_stop(); /* the runs' files are typed: the worker idle */
	lua_createtable(L, (int)n, 0);
	for (size_t i = 0; i < n; i++) {
		if (fail[i].what)
			push_not_run(L, &fail[i], i);
		else
			push_result(L, &js->job[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	jobs_release(js);
	return 1;
}

/** box:run() -> result table (outcome, code|signal, stdout, stderr,
 * cannot = {stage, errno, errname, path}, elapsed). */
static int l_run(lua_State *L)
{
	int idx = 1, r;
	check_box(L, 1);
	lua_settop(L, 1);
	r = run_boxes(L, &idx, 1, 0);
	if (r != 1)
		return r;
	lua_geti(L, -1, 1);
	return 1;
}

/** core.run_many({box, ...}) -> list of results, the boxes run at once. */
static int l_run_many(lua_State *L)
{
	int idx[MAX_PARALLEL];
	lua_Integer n =
	    sbx_check_list(L, MAX_PARALLEL, "between 1 and 64 boxes");
	/* every box stays on the stack (anchored) while they run: a C
	 * function is only given LUA_MINSTACK (20) free slots */
	luaL_checkstack(L, (int)n + LUA_MINSTACK, "too many boxes");
	for (lua_Integer i = 1; i <= n; i++) {
		lua_geti(L, 1, i);
		check_box(L, -1);
		idx[i - 1] = lua_gettop(L);
	}
	return run_boxes(L, idx, (size_t)n, 1);
}

/* ---- a pool: boxes started one at a time, each collected as it ends ----
 *
 * run_many waits for all of its boxes; a pool keeps up to 64 running and
 * gives back whichever ends first, so that a batch starts the next box
 * while the others run.  Between two waits the supervisor runs Lua, not
 * its loop: a box's output waits in its pipe and its limits are looked at
 * again at the next wait.  The operator's stop is owned during a wait
 * only; a SIGINT between waits is the interpreter's, and closing the pool
 * kills and reaps what still runs.  A box's rule runs inside the wait: a
 * start, wait or close it calls on the pool would change the jobs the
 * wait's loop holds (a close frees them under it), so it raises.
 */

#define POOL "sbx.pool"

struct pool {
	struct sbx_job *job[MAX_PARALLEL]; /* NULL: a free slot */
	int ref[MAX_PARALLEL]; /* the box, anchored in the registry */
	lua_Integer token[MAX_PARALLEL];
	lua_Integer next; /* the next start's token */
	size_t running;
	int waiting; /* inside wait: a rule runs */
	int closed;
};

static struct pool *check_pool(lua_State *L)
{
	return luaL_checkudata(L, 1, POOL);
}

/* The pool of a start, wait or close: none while a wait runs. */
static struct pool *check_idle_pool(lua_State *L)
{
	struct pool *p = check_pool(L);
	if (p->waiting)
		luaL_error(L, "the pool is waiting (a rule cannot start, wait "
			      "or close it)");
	return p;
}

static void pool_free(lua_State *L, struct pool *p, size_t i)
{
	sbx_job_release(p->job[i]);
	free(p->job[i]);
	p->job[i] = NULL;
	luaL_unref(L, LUA_REGISTRYINDEX, p->ref[i]);
	p->ref[i] = LUA_NOREF;
	p->running--;
	if (p->running == 0) /* the pool's last box: its worker idle */
		sbx_inspect_stop();
}

/** core.pool() -> an empty pool */
static int l_pool(lua_State *L)
{
	struct pool *p = lua_newuserdatauv(L, sizeof *p, 0);
	memset(p, 0, sizeof *p);
	for (size_t i = 0; i < MAX_PARALLEL; i++)
		p->ref[i] = LUA_NOREF;
	p->next = 1;
	luaL_setmetatable(L, POOL);
	return 1;
}

/* The gaps at 0, 1 and 2 filled with /dev/null (see run_boxes); 0 or
 * an errno. */
static int fill_std(void)
{
	for (int fd = 0; fd < 3; fd++)
		if (fcntl(fd, F_GETFD) < 0 && errno == EBADF &&
		    open("/dev/null", O_RDWR) < 0)
			return errno;
	return 0;
}

/** pool:start(box) -> token, or nil, msg, errno when its stdin cannot be
 * copied.  A box with a terminal runs alone (box:run). */
static int l_pool_start(lua_State *L)
{
	struct pool *p = check_idle_pool(L);
	struct sbx_box *b = check_box(L, 2);
	struct sbx_job *j;
	struct sbx_io io;
	size_t i = 0;
	int fd = -1, e;
	if (p->closed)
		luaL_error(L, "attempt to use a closed pool");
	luaL_argcheck(L, !b->io.pty, 2, "a box with a terminal runs alone");
	luaL_argcheck(L, !b->in_file || b->in_file->fd >= 0, 2,
		      "its stdin file was closed");
	while (i < MAX_PARALLEL && p->job[i])
		i++;
	if (i == MAX_PARALLEL)
		return luaL_error(L, "a pool runs at most 64 boxes at once");
	if ((e = fill_std()) != 0)
		return sbx_fail(L, "open", "/dev/null", e);
	if (b->in_file && (fd = fcntl(b->in_file->fd, F_DUPFD_CLOEXEC, 3)) < 0)
		return sbx_fail(L, "dup", "stdin file", errno);
	if (!(j = calloc(1, sizeof *j))) {
		if (fd >= 0)
			close(fd);
		return luaL_error(L, "not enough memory");
	}
	sbx_job_init(j);
	j->nt.insp = &j->cap.insp;
	j->nt.cap = &j->cap;
	io = b->io;
	if (b->in_file) {
		io.in_pread = !b->in_file->stream;
		io.in_fd = fd;
	}
	j->io = io;
	lua_pushvalue(L, 2);
	p->ref[i] = luaL_ref(L, LUA_REGISTRYINDEX);
	p->job[i] = j;
	p->token[i] = p->next++;
	p->running++;
	sbx_job_start(j, &b->plan, &io);
	lua_pushinteger(L, p->token[i]);
	return 1;
}

/* Each running box's rule on the stack (see push_rules). */
static void pool_rules(lua_State *L, struct pool *p)
{
	for (size_t i = 0; i < MAX_PARALLEL; i++) {
		struct sbx_box *b;
		if (!p->job[i] || p->job[i]->done)
			continue;
		lua_rawgeti(L, LUA_REGISTRYINDEX, p->ref[i]);
		b = lua_touserdata(L, -1);
		if (!b->rule || !b->io.notify) {
			lua_pop(L, 1);
			continue;
		}
		luaL_checkstack(L, 4, "too many rules");
		lua_getiuservalue(L, -1, 1);
		lua_rawgeti(L, -1, b->rule);
		lua_replace(L, -3);
		lua_pop(L, 1);
		install_rule(L, &p->job[i]->nt);
	}
}

/** pool:wait() -> token, result of the first box to end (the lowest
 * token among those ended); nil when none runs. */
static int l_pool_wait(lua_State *L)
{
	struct pool *p = check_idle_pool(L);
	struct sbx_job *ptr[MAX_PARALLEL];
	size_t n = 0, at = MAX_PARALLEL;
	lua_settop(L, 1);
	if (p->running == 0) {
		lua_pushnil(L);
		return 1;
	}
	for (size_t i = 0; i < MAX_PARALLEL; i++)
		if (p->job[i])
			ptr[n++] = p->job[i];
	pool_rules(L, p);
	{
		struct sigaction ign, old;
		struct sbx_stop stop;
		sbx_stop_own(&stop, 0);
		memset(&ign, 0, sizeof ign);
		ign.sa_handler = SIG_IGN;
		sigaction(SIGPIPE, &ign, &old);
		p->waiting = 1;
		sbx_jobs_wait(ptr, n, stop.fd, 1);
		p->waiting = 0;
		sigaction(SIGPIPE, &old, NULL);
		sbx_stop_release(&stop);
	}
	lua_settop(L, 1);
	for (size_t i = 0; i < MAX_PARALLEL; i++)
		if (p->job[i] && sbx_job_collected(p->job[i]) &&
		    (at == MAX_PARALLEL || p->token[i] < p->token[at]))
			at = i;
	if (at == MAX_PARALLEL) /* the loop gave up (poll failed) */
		return luaL_error(L, "the pool's wait failed: %s",
				  strerror(errno));
	lua_pushinteger(L, p->token[at]);
	push_result(L, p->job[at]);
	pool_free(L, p, at);
	return 2;
}

/** pool:running() -> how many boxes were started and not yet waited for */
static int l_pool_running(lua_State *L)
{
	lua_pushinteger(L, (lua_Integer)check_pool(L)->running);
	return 1;
}

/* Closes p: kills and reaps every box not yet waited for; idempotent. */
static int pool_close(lua_State *L, struct pool *p)
{
	p->closed = 1;
	for (size_t i = 0; i < MAX_PARALLEL; i++)
		if (p->job[i])
			pool_free(L, p, i);
	return 0;
}

/** pool:close(): kills and reaps every box not yet waited for; idempotent
 * (also __close and __gc). */
static int l_pool_close(lua_State *L)
{
	return pool_close(L, check_idle_pool(L));
}

/* __gc: as close, never raising (a pool is not collected inside its own
 * wait: the wait holds it) */
static int l_pool_gc(lua_State *L)
{
	return pool_close(L, check_pool(L));
}

static int l_pool_tostring(lua_State *L)
{
	lua_pushfstring(L, "sbx.pool (%d running)",
			(int)check_pool(L)->running);
	return 1;
}

static int l_close(lua_State *L)
{
	struct sbx_box *b = luaL_checkudata(L, 1, SBX_BOX);
	b->closed = 1;
	return 0;
}

static int l_tostring(lua_State *L)
{
	struct sbx_box *b = luaL_checkudata(L, 1, SBX_BOX);
	if (b->closed)
		lua_pushliteral(L, "sbx.box (closed)");
	else
		lua_pushfstring(L, "sbx.box (%s, %d mounts)", b->plan.path,
				(int)b->plan.nmounts);
	return 1;
}

void sbx_open_box(lua_State *L)
{
	static const luaL_Reg m[] = {
	    {"run", l_run}, {"close", l_close}, {NULL, NULL}};
	static const luaL_Reg f[] = {
	    {"run_many", l_run_many}, {"pool", l_pool}, {NULL, NULL}};
	static const luaL_Reg pool_m[] = {{"start", l_pool_start},
					  {"wait", l_pool_wait},
					  {"running", l_pool_running},
					  {"close", l_pool_close},
					  {NULL, NULL}};
	static const luaL_Reg pool_meta[] = {{"__close", l_pool_close},
					     {"__gc", l_pool_gc},
					     {"__tostring", l_pool_tostring},
					     {NULL, NULL}};
	static const luaL_Reg box_meta[] = {
	    {"__close", l_close}, {"__tostring", l_tostring}, {NULL, NULL}};
	static const luaL_Reg jobs_meta[] = {{"__gc", jobs_gc}, {NULL, NULL}};
	sbx_new_class(L, SBX_BOX, box_meta, m);
	sbx_new_class(L, JOBS, jobs_meta, NULL);
	sbx_new_class(L, POOL, pool_meta, pool_m);
	luaL_setfuncs(L, f, 0);
}
