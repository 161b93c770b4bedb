/*
 * child.c: everything that runs between clone and execve.
 *
 * Trust boundary.  This code runs in the freshly cloned box init (pid 1 of
 * the new pid namespace) and in the command's process forked from it.  It
 * reads only the plan compiled in the supervisor before the clone and makes
 * only raw system calls and async-signal-safe libc calls (no allocator, no
 * stdio, no Lua, no locks): a copy of a multi-threaded host's heap may hold
 * locks that would never be released.  Every step is checked; a failure is
 * sent to the supervisor as (stage, errno, index) and the process exits 126.
 * A box is never left half-built and running.
 *
 * Order in init: descriptors first (nothing of the host stays open), wait
 * for the supervisor to write the id maps, take the box's ids, build the
 * tree on a tmpfs and pivot into it, detach the host's root, make the root
 * read-only, hostname, lo; then init becomes undumpable, drops its own
 * capabilities and forks the command.  Order in the command's process:
 * session, stdio, cwd, rlimits, capabilities, no_new_privs, Landlock, the
 * probe, and the seccomp filter last: the filter governs the program, not
 * sbxlua, so after it nothing runs but execve (see step()).
 */
#include "compat.h"
#include "fdpass.h"
#include "fileio.h"
#include "kmem.h"
#include "plan.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/seccomp.h>
#include <linux/securebits.h>
#include <net/if.h>
#include <netinet/in.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <sys/wait.h>

#define CTL 3 /* the control socket, once descriptors are in place */
#define BASE "/tmp"

static void send_msg(int type, int stage, int err, int index, int status)
{
	struct sbx_msg m = {type, stage, err, index, status};
	ssize_t r;
	do
		r = send(CTL, &m, sizeof m, MSG_NOSIGNAL);
	while (r < 0 && errno == EINTR);
}

static _Noreturn void die(int stage, int index)
{
	send_msg(SBX_MSG_CANNOT, stage, errno, index, 0);
	_exit(126);
}

#define CHECK(expr, stage, index)                                              \
	do {                                                                   \
		if ((expr) < 0)                                                \
			die(stage, index);                                     \
	} while (0)

/* ---- descriptors ---- */

static int srcfd[4096]; /* see open_sources() */

/* Copies the supervisor's detached trees of the bind sources (plan.trees)
 * above everything (so that no move below can overwrite one before it is
 * copied) into srcfd[]. */
static void lift_trees(const struct sbx_plan *p)
{
	for (size_t i = 0; i < p->nmounts; i++) {
		srcfd[i] = -1;
		if (p->trees[i] >= 0 &&
		    (srcfd[i] = fcntl(p->trees[i], F_DUPFD_CLOEXEC,
				      (int)p->nmounts + 64)) < 0)
			die(SBX_ST_CLOSE_FDS, -1);
	}
}

/* Moves the control socket to 3, the command's stdio to 0..2 and the bind
 * sources' trees to 4 and up, then closes every other descriptor inherited
 * from the supervisor. */
static void setup_fds(const struct sbx_plan *p)
{
	int tmp[4], keep = CTL + 1;
	if (p->trees)
		lift_trees(p);
	for (int i = 0; i < 3; i++)
		tmp[i] = fcntl(p->stdio[i], F_DUPFD_CLOEXEC, 64);
	tmp[3] = fcntl(p->ctl_fd, F_DUPFD_CLOEXEC, 64);
	if (tmp[3] < 0 || dup3(tmp[3], CTL, O_CLOEXEC) < 0)
		_exit(126); /* no channel to report on */
	for (int i = 0; i < 3; i++)
		if (tmp[i] < 0 || dup2(tmp[i], i) < 0)
			die(SBX_ST_STDIO, -1);
	for (size_t i = 0; p->trees && i < p->nmounts; i++) {
		if (srcfd[i] < 0)
			continue;
		if (dup3(srcfd[i], keep, O_CLOEXEC) < 0)
			die(SBX_ST_CLOSE_FDS, -1);
		srcfd[i] = keep++;
	}
	if (sbx_close_range((unsigned)keep, ~0U, 0) < 0)
		die(SBX_ST_CLOSE_FDS, -1);
}

/* Closes fd (if open) keeping errno; returns r: the error paths below
 * report the errno of the call that failed, not of the cleanup. */
static int drop(int fd, int r)
{
	int e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return r;
}

/* ---- paths: never follow a symlink the box could have planted ---- */

