/* SPDX-License-Identifier: MIT */
/*
 * tree.c: the box's tree, built by init on a tmpfs from the plan's mounts
 * and pivoted into: the bind sources' descriptors (lifted above the
 * command's stdio before anything else), paths resolved without following
 * a symlink the box could have planted, new filesystems, binds re-applying
 * their flags to every submount, /dev, files and symlinks written, hidden
 * paths; then the host's root detached and the root made read-only.
 * Runs between clone and execve (child.h): raw system calls and
 * async-signal-safe libc calls only, every failure sent as (stage, errno,
 * index) by sbx_die.
 */
#include "child.h"

#include "compat.h"
#include "fileio.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

/* ---- descriptors ---- */

static int srcfd[4096]; /* see sbx_open_sources() */

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
			sbx_die(SBX_ST_CLOSE_FDS, -1);
	}
}

/* Moves the control socket to 3, the command's stdio to 0..2 and the bind
 * sources' trees to 4 and up, then closes every other descriptor inherited
 * from the supervisor. */
void sbx_setup_fds(const struct sbx_plan *p)
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
			sbx_die(SBX_ST_STDIO, -1);
	for (size_t i = 0; p->trees && i < p->nmounts; i++) {
		if (srcfd[i] < 0)
			continue;
		if (dup3(srcfd[i], keep, O_CLOEXEC) < 0)
			sbx_die(SBX_ST_CLOSE_FDS, -1);
		srcfd[i] = keep++;
	}
	if (sbx_close_range((unsigned)keep, ~0U, 0) < 0)
		sbx_die(SBX_ST_CLOSE_FDS, -1);
}

/* ---- paths: never follow a symlink the box could have planted ---- */

int sbx_open_beneath(int dirfd, const char *path, int flags)
{
	struct open_how how = {
	    .flags = (uint64_t)(flags | O_CLOEXEC),
	    .resolve =
		RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS | RESOLVE_NO_MAGICLINKS,
	};
	return sbx_openat2(dirfd, path, &how);
}

/*
 * The parent directory the last walk reached, for the next entry of the
 * same directory (the synthetic /etc's files, the home's decoys): one
 * dup instead of a mkdirat, an openat2 and a close for each component.
 * Kept only when the walk crossed no mount, so it is a directory of the
 * box's own root tmpfs, which nothing but init can reach or rename; and
 * forgotten at every mount the tree attaches (one over it, or over a
 * directory above it, would hide it) and when the tree is built.
 */
static struct {
	int fd;
	char path[256];
} last_walk = {-1, ""};

static void forget_walk(void)
{
	last_walk.fd = sbx_drop(last_walk.fd, -1);
}

/* Opens the directory s below dfd; *crossed is set when that took
 * crossing a mount. */
static int open_step(int dfd, const char *s, int *crossed)
{
	struct open_how how = {
	    .flags = O_PATH | O_DIRECTORY | O_CLOEXEC,
	    .resolve = RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS |
		       RESOLVE_NO_MAGICLINKS | RESOLVE_NO_XDEV,
	};
	int fd = *crossed ? -1 : sbx_openat2(dfd, s, &how);
	if (fd >= 0 || (!*crossed && errno != EXDEV))
		return fd;
	*crossed = 1;
	return sbx_open_beneath(dfd, s, O_PATH | O_DIRECTORY);
}

/*
 * Creates the parents of path below rootfd (mode 0755) and returns an
 * O_PATH descriptor of the parent directory, to give back with
 * drop_parent; *leaf points at the last component in buf.  Each component
 * is opened with openat2 under the root without following symlinks, so a
 * link planted in a writable bind cannot redirect the walk out of the box.
 * The descriptor is lent, not duplicated, when it is rootfd itself or the
 * walk's kept one (last_walk, which owns it): a dup and a close an entry
 * fewer.  Nothing forgets the walk while an entry holds its parent.
 */
