/* SPDX-License-Identifier: MIT */
/*
 * file.c: host files the supervisor reads and writes, by descriptor.
 *
 * sbx.file: an input (a box's stdin, ...) opened once, before the box
 * exists, and checked on the descriptor: a box spec takes the object, never
 * a path to open again at each run.
 * sbx.dir: the directory of an output file (--report, --json, ...), opened
 * before the box exists; dir:write(name, data) creates the file through
 * that descriptor once the box is gone.
 *
 * Trust boundary.  The supervisor runs with the caller's full rights (often
 * root); a box may have written the directory an input comes from or an
 * output goes to, in this run or an earlier one, so every name there is
 * hostile.  Inputs:
 *  - opened with openat2(RESOLVE_NO_SYMLINKS) and O_NOFOLLOW: a link planted
 *    anywhere on the path (an input.txt turned into a link to /etc/shadow)
 *    is refused, never followed;
 *  - opened O_NONBLOCK|O_NOCTTY, so that a FIFO cannot hold the supervisor
 *    before any limit applies and no terminal becomes ours; then fstat on
 *    the descriptor: a regular file only (a FIFO, device, socket or
 *    directory is refused), and O_NONBLOCK cleared;
 *  - what is read is that descriptor's file, whatever happens to the name.
 * Outputs:
 *  - the directory is opened once, by openat2(RESOLVE_NO_SYMLINKS), before
 *    the box exists: a link planted anywhere on its path is refused, never
 *    followed.  If the box later moves the directory and plants a link in
 *    its place, the descriptor still names the directory the caller chose;
 *    the file lands there, wherever it now is, and nowhere else;
 *  - the file is never opened by its final name: a fresh temporary name is
 *    created with O_CREAT|O_EXCL|O_NOFOLLOW (it cannot be a link or an
 *    existing file), written, fsync'd, and renamed over the final name.  A
 *    rename replaces the directory entry and never follows it, so a link or
 *    a hard link the box left there points on at its target, unchanged;
 *  - a final name that holds anything but a regular file (a link, a
 *    directory, a FIFO, a device, a socket) is refused, before the run and
 *    again just before the rename, so what the box put there stays as it
 *    was and the caller is told.
 */
#include "compat.h"
#include "fileio.h"
#include "sbx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#define DIR_CLASS "sbx.dir"

/* An open directory; its path (for messages) is user value 1. */
struct dir {
	int fd; /* O_PATH|O_DIRECTORY; -1 once closed */
};

#define SYMLINK_ON_PATH "a symbolic link on the path (never followed)"

/* Pushes nil, "<call> <operand>: <reason>", err. */
static int fail_reason(lua_State *L, const char *call, const char *operand,
		       const char *reason, int err)
{
	luaL_checkstack(L, 3, NULL);
	lua_pushnil(L);
	lua_pushfstring(L, "%s %s: %s", call, operand, reason);
	lua_pushinteger(L, err);
	return 3;
}

/* Like sbx_fail, naming ELOOP from RESOLVE_NO_SYMLINKS/O_NOFOLLOW for what
 * it is here. */
static int fail_open(lua_State *L, const char *path, int err)
{
	if (err == ELOOP)
		return fail_reason(L, "open", path, SYMLINK_ON_PATH, err);
	return sbx_fail(L, "open", path, err);
}

/* A path argument: a string without NUL bytes. */
static const char *check_path(lua_State *L, int idx)
{
	size_t len;
	const char *s = luaL_checklstring(L, idx, &len);
	luaL_argcheck(L, strlen(s) == len, idx, "path contains a NUL byte");
	return s;
}

/* ---- sbx.file ---- */

static struct sbx_file *new_file(lua_State *L, int name)
{
	struct sbx_file *f = lua_newuserdatauv(L, sizeof *f, 1);
	f->fd = -1; /* closed until the open succeeds */
	f->stream = 0;
	luaL_setmetatable(L, SBX_FILE);
	lua_pushvalue(L, name);
	lua_setiuservalue(L, -2, 1);
	return f;
}

/* Opens path for reading as the top of this file says; returns the
 * descriptor, or -errno with *what set for an open file that is not a
 * regular one (refused, and closed again). */
