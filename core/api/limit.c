/* SPDX-License-Identifier: MIT */
/*
 * limit.c: resource limits (setrlimit) of a box's command, by name.
 * Each named limit is set in the command's process before no_new_privs; a
 * value is a non-negative integer or "unlimited".
 */
#include "sbx.h"

#include <stdio.h>
#include <string.h>
#include <sys/resource.h>

static const struct {
	const char *name;
	int res;
} rl[] = {
    {"cpu", RLIMIT_CPU},
    {"fsize", RLIMIT_FSIZE},
    {"data", RLIMIT_DATA},
    {"stack", RLIMIT_STACK},
    {"core", RLIMIT_CORE},
    {"nproc", RLIMIT_NPROC},
    {"nofile", RLIMIT_NOFILE},
    {"memlock", RLIMIT_MEMLOCK},
    {"as", RLIMIT_AS},
    {"locks", RLIMIT_LOCKS},
    {"sigpending", RLIMIT_SIGPENDING},
    {"msgqueue", RLIMIT_MSGQUEUE},
    {"nice", RLIMIT_NICE},
    {"rtprio", RLIMIT_RTPRIO},
    {"rttime", RLIMIT_RTTIME},
    {"rss", RLIMIT_RSS},
};
#define NRL (sizeof rl / sizeof rl[0])

static rlim_t value(lua_State *L, const char *name)
{
	lua_Integer v;
	int isnum;
	if (lua_type(L, -1) == LUA_TSTRING &&
	    strcmp(lua_tostring(L, -1), "unlimited") == 0)
		return RLIM_INFINITY;
	v = lua_tointegerx(L, -1, &isnum);
	if (lua_type(L, -1) != LUA_TNUMBER || !isnum || v < 0)
		luaL_error(L,
			   "rlimit '%s' must be a non-negative integer or "
			   "\"unlimited\"",
			   name);
	return (rlim_t)v;
}

/* Parses { nofile = 256, core = 0, cpu = {soft, hard} ... } at idx. */
void sbx_rlimits_parse(lua_State *L, int idx, struct sbx_plan *p)
{
	idx = lua_absindex(L, idx);
	luaL_checktype(L, idx, LUA_TTABLE);
	p->nrlimits = 0;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		const char *name;
		size_t k;
		struct sbx_rlimit *r;
		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "rlimits: keys must be names");
		name = lua_tostring(L, -2);
		for (k = 0; k < NRL; k++)
			if (strcmp(rl[k].name, name) == 0)
				break;
		if (k == NRL) {
			luaL_error(L, "unknown rlimit '%s'", name);
			return; /* not reached */
		}
		if (p->nrlimits == SBX_MAX_RLIMITS)
			luaL_error(L, "too many rlimits");
		r = &p->rlimits[p->nrlimits++];
		r->resource = rl[k].res;
		if (lua_type(L, -1) == LUA_TTABLE) {
			lua_geti(L, -1, 1);
			r->lim.rlim_cur = value(L, name);
			lua_pop(L, 1);
			lua_geti(L, -1, 2);
			r->lim.rlim_max = value(L, name);
			lua_pop(L, 1);
			if (r->lim.rlim_cur > r->lim.rlim_max)
				luaL_error(L, "rlimit '%s': soft above hard",
					   name);
		} else {
			r->lim.rlim_cur = r->lim.rlim_max = value(L, name);
		}
		lua_pop(L, 1);
	}
}

/* The sysctls of an IPC namespace (ipc/ipc_sysctl.c) that a box may set
 * in its own, with the largest value each takes: shmmax and shmall are
 * unsigned longs, the others ints. */
static const struct {
	const char *name;
	lua_Integer max;
} ipc_sysctls[] = {
    {"kernel.shmmax", (lua_Integer)1 << 62},
    {"kernel.shmall", (lua_Integer)1 << 50},
    {"kernel.shmmni", 1 << 15}, /* IPCMNI */
    {"kernel.msgmax", 0x7fffffff},
    {"kernel.msgmnb", 0x7fffffff},
    {"kernel.msgmni", 1 << 15},
};

/* The index in ipc_sysctls of name, or -1. */
static int ipc_sysctl(const char *name)
{
	for (size_t i = 0; i < sizeof ipc_sysctls / sizeof ipc_sysctls[0]; i++)
		if (strcmp(name, ipc_sysctls[i].name) == 0)
			return (int)i;
	return -1;
}

/*
 * Parses { ["user.max_inotify_instances"] = 8, ... } at idx: sysctls of
 * the box's own user namespace, written by its init (child.c), and the
 * SysV IPC limits of its own IPC namespace (kernel.shmmax, ... of
 * ipc_sysctls).  Only those are accepted: they belong to a namespace of
 * the box's, so a box can only ever set its own.  Another sysctl may be
 * global, and a box mapped to host uid 0 could then change it for the
 * whole host.  *ipc is set when one of the IPC namespace's is named (the
 * caller then requires that namespace).
 */
void sbx_sysctls_parse(lua_State *L, int idx, int anchor, struct sbx_plan *p,
		       int *ipc)
{
	idx = lua_absindex(L, idx);
	anchor = lua_absindex(L, anchor);
	if (lua_type(L, idx) != LUA_TTABLE)
		luaL_error(L, "field 'sysctl' must be a table");
	p->nsysctls = 0;
	*ipc = 0;
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		struct sbx_sysctl *c;
		const char *name, *leaf;
		lua_Integer v, max = 0x7fffffff;
		size_t len;
		int isint, k;
		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "sysctl: keys must be names");
		name = lua_tolstring(L, -2, &len);
		leaf = name + 5;
		k = ipc_sysctl(name);
		if (k >= 0) {
			max = ipc_sysctls[k].max;
			leaf = name + 7; /* "kernel." */
			*ipc = 1;
		} else if (len <= 5 || len > 5 + 40 ||
			   strncmp(name, "user.", 5) != 0 ||
			   strspn(leaf,
				  "abcdefghijklmnopqrstuvwxyz0123456789_") !=
			       len - 5) {
			luaL_error(L,
				   "sysctl '%s': only user.NAME (a limit of "
				   "the box's own user namespace) or a SysV "
				   "IPC limit (kernel.shmmax, shmall, shmmni, "
				   "msgmax, msgmnb, msgmni) can be set",
				   name);
		}
		v = lua_tointegerx(L, -1, &isint);
		if (lua_type(L, -1) != LUA_TNUMBER || !isint || v < 0 ||
		    v > max)
			luaL_error(L, "sysctl '%s' must be an integer 0..%I",
				   name, max);
		if (p->nsysctls == SBX_MAX_SYSCTLS)
			luaL_error(L, "too many sysctls (at most %d)",
				   SBX_MAX_SYSCTLS);
		c = &p->sysctls[p->nsysctls++];
		c->name = sbx_anchor_str(L, anchor, -2);
		snprintf(c->path, sizeof c->path, "sys/%s/%s",
			 k >= 0 ? "kernel" : "user", leaf);
		snprintf(c->value, sizeof c->value, "%lld", (long long)v);
		lua_pop(L, 1);
	}
}

/** core.rlimit_names() -> list of the rlimit names a spec takes. */
static int l_names(lua_State *L)
{
	lua_createtable(L, (int)NRL, 0);
	for (size_t k = 0; k < NRL; k++) {
		lua_pushstring(L, rl[k].name);
		lua_rawseti(L, -2, (lua_Integer)k + 1);
	}
	return 1;
}

void sbx_open_limit(lua_State *L)
{
	static const luaL_Reg f[] = {{"rlimit_names", l_names}, {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
