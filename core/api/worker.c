/* SPDX-License-Identifier: MIT */
/*
 * worker.c: the processes of a batch spread over the cores, and the cores
 * sbxlua may use.
 *
 *   core.cpus()              -> n, affinity, quota (nil when no cpu.max)
 *   core.worker(args)        -> sbx.worker: /proc/self/exe with args, its
 *                               stdin and stdout pipes to us
 *   core.worker_read(ws, ms) -> i, chunk ("" at its end); or nil,
 *                               "signal", signo; or nil, "timeout"
 *   core.hold_stops(on)      -> SIGINT, SIGTERM, SIGHUP held (read by
 *                               worker_read) or given back
 *   worker:send(s), :close_input(), :kill(sig), :wait(), :pid(), :close()
 *
 * Trust boundary.  A worker is sbxlua itself (/proc/self/exe: the kernel's
 * reference to the running binary, never a path a box could have
 * written), and the script it runs is named by the caller and resolved by
 * sbxlua from its own directory.  What a worker writes is data its parent
 * parses (it judged boxes' output); nothing here interprets it.  A worker
 * dies with its parent (PDEATHSIG), and its boxes with it.
 */
#include "sbx.h"

#include "affinity.h"

#include "compat.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/wait.h>
#include <unistd.h>

#define WORKER "sbx.worker"
#define MAX_WORKERS 64
#define MAX_ARGS 256

struct worker {
	pid_t pid; /* 0: reaped or never started */
	int in;	   /* its stdin, ours to write; -1: closed */
	int out;   /* its stdout, ours to read; -1: closed */
};

/* ---- the cores ---- */

/* ceil(quota / period) of the cgroup v2 cpu.max at path; 0: no quota */
static int cpu_max(const char *path)
{
	char buf[64] = "";
	long long quota, period;
	FILE *f = fopen(path, "re");
	if (!f)
		return 0;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	if (sscanf(buf, "%lld %lld", &quota, &period) != 2 || quota <= 0 ||
	    period <= 0)
		return 0; /* "max": no quota */
	return (int)((quota + period - 1) / period);
}

/* the smallest quota of our cgroup v2 and its ancestors; 0: none */
static int cgroup_quota(void)
{
	char line[512], path[600];
	int best = 0;
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return 0;
	while (fgets(line, sizeof line, f)) {
		if (strncmp(line, "0::", 3) == 0)
			break;
		line[0] = '\0';
	}
	fclose(f);
	line[strcspn(line, "\n")] = '\0';
	if (strncmp(line, "0::/", 4) != 0 || strstr(line, "/.."))
		return 0;
	for (char *end = line + strlen(line); end >= line + 3; end--) {
		if (*end != '/' && *end != '\0')
			continue;
		*end = '\0';
		snprintf(path, sizeof path, "/sys/fs/cgroup%s/cpu.max",
			 line + 3);
		int q = cpu_max(path);
		if (q > 0 && (best == 0 || q < best))
			best = q;
	}
	return best;
}

/* core.cpus(): the cores we may use: the affinity mask's, fewer when a
 * cgroup v2 cpu.max quota allows fewer (rounded up) */
static int l_cpus(lua_State *L)
{
	cpu_set_t set;
	int aff = 1, quota = cgroup_quota();
	if (sched_getaffinity(0, sizeof set, &set) == 0)
		aff = CPU_COUNT(&set);
	if (aff < 1)
		aff = 1;
	lua_pushinteger(L, quota > 0 && quota < aff ? quota : aff);
	lua_pushinteger(L, aff);
	if (quota > 0)
		lua_pushinteger(L, quota);
	else
		lua_pushnil(L);
	return 3;
}

/** core.pin_cpu(k) -> the CPU this process is kept on from now: the k-th
 * (from 0, modulo their count) of those it may run on; its boxes' command
 * processes get them all back (affinity.c).  nil, msg, errno when the
 * kernel refuses. */
