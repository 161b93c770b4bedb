/* SPDX-License-Identifier: MIT */
/*
 * cgroup_lua.c: core.cgroup_probe and core.cgroup_open, the Lua face of
 * cgroup.c (sbx.cgroup objects), for tests and the REPL.
 */
#include "sbx.h"

#include "cgroup.h"
#include "fileio.h"

#include <errno.h>

#define CGROUP "sbx.cgroup"

/* ---- Lua ---- */

static const char *const sources[] = {NULL, "explicit", "own", "created"};

static void push_bits(lua_State *L, unsigned bits)
{
	lua_createtable(L, 0, 3);
	sbx_set_bool(L, "memory", bits & SBX_CG_MEMORY);
	sbx_set_bool(L, "pids", bits & SBX_CG_PIDS);
	sbx_set_bool(L, "cpu", bits & SBX_CG_CPU);
}

static const char *opt_base(lua_State *L, int idx)
{
	const char *base = luaL_optstring(L, idx, NULL);
	luaL_argcheck(L, !base || base[0] == '/', idx,
		      "the base must be an absolute path");
	return base;
}

/** core.cgroup_probe([base]) -> {usable, v2, base, mount, source,
 * controllers = {memory, pids, cpu}, available = {...}, kill, reason
 * (unusable) or note (what a usable base lacks)}; or nil, msg, errno when
 * an explicit base cannot be opened. */
static int l_cgroup_probe(lua_State *L)
{
	const char *base = opt_base(L, 1);
	struct sbx_cgroup_base *b;
	int r;
	lua_settop(L, 1);
	b = lua_newuserdatauv(L, sizeof *b, 0); /* scratch: a raise frees it */
	r = sbx_cgroup_probe(base, b);
	if (r < 0)
		return sbx_fail(L, "cgroup base", base ? base : "(probe)", -r);
	lua_createtable(L, 0, 10);
	sbx_set_bool(L, "usable", b->usable);
	sbx_set_bool(L, "v2", b->v2);
	sbx_set_text(L, "mount", b->mount);
	sbx_set_text(L, "base", b->path);
	if (b->source)
		sbx_set_str(L, "source", sources[b->source]);
	push_bits(L, b->enabled);
	lua_setfield(L, -2, "controllers");
	push_bits(L, b->available);
	lua_setfield(L, -2, "available");
	sbx_set_bool(L, "kill", b->kill);
	if (b->reason[0])
		sbx_set_str(L, b->usable ? "note" : "reason", b->reason);
	return 1;
}

struct lcgroup {
	struct sbx_cgroup cg;
	char path[PATH_MAX];
};

static struct lcgroup *check_cg(lua_State *L)
{
	struct lcgroup *c = luaL_checkudata(L, 1, CGROUP);
	if (c->cg.fd < 0)
		luaL_error(L, "attempt to use a removed cgroup");
	return c;
}

/** core.cgroup_create{base=, memory=, pids=, cpu_quota_us=,
 * cpu_period_us=} -> sbx.cgroup, or nil, msg, errno.  Without base, the
 * probe's choice.  For tests and the REPL: a box is created by the
 * supervisor. */
static int l_cgroup_create(lua_State *L)
{
	static const char *const keys[] = {
	    "base", "memory", "pids", "cpu_quota_us", "cpu_period_us", NULL};
	struct sbx_cgroup_limits lim;
	struct sbx_cgroup_base *b;
	struct lcgroup *c;
	const char *base = NULL;
	int r;

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	sbx_check_keys(L, 1, 1, keys);
	base = sbx_opt_str(L, 1, "base", NULL);
	luaL_argcheck(L, !base || base[0] == '/', 1,
		      "the base must be an absolute path");
	lim.memory = (uint64_t)sbx_opt_int(L, 1, "memory", 0, 0, INT64_MAX);
	lim.pids = (uint64_t)sbx_opt_int(L, 1, "pids", 0, 0, INT32_MAX);
	lim.cpu_quota_us =
	    (uint64_t)sbx_opt_int(L, 1, "cpu_quota_us", 0, 0, INT64_MAX);
	lim.cpu_period_us =
	    (uint64_t)sbx_opt_int(L, 1, "cpu_period_us", 0, 0, 1000000);
	b = lua_newuserdatauv(L, sizeof *b, 0);
	c = lua_newuserdatauv(L, sizeof *c, 0);
	sbx_cgroup_init(&c->cg);
	luaL_setmetatable(L, CGROUP);
	r = sbx_cgroup_probe(base, b);
	if (r < 0)
		return sbx_fail(L, "cgroup base", base ? base : "(probe)", -r);
	if (!b->usable) {
		lua_pushnil(L);
		lua_pushfstring(L, "cgroup: %s", b->reason);
		lua_pushinteger(L, EOPNOTSUPP);
		return 3;
	}
	r = sbx_cgroup_create(b, &lim, &c->cg);
	if (r < 0)
		return sbx_fail(L, "cgroup", c->cg.what, -r);
	/* a path cut at its size, as the supervisor's own fmt leaves it */
	if (snprintf(c->path, sizeof c->path, "%s/%s", b->path, c->cg.name) < 0)
		c->path[0] = '\0';
	return 1;
}

