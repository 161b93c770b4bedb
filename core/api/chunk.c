/* SPDX-License-Identifier: MIT */
/*
 * chunk.c: Lua chunks loaded from their compiled form when one is at hand.
 *
 * Parsing sbxlua's own modules (and lua-argparse) is most of what the
 * interpreter does before a box starts (docs/performance.md).  `make`
 * compiles each of them once (scripts/luac.lua, through chunk_compile
 * below) into a directory of entries beside the modules: build/luac in the
 * build tree, DATADIR/luac when installed.  sbxlua's searcher and its
 * script loader take a chunk from there when the entry was made from the
 * very text the source file holds now, under the very name the source would
 * be loaded with; otherwise they load the source, as Lua's own do.
 *
 * Trust boundary: a compiled chunk is code, as its source is, and a crafted
 * one can do what no source can (lua_load does not verify bytecode).  So
 * entries come only from a directory as protected as the modules, written
 * by make and never at run time: a directory (not a symlink) owned by the
 * caller or root and writable by nobody else; each entry opened without
 * following a symlink, a regular file owned by the caller or root and
 * writable by nobody else.  Anything else is ignored, and the source is
 * loaded.
 *
 * An entry holds the chunk's line information, not its local and upvalue
 * names (push_entry_dump).
 *
 * Staleness: an entry's header holds Lua's release, the chunk's name (the
 * source's path: a tree copied elsewhere does not match), and the size and
 * a 64-bit hash of the source text it was compiled from; a source edited
 * since does not match.  The hash tells edits apart, not attacks: whoever
 * can write the source already chooses what runs.
 */
#include "fileio.h"
#include "sbx.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <lualib.h>

#define CHUNK_FORMAT "sbxlua-chunk 2"
#define CHUNK_MAX (16u << 20) /* a larger source is loaded as source */
/* the registry's table of the loader: { dir = path, compiled = {} } */
#define CHUNKS "sbx.chunks"

/* One step of the hash below: w mixed into h (multiply and rotate). */
static uint64_t mix(uint64_t h, uint64_t w)
{
	h ^= w * 0xc2b2ae3d27d4eb4full;
	return ((h << 31) | (h >> 33)) * 0x9e3779b97f4a7c15ull;
}

/* A 64-bit hash, to tell one text from an edited one: four independent
 * lanes of eight bytes a step (the text of every module is hashed at each
 * start), then the tail eight bytes a step, murmur's finaliser at the end. */
static uint64_t hash64(const unsigned char *p, size_t n)
{
	uint64_t h[4] = {0x6a09e667f3bcc908ull ^ n, 0xbb67ae8584caa73bull,
			 0x3c6ef372fe94f82bull, 0xa54ff53a5f1d36f1ull};
	uint64_t w, x;

	for (; n >= 32; p += 32, n -= 32)
		for (int i = 0; i < 4; i++) {
			memcpy(&w, p + 8 * i, 8);
			h[i] = mix(h[i], w);
		}
	x = mix(mix(mix(h[0], h[1]), h[2]), h[3]);
	for (; n >= 8; p += 8, n -= 8) {
		memcpy(&w, p, 8);
		x = mix(x, w);
	}
	w = 0;
	memcpy(&w, p, n);
	x = mix(x, w);
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	return x ^ (x >> 33);
}

/* Pushes the entry's header for the source text under name ("@path"). */
static void push_header(lua_State *L, const char *name, const char *text,
			size_t n)
{
	char sum[40];

	snprintf(sum, sizeof(sum), "%016llx %zu",
		 (unsigned long long)hash64((const unsigned char *)text, n), n);
	lua_pushfstring(L, CHUNK_FORMAT " %s\n%s\n%s\n", LUA_RELEASE, name,
			sum);
}

/* The entry's path for chunk name in dir, into buf; 0, or -ENAMETOOLONG. */
static int entry_path(char *buf, size_t size, const char *dir, const char *name)
{
	int n = snprintf(buf, size, "%s/%016llx.luac", dir,
			 (unsigned long long)hash64((const unsigned char *)name,
						    strlen(name)));

	return n > 0 && (size_t)n < size ? 0 : -ENAMETOOLONG;
}