static int l_pin_cpu(lua_State *L)
{
	lua_Integer k = luaL_checkinteger(L, 1);
	int cpu;
	luaL_argcheck(L, k >= 0 && k < 1024, 1, "a CPU index from 0 to 1023");
	cpu = sbx_pin_to((int)k);
	if (cpu < 0)
		return sbx_fail(L, "sched_setaffinity", "this process", -cpu);
	lua_pushinteger(L, cpu);
	return 1;
}

/* ---- a worker ---- */

static struct worker *check_worker(lua_State *L)
{
	return luaL_checkudata(L, 1, WORKER);
}

static struct worker *open_worker(lua_State *L)
{
	struct worker *w = check_worker(L);
	if (w->pid == 0 && w->out < 0)
		luaL_error(L, "attempt to use a closed worker");
	return w;
}

/* the child, between fork and execve: its pipes on 0 and 1, nothing
 * else open but stderr, signals as a new program finds them, dead with
 * its parent; only async-signal-safe calls */
static void child(int in, int out, char *const argv[], pid_t parent)
{
	sigset_t none;
	sigemptyset(&none);
	for (int s = 1; s < NSIG; s++)
		signal(s, SIG_DFL); /* EINVAL for KILL, STOP: harmless */
	sigprocmask(SIG_SETMASK, &none, NULL);
	if (prctl(PR_SET_PDEATHSIG, SIGKILL) < 0 || getppid() != parent)
		_exit(127);
	if (dup2(in, 0) < 0 || dup2(out, 1) < 0 ||
	    sbx_close_range(3, ~0U, 0) < 0)
		_exit(127);
	execv("/proc/self/exe", argv);
	_exit(127);
}

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

/* forks and runs the worker; 0 or -errno (nothing left open) */
static int spawn(struct worker *w, char *const argv[])
{
	int to[2], from[2];
	pid_t parent = getpid();
	if (pipe2(to, O_CLOEXEC) < 0)
		return -errno;
	if (pipe2(from, O_CLOEXEC) < 0) {
		int e = -errno;
		close(to[0]);
		close(to[1]);
		return e;
	}
	pid_t pid = fork();
	if (pid == 0)
		child(to[0], from[1], argv, parent);
	int e = pid < 0 ? -errno : 0;
	close(to[0]);
	close(from[1]);
	if (e < 0) {
		close(to[1]);
		close(from[0]);
		return e;
	}
	w->pid = pid, w->in = to[1], w->out = from[0];
	return 0;
}

/* copies the arguments into blob (the child cannot read the Lua heap:
 * heap.c keeps it out of forks); 0, or -E2BIG */
static int copy_args(lua_State *L, lua_Integer n, char *blob, size_t size,
		     const char *argv[])
{
	size_t used = 0;
	for (lua_Integer i = 1; i <= n; i++) {
		size_t len;
		if (lua_geti(L, 1, i) != LUA_TSTRING)
			luaL_argerror(L, 1, "strings expected");
		const char *s = lua_tolstring(L, -1, &len);
		if (strlen(s) != len)
			luaL_argerror(L, 1, "strings without NUL");
		if (len + 1 > size - used)
			return -E2BIG;
		memcpy(blob + used, s, len + 1);
		argv[i] = blob + used;
		used += len + 1;
		lua_pop(L, 1);
	}
	return 0;
}

/* core.worker({arg, ...}): sbxlua run again with these arguments */
static int l_worker(lua_State *L)
{
	const char *argv[MAX_ARGS + 2];
	char blob[32768];
	lua_Integer n = sbx_check_list(L, MAX_ARGS, "1 to 256 arguments");
	argv[0] = "sbxlua";
	luaL_argcheck(L, copy_args(L, n, blob, sizeof blob, argv) == 0, 1,
		      "arguments longer than 32 KiB");
	argv[n + 1] = NULL;
	struct worker *w = lua_newuserdatauv(L, sizeof *w, 0);
	w->pid = 0, w->in = -1, w->out = -1;
	luaL_setmetatable(L, WORKER);
	int e = spawn(w, (char *const *)argv);
	if (e < 0)
		return sbx_fail(L, "fork", "worker", -e);
	return 1;
}

