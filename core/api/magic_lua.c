/* SPDX-License-Identifier: MIT */
/*
 * magic_lua.c: what a file is, by libmagic (docs/written-files.md), for
 * Lua: sbx.core.filetype(bytes or fd) and sbx.core.inspect_worker(); and
 * what YARA rules match in it: sbx.core.yara_compile(sources) and
 * sbx.core.yara_scan(rules, list of bytes) (sbx.yara).
 *
 * libmagic never runs in sbxlua: a file's type is named by the inspection
 * worker (core/super/inspect.h, inspect_worker.c), a confined child that
 * loads it, from a prefix of at most SBX_MAGIC_BYTES in memory.  The
 * supervisor's walk of the written places (capture.c) and an executed
 * memfd (notify.c) queue their bytes to it without waiting; this file's
 * functions, called outside the loop, wait for their answer.  libyara
 * is never opened in sbxlua either: the rules are compiled in a child of
 * their own and scanned with in the worker (inspect_yara.c).
 */
#include "sbx.h"

#include "fileio.h"
#include "inspect.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
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

/* the most rules files one set compiles */
#define YARA_SOURCES 4096
/* how long a scan of a list waits for the worker, in seconds: past the
 * run's budget at the worker's slowest (inspect.c's deadline) */
#define YARA_WAIT (SBX_INSPECT_BUDGET * 3 + 10)

/* Compiles copies of the sources (the Lua state's memory is not
 * inherited by a fork: heap.h), in memory of sbxlua's C heap; no Lua
 * call in between. */
static int compile_copy(const struct sbx_yara_source *src, size_t n,
			unsigned char **blob, size_t *len, char *err,
			size_t cap)
{
	size_t total = n * sizeof *src;
	struct sbx_yara_source *c;
	char *p;
	int r;
	for (size_t i = 0; i < n; i++)
		total += strlen(src[i].name) + strlen(src[i].ns) +
			 strlen(src[i].text) + 3;
	c = malloc(total);
	if (!c)
		return -ENOMEM;
	p = (char *)(c + n);
	for (size_t i = 0; i < n; i++) {
		const char **to[] = {&c[i].name, &c[i].ns, &c[i].text};
		const char *from[] = {src[i].name, src[i].ns, src[i].text};
		for (int k = 0; k < 3; k++) {
			size_t l = strlen(from[k]) + 1;
			memcpy(p, from[k], l);
			*to[k] = p;
			p += l;
		}
	}
	r = sbx_inspect_yara_compile(c, n, blob, len, err, cap);
	free(c);
	return r;
}

/** core.yara_compile(sources) -> rules: sources a list of tables {name =
 * (for messages), ns = (the rules' namespace), text = (with no NUL
 * byte)}, compiled by libyara in a confined child (never in sbxlua);
 * the compiled rules as a string of bytes sbxlua does not read; nil,
 * msg, errno (EINVAL: msg holds libyara's messages, name:line: what). */
static int l_yara_compile(lua_State *L)
{
	static const char *const keys[] = {"name", "ns", "text", NULL};
	static char err[SBX_YARA_ERR];
	struct sbx_yara_source *src;
	unsigned char *blob = NULL;
	size_t len = 0;
	lua_Integer n = sbx_check_list(L, YARA_SOURCES,
				       "a list of 1 to 4096 sources expected");
	int r;
	src = lua_newuserdatauv(L, (size_t)n * sizeof *src, 0);
	for (lua_Integer i = 1; i <= n; i++) {
		size_t tl;
		luaL_argcheck(L, lua_geti(L, 1, i) == LUA_TTABLE, 1,
			      "each source must be a table");
		sbx_check_keys(L, -1, 1, keys);
		src[i - 1].name = sbx_opt_str(L, -1, "name", NULL);
		src[i - 1].ns = sbx_opt_str(L, -1, "ns", "default");
		lua_getfield(L, -1, "text");
		luaL_argcheck(L, lua_type(L, -1) == LUA_TSTRING, 1,
			      "a source's text must be a string");
		src[i - 1].text = lua_tolstring(L, -1, &tl);
		luaL_argcheck(L,
			      src[i - 1].name && strlen(src[i - 1].text) == tl,
			      1, "a source needs a name, and text with no NUL");
		lua_pop(L, 2); /* the strings stay referenced by the list */
	}
	r = compile_copy(src, (size_t)n, &blob, &len, err, sizeof err);
	if (r == -EINVAL && err[0])
		return sbx_fail(L, "compile", err, EINVAL);
	if (r < 0)
		return sbx_fail(L, "compile", "YARA rules", -r);
	lua_pushlstring(L, (const char *)blob, len);
	free(blob);
	return 1;
}

/* one scan's answer: its matches' text, or why there is none */
struct scanned {
	int state; /* 0 none (skipped), 1 text, 2 stopped */
	char why[16];
	char text[SBX_YARA_TEXT];
};

static void on_scanned(void *ctx, size_t idx, const char *text, const char *why)
{
	struct scanned *s = (struct scanned *)ctx + idx;
	s->state = text ? 1 : 2;
	snprintf(s->text, sizeof s->text, "%s", text ? text : "");
	snprintf(s->why, sizeof s->why, "%s", why ? why : "");
}

