/* SPDX-License-Identifier: MIT */
/*
 * util.c: shared helpers for the Lua-facing files: the error contract
 * (nil, msg, errno), errno and signal names, option-table checks, and
 * anchoring plan memory in Lua so that nothing malloc'ed is held across a
 * call that can raise.
 */
#include "sbx.h"

#include <errno.h>
#include <signal.h>
#include <string.h>

/* The errno values exported as sbx.core.errno, by the names the C library
 * gives them (strerrorname_np), with ENOTSUP beside EOPNOTSUPP. */
static const int errnos[] = {
    EPERM,	ENOENT,		 ESRCH,	       EINTR,
    EIO,	ENXIO,		 E2BIG,	       ENOEXEC,
    EBADF,	ECHILD,		 EAGAIN,       ENOMEM,
    EACCES,	EFAULT,		 EBUSY,	       EEXIST,
    EXDEV,	ENODEV,		 ENOTDIR,      EISDIR,
    EINVAL,	ENFILE,		 EMFILE,       ENOTTY,
    ETXTBSY,	EFBIG,		 ENOSPC,       ESPIPE,
    EROFS,	EMLINK,		 EPIPE,	       EDOM,
    ERANGE,	EDEADLK,	 ENAMETOOLONG, ENOSYS,
    ENOTEMPTY,	ELOOP,		 ENODATA,      EOVERFLOW,
    ENOTSOCK,	EPROTONOSUPPORT, EOPNOTSUPP,   EAFNOSUPPORT,
    EADDRINUSE, EADDRNOTAVAIL,	 ENETUNREACH,  ECONNREFUSED,
    ECONNRESET, ETIMEDOUT,	 EHOSTUNREACH, EDQUOT,
    ECANCELED,	EOWNERDEAD,	 ESTALE,
};

static const char *const signames[] = {
    [SIGHUP] = "SIGHUP",       [SIGINT] = "SIGINT",	  [SIGQUIT] = "SIGQUIT",
    [SIGILL] = "SIGILL",       [SIGTRAP] = "SIGTRAP",	  [SIGABRT] = "SIGABRT",
    [SIGBUS] = "SIGBUS",       [SIGFPE] = "SIGFPE",	  [SIGKILL] = "SIGKILL",
    [SIGUSR1] = "SIGUSR1",     [SIGSEGV] = "SIGSEGV",	  [SIGUSR2] = "SIGUSR2",
    [SIGPIPE] = "SIGPIPE",     [SIGALRM] = "SIGALRM",	  [SIGTERM] = "SIGTERM",
    [SIGSTKFLT] = "SIGSTKFLT", [SIGCHLD] = "SIGCHLD",	  [SIGCONT] = "SIGCONT",
    [SIGSTOP] = "SIGSTOP",     [SIGTSTP] = "SIGTSTP",	  [SIGTTIN] = "SIGTTIN",
    [SIGTTOU] = "SIGTTOU",     [SIGURG] = "SIGURG",	  [SIGXCPU] = "SIGXCPU",
    [SIGXFSZ] = "SIGXFSZ",     [SIGVTALRM] = "SIGVTALRM", [SIGPROF] = "SIGPROF",
    [SIGWINCH] = "SIGWINCH",   [SIGIO] = "SIGIO",	  [SIGPWR] = "SIGPWR",
    [SIGSYS] = "SIGSYS",
};

static const char *const stages[SBX_ST_COUNT] = {
    [SBX_ST_NONE] = "none",
    [SBX_ST_CLONE] = "create namespaces",
    [SBX_ST_SYNC] = "synchronise with supervisor",
    [SBX_ST_SETGROUPS] = "drop groups",
    [SBX_ST_SETID] = "set user",
    [SBX_ST_MOUNT] = "mount",
    [SBX_ST_PIVOT] = "pivot root",
    [SBX_ST_HOSTNAME] = "set hostname",
    [SBX_ST_NET] = "bring up lo",
    [SBX_ST_NETNS] = "make the network namespace",
    [SBX_ST_REMOUNT_ROOT] = "remount root read-only",
    [SBX_ST_FORK] = "fork",
    [SBX_ST_SETSID] = "start session",
    [SBX_ST_STDIO] = "set up stdio",
    [SBX_ST_CLOSE_FDS] = "close descriptors",
    [SBX_ST_CWD] = "enter working directory",
    [SBX_ST_RLIMIT] = "set rlimit",
    [SBX_ST_CAPS] = "drop capabilities",
    [SBX_ST_NO_NEW_PRIVS] = "set no_new_privs",
    [SBX_ST_LANDLOCK] = "apply landlock",
    [SBX_ST_SECCOMP] = "load seccomp filter",
    [SBX_ST_EXEC] = "execute",
    [SBX_ST_DUMPABLE] = "make init undumpable",
    [SBX_ST_SYSCTL] = "set sysctl",
    [SBX_ST_METERS] = "open memory meters",
    [SBX_ST_SINK] = "set up the network sink",
    [SBX_ST_LISTENER] = "hand over the seccomp listener",
    [SBX_ST_TIMENS] = "make the time namespace",
};