static int open_beneath(int dirfd, const char *path, int flags)
{
	struct open_how how = {
	    .flags = (uint64_t)(flags | O_CLOEXEC),
	    .resolve =
		RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	return sbx_openat2(dirfd, path, &how);
}

/*
 * Creates the parents of path below rootfd (mode 0755) and returns an
 * O_PATH descriptor of the parent directory; *leaf points at the last
 * component in buf.  Each component is opened with openat2 under the root
 * without following symlinks, so a link planted in a writable bind cannot
 * redirect the walk out of the box.
 */
static int walk_parent(int rootfd, const char *path, char *buf, size_t size,
		       const char **leaf)
{
	size_t len = strlen(path);
	int dfd;
	char *s, *slash;

	if (len == 0 || len >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = '\0';
	dfd = fcntl(rootfd, F_DUPFD_CLOEXEC, 0);
	if (dfd < 0)
		return -1;
	s = buf;
	while (*s == '/')
		s++;
	while ((slash = strchr(s, '/')) != NULL) {
		int nfd;
		*slash = '\0';
		if (*s != '\0') {
			if (mkdirat(dfd, s, 0755) < 0 && errno != EEXIST)
				goto fail;
			nfd = open_beneath(dfd, s, O_PATH | O_DIRECTORY);
			if (nfd < 0)
				goto fail;
			close(dfd);
			dfd = nfd;
		}
		s = slash + 1;
		while (*s == '/')
			s++;
	}
	*leaf = *s ? s : ".";
	return dfd;
fail:
	return drop(dfd, -1);
}

/* Returns an O_PATH descriptor of path below rootfd, creating it as a
 * directory (dir = 1) or an empty file (dir = 0) when missing. */
static int make_node(int rootfd, const char *path, int dir, unsigned mode)
{
	char buf[4096];
	const char *leaf;
	int dfd = walk_parent(rootfd, path, buf, sizeof buf, &leaf), fd;

	if (dfd < 0)
		return -1;
	if (dir) {
		if (mkdirat(dfd, leaf, mode) < 0 && errno != EEXIST)
			goto fail;
	} else {
		/* O_NONBLOCK: a FIFO planted where a mount lands must not
		 * hold the set-up (it fails with ENXIO); a socket there
		 * (ENXIO too) is a node a mount covers as any file: the
		 * standard box hides a bound socket, or grants one */
		fd = openat(dfd, leaf,
			    O_WRONLY | O_CREAT | O_NOFOLLOW | O_NONBLOCK |
				O_CLOEXEC,
			    mode);
		if (fd < 0 && errno == ENXIO) {
			struct stat st;
			if (fstatat(dfd, leaf, &st, AT_SYMLINK_NOFOLLOW) < 0 ||
			    !S_ISSOCK(st.st_mode)) {
				errno = ENXIO;
				goto fail;
			}
		} else if (fd < 0 && errno != EISDIR && errno != EROFS &&
			   errno != EACCES)
			goto fail;
		if (fd >= 0)
			close(fd);
	}
	fd = open_beneath(dfd, leaf, O_PATH | (dir ? O_DIRECTORY : 0));
	if (fd < 0)
		goto fail;
	close(dfd);
	return fd;
fail:
	return drop(dfd, -1);
}

/* ---- mounts ---- */

/* Applies attr to the mount tree at fd (recursively); 0 is a no-op. */
static int set_attr(int fd, uint64_t attr, int recursive)
{
	struct mount_attr a = {.attr_set = attr};
	if (!attr)
		return 0;
	return sbx_mount_setattr(
	    fd, "", AT_EMPTY_PATH | (recursive ? AT_RECURSIVE : 0), &a);
}

/* Creates a new filesystem with the options "k=v,k=v"; returns a
 * descriptor of its mount, attached nowhere yet. */
static int new_fs(const char *type, const char *opts, uint64_t attr)
{
	char buf[512];
	int fsfd = sbx_fsopen(type, 1 /* FSOPEN_CLOEXEC */), mfd, r;

	if (fsfd < 0)
		return -1;
	if (opts) {
		size_t n = strlen(opts);
		char *s = buf, *comma;
		if (n >= sizeof buf) {
			close(fsfd);
			errno = E2BIG;
			return -1;
		}
		memcpy(buf, opts, n + 1);
		while (*s) {
			char *eq;
			comma = strchr(s, ',');
			if (comma)
				*comma = '\0';
			eq = strchr(s, '=');
			if (eq)
				*eq = '\0';
			r = sbx_fsconfig(
			    fsfd, eq ? FSCONFIG_SET_STRING : FSCONFIG_SET_FLAG,
			    s, eq ? eq + 1 : NULL, 0);
			if (r < 0)
				goto fail;
			if (!comma)
				break;
			s = comma + 1;
		}
	}
	if (sbx_fsconfig(fsfd, FSCONFIG_CMD_CREATE, NULL, NULL, 0) < 0)
		goto fail;
	mfd = sbx_fsmount(fsfd, FSMOUNT_CLOEXEC, (unsigned)attr);
	if (mfd < 0)
		goto fail;
	close(fsfd);
	return mfd;
fail:
	return drop(fsfd, -1);
}

/* Creates a new filesystem (see new_fs) and attaches it at the O_PATH
 * descriptor target. */
static int mount_fs(const char *type, const char *opts, uint64_t attr,
		    int target)
{
	int mfd = new_fs(type, opts, attr), r;
	if (mfd < 0)
		return -1;
	r = sbx_move_mount(mfd, "", target, "",
			   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
	return drop(mfd, r);
}

/*
 * The box's own procfs for the sysctls and the meters (a new procfs is
 * mountable only while the host's shows fully, so before the tree): made
 * once, and kept until build_tree() attaches it below the tree's
 * scaffolding, which is detached with the host's root in one umount.
 * Closing a mount never attached detaches it alone, and every detach
 * waits for an expedited RCU grace period (docs/kernel-notes.md).
 */
static int box_proc = -1;

static int proc_fs(void)
{
	if (box_proc < 0)
		box_proc = new_fs("proc", NULL,
				  MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				      MOUNT_ATTR_NOEXEC);
	return box_proc;
}

/* Clones the tree at the O_PATH descriptor src (recursively), applies attr
 * to every mount of the clone, then attaches it at target: a read-only bind
 * is read-only in all its submounts, and never writable for an instant. */
static int bind_fd(int src, uint64_t attr, int target)
{
	int t = sbx_open_tree(src, "",
			      OPEN_TREE_CLONE | OPEN_TREE_CLOEXEC |
				  AT_RECURSIVE | AT_EMPTY_PATH),
	    r;
	if (t < 0)
		return -1;
	r = set_attr(t, attr, 1);
	if (r == 0)
		r = sbx_move_mount(t, "", target, "",
				   MOVE_MOUNT_F_EMPTY_PATH |
				       MOVE_MOUNT_T_EMPTY_PATH);
	return drop(t, r);
}

static int is_dir(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * srcfd[]: the sources of the plan's binds (-1: none, or an optional one
 * missing): the supervisor's detached trees for a root caller (whose box
 * never has the caller's ids, see start.c), else opened by
 * open_sources() while the child still has the caller's host ids.
 * A caller's own directory may be closed to the id the box maps to (a root
 * caller's work under /root, mode 0700): it is reached here by descriptor,
 * never by a path walked with the box's id.
 */

/* Opens the source of every bind of the plan below the (private copy of
 * the) host's root, refusing any symlink on the way, and checks that it is
 * the file the supervisor opened when it compiled the plan (mount.c). */
static void open_sources(const struct sbx_plan *p)
{
	int root;
	CHECK(root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), SBX_ST_MOUNT,
	      -1);
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct sbx_mount *m = &p->mounts[i];
		srcfd[i] = -1;
		if (m->op != SBX_OP_BIND || (m->flags & SBX_MOUNT_ABSENT))
			continue;
		srcfd[i] = open_beneath(root, m->src, O_PATH);
		if (srcfd[i] < 0 &&
		    !((m->flags & SBX_MOUNT_OPTIONAL) && errno == ENOENT))
			die(SBX_ST_MOUNT, (int)i);
		if (srcfd[i] >= 0) {
			struct stat st;
			if (fstat(srcfd[i], &st) < 0)
				die(SBX_ST_MOUNT, (int)i);
			/* replaced since the supervisor checked it */
			if (st.st_dev != m->src_dev ||
			    st.st_ino != m->src_ino) {
				errno = ESTALE;
				die(SBX_ST_MOUNT, (int)i);
			}
		}
	}
	close(root);
}

/* Attaches the supervisor's detached tree (its flags already set) at dst
 * below rootfd; closes the tree. */
static int attach_tree(int tree, int rootfd, const char *dst)
{
	int t = make_node(rootfd, dst, is_dir(tree), 0755), r;
	if (t < 0)
		return drop(tree, -1);
	r = sbx_move_mount(tree, "", t, "",
			   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
	drop(tree, 0);
	return drop(t, r);
}

/* Binds the O_PATH descriptor s at dst below rootfd; closes s. */
static int bind_src(int s, int rootfd, const char *dst, uint64_t attr)
{
	int t, r;
	t = make_node(rootfd, dst, is_dir(s), 0755);
	if (t < 0) {
		return drop(s, -1);
	}
	r = bind_fd(s, attr, t);
	drop(s, 0);
	return drop(t, r);
}

/* Binds the host path src (resolved under the host root hostfd without
 * following symlinks) at dst below rootfd. */
static int bind_host(int hostfd, int rootfd, const char *src, const char *dst,
		     uint64_t attr, int optional)
{
	int s = open_beneath(hostfd, src, O_PATH);
	if (s < 0)
		return optional && errno == ENOENT ? 0 : -1;
	return bind_src(s, rootfd, dst, attr);
}

static int write_file(int rootfd, const struct sbx_mount *m)
{
	char buf[4096];
	const char *leaf;
	int dfd = walk_parent(rootfd, m->dst, buf, sizeof buf, &leaf), fd, r;

	if (dfd < 0)
		return -1;
	fd = drop(dfd,
		  openat(dfd, leaf,
			 O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
			 m->mode));
	if (fd < 0)
		return -1;
	r = sbx_write_all(fd, m->data, m->datalen);
	if (r < 0) {
		errno = -r;
		return drop(fd, -1);
	}
	/* fchmod: the mode is exact, whatever the umask */
	if (fchmod(fd, m->mode) < 0)
		return drop(fd, -1);
	return close(fd);
}

static int make_symlink(int rootfd, const struct sbx_mount *m)
{
	char buf[4096];
	const char *leaf;
	int dfd = walk_parent(rootfd, m->dst, buf, sizeof buf, &leaf), r;
	if (dfd < 0)
		return -1;
	r = symlinkat(m->src, dfd, leaf);
	return drop(dfd, r);
}

/* tty opens the opener's controlling terminal: in the box, the box's own
 * pty or none (ENXIO), never the host's (the command leads a session of
 * its own, and no host terminal reaches the box) */
static const char *const dev_nodes[] = {"null",	   "zero", "full", "random",
					"urandom", "tty",  NULL};
static const char *const dev_links[][2] = {
    {"fd", "/proc/self/fd"},	   {"stdin", "/proc/self/fd/0"},
    {"stdout", "/proc/self/fd/1"}, {"stderr", "/proc/self/fd/2"},
    {"core", "/proc/kcore"},	   {NULL, NULL}};

/*
 * The box's terminal at /dev/console, where programs find it by name (tty,
 * ttyname() scan /dev for its inode): a pty of the host's devpts, whose
 * /dev/pts the box does not see.  Its slave is stdin (fd 0) by now; the
 * node bound is the host's node of that same inode (checked), read-only
 * (the box cannot change its mode or times; reads and writes still reach
 * the terminal, which the box holds anyway).
 */
static int bind_console(int hostfd, int dfd)
{
	char src[32];
	struct stat st, hs;
	int s;
	if (fstat(0, &st) < 0)
		return -1;
	if (!S_ISCHR(st.st_mode) || major(st.st_rdev) < 136 ||
	    major(st.st_rdev) > 143) {
		errno = ENOTTY;
		return -1;
	}
	snprintf(src, sizeof src, "/dev/pts/%u",
		 (major(st.st_rdev) - 136) * 256 + minor(st.st_rdev));
	s = open_beneath(hostfd, src, O_PATH);
	if (s < 0)
		return -1;
	if (fstat(s, &hs) < 0 || hs.st_dev != st.st_dev ||
	    hs.st_ino != st.st_ino) {
		close(s);
		errno = ENXIO;
		return -1;
	}
	return bind_src(s, dfd, "console",
			MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
			    MOUNT_ATTR_NOEXEC);
}

/*
 * A minimal /dev: a small tmpfs with the five harmless character devices
 * bound from the host, the fd links, shm as a capped tmpfs, and pts as a
 * devpts instance of the box's own (/dev/ptmx its ptmx).
 *
 * Trust boundary: each node is the host's own inode.  Bound writable, the
 * box could change it for the whole host (utimensat(NULL) on /dev/null
 * needs only write permission, and moved the host's timestamps); bound
 * read-only, every change of the inode fails with EROFS, while reads and
 * writes still reach the driver (the kernel asks a mount for write access
 * only for regular files, directories and links, never for a device).
 */
static int make_dev(int hostfd, int rootfd, const struct sbx_mount *m, int ctty)
{
	char path[4096];
	size_t n = strlen(m->dst);
	int t = make_node(rootfd, m->dst, 1, 0755), dfd, r;

	if (t < 0)
		return -1;
	r = mount_fs("tmpfs", "mode=0755,size=65536,nr_inodes=64",
		     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, t);
	close(t);
	if (r < 0 || n + 16 > sizeof path)
		return -1;
	dfd = open_beneath(rootfd, m->dst, O_PATH | O_DIRECTORY);
	if (dfd < 0)
		return -1;
	for (int i = 0; dev_nodes[i]; i++) {
		char src[32] = "/dev/";
		strcat(src, dev_nodes[i]);
		if (bind_host(hostfd, dfd, src, dev_nodes[i],
			      MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				  MOUNT_ATTR_NOEXEC,
			      0) < 0)
			goto fail;
	}
	for (int i = 0; dev_links[i][0]; i++) {
		if (i == 4)
			break; /* no /dev/core: it would name /proc/kcore */
		if (symlinkat(dev_links[i][1], dfd, dev_links[i][0]) < 0)
			goto fail;
	}
	if (mkdirat(dfd, "shm", 01777) < 0 || mkdirat(dfd, "pts", 0755) < 0)
		goto fail;
	/* a devpts instance of the box's own: its ptys are numbered apart
	 * from the host's, which it never sees; /dev/ptmx opens its ptmx.
	 * At most 32 ptys: a box cannot use up the kernel's ptys shared by
	 * every other instance (kernel.pty.max less the host's reserve) */
	t = open_beneath(dfd, "pts", O_PATH | O_DIRECTORY);
	if (t < 0)
		goto fail;
	r = mount_fs("devpts", "newinstance,ptmxmode=0666,mode=0620,max=32",
		     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, t);
	close(t);
	if (r < 0 || symlinkat("pts/ptmx", dfd, "ptmx") < 0)
		goto fail;
	if (ctty && bind_console(hostfd, dfd) < 0)
		goto fail;
	t = open_beneath(dfd, "shm", O_PATH | O_DIRECTORY);
	if (t < 0)
		goto fail;
	r = mount_fs("tmpfs", m->data,
		     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
		     t);
	close(t);
	if (r < 0)
		goto fail;
	close(dfd);
	return 0;
fail:
	return drop(dfd, -1);
}

/* Binds a path of the box onto itself and applies attr (e.g. /proc/sys
 * read-only). */
static int remount(int rootfd, const struct sbx_mount *m)
{
	int fd = open_beneath(rootfd, m->dst, O_PATH), r;
	if (fd < 0)
		return (m->flags & SBX_MOUNT_OPTIONAL) && errno == ENOENT ? 0
									  : -1;
	r = bind_fd(fd, m->attr, fd);
	return drop(fd, r);
}

/* Covers a path of the box: a directory with an empty read-only tmpfs, a
 * file with the host's /dev/null, read-only. */
static int hide(int hostfd, int rootfd, const struct sbx_mount *m)
{
	int fd = open_beneath(rootfd, m->dst, O_PATH), r;
	if (fd < 0)
		return (m->flags & SBX_MOUNT_OPTIONAL) && errno == ENOENT ? 0
									  : -1;
	if (is_dir(fd)) {
		r = mount_fs("tmpfs", "size=4096,nr_inodes=1,mode=0555",
			     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				 MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
			     fd);
	} else {
		int s = open_beneath(hostfd, "/dev/null", O_PATH);
		r = s < 0 ? -1
			  : bind_fd(s,
				    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					MOUNT_ATTR_NOEXEC,
				    fd);
		drop(s, 0);
	}
	return drop(fd, r);
}

static int do_mount(const struct sbx_plan *p, int hostfd, int rootfd,
		    const struct sbx_mount *m)
{
	int t, r;
	switch (m->op) {
	case SBX_OP_TMPFS:
	case SBX_OP_PROC:
		t = make_node(rootfd, m->dst, 1, 0755);
		if (t < 0)
			return -1;
		/* a tmpfs stays writable until the whole tree is built; its
		 * read-only flag is applied at the end of build_tree() */
		r = mount_fs(m->op == SBX_OP_PROC ? "proc" : "tmpfs", m->data,
			     m->attr & ~(uint64_t)MOUNT_ATTR_RDONLY, t);
		return drop(t, r);
	case SBX_OP_BIND:
		if (srcfd[m - p->mounts] < 0)
			return 0; /* optional, missing */
		r = p->trees ? attach_tree(srcfd[m - p->mounts], rootfd, m->dst)
			     : bind_src(srcfd[m - p->mounts], rootfd, m->dst,
					m->attr);
		srcfd[m - p->mounts] = -1;
		return r;
	case SBX_OP_DEV:
		return make_dev(hostfd, rootfd, m, p->ctty);
	case SBX_OP_MKDIR:
		t = make_node(rootfd, m->dst, 1, m->mode);
		if (t < 0)
			return -1;
		close(t);
		return 0;
	case SBX_OP_SYMLINK:
		return make_symlink(rootfd, m);
	case SBX_OP_FILE:
		return write_file(rootfd, m);
	case SBX_OP_REMOUNT:
		return remount(rootfd, m);
	case SBX_OP_HIDE:
		return hide(hostfd, rootfd, m);
	default:
		errno = EINVAL;
		return -1;
	}
}

/*
 * Builds the box's tree.  A small tmpfs is mounted over BASE of the private
 * copy of the host's tree and pivoted to, with the host's root below it at
 * /oldroot, the box's root tmpfs at /newroot and the procfs of the sysctls
 * and meters (if any) at /procfs; mounts are made from /oldroot into
 * /newroot by descriptor; then /newroot becomes / and the scaffolding
 * leaves with all below it (the host's root, that procfs) in one detach.
 */
static void build_tree(const struct sbx_plan *p)
{
	int base, hostfd, rootfd;

	sbx_stamp(SBX_T_TREE0);
	/* nothing done here may propagate back to the host */
	CHECK(mount(NULL, "/", NULL, MS_REC | MS_PRIVATE, NULL), SBX_ST_MOUNT,
	      -1);
	CHECK(base = open(BASE, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC),
	      SBX_ST_MOUNT, -1);
	CHECK(mount_fs("tmpfs", "mode=0700,size=65536,nr_inodes=16",
		       MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, base),
	      SBX_ST_MOUNT, -1);
	close(base);
	CHECK(chdir(BASE), SBX_ST_MOUNT, -1);
	CHECK(mkdir("newroot", 0755), SBX_ST_MOUNT, -1);
	CHECK(mkdir("oldroot", 0755), SBX_ST_MOUNT, -1);
	CHECK(base = open("newroot", O_PATH | O_DIRECTORY | O_CLOEXEC),
	      SBX_ST_MOUNT, -1);
	CHECK(mount_fs("tmpfs", p->root_opts,
		       MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV, base),
	      SBX_ST_MOUNT, -1);
	close(base);
	if (box_proc >= 0) {
		CHECK(mkdir("procfs", 0700), SBX_ST_MOUNT, -1);
		CHECK(sbx_move_mount(box_proc, "", AT_FDCWD, "procfs",
				     MOVE_MOUNT_F_EMPTY_PATH),
		      SBX_ST_MOUNT, -1);
		close(box_proc);
		box_proc = -1;
	}
	CHECK(sbx_pivot_root(".", "oldroot"), SBX_ST_PIVOT, -1);
	CHECK(chdir("/"), SBX_ST_PIVOT, -1);
	CHECK(hostfd = open("/oldroot", O_PATH | O_DIRECTORY | O_CLOEXEC),
	      SBX_ST_PIVOT, -1);
	CHECK(rootfd = open("/newroot", O_PATH | O_DIRECTORY | O_CLOEXEC),
	      SBX_ST_PIVOT, -1);

	for (size_t i = 0; i < p->nmounts; i++) {
		int proc = p->mounts[i].op == SBX_OP_PROC;
		if (proc)
			sbx_stamp(SBX_T_PROC0);
		CHECK(do_mount(p, hostfd, rootfd, &p->mounts[i]), SBX_ST_MOUNT,
		      (int)i);
		if (proc)
			sbx_stamp(SBX_T_PROC1);
	}

	/* the box's root becomes /, with the scaffolding stacked on it; then
	 * the scaffolding leaves the box's mount namespace for good, and
	 * with it the host's root and the procfs below it (one detach, one
	 * RCU grace period) */
	close(hostfd);
	CHECK(fchdir(rootfd), SBX_ST_PIVOT, -1);
	CHECK(sbx_pivot_root(".", "."), SBX_ST_PIVOT, -1);
	CHECK(umount2(".", MNT_DETACH), SBX_ST_PIVOT, -1);
	CHECK(chdir("/"), SBX_ST_PIVOT, -1);
	close(rootfd);

	/* read-only flags of tmpfs mounts, now that nothing more is made in
	 * them; then the root itself */
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct sbx_mount *m = &p->mounts[i];
		int fd;
		if (!(m->op == SBX_OP_TMPFS || m->op == SBX_OP_PROC ||
		      m->op == SBX_OP_DEV) ||
		    !(m->attr & MOUNT_ATTR_RDONLY))
			continue;
		CHECK(fd = open_beneath(AT_FDCWD, m->dst, O_PATH), SBX_ST_MOUNT,
		      (int)i);
		CHECK(set_attr(fd, MOUNT_ATTR_RDONLY, 0), SBX_ST_MOUNT, (int)i);
		close(fd);
	}
	if (p->ro_root) {
		int fd;
		CHECK(fd = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC),
		      SBX_ST_REMOUNT_ROOT, -1);
		CHECK(set_attr(fd, MOUNT_ATTR_RDONLY, 0), SBX_ST_REMOUNT_ROOT,
		      -1);
		close(fd);
	}
	sbx_stamp(SBX_T_TREE1);
}

