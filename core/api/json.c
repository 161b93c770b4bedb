/* SPDX-License-Identifier: MIT */
/*
 * json.c: sbx.json's encoder in C (core.json_encode), the text the Lua one
 * gave byte for byte: object keys sorted as Lua's `<` sorts strings, an
 * integer (or a whole float below 2^53) as an integer, any other float in
 * the shortest of %.15g, %.16g and %.17g that reads back as itself, NaN and
 * infinities as null; strings escaped as lua-cjson escapes them, less its
 * "\/".  A table whose keys are exactly 1..n (n >= 1) is an array, any other
 * non-empty table an object; the empty table is `[]` unless its metatable
 * is the object marker (`{}`).  A table is read raw, but one whose
 * metatable has __pairs or __index (a proxy: sbx.pipeline.freeze's), which
 * is read as `pairs` and indexing read it, into a plain copy.
 *
 * Iterative, not recursive: a value nested as deep as a hostile box can make
 * one (a process tree of 100,000 forks in a chain) is encoded within the
 * Lua stack's own limit, past which it fails with an error, never a crash.
 * The text grows in a userdata, so an error leaks nothing.
 */
#include "sbx.h"

#include <lauxlib.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* the text so far: a userdata at stack index `at`, replaced as it grows */
struct text {
	lua_State *L;
	int at;
	char *p;
	size_t n, cap;
};

static void reserve(struct text *t, size_t more)
{
	char *np;
	size_t cap = t->cap;
	if (t->n + more <= t->cap)
		return;
	while (cap < t->n + more)
		cap *= 2;
	np = lua_newuserdatauv(t->L, cap, 0);
	memcpy(np, t->p, t->n);
	lua_replace(t->L, t->at);
	t->p = np;
	t->cap = cap;
}

static void put(struct text *t, const char *s, size_t n)
{
	reserve(t, n);
	memcpy(t->p + t->n, s, n);
	t->n += n;
}

static void put_c(struct text *t, char c)
{
	reserve(t, 1);
	t->p[t->n++] = c;
}

/* a string as lua-cjson escapes it: controls as \uXXXX but for \b \t \n
 * \f \r, the quote, the backslash and DEL; not "/" (cjson's "\/") */
static void put_string(struct text *t, const char *s, size_t n)
{
	static const char hex[] = "0123456789abcdef";
	put_c(t, '"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];
		if (i % 1024 == 0) /* room for the next 1024 bytes escaped */
			reserve(t, 6 * 1024);
		char *o = t->p + t->n;
		if (c >= 32 && c != '"' && c != '\\' && c != 127) {
			*o = (char)c;
			t->n++;
			continue;
		}
		o[0] = '\\';
		switch (c) {
		case '"':
		case '\\':
			o[1] = (char)c;
			break;
		case '\b':
			o[1] = 'b';
			break;
		case '\t':
			o[1] = 't';
			break;
		case '\n':
			o[1] = 'n';
			break;
		case '\f':
			o[1] = 'f';
			break;
		case '\r':
			o[1] = 'r';
			break;
		default:
			memcpy(o + 1, "u00", 3);
			o[4] = hex[c >> 4];
			o[5] = hex[c & 15];
			t->n += 6;
			continue;
		}
		t->n += 2;
	}
	put_c(t, '"');
}

static void put_number(struct text *t, lua_State *L, int idx)
{
	char buf[64];
	int len;
	double x;
	if (lua_isinteger(L, idx)) {
		len = snprintf(buf, sizeof buf, LUA_INTEGER_FMT,
			       (LUAI_UACINT)lua_tointeger(L, idx));
		put(t, buf, (size_t)len);
		return;
	}
	x = (double)lua_tonumber(L, idx);
	if (isnan(x) || isinf(x)) {
		put(t, "null", 4);
		return;
	}
	if (x == floor(x) && x < 9007199254740992.0 &&
	    x > -9007199254740992.0) {
		len = snprintf(buf, sizeof buf, "%lld", (long long)x);
		put(t, buf, (size_t)len);
		return;
	}
	/* the shortest text that reads back as the same number */
	for (int prec = 15; prec <= 17; prec++) {
		len = snprintf(buf, sizeof buf, "%.*g", prec, x);
		if (prec == 17 || strtod(buf, NULL) == x)
			break;
	}
	put(t, buf, (size_t)len);
}

/* one key of an object: its text, and where it is in the keys' table */
struct key {
	const char *s;
	size_t n;
	lua_Integer at;
};

