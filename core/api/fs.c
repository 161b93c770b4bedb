/* SPDX-License-Identifier: MIT */
/*
 * fs.c: host filesystem queries the policy layer needs before a box exists
 * (is PROG an executable file, is a --rw path a directory, where does a
 * symlink point), and the sha256 of a string for the environment digest.
 * Queries only: nothing here changes the filesystem.
 */
#include "digest.h"
#include "fileio.h"
#include "hashes.h"
#include "sbx.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

/* Pushes { type, mode, uid, gid, size } of st (lstat, file:stat). */
void sbx_push_stat(lua_State *L, const struct stat *st)
{
	lua_createtable(L, 0, 6);
	sbx_set_str(L, "type", sbx_mode_type(st->st_mode));
	sbx_set_owner(L, st);
	sbx_set_int(L, "size", st->st_size);
}

/* st's permission bits (mode, without the type), uid and gid into the
 * table on top: what sbx_push_stat and a walk's record both say. */
void sbx_set_owner(lua_State *L, const struct stat *st)
{
	sbx_set_int(L, "mode", st->st_mode & 07777);
	sbx_set_int(L, "uid", st->st_uid);
	sbx_set_int(L, "gid", st->st_gid);
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

/** core.mkdir(path, mode) -> true, or nil, msg, errno (EEXIST when
 * anything is there: the caller checks what with lstat). */
static int l_mkdir(lua_State *L)
{
	const char *path = luaL_checkstring(L, 1);
	lua_Integer mode = luaL_checkinteger(L, 2);
	luaL_argcheck(L, mode >= 0 && mode <= 07777, 2, "invalid mode");
	if (mkdir(path, (mode_t)mode) < 0) {
		int e = errno;
		return sbx_fail(L, "mkdir", path, e);
	}
	lua_pushboolean(L, 1);
	return 1;
}

/** core.sha256(s) -> 64 lowercase hex digits. */
static int l_sha256(lua_State *L)
{
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);
	char hex[SBX_SHA256_HEX];
	sbx_sha256_data(s, len, hex);
	lua_pushstring(L, hex);
	return 1;
}

/* h's digests into the table on top: md5, sha1, sha256, ssdeep and tlsh
 * (ssdeep and tlsh absent when there is none) */
void sbx_push_hashes(lua_State *L, const struct sbx_hash_hex *h)
{
	sbx_set_str(L, "md5", h->md5);
	sbx_set_str(L, "sha1", h->sha1);
	sbx_set_str(L, "sha256", h->sha256);
	sbx_set_text(L, "ssdeep", h->ssdeep);
	sbx_set_text(L, "tlsh", h->tlsh);
}

/** core.hashes(s) -> {md5, sha1, sha256, ssdeep, tlsh}: hex digests (tlsh
 * absent below 256 bytes or for bytes too uniform; ssdeep's own text). */