/* worker:send(s): all of s to its stdin; nil, msg, errno when it is gone */
static int l_send(lua_State *L)
{
	struct worker *w = open_worker(L);
	size_t len, done = 0;
	const char *s = luaL_checklstring(L, 2, &len);
	if (w->in < 0)
		return luaL_error(L,
				  "attempt to send to a worker's closed input");
	struct sigaction ign = {.sa_handler = SIG_IGN}, old;
	sigaction(SIGPIPE, &ign, &old);
	while (done < len) {
		ssize_t k = write(w->in, s + done, len - done);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0) {
			int e = errno;
			sigaction(SIGPIPE, &old, NULL);
			return sbx_fail(L, "write", "worker", e);
		}
		done += (size_t)k;
	}
	sigaction(SIGPIPE, &old, NULL);
	lua_pushboolean(L, 1);
	return 1;
}

/* worker:close_input(): its stdin ends (no more work) */
static int l_close_input(lua_State *L)
{
	close_fd(&open_worker(L)->in);
	return 0;
}

/* worker:kill(sig) */
static int l_kill(lua_State *L)
{
	struct worker *w = open_worker(L);
	lua_Integer sig = luaL_checkinteger(L, 2);
	luaL_argcheck(L, sig > 0 && sig < NSIG, 2, "not a signal");
	if (w->pid > 0 && kill(w->pid, (int)sig) < 0)
		return sbx_fail(L, "kill", "worker", errno);
	lua_pushboolean(L, 1);
	return 1;
}

/* pushes how a reaped process ended: { exit = n } or { signal =, signame = } */
static void push_status(lua_State *L, int status)
{
	lua_createtable(L, 0, 2);
	if (WIFSIGNALED(status)) {
		sbx_set_int(L, "signal", WTERMSIG(status));
		sbx_set_str(L, "signame", sbx_signal_name(WTERMSIG(status)));
	} else {
		sbx_set_int(L, "exit", WEXITSTATUS(status));
	}
}

/* worker:wait(): its end (blocking), once; its stdin closed first */
static int l_wait(lua_State *L)
{
	struct worker *w = open_worker(L);
	int status;
	if (w->pid == 0)
		return luaL_error(L, "attempt to wait for a reaped worker");
	close_fd(&w->in);
	while (waitpid(w->pid, &status, 0) < 0)
		if (errno != EINTR)
			return sbx_fail(L, "waitpid", "worker", errno);
	w->pid = 0;
	push_status(L, status);
	return 1;
}

static int l_pid(lua_State *L)
{
	lua_pushinteger(L, check_worker(L)->pid);
	return 1;
}

/* close, __gc, __close: a worker still there is killed and reaped */
static int l_close(lua_State *L)
{
	struct worker *w = check_worker(L);
	close_fd(&w->in);
	close_fd(&w->out);
	if (w->pid > 0) {
		kill(w->pid, SIGKILL);
		while (waitpid(w->pid, NULL, 0) < 0 && errno == EINTR)
			;
		w->pid = 0;
	}
	return 0;
}

static int l_tostring(lua_State *L)
{
	lua_pushfstring(L, WORKER " (%d)", (int)check_worker(L)->pid);
	return 1;
}

/* ---- reading several ---- */

static void stop_set(sigset_t *set)
{
	sigemptyset(set);
	sigaddset(set, SIGINT);
	sigaddset(set, SIGTERM);
	sigaddset(set, SIGHUP);
}

