/* SPDX-License-Identifier: MIT */
/*
 * sample_lua.c: core.sample, the Lua face of sample.c.
 */
#include "sbx.h"

#include "cgroup.h"
#include "fileio.h"

/* ---- Lua ---- */

void sbx_push_sample(lua_State *L, const struct sbx_sample *s)
{
	lua_createtable(L, 0, 6);
	sbx_set_int(L, "processes", (lua_Integer)s->processes);
	sbx_set_int(L, "tasks", (lua_Integer)s->tasks);
	sbx_set_int(L, "memory", (lua_Integer)s->memory);
	sbx_set_int(L, "rss_anon", (lua_Integer)s->rss_anon);
	sbx_set_int(L, "rss_shmem", (lua_Integer)s->rss_shmem);
	sbx_set_bool(L, "truncated", s->truncated);
}

/** core.sample(pid) -> {processes, tasks, memory, rss_anon, rss_shmem,
 * truncated}: the tree under the host pid (itself included); or nil, msg,
 * errno (ESRCH: no such process). */
static int l_sample(lua_State *L)
{
	lua_Integer pid = luaL_checkinteger(L, 1);
	struct sbx_sample s;
	int r;
	luaL_argcheck(L, pid > 0 && pid <= INT32_MAX, 1, "not a pid");
	r = sbx_sample((pid_t)pid, 0, NULL, &s);
	if (r < 0) {
		char operand[24];
		snprintf(operand, sizeof operand, "%lld", (long long)pid);
		return sbx_fail(L, "sample", operand, -r);
	}
	sbx_push_sample(L, &s);
	return 1;
}

void sbx_open_sample(lua_State *L)
{
	static const luaL_Reg f[] = {{"sample", l_sample}, {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