static int l_hashes(lua_State *L)
{
	size_t len;
	const char *s = luaL_checklstring(L, 1, &len);
	struct sbx_hashes h;
	struct sbx_hash_hex out;
	sbx_hashes_init(&h);
	sbx_hashes_expect(&h, len);
	sbx_hashes_update(&h, s, len);
	sbx_hashes_final(&h, &out);
	lua_createtable(L, 0, 5);
	sbx_push_hashes(L, &out);
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

/* Reads the numbers of this process's descriptors into fd[0..cap) (the
 * listing's own descriptor left out); *n is their count, cap when there may
 * be more.  Plain C: no Lua call while the directory is open.  0 or -errno. */
static int list_fds(int *fd, size_t cap, size_t *n)
{
	char buf[4096];
	long got;
	int dir = open("/proc/self/fd", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	*n = 0;
	while ((got = syscall(SYS_getdents64, dir, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			const struct dirent64 *d = (const void *)(buf + off);
			off += d->d_reclen;
			char *end;
			long v = strtol(d->d_name, &end, 10);
			if (*end || end == d->d_name || v == dir)
				continue; /* ".", ".." and the listing itself */
			if (*n == cap) {
				close(dir);
				return 0;
			}
			fd[(*n)++] = (int)v;
		}
	}
	int e = got < 0 ? errno : 0;
	close(dir);
	return -e;
}

/** core.fds() -> { [fd] = target }: every descriptor this process holds,
 * each with what readlink shows for it ("pipe:[123]", "/dev/null", ...),
 * read from the kernel without a helper process, so the count is exact; or
 * nil, msg, errno. */
static int l_fds(lua_State *L)
{
	size_t cap = 256, n = 0;
	int *fd;
	for (;;) {
		/* scratch owned by Lua: an error below leaks nothing */
		fd = lua_newuserdatauv(L, cap * sizeof(*fd), 0);
		int r = list_fds(fd, cap, &n);
		if (r < 0)
			return sbx_fail(L, "open", "/proc/self/fd", -r);
		if (n < cap)
			break;
		lua_pop(L, 1);
		cap *= 4;
	}
	lua_createtable(L, 0, (int)n);
	for (size_t i = 0; i < n; i++) {
		char path[64], target[PATH_MAX];
		snprintf(path, sizeof(path), "/proc/self/fd/%d", fd[i]);
		ssize_t len = readlink(path, target, sizeof(target));
		if (len < 0)
			continue; /* closed meanwhile: not held */
		lua_pushlstring(L, target, (size_t)len);
		lua_rawseti(L, -2, fd[i]);
	}
	return 1;
}

/* Whether /proc/<name> is a process of this user and pid namespace
 * (own_ns[0], own_ns[1]) holding uid as its real, effective, saved or
 * file-system uid: a host process, not a box's nor a container's (an OCI
 * runtime's container of a root caller runs as a box's host id in the
 * host's user namespace, in a pid namespace of its own).  The ids are read
 * first and the namespaces only for a process that holds uid: most hold
 * none, and a namespace's lookup costs as much as a third of the whole. */
static int same_ns(int proc, const char *name, const char *ns,
		   const struct stat *own)
{
	char path[300];
	struct stat st;
	snprintf(path, sizeof path, "%s/ns/%s", name, ns);
	return fstatat(proc, path, &st, 0) == 0 && st.st_ino == own->st_ino &&
	       st.st_dev == own->st_dev;
}

/* PIDFD_GET_INFO (Linux 6.13, include/uapi/linux/pidfd.h): a process's
 * ids without /proc/<pid>/status, which the kernel formats whole for each
 * read (0.42 ms against 0.92 ms for the 72 processes of an idle host,
 * docs/kernel-notes.md) */
struct pidfd_creds {
	uint64_t mask, cgroupid;
	uint32_t pid, tgid, ppid, ruid, rgid, euid, egid, suid, sgid, fsuid,
	    fsgid, spare;
};
#define SBX_PIDFD_GET_INFO _IOWR(0xFF, 11, struct pidfd_creds)
#define SBX_PIDFD_INFO_CREDS 2

/* The real, effective, saved and file-system uids of process name into
 * ids, as this process's user namespace sees them: 1, or 0 when it is
 * gone; from its status file where the kernel has no PIDFD_GET_INFO. */
static int uids_of(int proc, const char *name, unsigned long ids[4])
{
	static int no_info;
	char path[300], buf[4096];
	const char *u;
	if (!no_info) {
		struct pidfd_creds c = {.mask = SBX_PIDFD_INFO_CREDS};
		int fd = (int)syscall(SYS_pidfd_open, atoi(name), 0), r, e;
		if (fd < 0)
			return 0; /* gone (or not a process: ESRCH, EINVAL) */
		r = ioctl(fd, SBX_PIDFD_GET_INFO, &c);
		e = errno;
		close(fd);
		if (r == 0) {
			ids[0] = c.ruid;
			ids[1] = c.euid;
			ids[2] = c.suid;
			ids[3] = c.fsuid;
			return 1;
		}
		if (e == ESRCH)
			return 0; /* ended since, a zombie */
		no_info = 1;
	}
	snprintf(path, sizeof path, "%s/status", name);
	if (sbx_read_once_at(proc, path, 0, buf, sizeof buf) <= 0)
		return 0;
	u = strstr(buf, "\nUid:");
	return u && sscanf(u, "\nUid: %lu %lu %lu %lu", &ids[0], &ids[1],
			   &ids[2], &ids[3]) == 4;
}

static int holds_uid(int proc, const char *name, const struct stat *own_ns,
		     unsigned long uid, unsigned long n)
{
	unsigned long ids[4];
	int held = 0;
	if (!uids_of(proc, name, ids))
		return 0;
	if (ids[0] == 0)
		return 0; /* root acting as uid for a moment (a supervisor's
			   * clone), not a process of uid's own */
	for (int i = 0; i < 4; i++)
		if (ids[i] >= uid && ids[i] - uid < n)
			held = 1;
	if (!held)
		return 0;
	/* gone, or a box's or a container's (namespaces of its own) */
	return same_ns(proc, name, "user", &own_ns[0]) &&
	       same_ns(proc, name, "pid", &own_ns[1]);
}

#define UID_PIDS 4 /* the holders named by uid_users */

/* Counts into *count the processes of this user namespace holding one of
 * the n uids from uid on, the first UID_PIDS of them into pids.  Plain C:
 * nothing of Lua while /proc is open.  0 or -errno. */
static int count_uid(unsigned long uid, unsigned long n, long *count,
		     long *pids)
{
	char buf[4096];
	long got;
	struct stat own[2];
	int proc = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC), e = 0;
	if (proc < 0)
		return -errno;
	if (fstatat(proc, "self/ns/user", &own[0], 0) < 0 ||
	    fstatat(proc, "self/ns/pid", &own[1], 0) < 0) {
		e = errno;
		close(proc);
		return -e;
	}
	*count = 0;
	while ((got = syscall(SYS_getdents64, proc, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < got;) {
			const struct dirent64 *d = (const void *)(buf + off);
			off += d->d_reclen;
			if (d->d_name[0] >= '1' && d->d_name[0] <= '9' &&
			    holds_uid(proc, d->d_name, own, uid, n)) {
				if (*count < UID_PIDS)
					pids[*count] =
					    strtol(d->d_name, NULL, 10);
				(*count)++;
			}
		}
	}
	if (got < 0)
		e = errno;
	close(proc);
	return -e;
}

/** core.uid_users(uid [, n]) -> how many processes of the caller's user
 * and pid namespaces hold uid (or one of the n uids from uid on: a range
 * a box's user namespace maps) as a real, effective, saved or file-system
 * uid (a box's or a container's processes, in namespaces of their own,
 * are not counted, nor a process whose real uid is root), and a list of
 * the first pids of them (at most UID_PIDS); or nil, msg, errno. */
static int l_uid_users(lua_State *L)
{
	lua_Integer uid = luaL_checkinteger(L, 1);
	lua_Integer n = luaL_optinteger(L, 2, 1);
	long count = 0, pids[UID_PIDS];
	int r;
	luaL_argcheck(L, uid >= 0 && uid < 0xffffffffLL, 1, "invalid uid");
	luaL_argcheck(L, n >= 1 && n <= 0xffffffffLL - uid, 2,
		      "a count of ids from 1 to 2^32 - 1 - uid expected");
	r = count_uid((unsigned long)uid, (unsigned long)n, &count, pids);
	if (r < 0)
		return sbx_fail(L, "read", "/proc", -r);
	lua_pushinteger(L, count);
	lua_createtable(L, (int)(count < UID_PIDS ? count : UID_PIDS), 0);
	for (long i = 0; i < count && i < UID_PIDS; i++) {
		lua_pushinteger(L, pids[i]);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
	return 2;
}

void sbx_open_fs(lua_State *L)
{
	static const luaL_Reg f[] = {
	    {"lstat", l_lstat},	      {"isatty", l_isatty},
	    {"realpath", l_realpath}, {"access", l_access},
	    {"sha256", l_sha256},     {"hashes", l_hashes},
	    {"fds", l_fds},	      {"uid_users", l_uid_users},
	    {"mkdir", l_mkdir},	      {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