static int walk_parent(int rootfd, const char *path, char *buf, size_t size,
		       const char **leaf)
{
	size_t len = strlen(path);
	int dfd, crossed = 0;
	char *s, *slash, *start, *end;
	size_t n;

	if (len == 0 || len >= size) {
		errno = ENAMETOOLONG;
		return -1;
	}
	memcpy(buf, path, len + 1);
	while (len > 1 && buf[len - 1] == '/')
		buf[--len] = '\0';
	start = buf;
	while (*start == '/')
		start++;
	end = strrchr(start, '/');
	n = end ? (size_t)(end - start) : 0;
	if (end && last_walk.fd >= 0 && n == strlen(last_walk.path) &&
	    memcmp(start, last_walk.path, n) == 0) {
		*leaf = end[1] ? end + 1 : ".";
		return last_walk.fd;
	}
	s = start;
	dfd = rootfd;
	while ((slash = strchr(s, '/')) != NULL) {
		int nfd;
		*slash = '\0';
		if (*s != '\0') {
			if (mkdirat(dfd, s, 0755) < 0 && errno != EEXIST)
				goto fail;
			nfd = open_step(dfd, s, &crossed);
			if (nfd < 0)
				goto fail;
			if (dfd != rootfd)
				close(dfd);
			dfd = nfd;
		}
		*slash = '/';
		s = slash + 1;
		while (*s == '/')
			s++;
	}
	*leaf = *s ? s : ".";
	if (end && !crossed && n < sizeof last_walk.path && dfd != rootfd) {
		forget_walk();
		last_walk.fd = dfd;
		memcpy(last_walk.path, start, n);
		last_walk.path[n] = '\0';
	}
	return dfd;
fail:
	return dfd == rootfd ? -1 : sbx_drop(dfd, -1);
}

/* Gives back walk_parent's descriptor (closed unless lent) and returns r,
 * errno kept. */
static int drop_parent(int rootfd, int dfd, int r)
{
	if (dfd == rootfd || dfd == last_walk.fd)
		return r;
	return sbx_drop(dfd, r);
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
	fd = sbx_open_beneath(dfd, leaf, O_PATH | (dir ? O_DIRECTORY : 0));
	if (fd < 0)
		goto fail;
	return drop_parent(rootfd, dfd, fd);
fail:
	return drop_parent(rootfd, dfd, -1);
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
	return sbx_drop(fsfd, -1);
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
	forget_walk();
	return sbx_drop(mfd, r);
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

int sbx_proc_fs(void)
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
	forget_walk();
	return sbx_drop(t, r);
}

int sbx_is_dir(int fd)
{
	struct stat st;
	return fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
}

/*
 * srcfd[]: the sources of the plan's binds (-1: none, or an optional one
 * missing): the supervisor's detached trees for a root caller (whose box
 * never has the caller's ids, see start.c), else opened by
 * sbx_open_sources() while the child still has the caller's host ids.
 * A caller's own directory may be closed to the id the box maps to (a root
 * caller's work under /root, mode 0700): it is reached here by descriptor,
 * never by a path walked with the box's id.
 */

/* Opens the source of every bind of the plan below the (private copy of
 * the) host's root, refusing any symlink on the way, and checks that it is
 * the file the supervisor opened when it compiled the plan (mount.c). */
void sbx_open_sources(const struct sbx_plan *p)
{
	int root;
	CHECK(root = open("/", O_PATH | O_DIRECTORY | O_CLOEXEC), SBX_ST_MOUNT,
	      -1);
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct sbx_mount *m = &p->mounts[i];
		srcfd[i] = -1;
		if (m->op != SBX_OP_BIND || (m->flags & SBX_MOUNT_ABSENT))
			continue;
		srcfd[i] = sbx_open_beneath(root, m->src, O_PATH);
		if (srcfd[i] < 0 &&
		    !((m->flags & SBX_MOUNT_OPTIONAL) && errno == ENOENT))
			sbx_die(SBX_ST_MOUNT, (int)i);
		if (srcfd[i] >= 0) {
			struct stat st;
			if (fstat(srcfd[i], &st) < 0)
				sbx_die(SBX_ST_MOUNT, (int)i);
			/* replaced since the supervisor checked it */
			if (st.st_dev != m->src_dev ||
			    st.st_ino != m->src_ino) {
				errno = ESTALE;
				sbx_die(SBX_ST_MOUNT, (int)i);
			}
		}
	}
	close(root);
}

/* Attaches the supervisor's detached tree (its flags already set) at dst
 * below rootfd; closes the tree. */
