/* SPDX-License-Identifier: MIT */
/*
 * spec.c: the spec compiler.  core.box(spec) validates a spec table field by
 * field (unknown keys raise) and compiles it into a plan and the
 * supervisor's io settings, held by an sbx.box object that box.c runs.
 * Strings and arrays of the plan are anchored in the object's user value,
 * so nothing malloc'ed is held across a call that can raise.
 */
#include "compat.h"
#include "sbx.h"

#include <errno.h>
#include <linux/audit.h>
#include <linux/binfmts.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <stddef.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

static const char *const spec_keys[] = {"namespaces",
					"uid",
					"gid",
					"host_uid",
					"host_gid",
					"hostname",
					"uptime",
					"init",
					"root",
					"read_only_root",
					"mounts",
					"net_lo",
					"sink",
					"argv",
					"path",
					"env",
					"cwd",
					"rlimits",
					"filter",
					"landlock",
					"stdin",
					"stdout",
					"stderr",
					"output_limit",
					"keep_output",
					"wall",
					"new_session",
					"drop_caps",
					"no_new_privs",
					"probe",
					"follow",
					"pty",
					"memory_limit",
					"task_limit",
					"cgroup",
					"sysctl",
					"tty_raw",
					"proc_events",
					"cpu_limit",
					"memory_backstop",
					"capture",
					"mode",
					"rule",
					"notify",
					NULL};