/*
 * Writes the plan's sysctls, all of the box's own user namespace
 * (/proc/sys/user/..., checked when the plan was made), e.g. its inotify
 * limits: the kernel counts those per user namespace and again in every
 * parent, so a box held to a few instances cannot exhaust the host id's.
 *
 * Trust boundary: the procfs is a new one of the box's pid namespace,
 * attached nowhere, and each file is opened beneath it without following
 * any link; the value is the box's because /proc/sys/user is looked up in
 * the writer's user namespace, and the write succeeds because init holds
 * CAP_SYS_RESOURCE there.  It runs before the tree is built: the kernel
 * mounts a new procfs in a user namespace only where the mount namespace
 * already shows one fully (the host's, still here).  On failure *index is
 * the sysctl that failed.
 */
static int set_sysctls(const struct sbx_plan *p, int *index)
{
	int proc, fd, r = 0;

	*index = -1;
	proc = proc_fs();
	if (proc < 0)
		return -1;
	for (size_t i = 0; i < p->nsysctls && r == 0; i++) {
		const struct sbx_sysctl *c = &p->sysctls[i];
		struct open_how how = {
		    .flags = O_WRONLY | O_CLOEXEC | O_NOCTTY,
		    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
			       RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
		};

		*index = (int)i;
		fd = sbx_openat2(proc, c->path, &how);
		if (fd < 0) {
			r = -1;
			break;
		}
		r = sbx_write_once(fd, c->value, strlen(c->value));
		if (r < 0)
			errno = -r;
		r = drop(fd, r < 0 ? -1 : 0);
	}
	if (r == 0)
		*index = -1;
	return r;
}

