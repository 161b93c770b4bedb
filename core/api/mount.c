/* SPDX-License-Identifier: MIT */
/*
 * mount.c: the tree of a box, as a list of mount operations.  Each entry of
 * spec.mounts is a table with a `type` and the fields of that type; unknown
 * fields raise.  Paths inside the box must be absolute and free of "..";
 * bind sources are resolved on the host here, before the clone, and the
 * child opens them again without following any symlink.
 */
#include "compat.h"
#include "sbx.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static const char *const types[] = {"tmpfs", "bind",	"proc", "dev",
				    "mkdir", "symlink", "file", "remount",
				    "hide",  "sysnet",	NULL};
static const int ops[] = {
    SBX_OP_TMPFS,   SBX_OP_BIND, SBX_OP_PROC,	 SBX_OP_DEV,  SBX_OP_MKDIR,
    SBX_OP_SYMLINK, SBX_OP_FILE, SBX_OP_REMOUNT, SBX_OP_HIDE, SBX_OP_SYSNET};

static const char *const keys[][10] = {
    [SBX_OP_TMPFS] = {"type", "dst", "size", "nr_inodes", "mode", "ro", "dev",
		      "noexec", NULL},
    [SBX_OP_BIND] = {"type", "src", "dst", "rw", "dev", "noexec", "optional",
		     NULL},
    [SBX_OP_PROC] = {"type", "dst", NULL},
    [SBX_OP_DEV] = {"type", "dst", "shm_size", "shm_inodes", NULL},
    [SBX_OP_MKDIR] = {"type", "dst", "mode", NULL},
    [SBX_OP_SYMLINK] = {"type", "target", "dst", NULL},
    [SBX_OP_FILE] = {"type", "dst", "data", "mode", NULL},
    [SBX_OP_REMOUNT] = {"type", "dst", "rw", "dev", "noexec", "optional", NULL},
    [SBX_OP_HIDE] = {"type", "dst", "optional", NULL},
    [SBX_OP_SYSNET] = {"type", "dst", NULL},
};

/* Checks the path at idx: absolute, shorter than PATH_MAX, no NUL, no "."
 * or ".." component.  Raises naming what. */
const char *sbx_check_boxpath(lua_State *L, int idx, const char *what)
{
	size_t len;
	const char *s, *c;
	if (lua_type(L, idx) != LUA_TSTRING)
		luaL_error(L, "%s must be a string (got %s)", what,
			   luaL_typename(L, idx));
	s = lua_tolstring(L, idx, &len);
	if (len == 0 || s[0] != '/' || len >= PATH_MAX || strlen(s) != len)
		luaL_error(L, "%s must be an absolute path (got '%s')", what,
			   s);
	for (c = s; *c;) {
		const char *e;
		size_t n;
		while (*c == '/')
			c++;
		e = strchr(c, '/');
		n = e ? (size_t)(e - c) : strlen(c);
		if ((n == 1 && c[0] == '.') ||
		    (n == 2 && c[0] == '.' && c[1] == '.'))
			luaL_error(L,
				   "%s must not contain '.' or '..' (got "
				   "'%s')",
				   what, s);
		c += n;
	}
	return s;
}

static uint64_t attrs(lua_State *L, int t, int ro_default)
{
	uint64_t a = MOUNT_ATTR_NOSUID;
	if (!sbx_opt_bool(L, t, "dev", 0))
		a |= MOUNT_ATTR_NODEV;
	if (sbx_opt_bool(L, t, "noexec", 0))
		a |= MOUNT_ATTR_NOEXEC;
	if (ro_default ? !sbx_opt_bool(L, t, "rw", 0)
		       : sbx_opt_bool(L, t, "ro", 0))
		a |= MOUNT_ATTR_RDONLY;
	return a;
}

static const char *tmpfs_opts(lua_State *L, int t, int anchor,
			      const char *size_key, const char *inodes_key,
			      lua_Integer mode)
{
	lua_Integer size =
	    sbx_opt_int(L, t, size_key, 64 << 20, 4096, (lua_Integer)1 << 50);
	lua_Integer inodes =
	    sbx_opt_int(L, t, inodes_key, 65536, 1, (lua_Integer)1 << 32);
	const char *s;
	{
		char buf[128];
		snprintf(buf, sizeof buf, "size=%lld,nr_inodes=%lld,mode=%llo",
			 (long long)size, (long long)inodes, (long long)mode);
		lua_pushstring(L, buf);
	}
	s = sbx_anchor_str(L, anchor, -1);
	lua_pop(L, 1);
	return s;
}