static char *const *string_list(lua_State *L, int t, const char *k, int anchor,
				int allow_empty)
{
	lua_Integer n;
	char **v;
	if (lua_getfield(L, t, k) != LUA_TTABLE)
		luaL_error(L, "field '%s' must be a list of strings", k);
	n = luaL_len(L, -1);
	/* the kernel's own bound on the count; the size of the whole (its
	 * ARG_MAX) is execve's to judge: E2BIG, reported as `cannot execute` */
	if (n < (allow_empty ? 0 : 1) || n > MAX_ARG_STRINGS)
		luaL_error(L, "field '%s' must hold 1 to %d strings", k,
			   MAX_ARG_STRINGS);
	v = sbx_anchor(L, anchor, (size_t)(n + 1) * sizeof *v);
	for (lua_Integer i = 1; i <= n; i++) {
		size_t len;
		const char *s;
		if (lua_geti(L, -1, i) != LUA_TSTRING)
			luaL_error(L, "%s[%I] must be a string", k, i);
		s = lua_tolstring(L, -1, &len);
		if (strlen(s) != len)
			luaL_error(L, "%s[%I] contains a NUL byte", k, i);
		v[i - 1] = (char *)sbx_anchor_str(L, anchor, -1);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return v;
}

/* env: a map { K = "V" } or a list { "K=V" }; exactly this reaches the
 * command, nothing of the caller's environment. */
static char *const *env_list(lua_State *L, int t, int anchor)
{
	size_t n = 0, i = 0;
	char **v;
	int e;
	if (lua_getfield(L, t, "env") == LUA_TNIL) {
		lua_pop(L, 1);
		return sbx_anchor(L, anchor, sizeof(char *));
	}
	luaL_argcheck(L, lua_istable(L, -1), 1, "field 'env' must be a table");
	e = lua_gettop(L);
	lua_pushnil(L);
	while (lua_next(L, e)) {
		n++;
		lua_pop(L, 1);
	}
	if (n > 65536)
		luaL_error(L, "field 'env' has too many entries");
	v = sbx_anchor(L, anchor, (n + 1) * sizeof *v);
	lua_pushnil(L);
	while (lua_next(L, e)) {
		size_t kl, vl;
		const char *k, *val;
		if (lua_type(L, -2) == LUA_TNUMBER) {
			if (lua_type(L, -1) != LUA_TSTRING)
				luaL_error(L, "env entries must be strings");
			val = lua_tolstring(L, -1, &vl);
			if (!strchr(val, '=') || val[0] == '=' ||
			    strlen(val) != vl)
				luaL_error(L, "env entry '%s' is not K=V", val);
			v[i++] = (char *)sbx_anchor_str(L, anchor, -1);
		} else if (lua_type(L, -2) == LUA_TSTRING &&
			   lua_type(L, -1) == LUA_TSTRING) {
			k = lua_tolstring(L, -2, &kl);
			val = lua_tolstring(L, -1, &vl);
			if (kl == 0 || strchr(k, '=') || strlen(k) != kl ||
			    strlen(val) != vl)
				luaL_error(L, "env name '%s' is not valid", k);
			lua_pushfstring(L, "%s=%s", k, val);
			v[i++] = (char *)sbx_anchor_str(L, anchor, -1);
			lua_pop(L, 1);
		} else {
			luaL_error(L, "env must map names to strings");
		}
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return v;
}

/* "stderr" (stdout only): passed to the caller's stderr */
static int out_mode(lua_State *L, int t, const char *k)
{
	static const char *const modes[] = {"capture", "pass", "discard",
					    "stderr", NULL};
	int m;
	if (lua_getfield(L, t, k) == LUA_TNIL) {
		lua_pop(L, 1);
		return SBX_OUT_CAPTURE;
	}
	for (m = 0; modes[m]; m++)
		if (lua_type(L, -1) == LUA_TSTRING &&
		    strcmp(lua_tostring(L, -1), modes[m]) == 0)
			break;
	if (!modes[m] || (m == 3 && strcmp(k, "stdout") != 0))
		luaL_error(L,
			   "field '%s' must be 'capture', 'pass', 'discard'%s",
			   k, strcmp(k, "stdout") ? "" : " or 'stderr'");
	lua_pop(L, 1);
	return m;
}

/* a string field of the table at idx into buf: 1 to size - 1 bytes, no
 * NUL; absent: "" */
static void opt_word(lua_State *L, int idx, const char *k, char *buf,
		     size_t size)
{
	size_t len = 0;
	const char *v;

	lua_getfield(L, idx, k);
	if (!lua_isnil(L, -1)) {
		if (lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "field 'init.%s' must be a string", k);
		v = lua_tolstring(L, -1, &len);
		if (len == 0 || len >= size || strlen(v) != len)
			luaL_error(L,
				   "field 'init.%s' must be 1 to %d bytes, "
				   "no NUL",
				   k, (int)size - 1);
		memcpy(buf, v, len + 1);
	}
	lua_pop(L, 1);
}

/* init's name and command line in the box: {comm = , cmdline = } */
static void spec_init(lua_State *L, struct sbx_plan *p)
{
	static const char *const ik[] = {"comm", "cmdline", NULL};
	int t;

	if (lua_getfield(L, 1, "init") != LUA_TNIL) {
		t = lua_gettop(L);
		if (!lua_istable(L, t))
			luaL_error(L, "field 'init' must be a table");
		sbx_check_keys(L, t, 0, ik);
		opt_word(L, t, "comm", p->init_comm, sizeof p->init_comm);
		opt_word(L, t, "cmdline", p->init_cmdline,
			 sizeof p->init_cmdline);
	}
	lua_pop(L, 1);
}

/* namespaces, ids and the hostname */
static void spec_ids(lua_State *L, struct sbx_plan *p, int anchor)
{
	int euid = (int)geteuid();

	if (lua_getfield(L, 1, "namespaces") == LUA_TNIL)
		p->nsflags = CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID |
			     CLONE_NEWIPC | CLONE_NEWUTS | CLONE_NEWNET |
			     CLONE_NEWCGROUP;
	else
		p->nsflags = sbx_ns_flags(L, -1);
	lua_pop(L, 1);
	p->uid = (uid_t)sbx_opt_int(L, 1, "uid", 1000, 0, 0xfffffffe);
	p->gid = (gid_t)sbx_opt_int(L, 1, "gid", 1000, 0, 0xfffffffe);
	p->host_uid = (uid_t)sbx_opt_int(L, 1, "host_uid", euid, 0, 0xfffffffe);
	p->host_gid =
	    (gid_t)sbx_opt_int(L, 1, "host_gid", (int)getegid(), 0, 0xfffffffe);
	p->caller_root = euid == 0;
	if (euid != 0 &&
	    (p->host_uid != (uid_t)euid || p->host_gid != getegid()))
		luaL_error(L, "host_uid/host_gid other than the caller's need "
			      "root");
	if (!(p->nsflags & CLONE_NEWUSER) && (p->uid != 1000 || p->gid != 1000))
		luaL_error(L, "uid/gid need the user namespace");
	/* s, at most 10 years: a clock offset the kernel takes whatever the
	 * host's own uptime */
	p->uptime = (int64_t)sbx_opt_int(L, 1, "uptime", 0, 0, 315360000);
	spec_init(L, p);
	p->hostname = sbx_opt_str(L, 1, "hostname", NULL);
	if (p->hostname) {
		if (strlen(p->hostname) == 0 || strlen(p->hostname) > 64)
			luaL_error(L, "field 'hostname' must be 1 to 64 bytes");
		if (!(p->nsflags & CLONE_NEWUTS))
			luaL_error(L, "hostname needs the uts namespace");
		lua_pushstring(L, p->hostname);
		p->hostname = sbx_anchor_str(L, anchor, -1);
		lua_pop(L, 1);
	}
}

/* the tree: the root, its mounts and lo; returns 0, or pushes the failure
 * triple of a mount source that cannot be resolved and returns 3 */
static int spec_tree(lua_State *L, struct sbx_plan *p, int anchor)
{
	const char *bad = NULL;

	if (lua_getfield(L, 1, "root") == LUA_TTABLE) {
		static const char *const rk[] = {"size", "nr_inodes", "mode",
						 NULL};
		char opts[128];
		int r = lua_gettop(L);
		sbx_check_keys(L, r, 0, rk);
		snprintf(opts, sizeof opts,
			 "size=%lld,nr_inodes=%lld,mode=%llo",
			 (long long)sbx_opt_int(L, r, "size", 16 << 20, 4096,
						(lua_Integer)1 << 40),
			 (long long)sbx_opt_int(L, r, "nr_inodes", 4096, 16,
						1 << 30),
			 (long long)sbx_opt_int(L, r, "mode", 0755, 0, 07777));
		lua_pushstring(L, opts);
		p->root_opts = sbx_anchor_str(L, anchor, -1);
		lua_pop(L, 1);
	} else if (!lua_isnil(L, -1)) {
		luaL_error(L, "field 'root' must be a table");
	}
	lua_pop(L, 1);
	if (p->root_opts && !(p->nsflags & CLONE_NEWNS))
		luaL_error(L, "a root needs the mount namespace");
	p->ro_root = sbx_opt_bool(L, 1, "read_only_root", 1);
	if (lua_getfield(L, 1, "mounts") != LUA_TNIL) {
		if (!p->root_opts)
			luaL_error(L, "mounts need a root");
		int e = -sbx_mounts_parse(L, -1, anchor, p, &bad);
		if (e > 0) {
			if (e == ELOOP) {
				lua_pushnil(L);
				lua_pushfstring(
				    L,
				    "mount source %s: a symbolic link "
				    "on the path (never followed)",
				    bad);
				lua_pushinteger(L, e);
				return 3;
			}
			return sbx_fail(L, "mount source", bad, e);
		}
	}
	lua_pop(L, 1);
	p->net_lo =
	    sbx_opt_bool(L, 1, "net_lo", (p->nsflags & CLONE_NEWNET) != 0);
	if (p->net_lo && !(p->nsflags & CLONE_NEWNET))
		luaL_error(L, "net_lo needs the net namespace");
	sbx_sink_spec(L, &p->sink, anchor);
	if (p->sink.on && !p->net_lo)
		luaL_error(L, "sink needs the net namespace and lo");
	return 0;
}

/* the command: argv, path, env and cwd */
static void spec_command(lua_State *L, struct sbx_plan *p, int anchor)
{
	p->argv = string_list(L, 1, "argv", anchor, 0);
	if (lua_getfield(L, 1, "path") != LUA_TNIL) {
		sbx_check_boxpath(L, -1, "field 'path'");
		p->path = sbx_anchor_str(L, anchor, -1);
	} else {
		lua_pushstring(L, p->argv[0]);
		if (p->argv[0][0] != '/')
			luaL_error(L, "argv[1] must be an absolute path when "
				      "'path' is not given");
		p->path = p->argv[0];
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	p->envp = env_list(L, 1, anchor);
	if (lua_getfield(L, 1, "cwd") != LUA_TNIL) {
		sbx_check_boxpath(L, -1, "field 'cwd'");
		p->cwd = sbx_anchor_str(L, anchor, -1);
	}
	lua_pop(L, 1);
}

/* A list of strings t[k] (absolute paths when abs), anchored; *n its
 * length. */
static const char *const *notify_list(lua_State *L, int t, const char *k,
				      int anchor, int abs, size_t *n)
{
	const char **v;
	lua_Integer len;
	*n = 0;
	if (lua_getfield(L, t, k) == LUA_TNIL) {
		lua_pop(L, 1);
		return NULL;
	}
	if (!lua_istable(L, -1))
		luaL_error(L, "field 'notify.%s' must be a list of strings", k);
	len = luaL_len(L, -1);
	if (len < 0 || len > 4096)
		luaL_error(L, "field 'notify.%s' holds too many entries", k);
	v = sbx_anchor(L, anchor, (size_t)len * sizeof *v);
	for (lua_Integer i = 1; i <= len; i++) {
		if (lua_rawgeti(L, -1, i) != LUA_TSTRING)
			luaL_error(L,
				   "field 'notify.%s' must be a list of "
				   "strings",
				   k);
		if (abs && lua_tostring(L, -1)[0] != '/')
			luaL_error(L,
				   "field 'notify.%s': '%s' is not an "
				   "absolute path",
				   k, lua_tostring(L, -1));
		v[i - 1] = sbx_anchor_str(L, anchor, -1);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	*n = (size_t)len;
	return v;
}

/*
 * The hand-over gate of the explain channel: instructions before the
 * profile's program that notify the one execve sbxlua makes itself, the
 * command process's execve(p->path, ...) after the filter, recognised by
 * the address of its path (an address in that process, a copy of the
 * supervisor's).  That execve waits until the supervisor holds the
 * listener (child.c step, notify.c); the profile's own rules apply to
 * every other call, so a profile that only names its refusals costs
 * nothing on the calls it allows.  After the execve the address space is
 * the program's: an execve of its own that happens to pass that address is
 * notified and let through, nothing more.  The gate checks the
 * architecture first; any other architecture falls to the profile's
 * program, which checks it again.  Its second part notifies an mmap the
 * kernel is about to refuse for the box's sampled memory limit: private,
 * writable and longer than the RLIMIT_DATA backstop (sbx_gate_mmap; by
 * default no length is), so that the report can say the limit refused it.
 */
#define GATE_LEN 20
/* The longest sleep threshold of the explain channel (seconds): a
 * longer one skips nothing a wall clock would reach; core.sleep_skip_max */
#define SLEEP_SKIP_MAX 3600
/* The gate's two words of the address of path (the step's execve
 * argument), in the gate at the head of f. */
void sbx_gate_point(struct sock_filter *f, const char *path)
{
	uint64_t ptr = (uint64_t)(uintptr_t)path;

	f[5].k = (uint32_t)ptr;
	f[7].k = (uint32_t)(ptr >> 32);
}

void sbx_gate_mmap(struct sock_filter *f, uint64_t len)
{
	/* "longer than len": 0 is none (the largest length, never passed) */
	uint64_t k = len ? len : UINT64_MAX;
	f[15].k = f[16].k = (uint32_t)(k >> 32);
	f[18].k = (uint32_t)k;
}

static void gate_filter(lua_State *L, struct sbx_plan *p, int anchor)
{
	size_t len = (size_t)p->filter->len + GATE_LEN;
	struct sock_filter *f;
	struct sock_fprog *prog;
	const struct sock_filter gate[GATE_LEN] = {
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, arch)),
	    /* 1 */
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 18),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, nr)),
	    /* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_execve, 0, 5),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[0])),
	    /* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 14),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[0]) + 4),
	    /* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0, 0, 12),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	    /* 9: A is the call's number */
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_mmap, 0, 10),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[2])),
	    /* 11 */ BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, PROT_WRITE, 0, 8),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[3])),
	    /* 13: MAP_SHARED and MAP_SHARED_VALIDATE have bit 0; a stack
	     * (MAP_GROWSDOWN) is not data either */
	    BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, MAP_SHARED | MAP_GROWSDOWN, 6,
		     0),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[1]) + 4),
	    /* 15, 16: the length's high word (sbx_gate_mmap) */
	    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 0xffffffff, 3, 0),
	    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0xffffffff, 0, 3),
	    BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
		     offsetof(struct seccomp_data, args[1])),
	    /* 18: its low word */
	    BPF_JUMP(BPF_JMP | BPF_JGT | BPF_K, 0xffffffff, 0, 1),
	    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
	};
	if (len > BPF_MAXINSNS)
		luaL_error(L,
			   "field 'filter': no room for the explain "
			   "channel's %d instructions",
			   GATE_LEN);
	f = sbx_anchor(L, anchor, len * sizeof *f);
	memcpy(f, gate, sizeof gate);
	sbx_gate_point(f, p->path);
	memcpy(f + GATE_LEN, p->filter->filter,
	       (size_t)p->filter->len * sizeof *f);
	prog = sbx_anchor(L, anchor, sizeof *prog);
	prog->len = (unsigned short)len;
	prog->filter = f;
	p->filter = prog;
}