/* Whether st is fit to be trusted: owned by the caller or root, writable
 * by nobody else. */
static int trusted(const struct stat *st)
{
	return (st->st_uid == geteuid() || st->st_uid == 0) &&
	       (st->st_mode & (S_IWGRP | S_IWOTH)) == 0;
}

/* Whether st is a file fit to load: regular, at most CHUNK_MAX bytes; with
 * want_trusted, one trusted() accepts. */
static int fit(const struct stat *st, int want_trusted)
{
	return S_ISREG(st->st_mode) && (uint64_t)st->st_size <= CHUNK_MAX &&
	       (!want_trusted || trusted(st));
}

/* The loader's buffer of at least n bytes: one userdata kept in its
 * registry table, reused by every load (a text read into a fresh userdata
 * a module was garbage the collector marked the whole heap again for). */
static char *scratch(lua_State *L, size_t n)
{
	char *buf;

	lua_getfield(L, LUA_REGISTRYINDEX, CHUNKS);
	if (lua_getfield(L, -1, "scratch") == LUA_TUSERDATA &&
	    lua_rawlen(L, -1) >= n) {
		buf = lua_touserdata(L, -1);
	} else {
		buf = lua_newuserdatauv(L, n < 65536 ? 65536 : n, 0);
		lua_setfield(L, -3, "scratch");
	}
	lua_pop(L, 2);
	return buf;
}

/* Pushes the whole of the file at path, fit() to load, as a full
 * userdata (lua_newuserdatauv may raise: no malloc), its size in *n.  0,
 * or -errno with nothing pushed. */
static int push_file(lua_State *L, const char *path, size_t *n)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	struct stat st;
	ssize_t r;
	char *buf;

	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0 || !fit(&st, 0)) {
		close(fd);
		return -EINVAL;
	}
	*n = (size_t)st.st_size;
	buf = lua_newuserdatauv(L, *n + 1, 0);
	r = sbx_pread_all(fd, buf, *n);
	close(fd);
	if (r != (ssize_t)*n) {
		lua_pop(L, 1);
		return r < 0 ? (int)r : -EIO;
	}
	buf[*n] = '\0';
	return 0;
}

/*
 * Pushes the compiled chunk for the source open at src (its path: path)
 * from the loader's directory when a sound entry matches it; 0, else -1
 * with nothing pushed.
 */
static int load_compiled(lua_State *L, int src, const char *path,
			 const char *dir)
{
	int top = lua_gettop(L), efd = -1, ok = 0;
	char epath[PATH_MAX];
	const char *name = lua_pushfstring(L, "@%s", path), *head;
	struct stat ss, es;
	size_t tn = 0, en = 0, hn;
	char *buf = NULL;

	if (entry_path(epath, sizeof(epath), dir, name) == 0 &&
	    fstat(src, &ss) == 0 && fit(&ss, 0))
		efd =
		    open(epath, O_RDONLY | O_CLOEXEC | O_NONBLOCK | O_NOFOLLOW);
	if (efd >= 0 && fstat(efd, &es) == 0 && fit(&es, 1)) {
		tn = (size_t)ss.st_size;
		en = (size_t)es.st_size;
		buf = scratch(L, tn + en);
		ok = sbx_pread_all(src, buf, tn) == (ssize_t)tn &&
		     sbx_pread_all(efd, buf + tn, en) == (ssize_t)en;
	}
	if (efd >= 0)
		close(efd);
	if (ok) {
		push_header(L, name, buf, tn);
		head = lua_tolstring(L, -1, &hn);
		ok = en > hn && memcmp(buf + tn, head, hn) == 0 &&
		     luaL_loadbufferx(L, buf + tn + hn, en - hn, name, "b") ==
			 LUA_OK;
	}
	if (!ok) {
		lua_settop(L, top);
		return -1;
	}
	lua_replace(L, top + 1);
	lua_settop(L, top + 1);
	return 0;
}