/*
 * The meters of the box's kernel memory (kmem.h), opened inside its own
 * namespaces for the supervisor: open_meters() before the tree is built
 * (a new procfs is mountable only while the host's shows fully, as for
 * set_sysctls), send_meters() after it, when the tmpfs mounts exist.
 * Each is opened only where the box has the namespace: with the host's
 * network namespace a dump would list the host's sockets.
 */
static int meter_diag = -1, meter_protocols = -1,
	   meter_ipc[SBX_KMEM_NIPC] = {-1, -1, -1};

static int open_meters(const struct sbx_plan *p)
{
	static const char *const name[SBX_KMEM_NIPC] = {
	    [SBX_KMEM_SHM] = "sysvipc/shm",
	    [SBX_KMEM_MSG] = "sysvipc/msg",
	    [SBX_KMEM_SEM] = "sysvipc/sem"};
	const uint64_t need = CLONE_NEWPID | CLONE_NEWNS | CLONE_NEWUSER;
	struct open_how how = {
	    .flags = O_RDONLY | O_CLOEXEC | O_NOCTTY,
	    .resolve = RESOLVE_BENEATH | RESOLVE_NO_SYMLINKS |
		       RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	int proc;

	/* a procfs of the box's pid namespace (in which init is 1) */
	if ((p->nsflags & need) != need)
		return 0;
	proc = proc_fs();
	if (proc < 0)
		return -1;
	if (p->nsflags & CLONE_NEWNET) {
		meter_diag = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
				    NETLINK_SOCK_DIAG);
		if (meter_diag < 0)
			return -1;
		meter_protocols = sbx_openat2(proc, "1/net/protocols", &how);
		if (meter_protocols < 0)
			return -1;
	}
	for (int i = 0; i < SBX_KMEM_NIPC && (p->nsflags & CLONE_NEWIPC); i++) {
		meter_ipc[i] = sbx_openat2(proc, name[i], &how);
		if (meter_ipc[i] < 0)
			return -1;
	}
	return 0;
}