static const char *field_path(lua_State *L, int t, const char *k, int anchor,
			      lua_Integer i)
{
	const char *s;
	char what[64];
	lua_getfield(L, t, k);
	snprintf(what, sizeof what, "mounts[%lld].%s", (long long)i, k);
	sbx_check_boxpath(L, -1, what);
	s = sbx_anchor_str(L, anchor, -1);
	lua_pop(L, 1);
	return s;
}

/*
 * A bind's source is a path the caller named, and a box may have written
 * anywhere along it since (a --rw directory of an earlier run).  It is
 * opened here, at compile time, without following any symlink (a link is
 * refused: the caller names its target), and its identity recorded; the
 * child opens the same path again (it cannot use this descriptor: a mount of
 * another mount namespace cannot be cloned into the box's) and binds it only
 * if it is the same file.  Nothing is held open between the two.  Returns
 * 0 or -errno.
 */
static int open_source(struct sbx_mount *m)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC,
			       .resolve =
				   RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS};
	struct stat st;
	int fd = sbx_openat2(AT_FDCWD, m->src, &how), e = 0;
	if (fd < 0)
		return -errno;
	if (fstat(fd, &st) < 0)
		e = errno;
	close(fd);
	if (e)
		return -e;
	m->src_dev = st.st_dev;
	m->src_ino = st.st_ino;
	return 0;
}

/* An entry's type, its keys, its destination (a bind's defaults to its
 * source) and whether it is optional; the entry is at t. */
static void mount_head(lua_State *L, int t, lua_Integer i, int anchor,
		       struct sbx_mount *m)
{
	int k;
	if (lua_getfield(L, t, "type") != LUA_TSTRING)
		luaL_error(L, "mounts[%I].type must be a string", i);
	for (k = 0; types[k]; k++)
		if (strcmp(types[k], lua_tostring(L, -1)) == 0)
			break;
	if (!types[k])
		luaL_error(L, "mounts[%I]: unknown type '%s'", i,
			   lua_tostring(L, -1));
	lua_pop(L, 1);
	m->op = ops[k];
	sbx_check_keys(L, t, 0, keys[m->op]);
	if (m->op == SBX_OP_BIND && lua_getfield(L, t, "dst") == LUA_TNIL) {
		lua_pop(L, 1);
		m->dst = field_path(L, t, "src", anchor, i);
	} else {
		if (m->op == SBX_OP_BIND)
			lua_pop(L, 1);
		m->dst = field_path(L, t, "dst", anchor, i);
	}
	if (sbx_opt_bool(L, t, "optional", 0))
		m->flags |= SBX_MOUNT_OPTIONAL;
}

/* A bind's source, opened now (an optional one that is absent is marked
 * so); -errno with *bad the source when it cannot be opened. */
static int mount_bind(lua_State *L, int t, lua_Integer i, int anchor,
		      struct sbx_mount *m, const char **bad)
{
	const char *src = field_path(L, t, "src", anchor, i);
	int r;
	m->attr = attrs(L, t, 1);
	m->src = src;
	r = open_source(m);
	if (r == -ENOENT && (m->flags & SBX_MOUNT_OPTIONAL)) {
		m->flags |= SBX_MOUNT_ABSENT;
		return 0;
	}
	if (r < 0)
		*bad = src;
	return r;
}

/* A symlink's target: a link text, kept alive by the anchor. */
static void mount_symlink(lua_State *L, int t, lua_Integer i, int anchor,
			  struct sbx_mount *m)
{
	size_t len;
	if (lua_getfield(L, t, "target") != LUA_TSTRING)
		luaL_error(L, "mounts[%I].target must be a string", i);
	m->src = lua_tolstring(L, -1, &len);
	if (len == 0 || len >= PATH_MAX || strlen(m->src) != len)
		luaL_error(L, "mounts[%I].target is not a valid link text", i);
	m->src = sbx_anchor_str(L, anchor, -1);
	lua_pop(L, 1);
}