/* The C library's name of an errno value ("EPERM"), "EUNKNOWN" if none. */
const char *sbx_errno_name(int err)
{
	const char *name = err > 0 ? strerrorname_np(err) : NULL;
	return name ? name : "EUNKNOWN";
}

const char *sbx_signal_name(int sig)
{
	if (sig > 0 && sig < (int)(sizeof signames / sizeof signames[0]) &&
	    signames[sig])
		return signames[sig];
	return "SIGUNKNOWN";
}

const char *sbx_stage_name(int stage)
{
	if (stage > 0 && stage < SBX_ST_COUNT && stages[stage])
		return stages[stage];
	return "unknown";
}

int sbx_fail(lua_State *L, const char *what, const char *operand, int err)
{
	luaL_checkstack(L, 3, NULL);
	lua_pushnil(L);
	if (operand)
		lua_pushfstring(L, "%s %s: %s", what, operand, strerror(err));
	else
		lua_pushfstring(L, "%s: %s", what, strerror(err));
	lua_pushinteger(L, err);
	return 3;
}

/* Raises msg as a bad argument #arg, or bare when arg is 0 (see below). */
static void key_error(lua_State *L, int arg, const char *msg)
{
	if (arg > 0)
		luaL_argerror(L, arg, msg);
	luaL_error(L, "%s", msg);
}

/*
 * Raises for any key of the table at idx that is not in keys (NULL-ended):
 * in a sandbox a silently ignored typo is a hole.  The table is argument
 * arg of the calling function: "bad argument #arg to 'f' (unknown key
 * 'x')".  arg 0: the table is part of a spec that core.box compiles under
 * a pcall, and l_box raises every error of the compile as its argument's.
 */
void sbx_check_keys(lua_State *L, int idx, int arg, const char *const *keys)
{
	idx = lua_absindex(L, idx);
	lua_pushnil(L);
	while (lua_next(L, idx)) {
		const char *k;
		size_t i;
		lua_pop(L, 1);
		if (lua_type(L, -1) != LUA_TSTRING)
			key_error(L, arg,
				  lua_pushfstring(L,
						  "unexpected non-string key "
						  "(a %s)",
						  luaL_typename(L, -1)));
		k = lua_tostring(L, -1);
		for (i = 0; keys[i]; i++)
			if (strcmp(k, keys[i]) == 0)
				break;
		if (!keys[i])
			key_error(L, arg,
				  lua_pushfstring(L, "unknown key '%s'", k));
	}
}

int sbx_opt_bool(lua_State *L, int idx, const char *k, int def)
{
	int t = lua_getfield(L, idx, k), v = def;
	if (t == LUA_TBOOLEAN)
		v = lua_toboolean(L, -1);
	else if (t != LUA_TNIL)
		luaL_error(L, "field '%s' must be a boolean (got %s)", k,
			   luaL_typename(L, -1));
	lua_pop(L, 1);
	return v;
}

lua_Integer sbx_opt_int(lua_State *L, int idx, const char *k, lua_Integer def,
			lua_Integer min, lua_Integer max)
{
	int t = lua_getfield(L, idx, k), isnum = 0;
	lua_Integer v = def;
	if (t != LUA_TNIL) {
		v = lua_tointegerx(L, -1, &isnum);
		if (t != LUA_TNUMBER || !isnum)
			luaL_error(L, "field '%s' must be an integer (got %s)",
				   k, luaL_typename(L, -1));
		if (v < min || v > max)
			luaL_error(L,
				   "field '%s' out of range (%I not in "
				   "%I..%I)",
				   k, v, min, max);
	}
	lua_pop(L, 1);
	return v;
}

/* Returns a string field; the string stays alive while the table does. */
const char *sbx_opt_str(lua_State *L, int idx, const char *k, const char *def)
{
	const char *s = def;
	int t = lua_getfield(L, idx, k);
	if (t == LUA_TSTRING)
		s = lua_tostring(L, -1);
	else if (t != LUA_TNIL)
		luaL_error(L, "field '%s' must be a string (got %s)", k,
			   luaL_typename(L, -1));
	lua_pop(L, 1);
	return s;
}

