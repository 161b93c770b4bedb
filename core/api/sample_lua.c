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
	lua_pushinteger(L, (lua_Integer)s->processes);
	lua_setfield(L, -2, "processes");
	lua_pushinteger(L, (lua_Integer)s->tasks);
	lua_setfield(L, -2, "tasks");
	lua_pushinteger(L, (lua_Integer)s->memory);
	lua_setfield(L, -2, "memory");
	lua_pushinteger(L, (lua_Integer)s->rss_anon);
	lua_setfield(L, -2, "rss_anon");
	lua_pushinteger(L, (lua_Integer)s->rss_shmem);
	lua_setfield(L, -2, "rss_shmem");
	lua_pushboolean(L, s->truncated);
	lua_setfield(L, -2, "truncated");
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
