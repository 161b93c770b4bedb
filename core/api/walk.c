/* SPDX-License-Identifier: MIT */
/*
 * walk.c: one hardened walk of a host directory, serving two callers:
 * core.clear_setid (clearing set-user-ID and set-group-ID bits in a
 * directory a box could write, after the run) and core.find_sockets
 * (listing the unix sockets under a directory an operator binds, before
 * the box exists, so that the standard box can cover each one).
 *
 * Trust boundary.  The directory and everything in it are hostile: a box
 * (or a host user) chose every name, type and mode there, and may have
 * planted symlinks, FIFOs, deep or wide trees.  The supervisor runs this
 * with the caller's rights (often root).  So:
 *
 * - the top is opened with openat2(RESOLVE_NO_SYMLINKS), which refuses a
 *   symlink in any component: the caller resolved the path before the run
 *   and a symlink found now was planted (an ancestor inside another --rw
 *   directory); a real directory swapped in that way lies inside that
 *   other directory, which is scanned as well;
 * - below it every step is relative to an open directory: fstatat with
 *   AT_SYMLINK_NOFOLLOW, openat with O_NOFOLLOW | O_DIRECTORY for a
 *   directory, O_PATH | O_NOFOLLOW for a file.  No path is followed, no
 *   device, FIFO or socket is ever opened for I/O, a symlink is never
 *   followed (a symlink to a socket is not a socket: the box binds the
 *   tree, and the link inside it resolves in the box's own tree);
 * - clear_setid changes a file only through a descriptor of the very inode
 *   that was checked (re-checked with fstat on that descriptor): the mode
 *   is set through /proc/self/fd/N, the supervisor's own descriptor link,
 *   since fchmod refuses an O_PATH descriptor and opening the file for
 *   reading could block on a lease or need a permission the box removed;
 *   only regular files are touched, only their two set-id bits are
 *   cleared, and with `uid` only files of that owner (the box's host id:
 *   a box cannot make anyone else's file set-id);
 * - find_sockets changes nothing; it reports the sockets it saw, as paths
 *   relative to the top, with their mode and owner;
 * - the walk is bounded in depth and in entries, and says when it stopped
 *   early (and which directories it could not read), so the caller can
 *   report an incomplete check instead of a clean one.
 *
 * Memory: the open directories live in a userdata whose __gc closes them,
 * so that a Lua error while the result is built leaks nothing.
 */
#include "compat.h"
#include "sbx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#define WALK_MT "sbx.walk"
#define HARD_DEPTH 1024 /* the most directories held open at once */
#define DEF_DEPTH 128
#define DEF_ENTRIES 1000000

struct walk {
	int depth; /* index of the innermost open directory, -1: none */
	DIR *dir[HARD_DEPTH];
	size_t plen[HARD_DEPTH]; /* length of path at each level */
	char path[PATH_MAX];	 /* relative to the top, no leading '/' */
};

static void walk_close(struct walk *w)
{
	while (w->depth >= 0) {
		closedir(w->dir[w->depth]);
		w->dir[w->depth--] = NULL;
	}
}

static int l_walk_gc(lua_State *L)
{
	walk_close(luaL_checkudata(L, 1, WALK_MT));
	return 0;
}

/* Appends "/name" (or "name" at the top) to w->path at level d; returns 0,
 * or -1 when the path would not fit. */
static int set_path(struct walk *w, int d, const char *name)
{
	size_t base = w->plen[d], n = strlen(name);
	size_t sep = base > 0 ? 1 : 0;

	if (base + sep + n + 1 > sizeof w->path)
		return -1;
	if (sep)
		w->path[base] = '/';
	memcpy(w->path + base + sep, name, n + 1);
	return 0;
}

/* Pushes one record {path=, ...} onto the list at index list. */
static void push_record(lua_State *L, int list, const char *path,
			const char *action, const struct stat *st, int err)
{
	lua_createtable(L, 0, 7);
	sbx_set_str(L, "path", path);
	sbx_set_str(L, "action", action);
	if (st)
		sbx_set_owner(L, st);
	if (err) {
		sbx_set_int(L, "errno", err);
		sbx_set_str(L, "errname", sbx_errno_name(err));
	}
	lua_rawseti(L, list, (lua_Integer)lua_rawlen(L, list) + 1);
}

/* Clears the set-id bits of name in dirfd, which fstatat described as st;
 * returns 0 or an errno. */
static int clear_bits(int dirfd, const char *name, const struct stat *st)
{
	char link[64];
	struct stat now;
	int fd = openat(dirfd, name, O_PATH | O_NOFOLLOW | O_CLOEXEC), r;

	if (fd < 0)
		return errno;
	/* the inode held now must be the one checked: no swap in between */
	if (fstat(fd, &now) < 0) {
		r = errno;
		close(fd);
		return r;
	}
	if (now.st_dev != st->st_dev || now.st_ino != st->st_ino ||
	    !S_ISREG(now.st_mode) || now.st_uid != st->st_uid) {
		close(fd);
		return ESTALE;
	}
	snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
	r = fchmodat(AT_FDCWD, link, now.st_mode & 07777 & ~(mode_t)06000, 0);
	r = r < 0 ? errno : 0;
	close(fd);
	return r;
}