/* sbx_chunk_load of the file at path, open at fd (or -1: opened here). */
static int chunk_load_fd(lua_State *L, int fd, const char *path)
{
	int compiled = 0, own = fd < 0;

	if (lua_getfield(L, LUA_REGISTRYINDEX, CHUNKS) == LUA_TTABLE) {
		if (own)
			fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		lua_getfield(L, -1, "dir");
		compiled = fd >= 0 &&
			   load_compiled(L, fd, path, lua_tostring(L, -1)) == 0;
		if (own && fd >= 0)
			close(fd);
		if (compiled) {
			lua_getfield(L, -3, "compiled");
			sbx_set_bool(L, path, 1);
			lua_pop(L, 1);
			lua_replace(L, -3);
		}
		lua_pop(L, compiled ? 1 : 2);
	} else {
		lua_pop(L, 1);
	}
	return compiled ? LUA_OK : luaL_loadfilex(L, path, NULL);
}

int sbx_chunk_load(lua_State *L, const char *path)
{
	return chunk_load_fd(L, -1, path);
}

/* Template t[0..tn) with each '?' made name (n bytes) into buf: 0, or -1
 * when it does not fit. */
static int fill(char *buf, size_t size, const char *t, size_t tn,
		const char *name, size_t n)
{
	size_t k = 0;

	for (size_t i = 0; i < tn; i++) {
		size_t add = t[i] == *LUA_PATH_MARK ? n : 1;
		if (k + add >= size)
			return -1;
		memcpy(buf + k, t[i] == *LUA_PATH_MARK ? name : t + i, add);
		k += add;
	}
	buf[k] = '\0';
	return 0;
}

/*
 * Lua's searchpath for name over the templates of path (each '?' made
 * name with its dots as '/'), opening each file as Lua's readable() does
 * but keeping the one found open: its descriptor, with its path pushed;
 * or -1 with Lua's message pushed ("no file 'x'" a template).
 */
