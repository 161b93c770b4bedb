/*
 * fs.c: host filesystem queries the policy layer needs before a box exists
 * (is PROG an executable file, is a --rw path a directory, where does a
 * symlink point), and the sha256 of a string for the environment digest.
 * Queries only: nothing here changes the filesystem.
 */
#include "sbx.h"

#include <errno.h>
#include <limits.h>
#include <sha2.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *type_of(mode_t m)
{
	if (S_ISREG(m))
		return "file";
	if (S_ISDIR(m))
		return "dir";
	if (S_ISLNK(m))
		return "link";
	if (S_ISCHR(m))
		return "char";
	if (S_ISBLK(m))
		return "block";
	if (S_ISFIFO(m))
		return "fifo";
	return "socket";
}

/* Pushes { type, mode, uid, gid, size } of st (lstat, file:stat). */
void sbx_push_stat(lua_State *L, const struct stat *st)
{
	lua_createtable(L, 0, 6);
	lua_pushstring(L, type_of(st->st_mode));
	lua_setfield(L, -2, "type");
	lua_pushinteger(L, st->st_mode & 07777);
	lua_setfield(L, -2, "mode");
	lua_pushinteger(L, st->st_uid);
	lua_setfield(L, -2, "uid");
	lua_pushinteger(L, st->st_gid);
	lua_setfield(L, -2, "gid");
	lua_pushinteger(L, st->st_size);
	lua_setfield(L, -2, "size");
}

/** core.lstat(path) -> { type, mode, uid, gid, size, link } without
 * following a final symlink (link: its text), or nil, msg, errno. */
static int l_lstat(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	struct stat st;
	char link[PATH_MAX];
	ssize_t n = -1;
	if (lstat(path, &st) < 0) {
		int e = errno;
		return sbx_fail(L, "lstat", path, e);
	}
	if (S_ISLNK(st.st_mode))
		n = readlink(path, link, sizeof link);
	sbx_push_stat(L, &st);
	if (n >= 0) {
		lua_pushlstring(L, link, (size_t)n);
		lua_setfield(L, -2, "link");
	}
	return 1;
}

/** core.realpath(path) -> the absolute path with every link resolved, or
 * nil, msg, errno. */
static int l_realpath(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	char buf[PATH_MAX];
	if (!realpath(path, buf)) {
		int e = errno;
		return sbx_fail(L, "realpath", path, e);
	}
	lua_pushstring(L, buf);
	return 1;
}

/** core.access(path, mode) -> true, or nil, msg, errno; mode is a string of
 * "r", "w", "x" (or "" for existence), checked with the real ids. */
static int l_access(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	const char *m = luaL_checkstring(L, 2);
	int mode = 0;
	for (const char *c = m; *c; c++) {
		if (*c == 'r')
			mode |= R_OK;
		else if (*c == 'w')
			mode |= W_OK;
		else if (*c == 'x')
			mode |= X_OK;
		else
			return luaL_argerror(L, 2, "mode must use r, w and x");
	}
	if (access(path, mode ? mode : F_OK) < 0) {
		int e = errno;
		return sbx_fail(L, "access", path, e);
	}
	lua_pushboolean(L, 1);
	return 1;
}

/** core.sha256(s) -> 64 lowercase hex digits. */
static int l_sha256(lua_State *L)
{
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);
	char hex[SHA256_DIGEST_STRING_LENGTH];
	SHA256Data((const uint8_t *)s, len, hex);
	lua_pushstring(L, hex);
	return 1;
}

/** core.isatty(fd) -> whether the descriptor is a terminal. */
static int l_isatty(lua_State *L)
{
	lua_Integer fd = luaL_checkinteger(L, 1);
	luaL_argcheck(L, fd >= 0 && fd <= 0x7fffffff, 1, "invalid descriptor");
	lua_pushboolean(L, isatty((int)fd));
	return 1;
}

void sbx_open_fs(lua_State *L)
{
	static const luaL_Reg f[] = {
	    {"lstat", l_lstat},	      {"isatty", l_isatty},
	    {"realpath", l_realpath}, {"access", l_access},
	    {"sha256", l_sha256},     {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