/* Opens the subdirectory name of the innermost level as level d + 1. */
static int push_dir(struct walk *w, const char *name, const struct stat *st)
{
	struct stat now;
	int fd = openat(dirfd(w->dir[w->depth]), name,
			O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_NONBLOCK |
			    O_CLOEXEC);
	DIR *d;

	if (fd < 0)
		return errno;
	if (fstat(fd, &now) < 0 || now.st_dev != st->st_dev ||
	    now.st_ino != st->st_ino) {
		close(fd);
		return ESTALE;
	}
	d = fdopendir(fd);
	if (d == NULL) {
		int e = errno;
		close(fd);
		return e;
	}
	w->dir[++w->depth] = d;
	w->plen[w->depth] = strlen(w->path);
	return 0;
}

/* What one walk does with the entries it meets. */
struct walk_cfg {
	int find;	       /* 1: list entries of type `type`; 0: set-id */
	mode_t type;	       /* S_IFSOCK... (find) */
	lua_Integer uid;       /* set-id: only this owner, -1: any */
	int dry_run;	       /* set-id: report only */
	lua_Integer max_depth; /* directories deep, the top being 1 */
	lua_Integer max_entries;
};

/* The set-id decision on one regular file or other non-directory. */
static void visit_setid(lua_State *L, struct walk *w, int found,
			const struct walk_cfg *c, const char *name,
			const struct stat *st)
{
	int err;

	if (!S_ISREG(st->st_mode) || !(st->st_mode & (S_ISUID | S_ISGID)))
		return;
	if (c->uid >= 0 && st->st_uid != (uid_t)c->uid) {
		push_record(L, found, w->path, "kept", st, 0);
		return;
	}
	if (c->dry_run) {
		push_record(L, found, w->path, "found", st, 0);
		return;
	}
	err = clear_bits(dirfd(w->dir[w->depth]), name, st);
	push_record(L, found, w->path, err ? "failed" : "cleared", st, err);
}

/* Opens top as the walk's first directory, with no symlink in any
 * component: 0, or the failure triple pushed and its count. */