static int search_open(lua_State *L, const char *name, const char *path)
{
	char file[PATH_MAX], mod[PATH_MAX];
	size_t n = strlen(name);
	const char *p, *end;
	int fd = -1;

	for (size_t i = 0; i <= n && n < sizeof(mod); i++)
		mod[i] = name[i] == '.' ? *LUA_DIRSEP : name[i];
	for (p = path; n < sizeof(mod); p = end + 1) {
		end = strchr(p, *LUA_PATH_SEP);
		if (end == NULL)
			end = p + strlen(p);
		/* a name too long for a path is no file (ENAMETOOLONG) */
		if (fill(file, sizeof(file), p, (size_t)(end - p), mod, n) == 0)
			fd = open(file, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
		if (fd >= 0) {
			lua_pushstring(L, file);
			return fd;
		}
		if (*end == '\0')
			break;
	}
	/* the templates' files, before the buffer takes the stack's top */
	path = luaL_gsub(L, path, LUA_PATH_MARK,
			 n < sizeof(mod) ? mod
					 : luaL_gsub(L, name, ".", LUA_DIRSEP));
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	luaL_addstring(&b, "no file '");
	luaL_addgsub(&b, path, LUA_PATH_SEP, "'\n\tno file '");
	luaL_addstring(&b, "'");
	luaL_pushresult(&b);
	return -1;
}

/*
 * package.searchers[2] in sbxlua: Lua's own searcher for Lua files (the
 * files of package.path, the same messages), each file opened once and
 * loaded through chunk_load_fd.  Upvalue 1: the package table.
 */
static int searcher(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	const char *file;
	int fd, status;

	if (lua_getfield(L, lua_upvalueindex(1), "path") != LUA_TSTRING)
		return luaL_error(L, "'package.path' must be a string");
	fd = search_open(L, name, lua_tostring(L, -1));
	if (fd < 0)
		return 1; /* the message: no file ... */
	file = lua_tostring(L, -1);
	status = chunk_load_fd(L, fd, file);
	close(fd);
	if (status != LUA_OK)
		return luaL_error(L,
				  "error loading module '%s' from file "
				  "'%s':\n\t%s",
				  name, file, lua_tostring(L, -1));
	lua_insert(L, -2);
	return 2;
}

void sbx_chunk_setup(lua_State *L, const char *dir)
{
	struct stat st;

	lua_newtable(L); /* compiled: pushed for the caller */
	if (lstat(dir, &st) < 0 || !S_ISDIR(st.st_mode) || !trusted(&st))
		return;
	lua_createtable(L, 0, 2);
	sbx_set_str(L, "dir", dir);
	lua_pushvalue(L, -2);
	lua_setfield(L, -2, "compiled");
	lua_setfield(L, LUA_REGISTRYINDEX, CHUNKS);

	luaL_getsubtable(L, LUA_REGISTRYINDEX, LUA_LOADED_TABLE);
	lua_getfield(L, -1, LUA_LOADLIBNAME);
	lua_getfield(L, -1, "searchers");
	if (lua_istable(L, -1)) {
		lua_pushvalue(L, -2);
		lua_pushcclosure(L, searcher, 1);
		lua_rawseti(L, -2, 2);
	}
	lua_pop(L, 3);
}

/* lua_dump's writer into a luaL_Buffer begun at the first block (as
 * lstrlib.c's string.dump does: the buffer's place on the stack is above
 * the dumped function). */
struct dump {
	int init;
	luaL_Buffer b;
};

static int dump_writer(lua_State *L, const void *p, size_t n, void *ud)
{
	struct dump *d = ud;

	if (!d->init) {
		d->init = 1;
		luaL_buffinit(L, &d->b);
	}
	luaL_addlstring(&d->b, p, n);
	return 0;
}

/* Loads the source text as luaL_loadfilex would read it from its file: a
 * UTF-8 byte-order mark and a first line beginning with '#' are skipped,
 * the line's newline kept so that line numbers hold. */
static int load_text(lua_State *L, const char *text, size_t n, const char *name)
{
	const char *p = text, *end = text + n;

	if (n >= 3 && memcmp(p, "\xEF\xBB\xBF", 3) == 0)
		p += 3;
	if (p < end && *p == '#') {
		p = memchr(p, '\n', (size_t)(end - p));
		if (p == NULL)
			p = "\n", end = p + 1;
	}
	return luaL_loadbufferx(L, p, (size_t)(end - p), name, "t");
}

/* Writes the entry's text on the stack at idx to path, through a new file
 * renamed over it.  0 or -errno. */
static int write_entry(lua_State *L, int idx, const char *path)
{
	char tmp[PATH_MAX];
	size_t n;
	const char *s = lua_tolstring(L, idx, &n);
	int fd, r;

	if (snprintf(tmp, sizeof(tmp), "%s.%ld", path, (long)getpid()) >=
	    (int)sizeof(tmp))
		return -ENAMETOOLONG;
	fd = open(tmp, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		  0644);
	if (fd < 0)
		return -errno;
	/* whatever the umask: the loader takes no group-writable entry */
	r = fchmod(fd, 0644) < 0 ? -errno : sbx_write_all(fd, s, n);
	if (close(fd) < 0 && r == 0)
		r = -errno;
	if (r == 0 && rename(tmp, path) < 0)
		r = -errno;
	if (r < 0)
		unlink(tmp);
	return r;
}

/*
 * Dropping the names from a dump.  A chunk's local and upvalue names are
 * strings the loader interns one by one: a sixth of a run's instructions
 * before its box (callgrind).  They serve error messages and debug.getlocal
 * alone; the line information (file:line in messages and tracebacks) is
 * kept.  The rewrite walks the dump of Lua 5.4 (ldump.c) and copies all but
 * the two name lists, written empty; compile() then checks it against the
 * original (below) and keeps the original should they differ.
 */
struct rewrite {
	const unsigned char *p, *end;
	luaL_Buffer *b;
	int bad;
};

/* The constant tags of Lua 5.4's dump (lobject.h's variants). */
enum { K_INT = 0x03, K_FLT = 0x13, K_SHORT = 0x04, K_LONG = 0x14 };
#define DUMP_HEAD 32   /* signature to the test number, and the upvalue count */
#define DUMP_INSN 4    /* sizeof(Instruction) */
#define DUMP_DEPTH 200 /* the parser's nesting limit (LUAI_MAXCCALLS) */

/* Reads a size (ldump.c's dumpSize: 7 bits a byte, the last byte's top bit
 * set); copied too when copy. */
static size_t rw_size(struct rewrite *w, int copy)
{
	const unsigned char *at = w->p;
	size_t x = 0;
	unsigned char c = 0;

	while (!w->bad && !(c & 0x80)) {
		if (w->p == w->end || x > (SIZE_MAX >> 7))
			w->bad = 1;
		else
			x = (x << 7) | ((c = *w->p++) & 0x7f);
	}
	if (copy && !w->bad)
		luaL_addlstring(w->b, (const char *)at, (size_t)(w->p - at));
	return w->bad ? 0 : x;
}

/* n bytes, copied too when copy. */
static void rw_bytes(struct rewrite *w, size_t n, int copy)
{
	if (w->bad || (size_t)(w->end - w->p) < n) {
		w->bad = 1;
		return;
	}
	if (copy)
		luaL_addlstring(w->b, (const char *)w->p, n);
	w->p += n;
}

/* A string (its size plus one, then its bytes; 0 for none). */
static void rw_string(struct rewrite *w, int copy)
{
	size_t n = rw_size(w, copy);

	if (n > 0)
		rw_bytes(w, n - 1, copy);
}

/* A list of n items of size bytes each, its count copied. */
static void rw_vector(struct rewrite *w, size_t size)
{
	size_t n = rw_size(w, 1);

	if (size > 0 && n > (size_t)(w->end - w->p) / size)
		w->bad = 1;
	rw_bytes(w, n * size, 1);
}

static void rw_function(struct rewrite *w, int depth)
{
	size_t n;

	if (depth > DUMP_DEPTH)
		w->bad = 1;
	rw_string(w, 1);	 /* source */
	rw_size(w, 1);		 /* linedefined */
	rw_size(w, 1);		 /* lastlinedefined */
	rw_bytes(w, 3, 1);	 /* numparams, is_vararg, maxstacksize */
	rw_vector(w, DUMP_INSN); /* code */
	n = rw_size(w, 1);	 /* constants */
	for (size_t i = 0; i < n && !w->bad; i++) {
		unsigned char t = w->p < w->end ? *w->p : 0;
		rw_bytes(w, 1, 1);
		if (t == K_INT)
			rw_bytes(w, sizeof(lua_Integer), 1);
		else if (t == K_FLT)
			rw_bytes(w, sizeof(lua_Number), 1);
		else if (t == K_SHORT || t == K_LONG)
			rw_string(w, 1);
	}
	rw_vector(w, 3);   /* upvalues: instack, idx, kind */
	n = rw_size(w, 1); /* protos */
	for (size_t i = 0; i < n && !w->bad; i++)
		rw_function(w, depth + 1);
	rw_vector(w, 1);   /* lineinfo */
	n = rw_size(w, 1); /* abslineinfo: pc, line */
	for (size_t i = 0; i < 2 * n && !w->bad; i++)
		rw_size(w, 1);
	n = rw_size(w, 0); /* locvars: name, startpc, endpc; dropped */
	luaL_addchar(w->b, (char)0x80);
	for (size_t i = 0; i < n && !w->bad; i++) {
		rw_string(w, 0);
		rw_size(w, 0);
		rw_size(w, 0);
	}
	n = rw_size(w, 0); /* upvalue names; dropped */
	luaL_addchar(w->b, (char)0x80);
	for (size_t i = 0; i < n && !w->bad; i++)
		rw_string(w, 0);
}

/* Pushes dump[0..n) without its names: 0, or -1 with nothing pushed when it
 * is not a dump of this Lua. */
static int push_unnamed(lua_State *L, const char *dump, size_t n)
{
	luaL_Buffer b;
	struct rewrite w = {(const unsigned char *)dump,
			    (const unsigned char *)dump + n, &b, 0};

	if (n < DUMP_HEAD || memcmp(dump, LUA_SIGNATURE "\x54\0", 6) != 0)
		return -1;
	luaL_buffinit(L, &b);
	rw_bytes(&w, DUMP_HEAD, 1);
	rw_function(&w, 0);
	luaL_pushresult(&b);
	if (w.bad || w.p != w.end) {
		lua_pop(L, 1);
		return -1;
	}
	return 0;
}

/* Pushes the dump of the function at the top (strip: without any debug
 * information); raises on a function lua_dump cannot write. */
static void push_dump(lua_State *L, int strip)
{
	struct dump d = {0};

	lua_dump(L, dump_writer, &d, strip);
	if (!d.init)
		luaL_error(L, "lua_dump wrote nothing");
	luaL_pushresult(&d.b);
}

/*
 * Pushes the dump of the function at the top for an entry: without its
 * names when the rewrite is sound, that is when it loads, the same but for
 * debug information as the original (their stripped dumps are equal), with
 * all of its line information; the whole dump otherwise.
 */
static void push_entry_dump(lua_State *L)
{
	int f = lua_gettop(L), ok = 0;
	size_t n, m;
	const char *a, *b;

	push_dump(L, 0); /* f + 1 */
	a = lua_tolstring(L, f + 1, &n);
	if (push_unnamed(L, a, n) == 0 && /* f + 2 */
	    luaL_loadbufferx(L, lua_tostring(L, f + 2), lua_rawlen(L, f + 2),
			     "=check", "b") == LUA_OK) { /* f + 3 */
		push_dump(L, 1); /* f + 4: the rewrite, stripped */
		lua_pushvalue(L, f);
		push_dump(L, 1); /* f + 6: the original, stripped */
		a = lua_tolstring(L, f + 4, &n);
		b = lua_tolstring(L, f + 6, &m);
		ok = n == m && memcmp(a, b, n) == 0;
	}
	if (ok) {
		lua_settop(L, f + 2);
		lua_replace(L, f + 1); /* the rewrite in the dump's place */
	} else {
		lua_settop(L, f + 1); /* the whole dump */
	}
}

/*
 * sbx.core.chunk_compile(src, path, dir): compiles the Lua source file src
 * into an entry of dir for the chunk that sbxlua loads from path (a
 * source at another place, e.g. while installing, is compiled for where it
 * will be).  true, or nil, msg, errno; a source that does not compile
 * raises with Lua's message.
 */
static int l_chunk_compile(lua_State *L)
{
	const char *src = luaL_checkstring(L, 1);
	const char *path = luaL_checkstring(L, 2);
	const char *dir = luaL_checkstring(L, 3);
	char epath[PATH_MAX];
	const char *name, *text;
	size_t n = 0;
	int r;

	luaL_argcheck(L, path[0] == '/', 2, "absolute path expected");
	lua_settop(L, 3);
	name = lua_pushfstring(L, "@%s", path); /* 4 */
	if (entry_path(epath, sizeof(epath), dir, name) < 0)
		return sbx_fail(L, "chunk_compile", dir, ENAMETOOLONG);
	r = push_file(L, src, &n); /* 5 */
	if (r < 0)
		return sbx_fail(L, "chunk_compile", src, -r);
	text = lua_touserdata(L, 5);
	push_header(L, name, text, n);		   /* 6 */
	if (load_text(L, text, n, name) != LUA_OK) /* 7 */
		return lua_error(L);
	push_entry_dump(L); /* 8 */
	lua_pushvalue(L, 6);
	lua_insert(L, 8);
	lua_concat(L, 2);
	r = write_entry(L, 8, epath);
	if (r < 0)
		return sbx_fail(L, "chunk_compile", epath, -r);
	lua_pushboolean(L, 1);
	return 1;
}

void sbx_open_chunk(lua_State *L)
{
	lua_pushcfunction(L, l_chunk_compile);
	lua_setfield(L, -2, "chunk_compile");
}