static int attach_tree(int tree, int rootfd, const char *dst)
{
	int t = make_node(rootfd, dst, sbx_is_dir(tree), 0755), r;
	if (t < 0)
		return sbx_drop(tree, -1);
	r = sbx_move_mount(tree, "", t, "",
			   MOVE_MOUNT_F_EMPTY_PATH | MOVE_MOUNT_T_EMPTY_PATH);
	forget_walk();
	sbx_drop(tree, 0);
	return sbx_drop(t, r);
}

/* Binds the O_PATH descriptor s at dst below rootfd; closes s. */
static int bind_src(int s, int rootfd, const char *dst, uint64_t attr)
{
	int t, r;
	t = make_node(rootfd, dst, sbx_is_dir(s), 0755);
	if (t < 0) {
		return sbx_drop(s, -1);
	}
	r = bind_fd(s, attr, t);
	sbx_drop(s, 0);
	return sbx_drop(t, r);
}

/* Binds the host path src (resolved under the host root hostfd without
 * following symlinks) at dst below rootfd. */
static int bind_host(int hostfd, int rootfd, const char *src, const char *dst,
		     uint64_t attr, int optional)
{
	int s = sbx_open_beneath(hostfd, src, O_PATH);
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
	fd = drop_parent(
	    rootfd, dfd,
	    openat(dfd, leaf,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
		   m->mode));
	if (fd < 0)
		return -1;
	r = sbx_write_all(fd, m->data, m->datalen);
	if (r < 0) {
		errno = -r;
		return sbx_drop(fd, -1);
	}
	/* fchmod: the mode is exact, whatever the umask */
	if (fchmod(fd, m->mode) < 0)
		return sbx_drop(fd, -1);
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
	return drop_parent(rootfd, dfd, r);
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
	s = sbx_open_beneath(hostfd, src, O_PATH);
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
	dfd = sbx_open_beneath(rootfd, m->dst, O_PATH | O_DIRECTORY);
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
	t = sbx_open_beneath(dfd, "pts", O_PATH | O_DIRECTORY);
	if (t < 0)
		goto fail;
	r = mount_fs("devpts", "newinstance,ptmxmode=0666,mode=0620,max=32",
		     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NOEXEC, t);
	close(t);
	if (r < 0 || symlinkat("pts/ptmx", dfd, "ptmx") < 0)
		goto fail;
	if (ctty && bind_console(hostfd, dfd) < 0)
		goto fail;
	t = sbx_open_beneath(dfd, "shm", O_PATH | O_DIRECTORY);
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
	return sbx_drop(dfd, -1);
}

/* /dev/mqueue: an mqueue instance of the box's own IPC namespace (the
 * filesystem takes the mounting process's IPC namespace, and needs
 * CAP_SYS_ADMIN over that namespace's user namespace: init's, in the
 * box's).  Its queues are the box's alone; RLIMIT_MSGQUEUE and the
 * namespace's fs.mqueue sysctls size them.  Never with the host's IPC
 * namespace: the host's queues would show.  Its source reads "mqueue",
 * as a host's does. */
static int make_mqueue(int rootfd, const struct sbx_mount *m)
{
	int dfd = sbx_open_beneath(rootfd, m->dst, O_PATH | O_DIRECTORY), t,
	    r = -1;
	if (dfd < 0)
		return -1;
	if (mkdirat(dfd, "mqueue", 01777) == 0 &&
	    (t = sbx_open_beneath(dfd, "mqueue", O_PATH | O_DIRECTORY)) >= 0) {
		r = mount_fs("mqueue", "source=mqueue",
			     MOUNT_ATTR_NOSUID | MOUNT_ATTR_NODEV |
				 MOUNT_ATTR_NOEXEC,
			     t);
		sbx_drop(t, 0);
	}
	return sbx_drop(dfd, r);
}

/* The box's network devices under dst (its /sys): class/net and
 * devices/virtual/net of a sysfs of its own, bound read-only.  A sysfs
 * lists the devices of the network namespace of the process that mounts
 * it: init's own (unshare_net, child.c), so lo and nothing of the host's;
 * the rest of that sysfs (the host's device list, DMI) is never attached.
 * A new sysfs is mountable while the host's shows fully: here, before the
 * host's root leaves the box's mount namespace. */
