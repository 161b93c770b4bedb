/* SPDX-License-Identifier: MIT */
/*
 * magic_lua.c: what a file is, by libmagic (docs/written-files.md).
 *
 * sbx_filetype names a file from its first bytes, in memory: the
 * supervisor's walk of the written places calls it through the capture
 * spec's type pointer (capture.c, set by capture_lua.c) on the bytes it
 * has already read from its own descriptor; sbx.core.filetype(bytes or fd)
 * is the same for Lua.
 *
 * Trust boundary.  The bytes were written by the boxed program and
 * libmagic runs in sbxlua with the caller's full rights.  So libmagic is
 * never given a path (a name the box could have changed) nor a
 * descriptor (its ELF and CDF readers seek through a file the box chose):
 * only a prefix of at most SBX_MAGIC_BYTES in memory (magic_buffer), with
 * the checks that decompress (and may fork a decompressor) or parse
 * containers turned off, and its own parameters bounding what one buffer
 * may cost.  The database is loaded once per process, from libmagic's
 * default place (the operator's MAGIC, if set).
 *
 * libmagic (and the compression libraries it needs) is opened on the
 * first file typed, from the path the build found (SBX_LIBMAGIC,
 * pkg-config's libdir), never searched for by name: a run that types no
 * file never maps it (start-up, docs/performance.md).
 */
#include "sbx.h"

#include "fileio.h"

#include <dlfcn.h>
#include <errno.h>
#include <magic.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

/* no decompression (nor its fork), no reader that follows offsets the
 * file names (ELF sections, CDF streams, tar members) */
#define FLAGS                                                                  \
	(MAGIC_ERROR | MAGIC_NO_CHECK_COMPRESS | MAGIC_NO_COMPRESS_FORK |      \
	 MAGIC_NO_CHECK_ELF | MAGIC_NO_CHECK_CDF | MAGIC_NO_CHECK_TAR)

#ifndef SBX_LIBMAGIC
#define SBX_LIBMAGIC "/usr/lib/x86_64-linux-gnu/libmagic.so.1"
#endif

static magic_t desc, mime; /* loaded once; NULL until then */

/* libmagic's functions, from dlopen (lib_open); all NULL until then */
static struct {
	magic_t (*open)(int);
	int (*load)(magic_t, const char *);
	int (*setparam)(magic_t, int, const void *);
	void (*close)(magic_t);
	const char *(*buffer)(magic_t, const void *, size_t);
} lib;

static int lib_open(void)
{
	void *h = dlopen(SBX_LIBMAGIC, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return 0;
	lib.open = (__typeof__(lib.open))dlsym(h, "magic_open");
	lib.load = (__typeof__(lib.load))dlsym(h, "magic_load");
	lib.setparam = (__typeof__(lib.setparam))dlsym(h, "magic_setparam");
	lib.close = (__typeof__(lib.close))dlsym(h, "magic_close");
	lib.buffer = (__typeof__(lib.buffer))dlsym(h, "magic_buffer");
	if (lib.open && lib.load && lib.setparam && lib.close && lib.buffer)
		return 1; /* the handle stays open until the process ends */
	lib.open = NULL;
	dlclose(h);
	return 0;
}
static int load_err; /* why they could not be: -errno, once */

/* One handle with flags, its database loaded and its costs bounded. */
static magic_t open_one(int flags)
{
	size_t bytes = SBX_MAGIC_BYTES, indir = 8, regex = 4096;
	magic_t m = lib.open(flags);
	if (!m)
		return NULL;
	if (lib.load(m, NULL) != 0 ||
	    lib.setparam(m, MAGIC_PARAM_BYTES_MAX, &bytes) != 0 ||
	    lib.setparam(m, MAGIC_PARAM_INDIR_MAX, &indir) != 0 ||
	    lib.setparam(m, MAGIC_PARAM_REGEX_MAX, &regex) != 0) {
		lib.close(m);
		return NULL;
	}
	return m;
}

static int load(void)
{
	if (desc && mime)
		return 0;
	if (load_err)
		return load_err;
	if (!lib_open())
		return load_err =
			   -ELIBACC; /* no libmagic where the build found it */
	desc = open_one(FLAGS);
	mime = desc ? open_one(FLAGS | MAGIC_MIME_TYPE) : NULL;
	if (!mime) {
		if (desc)
			lib.close(desc);
		desc = NULL;
		load_err = -ENOENT; /* no database, or not one it reads */
	}
	return load_err;
}

int sbx_filetype(const void *buf, size_t len, char *type, size_t tsize,
		 char *mtype, size_t msize)
{
	const char *t, *m;
	int r = load();
	if (r < 0)
		return r;
	if (len > SBX_MAGIC_BYTES)
		len = SBX_MAGIC_BYTES;
	t = lib.buffer(desc, buf, len);
	m = lib.buffer(mime, buf, len);
	if (!t || !m)
		return -EIO;
	snprintf(type, tsize, "%s", t);
	snprintf(mtype, msize, "%s", m);
	return 0;
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
 * a name); nil, msg, errno. */
static int l_filetype(lua_State *L)
{
	static char buf[SBX_MAGIC_BYTES];
	char type[SBX_FILETYPE_MAX], mtype[SBX_MIME_MAX];
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
	r = sbx_filetype(data, len, type, sizeof type, mtype, sizeof mtype);
	if (r < 0)
		return sbx_fail(L, "magic", "database", -r);
	lua_pushstring(L, type);
	lua_pushstring(L, mtype);
	return 2;
}

static const luaL_Reg funcs[] = {{"filetype", l_filetype}, {NULL, NULL}};

void sbx_open_magic(lua_State *L)
{
	luaL_setfuncs(L, funcs, 0);
}
