/* SPDX-License-Identifier: MIT */
/*
 * landlock.c: the path wall.  Lua describes a ruleset (roots and what each
 * may do); this file asks the kernel which Landlock ABI it speaks, clamps
 * every right to that ABI (never asking for a bit the kernel lacks), and
 * fills the plan.  lock.c builds and enforces the ruleset inside the box,
 * after the tree exists (so the box's own tmpfs roots can be named) and
 * after no_new_privs.
 */
#include "compat.h"
#include "sbx.h"

#include <errno.h>
#include <string.h>

#define FS_READ                                                                \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_READ_FILE |           \
	 LANDLOCK_ACCESS_FS_READ_DIR)

static const struct {
	const char *name;
	uint64_t bit;
	int abi;
} rights[] = {
    {"execute", LANDLOCK_ACCESS_FS_EXECUTE, 1},
    {"write_file", LANDLOCK_ACCESS_FS_WRITE_FILE, 1},
    {"read_file", LANDLOCK_ACCESS_FS_READ_FILE, 1},
    {"read_dir", LANDLOCK_ACCESS_FS_READ_DIR, 1},
    {"remove_dir", LANDLOCK_ACCESS_FS_REMOVE_DIR, 1},
    {"remove_file", LANDLOCK_ACCESS_FS_REMOVE_FILE, 1},
    {"make_char", LANDLOCK_ACCESS_FS_MAKE_CHAR, 1},
    {"make_dir", LANDLOCK_ACCESS_FS_MAKE_DIR, 1},
    {"make_reg", LANDLOCK_ACCESS_FS_MAKE_REG, 1},
    {"make_sock", LANDLOCK_ACCESS_FS_MAKE_SOCK, 1},
    {"make_fifo", LANDLOCK_ACCESS_FS_MAKE_FIFO, 1},
    {"make_block", LANDLOCK_ACCESS_FS_MAKE_BLOCK, 1},
    {"make_sym", LANDLOCK_ACCESS_FS_MAKE_SYM, 1},
    {"refer", LANDLOCK_ACCESS_FS_REFER, 2},
    {"truncate", LANDLOCK_ACCESS_FS_TRUNCATE, 3},
    {"ioctl_dev", LANDLOCK_ACCESS_FS_IOCTL_DEV, 5},
};
#define NRIGHTS (sizeof rights / sizeof rights[0])

/* The ABI of the running kernel: 0 when Landlock is absent or disabled. */
static int abi_version(void)
{
	int v = sbx_landlock_create_ruleset(NULL, 0,
					    LANDLOCK_CREATE_RULESET_VERSION);
	return v < 0 ? 0 : v;
}

static uint64_t fs_rights(int abi)
{
	uint64_t r = 0;
	for (size_t i = 0; i < NRIGHTS; i++)
		if (rights[i].abi <= abi)
			r |= rights[i].bit;
	return r;
}

static uint64_t access_of(lua_State *L, int idx, uint64_t handled,
			  const char *path)
{
	if (lua_type(L, idx) == LUA_TSTRING) {
		const char *a = lua_tostring(L, idx);
		if (strcmp(a, "ro") == 0)
			return FS_READ & handled;
		if (strcmp(a, "rw") == 0)
			return handled;
		luaL_error(L,
			   "landlock rule '%s': access must be 'ro', 'rw' or "
			   "a list of rights (got '%s')",
			   path, a);
	}
	if (lua_type(L, idx) == LUA_TTABLE) {
		uint64_t r = 0;
		lua_Integer n = luaL_len(L, idx);
		for (lua_Integer i = 1; i <= n; i++) {
			size_t k;
			lua_geti(L, idx, i);
			for (k = 0; k < NRIGHTS; k++)
				if (lua_type(L, -1) == LUA_TSTRING &&
				    strcmp(lua_tostring(L, -1),
					   rights[k].name) == 0)
					break;
			if (k == NRIGHTS) {
				luaL_error(L,
					   "landlock rule '%s': unknown right "
					   "'%s'",
					   path, luaL_tolstring(L, -1, NULL));
				return 0; /* not reached */
			}
			r |= rights[k].bit;
			lua_pop(L, 1);
		}
		return r & handled;
	}
	luaL_error(L, "landlock rule '%s': access must be a string or a list",
		   path);
	return 0;
}

