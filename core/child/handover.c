/* SPDX-License-Identifier: MIT */
/*
 * handover.c: what init opens inside the box for the supervisor, which
 * cannot open it from outside: the memory meters (kmem.h), the box's own
 * tmpfs places (the lock guard's, lockguard.c) and the written places
 * (capture.c), each sent over the control socket (fdpass.c) before the
 * command exists; init keeps none of them.
 * Runs between clone and execve (child.h): raw system calls and
 * async-signal-safe libc calls only, every failure sent as (stage, errno,
 * index) by sbx_die.
 */
#include "child.h"

#include "compat.h"
#include "fdpass.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/mount.h>
#include <sys/socket.h>

/*
 * The meters of the box's kernel memory (kmem.h), opened inside its own
 * namespaces for the supervisor: sbx_open_meters() before the tree is built
 * (a new procfs is mountable only while the host's shows fully, as for
 * set_sysctls), sbx_send_meters() after it, when the tmpfs mounts exist.
 * Each is opened only where the box has the namespace: with the host's
 * network namespace a dump would list the host's sockets.
 */
static int meter_diag = -1, meter_protocols = -1,
	   meter_ipc[SBX_KMEM_NIPC] = {-1, -1, -1};

int sbx_open_meters(const struct sbx_plan *p)
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
	proc = sbx_proc_fs();
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

int sbx_hand_over(const struct sbx_msg *m, const int *fd, int n, int r)
{
	if (r == 0) {
		r = sbx_send_fds(CTL, m, sizeof *m, fd, (size_t)n);
		if (r < 0) {
			errno = -r;
			r = -1;
		}
	}
	for (int i = 0; i < n; i++)
		sbx_drop(fd[i], 0);
	return r;
}

/* Does a mount after mounts[i] cover path (one at path or above it)?  A
 * remount binds a path onto itself (the same file systems); a directory,
 * a symbolic link or a file made there mounts nothing. */
static int covered(const struct sbx_plan *p, size_t i, const char *path)
{
	for (size_t j = i + 1; j < p->nmounts; j++) {
		const struct sbx_mount *m = &p->mounts[j];
		size_t len = strlen(m->dst);
		if (m->op == SBX_OP_MKDIR || m->op == SBX_OP_SYMLINK ||
		    m->op == SBX_OP_FILE || m->op == SBX_OP_REMOUNT)
			continue;
		while (len > 1 && m->dst[len - 1] == '/')
			len--;
		if (strncmp(path, m->dst, len) == 0 &&
		    (len == 1 || path[len] == '\0' || path[len] == '/'))
			return 1;
	}
	return 0;
}

/*
 * An O_PATH descriptor of each writable tmpfs the box mounted (each
 * SBX_OP_TMPFS not read-only; /dev/shm of SBX_OP_DEV: a read-only /dev
 * still has a writable /dev/shm) into fd, at most max: how many.  A place
 * a later mount covers is left out (what its path opens is that mount,
 * which may be a host file system).  *failed is set when one could not
 * be opened.  These are the box's own file systems: the meters count
 * their bytes, and only their files may be locked (lockguard.c).
 */
static int own_tmpfs(const struct sbx_plan *p, int *fd, int max, int *failed)
{
	int n = 0;
	*failed = 0;
	for (size_t i = 0; i < p->nmounts && n < max; i++) {
		const struct sbx_mount *mt = &p->mounts[i];
		char path[4096];
		size_t len = strlen(mt->dst);
		if (len + 5 > sizeof path ||
		    (mt->op != SBX_OP_TMPFS && mt->op != SBX_OP_DEV) ||
		    (mt->op == SBX_OP_TMPFS && (mt->attr & MOUNT_ATTR_RDONLY)))
			continue;
		memcpy(path, mt->dst, len + 1);
		if (mt->op == SBX_OP_DEV) /* its writable tmpfs: /dev/shm */
			memcpy(path + len, "/shm", 5);
		if (covered(p, i, path))
			continue;
		fd[n] = sbx_open_beneath(AT_FDCWD, path, O_PATH | O_DIRECTORY);
		if (fd[n] < 0)
			*failed = 1;
		else
			n++;
	}
	return n;
}

/* Sends the meters and every writable tmpfs of the tree (at most
 * SBX_KMEM_TMPFS) in one SBX_MSG_METERS; init keeps none of them. */
int sbx_send_meters(const struct sbx_plan *p)
{
	int fd[SBX_KMEM_FDS], n = 0, which = 0, failed;
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
	n += own_tmpfs(p, fd + n, SBX_KMEM_FDS - n, &failed);
	m.index = which;
	return sbx_hand_over(&m, fd, n, failed ? -1 : 0);
}

/* Sends the box's own tmpfs places (own_tmpfs, at most SBX_LOCK_PLACES)
 * in one SBX_MSG_LOCKS: the only file systems whose files the lock guard
 * lets the box lock.  One that cannot be opened is left out (its files
 * are then refused a lock); init keeps none. */
void sbx_send_locks(const struct sbx_plan *p)
{
	int fd[SBX_LOCK_PLACES], failed;
	struct sbx_msg m = {SBX_MSG_LOCKS, 0, 0, 0, 0};
	int n = own_tmpfs(p, fd, SBX_LOCK_PLACES, &failed);
	(void)sbx_hand_over(&m, fd, n, 0);
}

/* Sends an O_PATH descriptor of each written place of the plan (capture.c)
 * in one SBX_MSG_PLACES, index the mask of those opened; init keeps none.
 * Held by the supervisor, each keeps its mount, detached, once the box's
 * mount namespace is gone, so the places can be walked after the box has
 * ended however it ended.  A place that cannot be opened is left out; the
 * box runs without the record if the message cannot be sent. */
void sbx_send_places(const struct sbx_plan *p)
{
	int fd[SBX_PLACES_MAX] = {0}, n = 0;
	unsigned mask = 0;
	struct sbx_msg m = {SBX_MSG_PLACES, 0, 0, 0, 0};

	for (size_t i = 0; i < p->nplaces && i < SBX_PLACES_MAX; i++) {
		fd[n] = sbx_open_beneath(AT_FDCWD, p->places[i],
					 O_PATH | O_DIRECTORY);
		if (fd[n] >= 0) {
			mask |= 1u << i;
			n++;
		}
	}
	m.index = (int)mask;
	(void)sbx_send_fds(CTL, &m, sizeof m, fd, (size_t)n);
	for (int i = 0; i < n; i++)
		sbx_drop(fd[i], 0);
}