/* Lua's order of strings (lvm.c l_strcmp): strcoll by pieces between
 * NULs, then the shorter first */
static int key_cmp(const void *a, const void *b)
{
	const struct key *x = a, *y = b;
	const char *l = x->s, *r = y->s;
	size_t ll = x->n, lr = y->n;
	for (;;) {
		int c = strcoll(l, r);
		size_t len;
		if (c != 0)
			return c;
		len = strlen(l);
		if (len == lr)
			return len == ll ? 0 : 1;
		if (len == ll)
			return -1;
		len++;
		l += len;
		ll -= len;
		r += len;
		lr -= len;
	}
}

/* whether the table at idx is an array: keys exactly 1..n, or empty and
 * not marked as an object (marker at index mark) */
static int is_array(lua_State *L, int idx, int mark, lua_Integer *n)
{
	if (lua_getmetatable(L, idx)) {
		int obj = lua_rawequal(L, -1, mark);
		lua_pop(L, 1);
		if (obj)
			return 0;
	}
	*n = (lua_Integer)lua_rawlen(L, idx);
	lua_pushnil(L);
	if (*n == 0) {
		if (lua_next(L, idx) == 0)
			return 1;
		lua_pop(L, 2);
		return 0;
	}
	while (lua_next(L, idx) != 0) {
		lua_Integer k;
		lua_pop(L, 1);
		if (!lua_isinteger(L, -1) || (k = lua_tointeger(L, -1)) < 1 ||
		    k > *n) {
			lua_pop(L, 1);
			return 0;
		}
	}
	return 1;
}

/* An object's keys as text (tostring of any that is not a string), in a
 * table pushed on the stack and, sorted, in a userdata array pushed after
 * it; returns the array and sets *n. */
static struct key *sorted_keys(lua_State *L, int idx, lua_Integer *n)
{
	struct key *keys;
	lua_Integer i = 0;
	lua_newtable(L);
	lua_pushnil(L);
	while (lua_next(L, idx) != 0) {
		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING)
			lua_pushvalue(L, -1);
		else
			luaL_tolstring(L, -1, NULL);
		lua_rawseti(L, -3, ++i);
	}
	*n = i;
	keys = lua_newuserdatauv(L, (size_t)(i ? i : 1) * sizeof *keys, 0);
	for (lua_Integer k = 1; k <= i; k++) {
		lua_rawgeti(L, -2, k);
		keys[k - 1].s = lua_tolstring(L, -1, &keys[k - 1].n);
		keys[k - 1].at = k;
		lua_pop(L, 1); /* still held by the keys' table */
	}
	qsort(keys, (size_t)i, sizeof *keys, key_cmp);
	return keys;
}

/* Whether the table at the top has a metatable of its own (not the
 * object marker at mark) that makes Lua's pairs or indexing see other
 * fields than it holds: a proxy (sbx.pipeline.freeze), read as `pairs`
 * reads it. */