/* core.hold_stops(on): the operator's stops held for worker_read */
static int l_hold_stops(lua_State *L)
{
	sigset_t set;
	luaL_checktype(L, 1, LUA_TBOOLEAN);
	stop_set(&set);
	if (sigprocmask(lua_toboolean(L, 1) ? SIG_BLOCK : SIG_UNBLOCK, &set,
			NULL) < 0)
		return sbx_fail(L, "sigprocmask", "stops", errno);
	lua_pushboolean(L, 1);
	return 1;
}

/* a held stop signal, read (0 when none) */
static int take_stop(int sfd)
{
	struct signalfd_siginfo si;
	if (read(sfd, &si, sizeof si) != (ssize_t)sizeof si)
		return 0;
	return (int)si.ssi_signo;
}

/* polls the workers' stdout and a held stop; index of one readable
 * (1-based), -signo, 0 on timeout, or -errno-1000 */
static int poll_workers(struct pollfd *pf, int n, int ms)
{
	sigset_t set;
	stop_set(&set);
	pf[n].fd = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK);
	pf[n].events = POLLIN;
	int k, r = 0;
	while ((k = poll(pf, (nfds_t)n + 1, ms)) < 0 && errno == EINTR)
		;
	if (k < 0)
		r = -1000 - errno;
	else if (k > 0 && pf[n].fd >= 0 && (pf[n].revents & POLLIN))
		r = -take_stop(pf[n].fd);
	for (int i = 0; r == 0 && k > 0 && i < n; i++)
		if (pf[i].revents & (POLLIN | POLLHUP | POLLERR))
			r = i + 1;
	if (pf[n].fd >= 0)
		close(pf[n].fd);
	return r;
}

/* core.worker_read({w, ...}, ms): a chunk of one worker's output */
static int l_worker_read(lua_State *L)
{
	struct pollfd pf[MAX_WORKERS + 1];
	struct worker *ws[MAX_WORKERS];
	char buf[65536];
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_Integer ms = luaL_optinteger(L, 2, -1);
	luaL_argcheck(L, ms >= -1 && ms <= 86400000, 2, "-1 to 86400000");
	lua_Integer n = luaL_len(L, 1);
	luaL_argcheck(L, n >= 0 && n <= MAX_WORKERS, 1, "0 to 64 workers");
	for (lua_Integer i = 0; i < n; i++) {
		lua_geti(L, 1, i + 1);
		ws[i] = luaL_testudata(L, -1, WORKER);
		luaL_argcheck(L, ws[i] && ws[i]->out >= 0, 1, "open workers");
		lua_pop(L, 1);
		pf[i].fd = ws[i]->out, pf[i].events = POLLIN, pf[i].revents = 0;
	}
	int r = poll_workers(pf, (int)n, (int)ms);
	if (r <= -1000)
		return sbx_fail(L, "poll", "workers", -r - 1000);
	if (r <= 0) {
		lua_pushnil(L);
		lua_pushstring(L, r < 0 ? "signal" : "timeout");
		lua_pushinteger(L, -r);
		return 3;
	}
	ssize_t k;
	while ((k = read(ws[r - 1]->out, buf, sizeof buf)) < 0 &&
	       errno == EINTR)
		;
	if (k < 0)
		k = 0; /* a broken pipe is its end */
	if (k == 0)
		close_fd(&ws[r - 1]->out);
	lua_pushinteger(L, r);
	lua_pushlstring(L, buf, (size_t)k);
	return 2;
}

static const luaL_Reg methods[] = {
    {"send", l_send}, {"close_input", l_close_input},
    {"kill", l_kill}, {"wait", l_wait},
    {"pid", l_pid},   {"close", l_close},
    {NULL, NULL},
};

static const luaL_Reg funcs[] = {
    {"cpus", l_cpus},
    {"pin_cpu", l_pin_cpu},
    {"worker", l_worker},
    {"worker_read", l_worker_read},
    {"hold_stops", l_hold_stops},
    {NULL, NULL},
};

void sbx_open_worker(lua_State *L)
{
	sbx_new_closable(L, WORKER, l_close, l_tostring, methods);
	luaL_setfuncs(L, funcs, 0);
}