/* the explain channel: mode, rule and the supervisor's table (notify.c) */
static void spec_notify(lua_State *L, struct sbx_box *b, int anchor)
{
	static const char *const modes[] = {"stop", "deny", "log", NULL};
	static const char *const keys[] = {
	    "open",  "open_exact", "change",	 "connect", "mmap_cap", "tasks",
	    "execs", "watch",	   "sleep_skip", "keep",    NULL};
	struct sbx_notify_spec *n = &b->nspec;

	n->mode = SBX_MODE_DENY;
	if (lua_getfield(L, 1, "mode") != LUA_TNIL) {
		const char *m = lua_tostring(L, -1);
		int i = 0;
		if (lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "field 'mode' must be a string");
		while (modes[i] && strcmp(modes[i], m) != 0)
			i++;
		if (!modes[i])
			luaL_error(L,
				   "field 'mode': invalid mode '%s' "
				   "(stop, deny or log)",
				   m);
		n->mode = i == 0   ? SBX_MODE_STOP
			  : i == 1 ? SBX_MODE_DENY
				   : SBX_MODE_LOG;
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "rule") != LUA_TNIL) {
		if (!lua_isfunction(L, -1))
			luaL_error(L, "field 'rule' must be a function");
		sbx_anchor_value(L, anchor, -1);
		b->rule = (int)lua_rawlen(L, anchor);
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "notify") != LUA_TNIL) {
		int t = lua_gettop(L);
		if (!lua_istable(L, t))
			luaL_error(L, "field 'notify' must be a table");
		sbx_check_keys(L, t, 1, keys);
		n->open = notify_list(L, t, "open", anchor, 1, &n->nopen);
		n->open_exact =
		    notify_list(L, t, "open_exact", anchor, 1, &n->nopen_exact);
		n->change = notify_list(L, t, "change", anchor, 1, &n->nchange);
		n->keep = notify_list(L, t, "keep", anchor, 1, &n->nkeep);
		n->connect =
		    notify_list(L, t, "connect", anchor, 0, &n->nconnect);
		n->mmap_cap = (uint64_t)sbx_opt_int(L, t, "mmap_cap", 0, 0,
						    (lua_Integer)1 << 50);
		n->tasks =
		    (unsigned long)sbx_opt_int(L, t, "tasks", 0, 0, 1 << 20);
		n->execs =
		    (unsigned long)sbx_opt_int(L, t, "execs", 0, 0, 1 << 20);
		n->watch = sbx_opt_bool(L, t, "watch", 0);
		n->sleep_skip = (uint64_t)sbx_opt_int(
		    L, t, "sleep_skip", 0, 0, SLEEP_SKIP_MAX * 1000000000LL);
	}
	n->filetype = 1; /* an executed memfd's payload typed (inspect.h) */
	lua_pop(L, 1);
	if (n->on) {
		gate_filter(L, &b->plan, anchor);
		b->plan.notify = 1;
		b->plan.filter_flags |= SECCOMP_FILTER_FLAG_NEW_LISTENER;
		/* once the supervisor holds a notification, a signal to the
		 * waiting task waits for the answer instead of failing the
		 * call with EINTR (a program's kill() or open() would see an
		 * error the kernel never gives it elsewhere); Linux 5.19 */
		if (sbx_notify_wait_killable())
			b->plan.filter_flags |=
			    SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
		b->io.notify = n;
	}
}