static int open_top(lua_State *L, struct walk *w, const char *top)
{
	struct open_how how = {
	    .flags = O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC,
	    .resolve = RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	int fd = sbx_openat2(AT_FDCWD, top, &how);
	DIR *d;

	if (fd < 0)
		return sbx_fail(L, "open", top, errno);
	d = fdopendir(fd);
	if (d == NULL) {
		int e = errno;
		close(fd);
		return sbx_fail(L, "fdopendir", top, e);
	}
	w->dir[0] = d;
	w->depth = 0;
	w->plen[0] = 0;
	return 0;
}

/* An error in the directory being read (not one of its entries). */
static void push_dir_error(lua_State *L, struct walk *w, int errs, int err)
{
	w->path[w->plen[w->depth]] = '\0';
	push_record(L, errs, w->path[0] ? w->path : ".", "unchecked", NULL,
		    err);
}

/* One entry of the directory being read: a directory is entered (or
 * reported past max_depth, and then *truncated says "depth"), anything
 * else visited as c says. */
static void visit_entry(lua_State *L, struct walk *w, const struct walk_cfg *c,
			const char *name, int found, int errs,
			const char **truncated)
{
	struct stat st;
	int err;

	if (set_path(w, w->depth, name) < 0) {
		push_dir_error(L, w, errs, ENAMETOOLONG);
		return;
	}
	if (fstatat(dirfd(w->dir[w->depth]), name, &st, AT_SYMLINK_NOFOLLOW) <
	    0) {
		if (errno != ENOENT)
			push_record(L, errs, w->path, "unchecked", NULL, errno);
		return;
	}
	if (S_ISDIR(st.st_mode)) {
		if (w->depth + 1 >= c->max_depth) {
			/* reported, and the walk goes on beside it */
			*truncated = "depth";
			push_record(L, errs, w->path, "unchecked", NULL, ELOOP);
			return;
		}
		err = push_dir(w, name, &st);
		if (err != 0 && err != ENOENT)
			push_record(L, errs, w->path, "unchecked", NULL, err);
		return;
	}
	if (!c->find)
		visit_setid(L, w, found, c, name, &st);
	else if ((st.st_mode & S_IFMT) == c->type)
		push_record(L, found, w->path, "found", &st, 0);
}

/* The walk's result table from its found and errors tables. */
static void push_walk_result(lua_State *L, int found, int errs,
			     lua_Integer entries, const char *truncated)
{
	lua_createtable(L, 0, 4);
	lua_pushvalue(L, found);
	lua_setfield(L, -2, "found");
	lua_pushvalue(L, errs);
	lua_setfield(L, -2, "errors");
	sbx_set_int(L, "entries", entries);
	if (truncated)
		sbx_set_str(L, "truncated", truncated);
}

/* Walks top as c says and returns 1 result table, or the failure triple
 * when top cannot be opened as a directory.  Every argument was checked by
 * the caller; this is the first side effect.  The stack of directory
 * descriptors is kept in the walk's userdata, which closes them if a push
 * raises; walk_close closes them here. */
static int walk_tree(lua_State *L, const char *top, const struct walk_cfg *c)
{
	const char *truncated = NULL; /* "entries" stops; "depth" goes on */
	lua_Integer entries = 0;
	struct walk *w;
	int found, errs, r;

	w = lua_newuserdatauv(L, sizeof *w, 0);
	w->depth = -1;
	w->path[0] = '\0';
	luaL_setmetatable(L, WALK_MT);
	lua_newtable(L); /* found */
	found = lua_gettop(L);
	lua_newtable(L); /* errors */
	errs = lua_gettop(L);
	r = open_top(L, w, top);
	if (r != 0)
		return r;

	/* depth first; every record is pushed as found */
	while (w->depth >= 0) {
		struct dirent *e;

		errno = 0;
		e = readdir(w->dir[w->depth]);
		if (e == NULL) {
			if (errno != 0)
				push_dir_error(L, w, errs, errno);
			closedir(w->dir[w->depth]);
			w->dir[w->depth--] = NULL;
			continue;
		}
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (++entries > c->max_entries) {
			truncated = "entries";
			break;
		}
		visit_entry(L, w, c, e->d_name, found, errs, &truncated);
	}
	walk_close(w);
	push_walk_result(L, found, errs,
			 entries > c->max_entries ? c->max_entries : entries,
			 truncated);
	return 1;
}

/* The top: an absolute path that fits. */
static const char *check_top(lua_State *L)
{
	const char *top = luaL_checkstring(L, 1);
	if (top[0] != '/' || strlen(top) >= PATH_MAX)
		luaL_argerror(L, 1, "absolute path expected");
	return top;
}

/* Checks path and opts (arguments 1 and 2) before any side effect, then
 * walks as c says.  opts: max_depth and max_entries (this is the one owner
 * of their ranges); a clearing walk (not c->find) takes uid and dry_run
 * too. */
static int walk_args(lua_State *L, struct walk_cfg *c)
{
	/* a find takes the last two */
	static const char *const keys[] = {"uid", "dry_run", "max_depth",
					   "max_entries", NULL};
	const char *top = check_top(L);

	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		sbx_check_keys(L, 2, 2, c->find ? keys + 2 : keys);
		if (!c->find) {
			c->uid = sbx_opt_int(L, 2, "uid", -1, 0, 0xfffffffe);
			c->dry_run = sbx_opt_bool(L, 2, "dry_run", 0);
		}
		c->max_depth =
		    sbx_opt_int(L, 2, "max_depth", DEF_DEPTH, 1, HARD_DEPTH);
		c->max_entries = sbx_opt_int(L, 2, "max_entries", DEF_ENTRIES,
					     1, (lua_Integer)1 << 40);
	}
	lua_settop(L, 2);
	return walk_tree(L, top, c);
}

/** core.clear_setid(path [, opts]) -> result, or nil, msg, errno when path
 * cannot be opened as a directory.  opts: uid (clear only files of this
 * owner), dry_run (report without clearing), max_depth, max_entries.
 * result: { found = { {path, action, mode, uid, gid, errno, errname} },
 * errors = { {path, action = "unchecked", errno, errname} }, entries = N,
 * truncated = nil | "depth" | "entries" }; action is "cleared", "found"
 * (dry_run), "kept" (another owner) or "failed". */
static int l_clear_setid(lua_State *L)
{
	struct walk_cfg c = {.find = 0,
			     .uid = -1,
			     .max_depth = DEF_DEPTH,
			     .max_entries = DEF_ENTRIES};
	return walk_args(L, &c);
}

/** core.find_sockets(path [, opts]) -> result, or nil, msg, errno when path
 * cannot be opened as a directory.  opts: max_depth, max_entries.
 * result: { found = { {path, action = "found", mode, uid, gid} },
 * errors = { {path, action = "unchecked", errno, errname} }, entries = N,
 * truncated = nil | "depth" | "entries" }; paths are relative to path. */
static int l_find_sockets(lua_State *L)
{
	struct walk_cfg c = {.find = 1,
			     .type = S_IFSOCK,
			     .uid = -1,
			     .max_depth = DEF_DEPTH,
			     .max_entries = DEF_ENTRIES};
	return walk_args(L, &c);
}

void sbx_open_walk(lua_State *L)
{
	static const luaL_Reg meta[] = {{"__gc", l_walk_gc}, {NULL, NULL}};
	static const luaL_Reg f[] = {{"clear_setid", l_clear_setid},
				     {"find_sockets", l_find_sockets},
				     {NULL, NULL}};
	sbx_new_class(L, WALK_MT, meta, NULL);
	luaL_setfuncs(L, f, 0);
}
