/* SPDX-License-Identifier: MIT */
/*
 * magic_lua.c: what a file is, by libmagic (docs/written-files.md), for
 * Lua: sbx.core.filetype(bytes or fd) and sbx.core.inspect_worker().
 *
 * libmagic never runs in sbxlua: a file's type is named by the inspection
 * worker (core/super/inspect.h, inspect_worker.c), a confined child that
 * loads it, from a prefix of at most SBX_MAGIC_BYTES in memory.  The
 * supervisor's walk of the written places (capture.c) and an executed
 * memfd (notify.c) queue their bytes to it without waiting; this file's
 * functions, called outside the loop, wait for their answer.
 */
#include "sbx.h"

#include "fileio.h"
#include "inspect.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* how long sbx.core.filetype waits for the worker, in seconds */
#define FILETYPE_WAIT 30.0

struct answer {
	char type[SBX_FILETYPE_MAX], mime[SBX_MIME_MAX];
	int got;
};

static void answered(void *ctx, size_t idx, const char *type, const char *mime)
{
	struct answer *a = ctx;
	(void)idx;
	snprintf(a->type, sizeof a->type, "%s", type);
	snprintf(a->mime, sizeof a->mime, "%s", mime);
	a->got = 1;
}

/* The worker's type of len bytes at buf: 0, or -errno (-ENOEXEC: no
 * worker, no libmagic or no database; -ETIME: no answer). */
static int filetype(const void *buf, size_t len, struct answer *a)
{
	struct sbx_inspect_run run;
	pid_t pid;
	int r = sbx_inspect_worker(&pid);
	if (r < 0)
		return r;
	memset(&run, 0, sizeof run);
	a->got = 0;
	r = sbx_inspect_submit(&run, buf, len, answered, a, 0);
	if (r < 0)
		return r;
	sbx_inspect_drain(&run, FILETYPE_WAIT);
	sbx_inspect_stop();
	return a->got ? 0 : -ETIME;
}

/* The descriptor argument 1 names: an sbx.file (open) or a number. */
static int arg_fd(lua_State *L)
{
	const struct sbx_file *f = luaL_testudata(L, 1, SBX_FILE);
	lua_Integer fd;
	if (f) {
		luaL_argcheck(L, f->fd >= 0, 1, "file is closed");
		return f->fd;
	}
	luaL_argexpected(L, lua_isinteger(L, 1), 1,
			 "string, sbx.file or descriptor");
	fd = lua_tointeger(L, 1);
	luaL_argcheck(L, fd >= 0 && fd <= 0x7fffffff, 1, "invalid descriptor");
	return (int)fd;
}

/** core.filetype(bytes | file | fd) -> type, mime: libmagic's description
 * and MIME type of a string's first SBX_MAGIC_BYTES, or of a descriptor's
 * (an sbx.file's, or a number's: read from its start with pread, never by
 * a name), named by the inspection worker; nil, msg, errno. */
static int l_filetype(lua_State *L)
{
	static char buf[SBX_MAGIC_BYTES];
	struct answer a;
	const char *data = buf;
	size_t len = 0;
	int r;
	if (lua_type(L, 1) == LUA_TSTRING) {
		data = lua_tolstring(L, 1, &len);
	} else {
		ssize_t n = sbx_pread_all(arg_fd(L), buf, sizeof buf);
		if (n < 0)
			return sbx_fail(L, "read", "descriptor", (int)-n);
		len = (size_t)n;
	}
	r = filetype(data, len, &a);
	if (r < 0)
		return sbx_fail(L, "magic", "worker", -r);
	lua_pushstring(L, a.type);
	lua_pushstring(L, a.mime);
	return 2;
}

/** core.inspect_worker() -> pid: the inspection worker's, started (its
 * database loaded, confined) if it was not, until core.inspect_stop() or
 * the end of the next run; nil, msg, errno. */
static int l_inspect_worker(lua_State *L)
{
	pid_t pid;
	int r;
	luaL_argcheck(L, lua_isnone(L, 1), 1, "no value expected");
	r = sbx_inspect_worker(&pid);
	if (r < 0)
		return sbx_fail(L, "start", "inspection worker", -r);
	lua_pushinteger(L, pid);
	return 1;
}

/** core.inspect_stop(): ends the inspection worker if it is idle. */
static int l_inspect_stop(lua_State *L)
{
	luaL_argcheck(L, lua_isnone(L, 1), 1, "no value expected");
	sbx_inspect_stop();
	return 0;
}

static const luaL_Reg funcs[] = {{"filetype", l_filetype},
				 {"inspect_worker", l_inspect_worker},
				 {"inspect_stop", l_inspect_stop},
				 {NULL, NULL}};

void sbx_open_magic(lua_State *L)
{
	luaL_setfuncs(L, funcs, 0);
}