/* Sends the meters and every writable tmpfs of the tree (at most
 * SBX_KMEM_TMPFS) in one SBX_MSG_METERS; init keeps none of them. */
static int send_meters(const struct sbx_plan *p)
{
	int fd[SBX_KMEM_FDS], n = 0, r = 0, which = 0;
	struct sbx_msg m = {SBX_MSG_METERS, 0, 0, 0, 0};

	if (meter_diag >= 0) {
		fd[n++] = meter_diag;
		fd[n++] = meter_protocols;
		which |= SBX_KMEM_SOCKETS;
	}
	if (meter_ipc[0] >= 0) {
		for (int i = 0; i < SBX_KMEM_NIPC; i++) {
			fd[n++] = meter_ipc[i];
			meter_ipc[i] = -1;
		}
		which |= SBX_KMEM_IPC;
	}
	meter_diag = meter_protocols = -1;
	for (size_t i = 0; i < p->nmounts && r == 0; i++) {
		const struct sbx_mount *mt = &p->mounts[i];
		char path[4096];
		size_t len = strlen(mt->dst);
		/* a read-only /dev still has a writable /dev/shm */
		if (n == SBX_KMEM_FDS || len + 5 > sizeof path ||
		    (mt->op != SBX_OP_TMPFS && mt->op != SBX_OP_DEV) ||
		    (mt->op == SBX_OP_TMPFS && (mt->attr & MOUNT_ATTR_RDONLY)))
			continue;
		memcpy(path, mt->dst, len + 1);
		if (mt->op == SBX_OP_DEV) /* its writable tmpfs: /dev/shm */
			memcpy(path + len, "/shm", 5);
		fd[n] = open_beneath(AT_FDCWD, path, O_PATH | O_DIRECTORY);
		if (fd[n] < 0)
			r = -1;
		else
			n++;
	}
	m.index = which;
	if (r == 0) {
		r = sbx_send_fds(CTL, &m, sizeof m, fd, (size_t)n);
		if (r < 0) {
			errno = -r;
			r = -1;
		}
	}
	for (int i = 0; i < n; i++)
		drop(fd[i], 0);
	return r;
}

/* Sends an O_PATH descriptor of each written place of the plan (capture.c)
 * in one SBX_MSG_PLACES, index the mask of those opened; init keeps none.
 * Held by the supervisor, each keeps its mount, detached, once the box's
 * mount namespace is gone, so the places can be walked after the box has
 * ended however it ended.  A place that cannot be opened is left out; the
 * box runs without the record if the message cannot be sent. */
static void send_places(const struct sbx_plan *p)
{
	int fd[SBX_PLACES_MAX], n = 0;
	unsigned mask = 0;
	struct sbx_msg m = {SBX_MSG_PLACES, 0, 0, 0, 0};

	for (size_t i = 0; i < p->nplaces && i < SBX_PLACES_MAX; i++) {
		fd[n] =
		    open_beneath(AT_FDCWD, p->places[i], O_PATH | O_DIRECTORY);
		if (fd[n] >= 0) {
			mask |= 1u << i;
			n++;
		}
	}
	m.index = (int)mask;
	(void)sbx_send_fds(CTL, &m, sizeof m, fd, (size_t)n);
	for (int i = 0; i < n; i++)
		drop(fd[i], 0);
}

static int lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;
	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	memcpy(ifr.ifr_name, "lo", 3);
	r = ioctl(s, SIOCGIFFLAGS, &ifr);
	if (r == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		r = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
	return r;
}

/*
 * The network sink (sink.h): `ip route add local 0.0.0.0/0 dev lo` in the
 * box's own network namespace (every IPv4 address is the box's, so
 * nothing is routed anywhere), then one listener per port and protocol,
 * bound to 0.0.0.0 while init holds the namespace's capabilities (ports
 * below 1024), sent to the supervisor; init keeps none of them.
 */