/* A file's data (at most 1 MiB, kept alive by the anchor) and mode. */
static void mount_file(lua_State *L, int t, lua_Integer i, int anchor,
		       struct sbx_mount *m)
{
	if (lua_getfield(L, t, "data") != LUA_TSTRING)
		luaL_error(L, "mounts[%I].data must be a string", i);
	m->data = lua_tolstring(L, -1, &m->datalen);
	if (m->datalen > (1u << 20))
		luaL_error(L, "mounts[%I].data is over 1 MiB", i);
	m->data = sbx_anchor_str(L, anchor, -1);
	lua_pop(L, 1);
	m->mode = (unsigned)sbx_opt_int(L, t, "mode", 0644, 0, 07777);
}

/* The fields of an entry's type; -errno as mount_bind. */
static int mount_fields(lua_State *L, int t, lua_Integer i, int anchor,
			struct sbx_mount *m, const char **bad)
{
	switch (m->op) {
	case SBX_OP_TMPFS:
		m->attr = attrs(L, t, 0);
		m->data = tmpfs_opts(L, t, anchor, "size", "nr_inodes",
				     sbx_opt_int(L, t, "mode", 0755, 0, 07777));
		break;
	case SBX_OP_PROC:
		m->attr =
		    MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC;
		break;
	case SBX_OP_SYSNET:
		m->attr = MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
			  MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC;
		break;
	case SBX_OP_DEV:
		/* read-only once its nodes are in place */
		m->attr = MOUNT_ATTR_RDONLY;
		m->data =
		    tmpfs_opts(L, t, anchor, "shm_size", "shm_inodes", 01777);
		break;
	case SBX_OP_BIND:
		return mount_bind(L, t, i, anchor, m, bad);
	case SBX_OP_MKDIR:
		m->mode = (unsigned)sbx_opt_int(L, t, "mode", 0755, 0, 07777);
		break;
	case SBX_OP_SYMLINK:
		mount_symlink(L, t, i, anchor, m);
		break;
	case SBX_OP_FILE:
		mount_file(L, t, i, anchor, m);
		break;
	case SBX_OP_REMOUNT:
		m->attr = attrs(L, t, 1);
		break;
	default:
		break;
	}
	return 0;
}

int sbx_mounts_parse(lua_State *L, int idx, int anchor, struct sbx_plan *p,
		     const char **bad)
{
	lua_Integer n;
	struct sbx_mount *ms;
	idx = lua_absindex(L, idx);
	anchor = lua_absindex(L, anchor);
	luaL_checktype(L, idx, LUA_TTABLE);
	n = luaL_len(L, idx);
	if (n < 0 || n > 4096)
		luaL_error(L, "too many mounts");
	ms = sbx_anchor(L, anchor, (size_t)n * sizeof *ms);
	p->mounts = ms;
	p->nmounts = (size_t)n;
	for (lua_Integer i = 1; i <= n; i++) {
		struct sbx_mount *m = &ms[i - 1];
		int t, r;
		if (lua_geti(L, idx, i) != LUA_TTABLE)
			luaL_error(L, "mounts[%I] must be a table", i);
		t = lua_gettop(L);
		mount_head(L, t, i, anchor, m);
		/* a sysfs lists the network devices of the mounter's network
		 * namespace: without the box's own, the host's */
		if (m->op == SBX_OP_SYSNET && !(p->nsflags & CLONE_NEWNET))
			luaL_error(
			    L, "mounts[%I]: sysnet needs the net namespace", i);
		r = mount_fields(L, t, i, anchor, m, bad);
		lua_pop(L, 1);
		if (r < 0)
			return r;
	}
	return 0;
}

/** core.mount_types() -> list of the mount entry types. */
static int l_types(lua_State *L)
{
	lua_newtable(L);
	for (int k = 0; types[k]; k++) {
		lua_pushstring(L, types[k]);
		lua_rawseti(L, -2, k + 1);
	}
	return 1;
}

void sbx_open_mount(lua_State *L)
{
	static const luaL_Reg f[] = {{"mount_types", l_types}, {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