static int make_sysnet(int rootfd, const struct sbx_mount *m)
{
	static const char *const sub[] = {"class/net", "devices/virtual/net"};
	char path[512];
	int mfd = new_fs("sysfs", NULL, m->attr), r = 0;

	if (mfd < 0)
		return -1;
	for (int i = 0; i < 2 && r == 0; i++) {
		int src, t;
		r = -1;
		if (strlen(m->dst) + strlen(sub[i]) + 2 > sizeof path)
			break;
		strcpy(path, m->dst);
		strcat(path, "/");
		strcat(path, sub[i]);
		src = sbx_open_beneath(mfd, sub[i], O_PATH | O_DIRECTORY);
		t = src < 0 ? -1 : make_node(rootfd, path, 1, 0755);
		if (t >= 0)
			r = bind_fd(src, m->attr, t);
		sbx_drop(t, 0);
		sbx_drop(src, 0);
	}
	return sbx_drop(mfd, r);
}

/* Binds a path of the box onto itself and applies attr (e.g. /proc/sys
 * read-only). */
static int remount(int rootfd, const struct sbx_mount *m)
{
	int fd = sbx_open_beneath(rootfd, m->dst, O_PATH), r;
	if (fd < 0)
		return (m->flags & SBX_MOUNT_OPTIONAL) && errno == ENOENT ? 0
									  : -1;
	r = bind_fd(fd, m->attr, fd);
	return sbx_drop(fd, r);
}

/* Covers a path of the box: a directory with an empty read-only tmpfs, a
 * file with the host's /dev/null, read-only. */
static int hide(int hostfd, int rootfd, const struct sbx_mount *m)
{
	int fd = sbx_open_beneath(rootfd, m->dst, O_PATH), r;
	if (fd < 0)
		return (m->flags & SBX_MOUNT_OPTIONAL) && errno == ENOENT ? 0
									  : -1;
	if (sbx_is_dir(fd)) {
		r = mount_fs("tmpfs", "size=4096,nr_inodes=1,mode=0555",
			     MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
				 MOUNT_ATTR_NODEV | MOUNT_ATTR_NOEXEC,
			     fd);
	} else {
		int s = sbx_open_beneath(hostfd, "/dev/null", O_PATH);
		r = s < 0 ? -1
			  : bind_fd(s,
				    MOUNT_ATTR_RDONLY | MOUNT_ATTR_NOSUID |
					MOUNT_ATTR_NOEXEC,
				    fd);
		sbx_drop(s, 0);
	}
	return sbx_drop(fd, r);
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
		return sbx_drop(t, r);
	case SBX_OP_BIND:
		if (srcfd[m - p->mounts] < 0)
			return 0; /* optional, missing */
		r = p->trees ? attach_tree(srcfd[m - p->mounts], rootfd, m->dst)
			     : bind_src(srcfd[m - p->mounts], rootfd, m->dst,
					m->attr);
		srcfd[m - p->mounts] = -1;
		return r;
	case SBX_OP_DEV:
		if (make_dev(hostfd, rootfd, m, p->ctty) < 0)
			return -1;
		return p->nsflags & CLONE_NEWIPC ? make_mqueue(rootfd, m) : 0;
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
	case SBX_OP_SYSNET:
		return make_sysnet(rootfd, m);
	default:
		errno = EINVAL;
		return -1;
	}
}

/* The plan's mounts, links and files, in its order, below rootfd; the
 * walk kept for the next entry ends with them. */
static void make_entries(const struct sbx_plan *p, int hostfd, int rootfd)
{
	for (size_t i = 0; i < p->nmounts; i++) {
		int proc = p->mounts[i].op == SBX_OP_PROC;
		if (proc)
			sbx_stamp(SBX_T_PROC0);
		CHECK(do_mount(p, hostfd, rootfd, &p->mounts[i]), SBX_ST_MOUNT,
		      (int)i);
		if (proc)
			sbx_stamp(SBX_T_PROC1);
	}
	forget_walk();
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

	make_entries(p, hostfd, rootfd);
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
		CHECK(fd = sbx_open_beneath(AT_FDCWD, m->dst, O_PATH),
		      SBX_ST_MOUNT, (int)i);
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

void sbx_make_tree(const struct sbx_plan *p)
{
	if (p->root_opts)
		build_tree(p);
	else if (box_proc >= 0)
		close(box_proc); /* detached alone: no tree to leave with */
	box_proc = -1;
}