static int local_route(void)
{
	struct {
		struct nlmsghdr h;
		struct rtmsg r;
		struct rtattr a;
		int oif;
	} req;
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} ack;
	struct ifreq ifr;
	struct sockaddr_nl k = {.nl_family = AF_NETLINK};
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	ssize_t n;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(s, SIOCGIFINDEX, &ifr) < 0)
		return drop(s, -1);
	memset(&req, 0, sizeof req);
	req.h.nlmsg_len = sizeof req;
	req.h.nlmsg_type = RTM_NEWROUTE;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE;
	req.h.nlmsg_seq = 1;
	req.r.rtm_family = AF_INET;
	req.r.rtm_table = RT_TABLE_LOCAL;
	req.r.rtm_protocol = RTPROT_BOOT;
	req.r.rtm_scope = RT_SCOPE_HOST;
	req.r.rtm_type = RTN_LOCAL;
	req.a.rta_len = RTA_LENGTH(sizeof(int));
	req.a.rta_type = RTA_OIF;
	req.oif = ifr.ifr_ifindex;
	if (sendto(s, &req, sizeof req, 0, (struct sockaddr *)&k, sizeof k) !=
	    (ssize_t)sizeof req)
		return drop(s, -1);
	do
		n = recv(s, &ack, sizeof ack, 0);
	while (n < 0 && errno == EINTR);
	if (n < (ssize_t)sizeof ack || ack.h.nlmsg_type != NLMSG_ERROR) {
		errno = n < 0 ? errno : EPROTO;
		return drop(s, -1);
	}
	if (ack.e.error != 0) {
		errno = -ack.e.error;
		return drop(s, -1);
	}
	return drop(s, 0);
}

static int listener(int type, int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port)};
	int one = 1,
	    s = socket(AF_INET, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return -1;
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    (type == SOCK_DGRAM &&
	     setsockopt(s, IPPROTO_IP, IP_PKTINFO, &one, sizeof one) < 0) ||
	    bind(s, (struct sockaddr *)&a, sizeof a) < 0 ||
	    (type == SOCK_STREAM && listen(s, 16) < 0))
		return drop(s, -1);
	return s;
}

static int start_sink(const struct sbx_sink_plan *sp)
{
	int fd[SBX_SINK_FDS], n = 0, r = 0;
	struct sbx_msg m = {SBX_MSG_SINK, 0, 0, 0, 0};

	if (local_route() < 0)
		return -1;
	fd[n] = listener(SOCK_DGRAM, 53); /* the resolver */
	r = fd[n] < 0 ? -1 : (n++, 0);
	for (int i = 0; i < sp->nports && r == 0; i++) {
		fd[n] = listener(SOCK_STREAM, sp->ports[i]);
		r = fd[n] < 0 ? -1 : (n++, 0);
		if (r == 0 && sp->ports[i] != 53) {
			fd[n] = listener(SOCK_DGRAM, sp->ports[i]);
			r = fd[n] < 0 ? -1 : (n++, 0);
		}
	}
	if (r == 0) {
		r = sbx_send_fds(CTL, &m, sizeof m, fd, (size_t)n);
		if (r < 0) {
			errno = -r;
			r = -1;
		}
	}
	for (int i = 0; i < n; i++)
		drop(fd[i], 0);
	return r;
}

/* Empties all five capability sets: bounding and ambient by prctl, then
 * effective, permitted and inheritable by capset. */
static int drop_caps(int last_cap, int bounding)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2];

	if (bounding)
		for (int c = 0; c <= last_cap; c++)
			if (prctl(PR_CAPBSET_DROP, c, 0, 0, 0) < 0 &&
			    errno != EINVAL)
				return -1;
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 &&
	    errno != EINVAL)
		return -1;
	memset(d, 0, sizeof d);
	return (int)syscall(SYS_capset, &h, d);
}