/* what confines the command's processes: rlimits, sysctls, the seccomp
 * filter, Landlock, the session, capabilities and no_new_privs */
static void spec_process(lua_State *L, struct sbx_box *b, int anchor)
{
	struct sbx_plan *p = &b->plan;

	if (lua_getfield(L, 1, "rlimits") != LUA_TNIL)
		sbx_rlimits_parse(L, -1, p);
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "sysctl") != LUA_TNIL) {
		/* init writes them through a procfs of the box's own, with
		 * the capabilities of the box's user namespace: it needs that
		 * namespace, a mount namespace to mount in, a pid namespace
		 * for the procfs */
		const uint64_t need =
		    CLONE_NEWUSER | CLONE_NEWNS | CLONE_NEWPID;
		int ipc;
		sbx_sysctls_parse(L, -1, anchor, p, &ipc);
		if (p->nsysctls > 0 && (p->nsflags & need) != need)
			luaL_error(L, "sysctl needs the user, mount and pid "
				      "namespaces");
		/* else they would be the host's IPC limits */
		if (ipc && !(p->nsflags & CLONE_NEWIPC))
			luaL_error(L, "sysctl kernel.shm*, kernel.msg* need "
				      "the ipc namespace");
	}
	lua_pop(L, 1);
	if (lua_getfield(L, 1, "filter") != LUA_TNIL) {
		p->filter = sbx_filter_prog(L, -1);
		sbx_anchor_value(L, anchor, -1); /* the program's memory */
		b->has_filter = 1;
		sbx_filter_notify(L, -1, &b->nspec);
	}
	lua_pop(L, 1);
	spec_notify(L, b, anchor);
	if (lua_getfield(L, 1, "landlock") != LUA_TNIL)
		sbx_landlock_parse(L, -1, anchor, &p->landlock);
	lua_pop(L, 1);
	p->new_session = sbx_opt_bool(L, 1, "new_session", 1);
	p->drop_caps = sbx_opt_bool(L, 1, "drop_caps", 1);
	p->no_new_privs = sbx_opt_bool(L, 1, "no_new_privs", 1);
	p->probe = sbx_opt_bool(L, 1, "probe", 0);
	p->follow = sbx_opt_bool(L, 1, "follow", 0);
	p->last_cap = sbx_last_cap();
}

