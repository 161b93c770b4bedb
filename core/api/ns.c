/* SPDX-License-Identifier: MIT */
/*
 * ns.c: namespaces.  Names of the namespaces a box can be given, their
 * clone flags, and the identities of the calling process's namespaces as the
 * kernel names them in /proc/self/ns (for reports and tests).
 */
#include "sbx.h"

#include <errno.h>
#include <sched.h>
#include <string.h>
#include <unistd.h>

static const struct {
	const char *name; /* as in the spec */
	const char *proc; /* as in /proc/self/ns */
	uint64_t flag;
} nss[] = {
    {"user", "user", CLONE_NEWUSER},	   {"mount", "mnt", CLONE_NEWNS},
    {"pid", "pid", CLONE_NEWPID},	   {"ipc", "ipc", CLONE_NEWIPC},
    {"uts", "uts", CLONE_NEWUTS},	   {"net", "net", CLONE_NEWNET},
    {"cgroup", "cgroup", CLONE_NEWCGROUP},
};
#define NNS (sizeof nss / sizeof nss[0])

/* Parses the list of namespace names at idx into CLONE_NEW* flags; raises
 * for an unknown or repeated name. */
uint64_t sbx_ns_flags(lua_State *L, int idx)
{
	uint64_t flags = 0;
	lua_Integer n;
	idx = lua_absindex(L, idx);
	luaL_checktype(L, idx, LUA_TTABLE);
	n = luaL_len(L, idx);
	for (lua_Integer i = 1; i <= n; i++) {
		const char *name;
		size_t k;
		if (lua_geti(L, idx, i) != LUA_TSTRING)
			luaL_error(L, "namespaces[%I] must be a string", i);
		name = lua_tostring(L, -1);
		for (k = 0; k < NNS; k++)
			if (strcmp(name, nss[k].name) == 0)
				break;
		if (k == NNS) {
			luaL_error(L, "unknown namespace '%s'", name);
			return 0; /* not reached */
		}
		if (flags & nss[k].flag)
			luaL_error(L, "namespace '%s' given twice", name);
		flags |= nss[k].flag;
		lua_pop(L, 1);
	}
	return flags;
}

/** core.namespaces() -> { "user", "mount", ... }: the names a spec takes. */
static int l_namespaces(lua_State *L)
{
	lua_createtable(L, (int)NNS, 0);
	for (size_t k = 0; k < NNS; k++) {
		lua_pushstring(L, nss[k].name);
		lua_rawseti(L, -2, (lua_Integer)k + 1);
	}
	return 1;
}

/** core.ns_ids([pid]) -> { user = "user:[4026531837]", ... }: the
 * namespaces of a process (default: the caller), read from /proc. */
static int l_ns_ids(lua_State *L)
{
	lua_Integer pid = luaL_optinteger(L, 1, 0);
	char path[64], link[128];
	luaL_argcheck(L, pid >= 0 && pid <= 0x7fffffff, 1, "invalid pid");
	lua_createtable(L, 0, (int)NNS);
	for (size_t k = 0; k < NNS; k++) {
		ssize_t n;
		if (pid)
			snprintf(path, sizeof path, "/proc/%d/ns/%s", (int)pid,
				 nss[k].proc);
		else
			snprintf(path, sizeof path, "/proc/self/ns/%s",
				 nss[k].proc);
		n = readlink(path, link, sizeof link - 1);
		if (n < 0) {
			int e = errno;
			return sbx_fail(L, "readlink", path, e);
		}
		lua_pushlstring(L, link, (size_t)n);
		lua_setfield(L, -2, nss[k].name);
	}
	return 1;
}

/** core.ids() -> { uid, euid, gid, egid } of the caller. */
static int l_ids(lua_State *L)
{
	lua_createtable(L, 0, 4);
	sbx_set_int(L, "uid", getuid());
	sbx_set_int(L, "euid", geteuid());
	sbx_set_int(L, "gid", getgid());
	sbx_set_int(L, "egid", getegid());
	return 1;
}

void sbx_open_ns(lua_State *L)
{
	static const luaL_Reg f[] = {{"namespaces", l_namespaces},
				     {"ns_ids", l_ns_ids},
				     {"ids", l_ids},
				     {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