static void reset_signals(void)
{
	struct sigaction sa;
	sigset_t none;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = SIG_DFL;
	for (int s = 1; s < NSIG; s++)
		if (s != SIGKILL && s != SIGSTOP)
			sigaction(s, &sa, NULL); /* EINVAL for 32, 33: fine */
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static int apply_landlock(const struct sbx_landlock *ll)
{
	struct sbx_landlock_ruleset_attr ra = {ll->handled_fs, ll->handled_net,
					       ll->scoped};
	size_t rsize = ll->abi >= 6   ? sizeof ra
		       : ll->abi >= 4 ? 2 * sizeof(uint64_t)
				      : sizeof(uint64_t);
	int fd = sbx_landlock_create_ruleset(&ra, rsize, 0), e;

	if (fd < 0)
		return -1;
	for (size_t i = 0; i < ll->nrules; i++) {
		struct landlock_path_beneath_attr pb;
		int pfd = open(ll->rules[i].path, O_PATH | O_CLOEXEC);
		if (pfd < 0) {
			if (ll->rules[i].optional && errno == ENOENT)
				continue;
			goto fail;
		}
		pb.allowed_access = ll->rules[i].access;
		pb.parent_fd = pfd;
		if (!is_dir(pfd))
			pb.allowed_access &= LANDLOCK_ACCESS_FS_EXECUTE |
					     LANDLOCK_ACCESS_FS_WRITE_FILE |
					     LANDLOCK_ACCESS_FS_READ_FILE |
					     LANDLOCK_ACCESS_FS_TRUNCATE |
					     LANDLOCK_ACCESS_FS_IOCTL_DEV;
		e = sbx_landlock_add_rule(fd, LANDLOCK_RULE_PATH_BENEATH, &pb,
					  0);
		close(pfd);
		if (e < 0)
			goto fail;
	}
	for (size_t i = 0; i < ll->nports; i++) {
		struct sbx_landlock_net_port_attr np = {ll->ports[i].access,
							ll->ports[i].port};
		if (sbx_landlock_add_rule(fd, LANDLOCK_RULE_NET_PORT, &np, 0) <
		    0)
			goto fail;
	}
	if (sbx_landlock_restrict_self(fd, 0) < 0)
		goto fail;
	close(fd);
	return 0;
fail:
	return drop(fd, -1);
}

/* Appends the contents of path to buf (at most room bytes, and a NUL
 * that the next text overwrites); returns the count.  A file that cannot be
 * read adds nothing. */
static size_t slurp(const char *path, char *buf, size_t room)
{
	ssize_t n = sbx_read_at(AT_FDCWD, path, 0, buf, room + 1);
	return n < 0 ? 0 : (size_t)n;
}

/*
 * The box's own view of the command's process just before the filter:
 * /proc/self/status, /proc/self/mountinfo and the namespace links, as one
 * datagram of NUL-separated texts, with two descriptors attached: the read
 * end of a close-on-exec pipe whose write end only this process holds (it
 * reaches EOF when the execve has happened, or the process is gone) and a
 * pidfd of this process.  The supervisor reads the command's status again
 * from outside once the execve has happened (control.c sbx_probe_exec): the
 * seccomp filter, no_new_privs and the capabilities are verified there, on
 * the program's own process.  Mounts and namespaces are taken here: neither
 * the filter nor execve changes them.  A failure here only leaves claims
 * unconfirmed (reported failed, never verified).
 *
 * Trust boundary: this runs before the filter on purpose.  A profile may
 * refuse or trap any call (openat, read, readlink, sendmsg, close, write);
 * after the filter, nothing of sbxlua runs but execve.
 */
static void send_probe(void)
{
	static const char *const ns[] = {"user", "mnt", "pid",	  "ipc",
					 "uts",	 "net", "cgroup", NULL};
	static char buf[SBX_PROBE_MAX];
	struct sbx_msg h = {SBX_MSG_PROBE, 0, 0, -1, 0};
	size_t n = sizeof h, room, nfds = 0;
	int ex[2] = {-1, -1}, fds[2];

	memcpy(buf, &h, sizeof h);
	room = sizeof buf - n - 1;
	n += slurp("/proc/self/status", buf + n, room / 4);
	buf[n++] = '\0';
	n += slurp("/proc/self/mountinfo", buf + n, sizeof buf - n - 512);
	buf[n++] = '\0';
	for (int i = 0; ns[i]; i++) {
		char path[32] = "/proc/self/ns/";
		ssize_t r;
		size_t l = strlen(ns[i]);
		strcat(path, ns[i]);
		if (n + l + 64 > sizeof buf)
			break;
		r = readlink(path, buf + n, 48);
		if (r > 0) {
			n += (size_t)r;
			buf[n++] = '\n';
		}
	}
	/* getpid() is this process's number in the box's pid namespace,
	 * where pidfd_open looks it up */
	fds[1] = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (fds[1] >= 0 && pipe2(ex, O_CLOEXEC) == 0) {
		fds[0] = ex[0];
		nfds = 2;
	}
	(void)sbx_send_fds(CTL, buf, n, fds, nfds);
	/* ex[1] stays open until the execve closes it */
	drop(ex[0], 0);
	drop(fds[1], 0);
}

/*
 * The explain channel (notify.c): the filter is loaded with a new listener,
 * which the kernel puts at the lowest free descriptor (close-on-exec).
 * Nothing of sbxlua may run after the filter, so that number is said
 * before: this process takes no descriptor between here and the seccomp
 * call, and the supervisor takes the listener from that slot with
 * pidfd_getfd (through the pidfd attached) once it is filled.  The execve
 * that follows is notified (spec.c gate_filter), so the program starts only
 * when the supervisor holds the listener and answers.
 */
static void announce_listener(void)
{
	struct sbx_msg h = {SBX_MSG_LISTENER, 0, 0, -1, 0};
	int pidfd, r;

	/* the pidfd takes the lowest free slot; closed after the message,
	 * that slot is the lowest free one again: the listener's */
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		die(SBX_ST_LISTENER, -1);
	h.index = pidfd;
	r = sbx_send_fds(CTL, &h, sizeof h, &pidfd, 1);
	if (r < 0) {
		errno = -r;
		die(SBX_ST_LISTENER, -1);
	}
	close(pidfd);
}

/* The box's resource limits, in init and again in the command's process. */
static void set_rlimits(const struct sbx_plan *p)
{
	for (size_t i = 0; i < p->nrlimits; i++)
		CHECK(setrlimit((__rlimit_resource_t)p->rlimits[i].resource,
				&p->rlimits[i].lim),
		      SBX_ST_RLIMIT, (int)i);
}

/* The command's process: pid 2 of the box. */
static _Noreturn void step(const struct sbx_plan *p)
{
	struct sbx_msg failed = {SBX_MSG_CANNOT, SBX_ST_EXEC, 0, -1, 0};

	sbx_stamp(SBX_T_STEP);
	reset_signals();
	if (p->new_session)
		CHECK(setsid(), SBX_ST_SETSID, -1);
	/* the box's own pseudo-terminal, never the caller's terminal */
	if (p->ctty)
		CHECK(ioctl(0, TIOCSCTTY, 0), SBX_ST_STDIO, -1);
	CHECK(chdir(p->cwd ? p->cwd : "/"), SBX_ST_CWD, -1);
	set_rlimits(p);
	if (p->drop_caps) {
		/* securebits back to 0 while CAP_SETPCAP is still held */
		if (p->nsflags & CLONE_NEWUSER)
			CHECK(prctl(PR_SET_SECUREBITS, 0, 0, 0, 0), SBX_ST_CAPS,
			      -1);
		CHECK(drop_caps(p->last_cap, 1), SBX_ST_CAPS, -1);
	}
	if (p->no_new_privs)
		CHECK(prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0),
		      SBX_ST_NO_NEW_PRIVS, -1);
	/* Landlock after no_new_privs (it requires it without CAP_SYS_ADMIN),
	 * seccomp last: the filter may refuse what the steps above use */
	sbx_stamp(SBX_T_LANDLOCK0);
	if (p->landlock.abi > 0)
		CHECK(apply_landlock(&p->landlock), SBX_ST_LANDLOCK, -1);
	sbx_stamp(SBX_T_LANDLOCK1);
	if (p->probe)
		send_probe();
	sbx_stamp(SBX_T_PROBE1);
	/* until now this process was a copy of the supervisor (its pages
	 * shared copy-on-write): the supervisor counts the box's memory from
	 * here on, where only the filter and execve are left */
	send_msg(SBX_MSG_EXEC, 0, 0, -1, 0);
	/*
	 * Trust boundary: the filter governs the program, not sbxlua.  From
	 * the seccomp call on, this process makes no system call but execve
	 * and, if execve fails, one write of its errno on the control socket
	 * (prepared before) and the exit: a profile that refuses or traps
	 * what the set-up used (sendmsg, readlink, openat, prctl...) cannot
	 * stop or confuse it.  A write the profile refuses loses only the
	 * errno of a failed execve: the report then says "exit 126" (or the
	 * trap's signal) instead of "cannot execute".
	 */
	if (p->filter && p->notify) {
		/*
		 * Trust boundary: pidfd_getfd needs ptrace access to this
		 * process.  It is still init's copy of the supervisor, made
		 * undumpable by init, with the supervisor's memory descriptor
		 * (of the host's user namespace, where an unprivileged
		 * supervisor has no CAP_SYS_PTRACE).  An unprivileged caller's
		 * box runs as the caller's own host uid: dumpable again, this
		 * process is open to that uid only (who owns the supervisor
		 * anyway) until the execve, which sets dumpable afresh.  A
		 * root caller needs none of it (CAP_SYS_PTRACE on the host),
		 * and its box's host id is never made able to read this copy.
		 */
		if (!p->caller_root)
			CHECK(prctl(PR_SET_DUMPABLE, 1, 0, 0, 0),
			      SBX_ST_LISTENER, -1);
		announce_listener();
	}
	if (p->filter)
		CHECK((int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				   p->filter_flags, p->filter),
		      SBX_ST_SECCOMP, -1);
	sbx_stamp(SBX_T_EXECVE);
	execve(p->path, p->argv, p->envp);
	failed.err = errno;
	if (write(CTL, &failed, sizeof failed) < 0) {
		/* nothing more to try under the filter */
	}
	_exit(126);
}

