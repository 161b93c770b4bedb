/* SPDX-License-Identifier: MIT */
/*
 * capture_lua.c: the Lua side of the written files (capture.c): spec.capture
 * parsed into a struct sbx_capture (its keep directory made or taken, held
 * by descriptor) and the record pushed into the result.
 */
#include "sbx.h"

#include "capture.h"
#include "compat.h"
#include "digest.h"
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>

/* ---- the spec ---- */

static int capture_gc(lua_State *L)
{
	struct sbx_capture *c = luaL_checkudata(L, 1, "sbx.capture");
	if (c->keep_fd >= 0)
		close(c->keep_fd);
	c->keep_fd = -1;
	return 0;
}

/* Makes DIR 0700, or takes an existing empty directory of the caller's;
 * never through a symlink on its path (a box given a --rw bind of a
 * directory on it could have planted one for this run).  Returns a
 * descriptor or -errno (-ENOTEMPTY, -EPERM for another owner, -ELOOP a
 * symlink). */
static int keep_open(const char *dir)
{
	struct open_how how = {.flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
			       .resolve =
				   RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
	struct stat st;
	char buf[512], parent[4096];
	const char *leaf;
	int fd, pfd, e = 0;
	long n = 0;
	size_t len = strlen(dir);
	while (len > 1 && dir[len - 1] == '/')
		len--;
	if (len == 0 || len >= sizeof parent)
		return len ? -ENAMETOOLONG : -ENOENT;
	memcpy(parent, dir, len);
	parent[len] = '\0';
	leaf = strrchr(parent, '/');
	if (!leaf) {
		leaf = parent;
		pfd = sbx_openat2(AT_FDCWD, ".", &how);
	} else if (leaf == parent) {
		leaf = parent + 1;
		pfd = sbx_openat2(AT_FDCWD, "/", &how);
	} else {
		*(char *)leaf++ = '\0';
		pfd = sbx_openat2(AT_FDCWD, parent, &how);
	}
	if (pfd < 0)
		return -errno;
	if (mkdirat(pfd, leaf, 0700) < 0 && errno != EEXIST)
		e = errno;
	fd = e ? -1
	       : openat(pfd, leaf,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd < 0 && !e)
		e = errno == ENOTDIR ? ELOOP : errno;
	close(pfd);
	if (e)
		return -e;
	if (fstat(fd, &st) < 0)
		e = errno;
	else if (st.st_uid != geteuid())
		e = EPERM;
	while (!e && (n = syscall(SYS_getdents64, fd, buf, sizeof buf)) > 0)
		for (long off = 0; off < n && !e;) {
			const struct dirent64 *d = (const void *)(buf + off);
			off += d->d_reclen;
			if (strcmp(d->d_name, ".") && strcmp(d->d_name, ".."))
				e = ENOTEMPTY;
		}
	if (!e && n < 0)
		e = errno;
	if (!e && fchmod(fd, 0700) < 0)
		e = errno;
	if (!e)
		return fd;
	close(fd);
	return -e;
}

static const char *const capture_keys[] = {
    "places",	  "entries",	"depth",   "read_bytes", "keep",
    "keep_bytes", "keep_total", "markers", "placed",	 NULL};

/* spec.capture.places: up to 16 clean paths in the box (raises). */
static void capture_places(lua_State *L, int idx, int anchor,
			   struct sbx_capture *c)
{
	if (lua_getfield(L, idx, "places") != LUA_TTABLE)
		luaL_error(L, "field 'capture.places' must be a list of paths");
	for (lua_Integer i = 1;; i++) {
		if (lua_rawgeti(L, -1, i) == LUA_TNIL) {
			lua_pop(L, 1);
			break;
		}
		if (c->nplaces >= sizeof c->places / sizeof c->places[0])
			luaL_error(L,
				   "field 'capture.places' has more than 16");
		sbx_check_boxpath(L, -1, "field 'capture.places'");
		c->places[c->nplaces++] = sbx_anchor_str(L, anchor, -1);
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

/* spec.capture.placed: up to 256 box paths of the tree's own nodes, each
 * true (a node it mounts over) or the sha256 (64 hex digits) of a file it
 * placed; raises. */
static void capture_placed(lua_State *L, int idx, int anchor,
			   struct sbx_capture *c)
{
	static const char bad[] = "field 'capture.placed' must map box paths "
				  "to true or a sha256";
	int t = lua_getfield(L, idx, "placed");
	if (t != LUA_TNIL && t != LUA_TTABLE)
		luaL_error(L, "%s", bad);
	lua_pushnil(L);
	while (t == LUA_TTABLE && lua_next(L, -2) != 0) {
		struct sbx_placed *p = &c->placed[c->nplaced];
		size_t len = 0;
		if (c->nplaced >= CAP_PLACED)
			luaL_error(L,
				   "field 'capture.placed' has more than 256");
		if (lua_type(L, -2) != LUA_TSTRING)
			luaL_error(L, "%s", bad);
		sbx_check_boxpath(L, -2, "field 'capture.placed'");
		p->path = sbx_anchor_str(L, anchor, -2);
		p->sha256 = NULL;
		if (lua_type(L, -1) == LUA_TSTRING) {
			const char *h = lua_tolstring(L, -1, &len);
			if (len != SBX_SHA256_HEX - 1 ||
			    strspn(h, "0123456789abcdef") != len)
				luaL_error(L, "%s", bad);
			p->sha256 = sbx_anchor_str(L, anchor, -1);
		} else if (!lua_isboolean(L, -1) || !lua_toboolean(L, -1)) {
			luaL_error(L, "%s", bad);
		}
		c->nplaced++;
		lua_pop(L, 1);
	}
	lua_pop(L, 1);
}

/* spec.capture.markers: up to 32 strings of 8 to 64 bytes (raises). */
static void capture_markers(lua_State *L, int idx, int anchor,
			    struct sbx_capture *c)
{
	if (lua_getfield(L, idx, "markers") == LUA_TTABLE) {
		for (lua_Integer i = 1;; i++) {
			size_t len;
			if (lua_rawgeti(L, -1, i) == LUA_TNIL) {
				lua_pop(L, 1);
				break;
			}
			if (lua_type(L, -1) != LUA_TSTRING ||
			    c->nmarkers >= CAP_MARKERS)
				luaL_error(L, "field 'capture.markers' must be "
					      "a list of up to 32 strings");
			lua_tolstring(L, -1, &len);
			if (len < 8 || len > CAP_MARKER_MAX)
				luaL_error(L, "field 'capture.markers': a "
					      "marker has 8 to 64 bytes");
			c->marker_len[c->nmarkers] = len;
			c->markers[c->nmarkers++] =
			    sbx_anchor_str(L, anchor, -1);
			lua_pop(L, 1);
		}
	} else if (!lua_isnil(L, -1)) {
		luaL_error(L, "field 'capture.markers' must be a list");
	}
	lua_pop(L, 1);
}

/* spec.capture: { places = {box paths}, entries, depth, read_bytes, keep
 * = DIR, keep_bytes, keep_total, markers = {strings} }; the config goes
 * into io->capture (anchored); returns 0, or -errno with *bad the keep
 * directory when it cannot be made or taken. */
int sbx_capture_parse(lua_State *L, int idx, int anchor, struct sbx_box *b,
		      const char **bad)
{
	struct sbx_capture *c;
	int r;
	idx = lua_absindex(L, idx);
	luaL_checktype(L, idx, LUA_TTABLE);
	sbx_check_keys(L, idx, 0, capture_keys);
	c = lua_newuserdatauv(L, sizeof *c, 0);
	memset(c, 0, sizeof *c);
	c->keep_fd = -1;
	c->filetype = 1; /* each file read whole is typed (inspect.h) */
	if (luaL_newmetatable(L, "sbx.capture")) {
		lua_pushcfunction(L, capture_gc);
		lua_setfield(L, -2, "__gc");
	}
	lua_setmetatable(L, -2);
	sbx_anchor_value(L, anchor, -1);
	lua_pop(L, 1);
	capture_places(L, idx, anchor, c);
	c->max_entries =
	    (long)sbx_opt_int(L, idx, "entries", 10000, 1, 1 << 24);
	c->max_depth = (int)sbx_opt_int(L, idx, "depth", 32, 1, 256);
	c->max_read = sbx_opt_int(L, idx, "read_bytes", (int64_t)256 << 20, 0,
				  (int64_t)1 << 40);
	c->keep_max = sbx_opt_int(L, idx, "keep_bytes", (int64_t)64 << 20, 0,
				  (int64_t)1 << 40);
	c->keep_total = sbx_opt_int(L, idx, "keep_total", (int64_t)256 << 20, 0,
				    (int64_t)1 << 40);
	capture_markers(L, idx, anchor, c);
	capture_placed(L, idx, anchor, c);
	if (lua_getfield(L, idx, "keep") != LUA_TNIL) {
		const char *dir;
		if (lua_type(L, -1) != LUA_TSTRING)
			luaL_error(L, "field 'capture.keep' must be a path");
		dir = lua_tostring(L, -1);
		/* the last step: the directory is made or taken */
		r = keep_open(dir);
		if (r < 0) {
			*bad = sbx_anchor_str(L, anchor, -1);
			lua_pop(L, 1);
			return r;
		}
		c->keep_fd = r;
	}
	lua_pop(L, 1);
	b->io.capture = c;
	b->plan.places = c->places;
	b->plan.nplaces = c->nplaces;
	return 0;
}

static void push_file(lua_State *L, const struct sbx_capfile *f)
{
	lua_createtable(L, 0, 8);
	sbx_set_str(L, "path", f->path);
	sbx_set_str(L, "type", f->type);
	sbx_set_int(L, "mode", f->mode);
	sbx_set_int(L, "size", f->size);
	if (f->hx)
		sbx_push_hashes(L, f->hx); /* sha256 among them */
	else if (f->hashed) {
		sbx_set_str(L, "sha256", f->sha256);
	}
	if (f->link)
		sbx_set_str(L, "link", f->link);
	if (f->filetype && f->mime) {
		sbx_set_str(L, "filetype", f->filetype);
		sbx_set_str(L, "mime", f->mime);
	}
	if (f->err)
		sbx_set_str(L, "unread",
			    f->err == EFBIG ? "bound" : sbx_errno_name(f->err));
	if (f->markers) {
		lua_newtable(L);
		for (int i = 0, k = 0; i < CAP_MARKERS; i++)
			if (f->markers & (1u << i)) {
				lua_pushinteger(L, i + 1);
				lua_rawseti(L, -2, ++k);
			}
		lua_setfield(L, -2, "markers");
	}
	if (f->kept) {
		sbx_set_str(L, "kept", f->kept);
	} else if (f->keep_err) {
		sbx_set_str(L, "not_kept",
			    f->keep_err == EFBIG ? "bound"
						 : sbx_errno_name(f->keep_err));
	}
}

/* result.places_full = { {path, size}, ... }: the places the walk found
 * on a full tmpfs (capture.c); absent when none */
static void push_full(lua_State *L, const struct sbx_capstate *cs)
{
	const struct sbx_capres *r = cs->files;
	int n = 0;
	if (!r->full)
		return;
	lua_newtable(L);
	for (size_t i = 0; i < cs->spec->nplaces; i++) {
		if (!(r->full & (1u << i)))
			continue;
		lua_createtable(L, 0, 2);
		sbx_set_str(L, "path", cs->spec->places[i]);
		sbx_set_int(L, "size", (lua_Integer)r->full_size[i]);
		lua_rawseti(L, -2, ++n);
	}
	lua_setfield(L, -2, "places_full");
}

/* result.inspect_skipped: the files and executed memfds left untyped
 * (inspect.h), result.inspect_cpu the worker's CPU on them (seconds);
 * result.files = { {path, type, mode, size, sha256, link,
 * ...}, ... } in the walk's order and result.files_bounds = { entries,
 * depth, read, keep, types, partial } (the bounds hit; absent when none);
 * nothing when the run had no capture; result.files_missing when init sent no
 * places (the box failed or was killed before its tree was built). */
void sbx_capture_push(lua_State *L, const struct sbx_capstate *cs)
{
	const struct sbx_capres *r = cs->files;
	int untyped = cs->insp.skipped > 0;
	/* the files and executed memfds left untyped: the worker's budget
	 * spent, the worker lost, the run's count of files passed */
	sbx_set_int(L, "inspect_skipped", (lua_Integer)cs->insp.skipped);
	lua_pushnumber(L, cs->insp.used); /* seconds of the worker's CPU */
	lua_setfield(L, -2, "inspect_cpu");
	if (!cs->spec)
		return;
	if (!r || !r->done) {
		sbx_set_bool(L, "files_missing", 1);
		return;
	}
	lua_createtable(L, (int)r->n, 0);
	for (size_t i = 0; i < r->n; i++) {
		push_file(L, &r->f[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	lua_setfield(L, -2, "files");
	push_full(L, cs);
	if (r->hit_entries || r->hit_depth || r->hit_read || r->hit_keep ||
	    r->hit_types || untyped || r->partial) {
		lua_newtable(L);
		sbx_set_bool(L, "entries", r->hit_entries);
		sbx_set_bool(L, "depth", r->hit_depth);
		sbx_set_bool(L, "read", r->hit_read);
		sbx_set_bool(L, "keep", r->hit_keep);
		sbx_set_bool(L, "types", r->hit_types || untyped);
		sbx_set_bool(L, "partial", r->partial);
		lua_setfield(L, -2, "files_bounds");
	}
}