/** cg:attach(pid) -> true, or nil, msg, errno. */
static int l_cg_attach(lua_State *L)
{
	struct lcgroup *c = check_cg(L);
	lua_Integer pid = luaL_checkinteger(L, 2);
	int r;
	luaL_argcheck(L, pid > 0 && pid <= INT32_MAX, 2, "not a pid");
	r = sbx_cgroup_attach(&c->cg, (pid_t)pid);
	if (r < 0)
		return sbx_fail(L, "cgroup attach", c->path, -r);
	lua_pushboolean(L, 1);
	return 1;
}

/** cg:kill() -> true, or nil, msg, errno. */
static int l_cg_kill(lua_State *L)
{
	struct lcgroup *c = check_cg(L);
	int r = sbx_cgroup_kill(&c->cg);
	if (r < 0)
		return sbx_fail(L, "cgroup kill", c->path, -r);
	lua_pushboolean(L, 1);
	return 1;
}

static void set_count(lua_State *L, const char *k, int64_t v)
{
	if (v >= 0)
		sbx_set_int(L, k, (lua_Integer)v);
}

/** cg:events() -> {oom, oom_kill, memory_peak, pids_max, pids_current,
 * cpu_usec, populated}; a counter the kernel does not offer is nil. */
static int l_cg_events(lua_State *L)
{
	struct lcgroup *c = check_cg(L);
	struct sbx_cgroup_events ev;
	int r = sbx_cgroup_events(&c->cg, &ev);
	if (r < 0)
		return sbx_fail(L, "cgroup events", c->path, -r);
	lua_createtable(L, 0, 7);
	set_count(L, "oom", ev.oom);
	set_count(L, "oom_kill", ev.oom_kill);
	set_count(L, "memory_peak", ev.memory_peak);
	set_count(L, "pids_max", ev.pids_max);
	set_count(L, "pids_current", ev.pids_current);
	set_count(L, "cpu_usec", ev.cpu_usec);
	set_count(L, "populated", ev.populated);
	return 1;
}

/** cg:sample() -> the table of core.sample, over the processes listed in
 * the cgroup's cgroup.procs; or nil, msg, errno. */
static int l_cg_sample(lua_State *L)
{
	struct lcgroup *c = check_cg(L);
	struct sbx_sample s;
	int r = sbx_sample_cgroup(c->cg.fd, 0, &s);
	if (r < 0)
		return sbx_fail(L, "cgroup sample", c->path, -r);
	sbx_push_sample(L, &s);
	return 1;
}

/** cg:limited() -> {memory, pids, cpu}: the limits actually written. */
static int l_cg_limited(lua_State *L)
{
	push_bits(L, check_cg(L)->cg.limited);
	return 1;
}

/** cg:path() -> the cgroup's directory. */
static int l_cg_path(lua_State *L)
{
	lua_pushstring(L, check_cg(L)->path);
	return 1;
}

/** cg:remove() -> true, or nil, msg, errno (EBUSY: processes remain).
 * Also __gc and __close; idempotent. */
static int l_cg_remove(lua_State *L)
{
	struct lcgroup *c = luaL_checkudata(L, 1, CGROUP);
	int r = sbx_cgroup_remove(&c->cg);
	if (r < 0)
		return sbx_fail(L, "cgroup remove", c->path, -r);
	lua_pushboolean(L, 1);
	return 1;
}

static int l_cg_tostring(lua_State *L)
{
	struct lcgroup *c = luaL_checkudata(L, 1, CGROUP);
	if (c->cg.fd < 0)
		lua_pushliteral(L, "sbx.cgroup (removed)");
	else
		lua_pushfstring(L, "sbx.cgroup (%s)", c->path);
	return 1;
}

void sbx_open_cgroup(lua_State *L)
{
	static const luaL_Reg m[] = {
	    {"attach", l_cg_attach}, {"kill", l_cg_kill},
	    {"events", l_cg_events}, {"limited", l_cg_limited},
	    {"path", l_cg_path},     {"remove", l_cg_remove},
	    {"sample", l_cg_sample}, {NULL, NULL}};
	static const luaL_Reg f[] = {{"cgroup_probe", l_cgroup_probe},
				     {"cgroup_create", l_cgroup_create},
				     {NULL, NULL}};
	sbx_new_closable(L, CGROUP, l_cg_remove, l_cg_tostring, m);
	luaL_setfuncs(L, f, 0);
}