/*
 * Init is a copy of the supervisor: its /proc/1/cmdline would show the
 * host's command line (paths, --env values) to the box.  The argument and
 * environment areas of this copy are private pages: zero them.  Their
 * bounds are fields 48 to 51 of /proc/self/stat (the host's procfs, still
 * mounted here), counted after the ")" that ends the command name.
 */
static void wipe_args(void)
{
	char buf[2048];
	unsigned long v[4] = {0, 0, 0, 0};
	size_t n = slurp("/proc/self/stat", buf, sizeof buf - 1);
	char *c;
	int field = 2;
	buf[n] = '\0';
	c = strrchr(buf, ')');
	if (!c)
		return;
	for (c++; *c && field < 51; c++) {
		if (*c != ' ')
			continue;
		field++;
		if (field >= 48) {
			unsigned long x = 0;
			const char *d = c + 1;
			while (*d >= '0' && *d <= '9')
				x = x * 10 + (unsigned long)(*d++ - '0');
			v[field - 48] = x;
		}
	}
	if (v[0] && v[1] > v[0])
		memset((void *)v[0], 0, v[1] - v[0]);
	if (v[2] && v[3] > v[2])
		memset((void *)v[2], 0, v[3] - v[2]);
}

/* no handler of the supervisor's (Lua's SIGINT hook) stays in init: as
 * pid 1 of its namespace, init then ignores every signal the box can send
 * it */
static void init_begin(const struct sbx_plan *p)
{
	sbx_stamp(SBX_T_CHILD);
	reset_signals();
	setup_fds(p);
	wipe_args();
}

/* the supervisor writes setgroups, uid_map and gid_map, then says go */
static void wait_go(const struct sbx_plan *p)
{
	struct sbx_msg go;
	ssize_t r;

	(void)p;
	do
		r = recv(CTL, &go, sizeof go, 0);
	while (r < 0 && errno == EINTR);
	if (r != (ssize_t)sizeof go || go.type != SBX_MSG_GO) {
		errno = r < 0 ? errno : EPIPE;
		die(SBX_ST_SYNC, -1);
	}
}

/* the network namespace is made here, not by the supervisor's clone
 * (start.c clone_box): its setup is the costliest of the namespaces,
 * and here it runs beside the supervisor, not in it.  Nothing before this
 * point uses the network. */
static void unshare_net(const struct sbx_plan *p)
{
	if (p->nsflags & CLONE_NEWNET)
		CHECK(unshare(CLONE_NEWNET), SBX_ST_NETNS, -1);
	if (p->root_opts && !p->trees)
		open_sources(p);
}

static void take_ids(const struct sbx_plan *p)
{
	if (!(p->nsflags & CLONE_NEWUSER))
		return;
	/* a root caller's supplementary groups (host gid 0) must not follow
	 * it into the box; an unprivileged caller's setgroups is denied
	 * before its gid_map, as the kernel requires */
	if (p->caller_root)
		CHECK((int)syscall(SYS_setgroups, 0, NULL), SBX_ST_SETGROUPS,
		      -1);
	/* keep the namespace's capabilities across the id change */
	CHECK(prctl(PR_SET_SECUREBITS, SECBIT_NO_SETUID_FIXUP, 0, 0, 0),
	      SBX_ST_SETID, -1);
	/* raw calls: glibc's wrappers would signal the threads of the
	 * parent's copy, which do not exist here */
	CHECK((int)syscall(SYS_setresgid, p->gid, p->gid, p->gid), SBX_ST_SETID,
	      -1);
	CHECK((int)syscall(SYS_setresuid, p->uid, p->uid, p->uid), SBX_ST_SETID,
	      -1);
}

/* the box dies with its supervisor (set after the id change, which
 * clears it); a supervisor already gone has closed its end of CTL */
static void tie_to_supervisor(const struct sbx_plan *p)
{
	struct pollfd pf = {CTL, POLLIN, 0};

	(void)p;
	CHECK(prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0), SBX_ST_SYNC, -1);
	sbx_stamp(SBX_T_IDS);
	if (poll(&pf, 1, 0) > 0 && (pf.revents & (POLLHUP | POLLERR)))
		_exit(126);
}

static void set_kernel(const struct sbx_plan *p)
{
	if (p->nsysctls > 0) {
		int index;
		CHECK(set_sysctls(p, &index), SBX_ST_SYSCTL, index);
	}
	if (p->kmem)
		CHECK(open_meters(p), SBX_ST_METERS, -1);
}

static void make_tree(const struct sbx_plan *p)
{
	if (p->root_opts)
		build_tree(p);
	else if (box_proc >= 0)
		close(box_proc); /* detached alone: no tree to leave with */
	box_proc = -1;
}

static void make_net(const struct sbx_plan *p)
{
	if (p->hostname)
		CHECK(sethostname(p->hostname, strlen(p->hostname)),
		      SBX_ST_HOSTNAME, -1);
	if (p->net_lo)
		CHECK(lo_up(), SBX_ST_NET, -1);
	if (p->sink.on)
		CHECK(start_sink(&p->sink), SBX_ST_SINK, -1);
}

/* what the supervisor reads from the box it cannot open itself */
static void send_box(const struct sbx_plan *p)
{
	if (p->kmem)
		CHECK(send_meters(p), SBX_ST_METERS, -1);
	if (p->nplaces > 0 && p->root_opts)
		send_places(p);
}

/* the box's resource limits in init too, before the fork: its own (the
 * supervisor's, the caller's) would otherwise show in /proc/1/limits, and
 * the command inherits these; then init holds nothing of the host, and
 * cannot be read through /proc by the command (runc /proc/self/exe
 * class) */
static void seal_init(const struct sbx_plan *p)
{
	set_rlimits(p);
	CHECK(prctl(PR_SET_DUMPABLE, 0, 0, 0, 0), SBX_ST_DUMPABLE, -1);
}

/* Init's stages, run in this order, which is the trust boundary: ids
 * before PDEATHSIG, limits before the fork, DUMPABLE off before it.  Each
 * is a checked call or few; read top to bottom it is the list to review
 * against the async-signal-safe calls.  A stage that fails dies. */
static void (*const init_stages[])(const struct sbx_plan *) = {
    init_begin, wait_go,   unshare_net, take_ids, tie_to_supervisor,
    set_kernel, make_tree, make_net,	send_box, seal_init,
};

_Noreturn void sbx_child_main(const struct sbx_plan *p)
{
	pid_t cmd;

	for (size_t i = 0; i < sizeof init_stages / sizeof init_stages[0]; i++)
		init_stages[i](p);

	cmd = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (cmd < 0)
		die(SBX_ST_FORK, -1);
	if (cmd == 0)
		step(p);

	/* init: no stdio, no capabilities; reap until the command ends */
	close(0);
	close(1);
	close(2);
	if (p->drop_caps)
		CHECK(drop_caps(p->last_cap, 0), SBX_ST_CAPS, -1);
	sbx_init_reap(p, cmd);
}