/* stdio: stdin is data, or a file the caller opened and checked
 * (core.open_file, core.stdin): never a path opened here; the pty, the
 * output streams, their cap, and the wall clock */
static void spec_stdio(lua_State *L, struct sbx_box *b, int anchor)
{
	if (lua_getfield(L, 1, "stdin") == LUA_TSTRING) {
		b->io.in_data = lua_tolstring(L, -1, &b->io.in_len);
		sbx_anchor_value(L, anchor, -1);
	} else if (!lua_isnil(L, -1)) {
		const struct sbx_file *f = luaL_testudata(L, -1, SBX_FILE);
		if (!f)
			luaL_error(L, "field 'stdin' must be a string "
				      "or an sbx.file");
		else if (f->fd < 0)
			luaL_error(L, "field 'stdin' is a closed file");
		b->in_file = f;
		sbx_anchor_value(L, anchor, -1);
	}
	lua_pop(L, 1);
	b->io.pty = sbx_opt_bool(L, 1, "pty", 0);
	if (b->io.pty && (b->io.in_data || b->in_file))
		luaL_error(L, "a pty relays the caller's stdin: no 'stdin' "
			      "with it");
	if (b->io.pty && !b->plan.new_session)
		luaL_error(L, "a pty needs a new session");
	b->io.tty_raw = sbx_opt_bool(L, 1, "tty_raw", 0);
	b->io.no_proc_events = !sbx_opt_bool(L, 1, "proc_events", 1);
	b->io.out_mode[0] = out_mode(L, 1, "stdout");
	b->io.out_mode[1] = out_mode(L, 1, "stderr");
	b->io.out_swap = b->io.out_mode[0] == 3;
	if (b->io.out_swap)
		b->io.out_mode[0] = SBX_OUT_PASS;
	b->io.keep_head =
	    (size_t)sbx_opt_int(L, 1, "keep_output", 0, 0, 16 << 20);
	b->io.out_limit = (size_t)sbx_opt_int(L, 1, "output_limit", 16 << 20, 1,
					      (lua_Integer)1 << 40);
	if (lua_getfield(L, 1, "wall") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER ||
		    lua_tonumber(L, -1) <= 0 || lua_tonumber(L, -1) > 1e7)
			luaL_error(L,
				   "field 'wall' must be a number of seconds "
				   "above 0");
		b->io.wall = lua_tonumber(L, -1);
	}
	lua_pop(L, 1);
}