static int open_regular(const char *path, const char **what)
{
	struct open_how how = {
	    .flags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct stat st;
	int fd, fl, tries = 0, e;

	do /* openat2 answers EAGAIN to a concurrent rename on ".." */
		fd = sbx_openat2(AT_FDCWD, path, &how);
	while (fd < 0 && errno == EAGAIN && ++tries < 16);
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		goto fail;
	if (!S_ISREG(st.st_mode)) {
		*what = sbx_mode_words(st.st_mode);
		errno = S_ISDIR(st.st_mode) ? EISDIR : EINVAL;
		goto fail;
	}
	fl = fcntl(fd, F_GETFL);
	if (fl < 0 || fcntl(fd, F_SETFL, fl & ~O_NONBLOCK) < 0)
		goto fail;
	return fd;
fail:
	e = errno;
	close(fd);
	return -e;
}

/** core.open_file(path) -> an sbx.file open for reading, or nil, msg,
 * errno.  No symlink on the path is followed (ELOOP); anything but a
 * regular file is refused (EISDIR for a directory, EINVAL otherwise). */
static int l_open_file(lua_State *L)
{
	const char *path = check_path(L, 1);
	const char *what = NULL;
	struct sbx_file *f;
	int fd;

	lua_settop(L, 1);
	f = new_file(L, 1);
	fd = open_regular(path, &what);
	if (fd < 0 && what) {
		lua_pushfstring(L, "is %s, not a regular file", what);
		return fail_reason(L, "open", path, lua_tostring(L, -1), -fd);
	}
	if (fd < 0)
		return fail_open(L, path, -fd);
	f->fd = fd;
	return 1;
}

/** core.stdin() -> the caller's own stdin as an sbx.file (a copy of
 * descriptor 0, read in sequence: a pipe, a terminal, whatever the caller
 * gave), or nil, msg, errno. */
static int l_stdin(lua_State *L)
{
	struct sbx_file *f;
	int fd;
	lua_settop(L, 0);
	lua_pushliteral(L, "stdin");
	f = new_file(L, 1);
	fd = fcntl(0, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		int e = errno;
		return sbx_fail(L, "dup", "stdin", e);
	}
	f->fd = fd;
	f->stream = 1;
	return 1;
}

/** core.descriptor(n) -> a copy of the caller's descriptor n as an
 * sbx.file (a stream: written or relayed in sequence), taken before any box
 * exists, or nil, msg, errno (EBADF: n is not open).  The copy is
 * close-on-exec and numbered 3 or above: no box ever holds it. */
static int l_descriptor(lua_State *L)
{
	lua_Integer n = luaL_checkinteger(L, 1);
	struct sbx_file *f;
	int fd;
	luaL_argcheck(L, n >= 0 && n <= INT_MAX, 1, "descriptor out of range");
	lua_settop(L, 0);
	lua_pushfstring(L, "descriptor %d", (int)n);
	f = new_file(L, 1);
	fd = fcntl((int)n, F_DUPFD_CLOEXEC, 3);
	if (fd < 0) {
		int e = errno;
		return sbx_fail(L, "dup", lua_tostring(L, 1), e);
	}
	f->fd = fd;
	f->stream = 1;
	return 1;
}

static struct sbx_file *check_file(lua_State *L, int idx)
{
	struct sbx_file *f = luaL_checkudata(L, idx, SBX_FILE);
	if (f->fd < 0)
		luaL_error(L, "attempt to use a closed file");
	return f;
}

/* nil, "<call> <name of file 1>: <strerror>", err */
static int fail_file(lua_State *L, const char *call, int err)
{
	lua_getiuservalue(L, 1, 1);
	return sbx_fail(L, call, lua_tostring(L, -1), err);
}

/** file:stat() -> { type, mode, uid, gid, size } of the open file (fstat:
 * the file itself, whatever became of its name), or nil, msg, errno. */
static int l_file_stat(lua_State *L)
{
	struct sbx_file *f = check_file(L, 1);
	struct stat st;
	if (fstat(f->fd, &st) < 0) {
		int e = errno;
		return fail_file(L, "fstat", e);
	}
	sbx_push_stat(L, &st);
	return 1;
}

/** file:read([max]) -> the whole file from its start (pread: the
 * descriptor's offset is untouched), at most max bytes (default 16 MiB),
 * or nil, msg, errno (EFBIG past max).  A stream (core.stdin()) raises. */
static int l_file_read(lua_State *L)
{
	struct sbx_file *f = check_file(L, 1);
	lua_Integer max = luaL_optinteger(L, 2, 16 << 20);
	luaL_Buffer b;
	off_t off = 0, told = -1;
	char tail[LUAL_BUFFERSIZE];
	luaL_argcheck(L, !f->stream, 1, "a stream is relayed, not read whole");
	luaL_argcheck(L, max >= 0 && max <= (lua_Integer)1 << 40, 2,
		      "size out of range");
	luaL_buffinit(L, &b);
	for (;;) {
		/* a step the size the file says it has (plus one, to see its
		 * end), while it fits max: one buffer, not one per doubling;
		 * past that size, a read on the stack first: the file's end,
		 * most often, for which the buffer must not grow (doubled past
		 * 64 KiB it is a mapping of its own, made and unmapped) */
		size_t step = LUAL_BUFFERSIZE;
		struct stat st;
		if (off == 0 && fstat(f->fd, &st) == 0 && st.st_size > 0 &&
		    st.st_size < max) {
			step = (size_t)st.st_size + 1;
			told = st.st_size;
		}
		char *p = off == told ? tail : luaL_prepbuffsize(&b, step);
		ssize_t n = pread(f->fd, p, step, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			int e = errno;
			return fail_file(L, "read", e);
		}
		if (n == 0)
			break;
		if (off + n > max)
			return fail_file(L, "read", EFBIG);
		if (p == tail)
			luaL_addlstring(&b, tail, (size_t)n);
		else
			luaL_addsize(&b, (size_t)n);
		off += n;
	}
	luaL_pushresult(&b);
	return 1;
}

/** file:write(data) -> true, or nil, msg, errno: the whole of data, in
 * as many writes as it takes, at the descriptor's offset. */
static int l_file_write(lua_State *L)
{
	struct sbx_file *f = check_file(L, 1);
	size_t len;
	const char *data = luaL_checklstring(L, 2, &len);
	int r = sbx_write_all(f->fd, data, len);
	if (r < 0)
		return fail_file(L, "write", -r);
	lua_pushboolean(L, 1);
	return 1;
}

/* close(), __gc and __close of an sbx.file or an sbx.dir: idempotent. */
static int close_fd(int *fd)
{
	if (*fd >= 0) {
		close(*fd);
		*fd = -1;
	}
	return 0;
}

/* __tostring of an sbx.file or an sbx.dir (argument 1) of class cls: the
 * path it was opened by (its user value), or that it is closed. */
static int push_name(lua_State *L, const char *cls, int fd)
{
	if (fd < 0) {
		lua_pushfstring(L, "%s (closed)", cls);
		return 1;
	}
	lua_getiuservalue(L, 1, 1);
	lua_pushfstring(L, "%s (%s)", cls, lua_tostring(L, -1));
	return 1;
}

static int l_file_close(lua_State *L)
{
	struct sbx_file *f = luaL_checkudata(L, 1, SBX_FILE);
	return close_fd(&f->fd);
}

static int l_file_tostring(lua_State *L)
{
	struct sbx_file *f = luaL_checkudata(L, 1, SBX_FILE);
	return push_name(L, SBX_FILE, f->fd);
}

/* ---- sbx.dir ---- */

/** core.open_dir(path) -> an sbx.dir, or nil, msg, errno.  No symlink on
 * the path is followed (ELOOP). */
static int l_open_dir(lua_State *L)
{
	const char *path = check_path(L, 1);
	struct open_how how = {
	    .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	struct dir *d;
	int fd, tries = 0;

	lua_settop(L, 1);
	d = lua_newuserdatauv(L, sizeof *d, 1);
	d->fd = -1; /* closed until the open succeeds */
	luaL_setmetatable(L, DIR_CLASS);
	lua_pushvalue(L, 1);
	lua_setiuservalue(L, 2, 1);
	do /* openat2 answers EAGAIN to a concurrent rename on ".." */
		fd = sbx_openat2(AT_FDCWD, path, &how);
	while (fd < 0 && errno == EAGAIN && ++tries < 16);
	if (fd < 0) {
		int e = errno;
		return fail_open(L, path, e);
	}
	d->fd = fd;
	return 1;
}

static struct dir *check_dir(lua_State *L, int idx)
{
	struct dir *d = luaL_checkudata(L, idx, DIR_CLASS);
	if (d->fd < 0)
		luaL_error(L, "attempt to use a closed directory");
	return d;
}

/* A name in the directory: one path component, never "." or "..". */
static const char *check_name(lua_State *L, int idx)
{
	size_t len;
	const char *s = luaL_checklstring(L, idx, &len);
	luaL_argcheck(L,
		      len > 0 && len <= NAME_MAX && strlen(s) == len &&
			  !strchr(s, '/') && strcmp(s, ".") != 0 &&
			  strcmp(s, "..") != 0,
		      idx, "a file name expected (one path component)");
	return s;
}

/* 0 when name is absent or a regular file in dirfd; -errno otherwise,
 * -EEXIST with *what set when something else is there. */
static int name_free(int dirfd, const char *name, const char **what)
{
	struct stat st;
	if (fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) < 0)
		return errno == ENOENT ? 0 : -errno;
	if (S_ISREG(st.st_mode))
		return 0;
	*what = sbx_mode_words(st.st_mode);
	return -EEXIST;
}

/* Writes len bytes of data to dirfd/name by way of a temporary name and
 * a rename (see the top of this file).  Returns 0, or -errno with *call the
 * step that failed and *what set for a final name that is not a regular
 * file.  Plain C: no descriptor or temporary name outlives a failure. */
static int write_at(int dirfd, const char *name, const char *data, size_t len,
		    int excl, const char **call, const char **what)
{
	char tmp[NAME_MAX + 1];
	struct stat st;
	int fd = -1, r, tries = 0;

	*call = "write";
	r = name_free(dirfd, name, what);
	if (r == 0 && excl &&
	    fstatat(dirfd, name, &st, AT_SYMLINK_NOFOLLOW) == 0)
		r = -EEXIST;
	if (r < 0)
		return r;
	do {
		unsigned rnd = 0;
		if (getrandom(&rnd, sizeof rnd, 0) != sizeof rnd)
			rnd = (unsigned)getpid() ^ (unsigned)tries;
		r = snprintf(tmp, sizeof tmp, ".%s.sbxlua-%08x", name, rnd);
		if (r < 0 || (size_t)r >= sizeof tmp) {
			*call = "create";
			return -ENAMETOOLONG;
		}
		fd = openat(
		    dirfd, tmp,
		    O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0666);
	} while (fd < 0 && errno == EEXIST && ++tries < 16);
	if (fd < 0) {
		*call = "create";
		return -errno;
	}
	{
		/* a limit the caller set for its programs: EFBIG, not a kill */
		struct sbx_fsize fs;
		sbx_fsize_lift(&fs);
		r = sbx_write_all(fd, data, len);
		sbx_fsize_restore(&fs);
	}
	if (r == 0 && fsync(fd) < 0) {
		r = -errno;
		*call = "fsync";
	}
	if (close(fd) < 0 && r == 0 && errno != EINTR) {
		r = -errno;
		*call = "close";
	}
	/* looked at again just before the rename: a directory there would
	 * fail it anyway, anything else must not be replaced silently */
	if (r == 0)
		r = name_free(dirfd, name, what);
	/* excl: nothing may be there, not even what appeared since */
	if (r == 0 && excl &&
	    renameat2(dirfd, tmp, dirfd, name, RENAME_NOREPLACE) < 0) {
		r = -errno;
		*call = "rename";
	} else if (r == 0 && !excl && renameat(dirfd, tmp, dirfd, name) < 0) {
		r = -errno;
		*call = "rename";
	}
	if (r < 0)
		unlinkat(dirfd, tmp, 0);
	return r;
}

/* Pushes "<dir>/<name>" for messages. */
static const char *push_joined(lua_State *L, int self, const char *name)
{
	const char *dir;
	size_t n;
	lua_getiuservalue(L, self, 1);
	dir = lua_tolstring(L, -1, &n);
	lua_pushfstring(L, "%s%s%s", dir, n && dir[n - 1] == '/' ? "" : "/",
			name);
	lua_remove(L, -2);
	return lua_tostring(L, -1);
}

static int fail_at(lua_State *L, const char *call, const char *name, int err,
		   const char *what)
{
	const char *path = push_joined(L, 1, name);
	if (what) {
		lua_pushfstring(L, "is %s, not a regular file", what);
		return fail_reason(L, call, path, lua_tostring(L, -1), err);
	}
	return sbx_fail(L, call, path, err);
}

/** dir:check(name) -> true when dir:write(name, ...) could go ahead: name
 * is absent or a regular file, and the directory is writable by the
 * caller; else nil, msg, errno (EEXIST: something else is there). */
static int l_dir_check(lua_State *L)
{
	struct dir *d = check_dir(L, 1);
	const char *name = check_name(L, 2);
	const char *what = NULL;
	int r = name_free(d->fd, name, &what);
	if (r == 0 &&
	    faccessat(d->fd, "", W_OK, AT_EMPTY_PATH | AT_EACCESS) < 0)
		r = -errno;
	if (r < 0)
		return fail_at(L, "write", name, -r, what);
	lua_pushboolean(L, 1);
	return 1;
}

/** dir:write(name, data [, how]) -> true, or nil, msg, errno.  Creates or
 * replaces the regular file name in the directory with data; refuses
 * (EEXIST) when something other than a regular file is there, leaving it
 * as it is.  how: "replace" (the default) or "excl": refuses (EEXIST)
 * whatever is there, a regular file too, up to the final rename. */
static int l_dir_write(lua_State *L)
{
	static const char *const hows[] = {"replace", "excl", NULL};
	struct dir *d = check_dir(L, 1);
	const char *name = check_name(L, 2);
	size_t len;
	const char *data = luaL_checklstring(L, 3, &len);
	int excl = luaL_checkoption(L, 4, "replace", hows);
	const char *call = NULL, *what = NULL;
	int r = write_at(d->fd, name, data, len, excl, &call, &what);
	if (r < 0)
		return fail_at(L, call, name, -r, what);
	lua_pushboolean(L, 1);
	return 1;
}

/** dir:list() -> the regular files and directories in the directory, as
 * { name =, type = "file"|"dir" } in the order the kernel gives (a
 * symlink, a device, a FIFO or a socket is left out; "." and ".." too);
 * or nil, msg, errno.  The directory is read through its descriptor,
 * never by path. */
static int l_dir_list(lua_State *L)
{
	struct dir *d = check_dir(L, 1), *r;
	char buf[8192];
	ssize_t n;
	int i = 1, err;

	lua_settop(L, 1);
	lua_newtable(L);
	/* the reading descriptor is held by a second sbx.dir, so that a push
	 * that raises leaves it to the collector, not leaked */
	r = lua_newuserdatauv(L, sizeof *r, 1);
	r->fd = -1;
	luaL_setmetatable(L, DIR_CLASS);
	lua_getiuservalue(L, 1, 1);
	lua_setiuservalue(L, 3, 1);
	r->fd = openat(d->fd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (r->fd < 0)
		return fail_at(L, "open", ".", errno, NULL);
	while ((n = getdents64(r->fd, buf, sizeof buf)) > 0)
		for (ssize_t o = 0; o < n;) {
			struct dirent64 *e = (struct dirent64 *)(buf + o);
			unsigned char t = e->d_type;
			struct stat st;
			o += e->d_reclen;
			if (t == DT_UNKNOWN &&
			    fstatat(r->fd, e->d_name, &st,
				    AT_SYMLINK_NOFOLLOW) == 0)
				t = S_ISREG(st.st_mode)	  ? DT_REG
				    : S_ISDIR(st.st_mode) ? DT_DIR
							  : DT_UNKNOWN;
			if ((t != DT_REG && t != DT_DIR) ||
			    strcmp(e->d_name, ".") == 0 ||
			    strcmp(e->d_name, "..") == 0)
				continue;
			lua_createtable(L, 0, 2);
			sbx_set_str(L, "name", e->d_name);
			sbx_set_str(L, "type", t == DT_REG ? "file" : "dir");
			lua_rawseti(L, 2, i++);
		}
	err = errno;
	close(r->fd);
	r->fd = -1;
	if (n < 0)
		return fail_at(L, "getdents64", ".", err, NULL);
	lua_settop(L, 2);
	return 1;
}

static int l_dir_close(lua_State *L)
{
	struct dir *d = luaL_checkudata(L, 1, DIR_CLASS);
	return close_fd(&d->fd);
}

static int l_dir_tostring(lua_State *L)
{
	struct dir *d = luaL_checkudata(L, 1, DIR_CLASS);
	return push_name(L, DIR_CLASS, d->fd);
}

void sbx_open_file(lua_State *L)
{
	static const luaL_Reg dir_methods[] = {{"check", l_dir_check},
					       {"write", l_dir_write},
					       {"list", l_dir_list},
					       {"close", l_dir_close},
					       {NULL, NULL}};
	static const luaL_Reg file_methods[] = {{"stat", l_file_stat},
						{"read", l_file_read},
						{"write", l_file_write},
						{"close", l_file_close},
						{NULL, NULL}};
	static const luaL_Reg f[] = {{"open_file", l_open_file},
				     {"stdin", l_stdin},
				     {"descriptor", l_descriptor},
				     {"open_dir", l_open_dir},
				     {NULL, NULL}};
	sbx_new_closable(L, SBX_FILE, l_file_close, l_file_tostring,
			 file_methods);
	sbx_new_closable(L, DIR_CLASS, l_dir_close, l_dir_tostring,
			 dir_methods);
	luaL_setfuncs(L, f, 0);
}