/* The setters of a field of the table on top of the stack, t[k] = v, as
 * luaposix's pushintegerfield and its kin; a NULL string sets nil. */
void sbx_set_int(lua_State *L, const char *k, lua_Integer v)
{
	lua_pushinteger(L, v);
	lua_setfield(L, -2, k);
}

void sbx_set_num(lua_State *L, const char *k, lua_Number v)
{
	lua_pushnumber(L, v);
	lua_setfield(L, -2, k);
}

void sbx_set_bool(lua_State *L, const char *k, int v)
{
	lua_pushboolean(L, v);
	lua_setfield(L, -2, k);
}

void sbx_set_str(lua_State *L, const char *k, const char *v)
{
	lua_pushstring(L, v);
	lua_setfield(L, -2, k);
}

/* t[k] = s only when s is a string that is not empty: a text field left
 * blank (or never set) is absent from the table. */
void sbx_set_text(lua_State *L, const char *k, const char *s)
{
	if (s && s[0])
		sbx_set_str(L, k, s);
}

/* The length of the list that is argument 1, the only argument kept: it
 * must hold from 1 to max values, else raises msg as a bad argument. */
lua_Integer sbx_check_list(lua_State *L, lua_Integer max, const char *msg)
{
	lua_Integer n;
	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	n = luaL_len(L, 1);
	luaL_argcheck(L, n >= 1 && n <= max, 1, msg);
	return n;
}

/* Allocates size bytes owned by the anchor table at index anchor: the
 * memory lives as long as the anchor (a box's user value) does. */
void *sbx_anchor(lua_State *L, int anchor, size_t size)
{
	void *p = lua_newuserdatauv(L, size ? size : 1, 0);
	memset(p, 0, size ? size : 1);
	lua_rawseti(L, anchor, (lua_Integer)lua_rawlen(L, anchor) + 1);
	return p;
}

/* Keeps the value at idx alive as long as the anchor table is. */
void sbx_anchor_value(lua_State *L, int anchor, int idx)
{
	lua_pushvalue(L, idx);
	lua_rawseti(L, anchor, (lua_Integer)lua_rawlen(L, anchor) + 1);
}

/* Anchors the string at idx and returns it (the GC never moves it). */
const char *sbx_anchor_str(lua_State *L, int anchor, int idx)
{
	sbx_anchor_value(L, anchor, idx);
	return lua_tostring(L, idx);
}

/* Registers the metatable of a class: its metamethods (meta), and its
 * methods as __index (methods may be NULL). */
void sbx_new_class(lua_State *L, const char *name, const luaL_Reg *meta,
		   const luaL_Reg *methods)
{
	luaL_newmetatable(L, name);
	luaL_setfuncs(L, meta, 0);
	if (methods) {
		lua_newtable(L);
		luaL_setfuncs(L, methods, 0);
		lua_setfield(L, -2, "__index");
	}
	lua_pop(L, 1);
}

/* Registers a class whose objects have one idempotent close (a method,
 * in methods, under its own name) that serves as __gc and __close too. */
void sbx_new_closable(lua_State *L, const char *name, lua_CFunction close,
		      lua_CFunction tostring, const luaL_Reg *methods)
{
	const luaL_Reg meta[] = {{"__gc", close},
				 {"__close", close},
				 {"__tostring", tostring},
				 {NULL, NULL}};
	sbx_new_class(L, name, meta, methods);
}

void sbx_open_util(lua_State *L)
{
	lua_createtable(L, 0, (int)(sizeof errnos / sizeof errnos[0]) + 1);
	for (size_t i = 0; i < sizeof errnos / sizeof errnos[0]; i++) {
		lua_pushinteger(L, errnos[i]);
		lua_setfield(L, -2, sbx_errno_name(errnos[i]));
	}
	/* POSIX's second name of EOPNOTSUPP (the same number on Linux) */
	lua_pushinteger(L, ENOTSUP);
	lua_setfield(L, -2, "ENOTSUP");
	lua_setfield(L, -2, "errno");
	lua_createtable(L, 0, 32);
	for (int i = 1; i < (int)(sizeof signames / sizeof signames[0]); i++)
		if (signames[i]) {
			lua_pushinteger(L, i);
			lua_setfield(L, -2, signames[i]);
		}
	lua_setfield(L, -2, "signal");
	lua_pushliteral(L, SBX_VERSION);
	lua_setfield(L, -2, "version");
}