static int is_proxy(lua_State *L, int mark)
{
	int proxy = 0;
	if (!lua_getmetatable(L, -1))
		return 0;
	if (!lua_rawequal(L, -1, mark)) {
		if (lua_getfield(L, -1, "__pairs") != LUA_TNIL)
			proxy = 1;
		lua_pop(L, 1);
		if (lua_getfield(L, -1, "__index") != LUA_TNIL)
			proxy = 1;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
	return proxy;
}

/* Replaces the proxy at the top with a plain table of what `pairs`
 * gives of it (its __pairs, else its own fields), values as indexing
 * reads them. */
static void plain_copy(lua_State *L)
{
	int t = lua_gettop(L), copy = t + 1, it;
	lua_newtable(L);
	if (luaL_getmetafield(L, t, "__pairs") == LUA_TNIL) {
		lua_pushnil(L);
		while (lua_next(L, t) != 0) {
			lua_pop(L, 1);
			lua_pushvalue(L, -1);
			lua_pushvalue(L, -1);
			lua_gettable(L, t);
			lua_rawset(L, copy);
		}
	} else {
		lua_pushvalue(L, t);
		lua_call(L, 1, 3); /* iterator, state, control */
		it = copy + 1;
		for (;;) {
			lua_pushvalue(L, it);
			lua_pushvalue(L, it + 1);
			lua_pushvalue(L, it + 2);
			lua_call(L, 2, 2); /* key, value */
			if (lua_isnil(L, -2)) {
				lua_pop(L, 2);
				break;
			}
			lua_pushvalue(L, -2);
			lua_insert(L, -2);
			lua_rawset(L, copy);
			lua_replace(L, it + 2);
		}
		lua_settop(L, copy);
	}
	lua_replace(L, t);
}

/* one table being written: its slot on the stack (an object's keys'
 * table and array follow it), how far */
struct frame {
	int slot, object;
	lua_Integer i, n;
	struct key *keys;
};

/* The value at the stack's top: a scalar is written and popped; a table
 * stays, a frame of its own pushed onto *fs (grown as a userdata at
 * index fs_at). */
static void open_value(lua_State *L, struct text *t, int mark,
		       struct frame **fs, int *depth, int *cap, int fs_at)
{
	struct frame *f;
	switch (lua_type(L, -1)) {
	case LUA_TSTRING: {
		size_t n;
		const char *s = lua_tolstring(L, -1, &n);
		put_string(t, s, n);
		break;
	}
	case LUA_TNUMBER:
		put_number(t, L, -1);
		break;
	case LUA_TBOOLEAN:
		if (lua_toboolean(L, -1))
			put(t, "true", 4);
		else
			put(t, "false", 5);
		break;
	case LUA_TTABLE:
		if (!lua_checkstack(L, 8))
			luaL_error(L, "sbx.json: a value nested too deep to "
				      "encode");
		if (is_proxy(L, mark))
			plain_copy(L);
		if (*depth == *cap) {
			struct frame *nf = lua_newuserdatauv(
			    L, (size_t)*cap * 2 * sizeof *nf, 0);
			memcpy(nf, *fs, (size_t)*cap * sizeof *nf);
			lua_replace(L, fs_at);
			*fs = nf;
			*cap *= 2;
		}
		f = &(*fs)[(*depth)++];
		f->slot = lua_gettop(L);
		f->i = 0;
		f->object = !is_array(L, f->slot, mark, &f->n);
		f->keys = f->object ? sorted_keys(L, f->slot, &f->n) : NULL;
		put_c(t, f->object ? '{' : '[');
		return;
	default:
		put(t, "null", 4);
		break;
	}
	lua_pop(L, 1);
}

/* The next value of the innermost frame pushed, its key written before
 * it; 0 (the frame closed and popped) when there is none. */
static int next_value(lua_State *L, struct text *t, struct frame *f)
{
	if (f->i == f->n) {
		put_c(t, f->object ? '}' : ']');
		lua_settop(L, f->slot - 1);
		return 0;
	}
	if (f->i++ > 0)
		put_c(t, ',');
	if (!f->object) {
		lua_rawgeti(L, f->slot, f->i);
		return 1;
	}
	struct key *k = &f->keys[f->i - 1];
	put_string(t, k->s, k->n);
	put_c(t, ':');
	lua_rawgeti(L, f->slot + 1, k->at);
	lua_pushvalue(L, -1);
	if (lua_rawget(L, f->slot) == LUA_TNIL) {
		/* a key that was not a string: its text read back as a
		 * number (Lua's tonumber) */
		lua_pop(L, 1);
		if (lua_stringtonumber(L, lua_tostring(L, -1)) != 0)
			lua_rawget(L, f->slot);
		else
			lua_pushnil(L);
	}
	lua_remove(L, -2);
	return 1;
}

/** core.json_encode(v, marker) -> JSON text of v; marker: the metatable
 * that makes an empty table an object (sbx.json.object's). */
static int l_json_encode(lua_State *L)
{
	struct text t = {.L = L, .n = 0, .cap = 4096};
	struct frame *fs;
	int depth = 0, cap = 16, fs_at;
	luaL_checkany(L, 1);
	luaL_checktype(L, 2, LUA_TTABLE);
	lua_settop(L, 2);
	t.p = lua_newuserdatauv(L, t.cap, 0);
	t.at = lua_gettop(L);
	fs = lua_newuserdatauv(L, (size_t)cap * sizeof *fs, 0);
	fs_at = lua_gettop(L);
	lua_pushvalue(L, 1);
	open_value(L, &t, 2, &fs, &depth, &cap, fs_at);
	while (depth > 0) {
		if (next_value(L, &t, &fs[depth - 1]))
			open_value(L, &t, 2, &fs, &depth, &cap, fs_at);
		else
			depth--;
	}
	lua_pushlstring(L, t.p, t.n);
	return 1;
}

void sbx_open_json(lua_State *L)
{
	static const luaL_Reg f[] = {{"json_encode", l_json_encode},
				     {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