/* Pushes the answers: each a table {text =} or {error = why}. */
static void push_scanned(lua_State *L, const struct scanned *res, lua_Integer n,
			 int budget_hit)
{
	lua_createtable(L, (int)n, 0);
	for (lua_Integer i = 0; i < n; i++) {
		lua_createtable(L, 0, 1);
		if (res[i].state == 1)
			lua_pushstring(L, res[i].text);
		else
			lua_pushstring(L, res[i].state == 2 ? res[i].why
					  : budget_hit	    ? "budget"
							    : "not scanned");
		lua_setfield(L, -2, res[i].state == 1 ? "text" : "error");
		lua_rawseti(L, -2, i + 1);
	}
}

/* Queues each string of the list at idx for a scan, item i against
 * runs[i] (each its own budget) or all against runs[0]. */
static void submit_all(lua_State *L, int idx, lua_Integer n,
		       struct sbx_inspect_run *runs, int each,
		       struct scanned *res)
{
	for (lua_Integer i = 0; i < n; i++) {
		size_t len;
		const char *data;
		lua_geti(L, idx, i + 1);
		data = lua_tolstring(L, -1, &len);
		sbx_inspect_yara_submit(&runs[each ? i : 0], data, len,
					on_scanned, res, (size_t)i);
		lua_pop(L, 1);
	}
}

/** core.yara_scan(rules, list [, budget]) -> answers: each string of
 * the list (its first 64 MiB) scanned by the compiled rules
 * (core.yara_compile) in one inspection worker, within one budget of its
 * CPU for them all ("run", the default: one run's) or one each ("each":
 * a batch's samples); answer i is {text = the matches (inspect_yara.c's
 * lines)} or {error = "timeout" (libyara's), "budget", "not scanned",
 * "error"}; nil, msg, errno when no worker could load the rules. */
static int l_yara_scan(lua_State *L)
{
	static const char *const budgets[] = {"run", "each", NULL};
	struct sbx_inspect_run *runs;
	struct scanned *res;
	size_t blen, slots;
	const char *blob = luaL_checklstring(L, 1, &blen);
	lua_Integer n;
	int each, hit = 0;
	pid_t pid;
	int r;
	luaL_checktype(L, 2, LUA_TTABLE);
	each = luaL_checkoption(L, 3, "run", budgets);
	lua_settop(L, 2);
	n = luaL_len(L, 2);
	luaL_argcheck(L, n >= 0 && n <= 100000, 2, "too many to scan");
	for (lua_Integer i = 1; i <= n; i++) {
		luaL_argcheck(L, lua_geti(L, 2, i) == LUA_TSTRING, 2,
			      "a list of strings expected");
		lua_pop(L, 1);
	}
	slots = (size_t)(n ? n : 1);
	res = lua_newuserdatauv(L, slots * sizeof *res, 0);
	runs = lua_newuserdatauv(L, slots * sizeof *runs, 0);
	memset(res, 0, slots * sizeof *res);
	memset(runs, 0, slots * sizeof *runs);
	r = sbx_inspect_yara_rules(blob, blen);
	if (r == 0)
		r = sbx_inspect_worker(&pid);
	if (r < 0) {
		sbx_inspect_yara_rules(NULL, 0);
		return sbx_fail(L, "load", "YARA rules", -r);
	}
	submit_all(L, 2, n, runs, each, res);
	for (size_t i = 0; i < (each ? slots : 1); i++) {
		sbx_inspect_drain(&runs[i], YARA_WAIT);
		hit |= runs[i].budget_hit;
	}
	sbx_inspect_stop();
	sbx_inspect_yara_rules(NULL, 0); /* the next run's worker types only */
	push_scanned(L, res, n, hit);
	return 1;
}

/* Pushes the answers kept during a run ({sha256 =, size =, text =}...)
 * into the table on top, and frees them. */
static void push_inline(lua_State *L, struct sbx_yara_inline *k, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		lua_createtable(L, 0, 3);
		sbx_set_str(L, "sha256", k[i].sha256);
		sbx_set_int(L, "size", (lua_Integer)k[i].len);
		sbx_set_str(L, "text", k[i].text);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

/** core.yara_inline(rules) -> true: the compiled rules loaded by the
 * workers of the runs that follow, which scan each file's and memfd
 * payload's first 64 KiB as they type it; nil, msg, errno.
 * core.yara_inline() -> list, lost: what those scans found ({sha256 =,
 * size = of the bytes scanned, text = the matches' lines}), how many
 * answers past the bound were left out; and the rules unloaded. */
static int l_yara_inline(lua_State *L)
{
	struct sbx_yara_inline *k;
	size_t blen, n, lost;
	const char *blob = luaL_optlstring(L, 1, NULL, &blen);
	int r;
	lua_settop(L, 1);
	if (blob) {
		r = sbx_inspect_yara_inline(blob, blen);
		if (r < 0)
			return sbx_fail(L, "load", "YARA rules", -r);
		lua_pushboolean(L, 1);
		return 1;
	}
	lua_createtable(L, 0, 0);
	k = sbx_inspect_yara_inline_take(&n, &lost);
	sbx_inspect_yara_rules(NULL, 0);
	push_inline(L, k, n);
	for (size_t i = 0; i < n; i++)
		free(k[i].text);
	free(k);
	lua_pushinteger(L, (lua_Integer)lost);
	return 2;
}

static const luaL_Reg funcs[] = {{"yara_inline", l_yara_inline},
				 {"filetype", l_filetype},
				 {"yara_compile", l_yara_compile},
				 {"yara_scan", l_yara_scan},
				 {"inspect_worker", l_inspect_worker},
				 {"inspect_stop", l_inspect_stop},
				 {NULL, NULL}};

void sbx_open_magic(lua_State *L)
{
	luaL_setfuncs(L, funcs, 0);
}