/* A base the spec names is probed now, once: a box whose named base is
 * not usable is not made (never a silent fallback to sampling).  Returns 0,
 * or the failure triple's count. */
static int spec_cgroup_base(lua_State *L, struct sbx_io *io, int anchor)
{
	const char *path = sbx_anchor_str(L, anchor, -1);
	struct sbx_cgroup_base *b = lua_newuserdatauv(L, sizeof *b, 0);
	int r;
	sbx_anchor_value(L, anchor, -1);
	lua_pop(L, 1);
	r = sbx_cgroup_probe(path, b);
	/* the failure triple, and the spec's field it concerns */
	if (r < 0) {
		sbx_fail(L, "cgroup base", path, -r);
		lua_pushliteral(L, "cgroup");
		return 4;
	}
	if (!b->usable) {
		lua_pushnil(L);
		lua_pushfstring(L, "cgroup base %s: %s", path, b->reason);
		lua_pushinteger(L, EOPNOTSUPP);
		lua_pushliteral(L, "cgroup");
		return 4;
	}
	io->cgroup = SBX_CGMODE_PATH;
	io->cgroup_named = b;
	return 0;
}

/* limits of the whole box: a cgroup where one is usable, else sampled;
 * start.c decides which when the box starts */
static int spec_limits(lua_State *L, struct sbx_io *io, int anchor)
{
	int r = 0;
	io->memory_limit = (uint64_t)sbx_opt_int(L, 1, "memory_limit", 0, 0,
						 (lua_Integer)1 << 50);
	io->memory_backstop = (uint64_t)sbx_opt_int(L, 1, "memory_backstop", 0,
						    0, (lua_Integer)1 << 52);
	io->task_limit =
	    (uint64_t)sbx_opt_int(L, 1, "task_limit", 0, 0, 1 << 22);
	if (lua_getfield(L, 1, "cpu_limit") != LUA_TNIL) {
		if (lua_type(L, -1) != LUA_TNUMBER ||
		    !(lua_tonumber(L, -1) > 0) || lua_tonumber(L, -1) > 1e7)
			luaL_error(L, "field 'cpu_limit' must be a number of "
				      "seconds above 0");
		io->cpu_limit = lua_tonumber(L, -1);
	}
	lua_pop(L, 1);
	switch (lua_getfield(L, 1, "cgroup")) {
	case LUA_TNIL:
		break;
	case LUA_TBOOLEAN:
		io->cgroup =
		    lua_toboolean(L, -1) ? SBX_CGMODE_AUTO : SBX_CGMODE_NONE;
		break;
	case LUA_TSTRING:
		sbx_check_boxpath(L, -1, "field 'cgroup'");
		r = spec_cgroup_base(L, io, anchor);
		break;
	default:
		luaL_error(L, "field 'cgroup' must be a boolean or a path");
	}
	if (r)
		return r;
	lua_pop(L, 1);
	return 0;
}