/* Parses { rules = {{path=, access=, optional=}...}, net = bool,
 * ports = {{port=, bind=, connect=}...}, scoped = bool } at idx. */
void sbx_landlock_parse(lua_State *L, int idx, int anchor,
			struct sbx_landlock *ll)
{
	static const char *const top[] = {"rules", "net", "ports", "scoped",
					  NULL};
	static const char *const rk[] = {"path", "access", "optional", NULL};
	static const char *const pk[] = {"port", "bind", "connect", NULL};
	int abi = abi_version();
	lua_Integer n;

	idx = lua_absindex(L, idx);
	anchor = lua_absindex(L, anchor);
	luaL_checktype(L, idx, LUA_TTABLE);
	sbx_check_keys(L, idx, 0, top);
	memset(ll, 0, sizeof *ll);
	ll->abi = abi;
	ll->handled_fs = fs_rights(abi);
	if (abi >= 4 && sbx_opt_bool(L, idx, "net", 0))
		ll->handled_net = LANDLOCK_ACCESS_NET_BIND_TCP |
				  LANDLOCK_ACCESS_NET_CONNECT_TCP;
	if (abi >= 6 && sbx_opt_bool(L, idx, "scoped", 1))
		ll->scoped =
		    LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
	if (lua_getfield(L, idx, "rules") != LUA_TTABLE)
		luaL_error(L, "landlock.rules must be a list");
	n = luaL_len(L, -1);
	if (n > SBX_MAX_LANDLOCK)
		luaL_error(L, "landlock: more than %d rules", SBX_MAX_LANDLOCK);
	for (lua_Integer i = 1; i <= n; i++) {
		struct sbx_landlock_rule *r = &ll->rules[i - 1];
		int t;
		if (lua_geti(L, -1, i) != LUA_TTABLE)
			luaL_error(L, "landlock.rules[%I] must be a table", i);
		t = lua_gettop(L);
		sbx_check_keys(L, t, 0, rk);
		lua_getfield(L, t, "path");
		r->path = sbx_check_boxpath(L, -1, "landlock rule path");
		r->path = sbx_anchor_str(L, anchor, -1);
		lua_pop(L, 1);
		lua_getfield(L, t, "access");
		r->access = access_of(L, -1, ll->handled_fs, r->path);
		lua_pop(L, 1);
		r->optional = sbx_opt_bool(L, t, "optional", 0);
		lua_pop(L, 1);
	}
	ll->nrules = (size_t)n;
	lua_pop(L, 1);
	if (lua_getfield(L, idx, "ports") == LUA_TTABLE) {
		n = luaL_len(L, -1);
		if (n > 16)
			luaL_error(L, "landlock: more than 16 port rules");
		for (lua_Integer i = 1; i <= n; i++) {
			int t;
			if (lua_geti(L, -1, i) != LUA_TTABLE)
				luaL_error(
				    L, "landlock.ports[%I] must be a table", i);
			t = lua_gettop(L);
			sbx_check_keys(L, t, 0, pk);
			ll->ports[i - 1].port =
			    (uint64_t)sbx_opt_int(L, t, "port", -1, 0, 65535);
			if (sbx_opt_bool(L, t, "bind", 0))
				ll->ports[i - 1].access |=
				    LANDLOCK_ACCESS_NET_BIND_TCP;
			if (sbx_opt_bool(L, t, "connect", 0))
				ll->ports[i - 1].access |=
				    LANDLOCK_ACCESS_NET_CONNECT_TCP;
			ll->ports[i - 1].access &= ll->handled_net;
			lua_pop(L, 1);
		}
		ll->nports = ll->handled_net ? (size_t)n : 0;
	} else if (!lua_isnil(L, -1)) {
		luaL_error(L, "landlock.ports must be a list");
	}
	lua_pop(L, 1);
}

/** core.landlock_abi() -> the Landlock ABI of the running kernel (0: none),
 * and a table of the filesystem rights it handles. */
static int l_abi(lua_State *L)
{
	int abi = abi_version();
	lua_pushinteger(L, abi);
	lua_newtable(L);
	for (size_t i = 0; i < NRIGHTS; i++)
		if (rights[i].abi <= abi)
			sbx_set_bool(L, rights[i].name, 1);
	return 2;
}

void sbx_open_landlock(lua_State *L)
{
	static const luaL_Reg f[] = {{"landlock_abi", l_abi}, {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