/* Compiles the spec at index 1 into a new box (pushed at index 2), part by
 * part in the order of the spec's documentation; raises on misuse, returns
 * the failure triple when a mount source cannot be resolved. */
static int box_parse(lua_State *L)
{
	struct sbx_box *b;
	int anchor, r;

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	sbx_check_keys(L, 1, 0, spec_keys);
	b = lua_newuserdatauv(L, sizeof *b, 1);
	memset(b, 0, sizeof *b);
	b->closed = 1; /* safe state until the plan is complete */
	luaL_setmetatable(L, SBX_BOX);
	lua_newtable(L);
	anchor = lua_gettop(L);
	lua_pushvalue(L, anchor);
	lua_setiuservalue(L, 2, 1);
	b->io.in_fd = -1;

	spec_ids(L, &b->plan, anchor);
	r = spec_tree(L, &b->plan, anchor);
	if (r)
		return r;
	spec_command(L, &b->plan, anchor);
	spec_process(L, b, anchor);
	spec_stdio(L, b, anchor);
	r = spec_limits(L, &b->io, anchor);
	if (r)
		return r;
	if (lua_getfield(L, 1, "capture") != LUA_TNIL) {
		const char *bad = NULL;
		if (!b->plan.root_opts || !(b->plan.nsflags & CLONE_NEWPID))
			luaL_error(L, "capture needs a root and a pid "
				      "namespace");
		/* last: it makes the keep directory */
		r = sbx_capture_parse(L, -1, anchor, b, &bad);
		if (r < 0)
			return sbx_fail(L, "keep directory", bad, -r);
	}
	lua_settop(L, 2);
	b->closed = 0;
	return 1;
}

/** core.box(spec) -> box, or nil, msg, errno when a host path of the spec
 * cannot be resolved.  See docs/lua-api.md for the fields.  Any misuse in
 * the spec raises "bad argument #1 to 'box' (<what is wrong>)". */
static int l_box(lua_State *L)
{
	int st;
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	lua_pushcfunction(L, box_parse);
	lua_insert(L, 1);
	st = lua_pcall(L, 1, LUA_MULTRET, 0);
	if (st == LUA_OK)
		return lua_gettop(L);
	if (st == LUA_ERRRUN && lua_type(L, -1) == LUA_TSTRING)
		return luaL_argerror(L, 1, lua_tostring(L, -1));
	return lua_error(L);
}

void sbx_open_spec(lua_State *L)
{
	static const luaL_Reg f[] = {{"box", l_box}, {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
	sbx_set_int(L, "sleep_skip_max", SLEEP_SKIP_MAX);
}
