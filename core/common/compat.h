/* SPDX-License-Identifier: MIT */
/*
 * compat.h: constants and raw system call wrappers that the build host's
 * headers (linux-libc-dev 6.1, glibc 2.36) lack or do not wrap.
 * Everything here is a plain syscall(2) call: safe between clone and execve.
 */
#ifndef SBX_COMPAT_H
#define SBX_COMPAT_H

#include <linux/landlock.h>
#include <linux/mount.h>
#include <linux/openat2.h>
#include <linux/sched.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

/* Landlock rights past ABI 2 (the installed header stops there). */
#ifndef LANDLOCK_ACCESS_FS_TRUNCATE
#define LANDLOCK_ACCESS_FS_TRUNCATE (1ULL << 14) /* ABI 3 */
#endif
#ifndef LANDLOCK_ACCESS_FS_IOCTL_DEV
#define LANDLOCK_ACCESS_FS_IOCTL_DEV (1ULL << 15) /* ABI 5 */
#endif
#ifndef LANDLOCK_ACCESS_NET_BIND_TCP
#define LANDLOCK_ACCESS_NET_BIND_TCP (1ULL << 0) /* ABI 4 */
#define LANDLOCK_ACCESS_NET_CONNECT_TCP (1ULL << 1)
#endif
#ifndef LANDLOCK_RULE_NET_PORT
#define LANDLOCK_RULE_NET_PORT 2
#endif
#ifndef LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET
#define LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET (1ULL << 0) /* ABI 6 */
#define LANDLOCK_SCOPE_SIGNAL (1ULL << 1)
#endif

/* The ruleset attribute as of ABI 6 (handled_access_net, scoped). */
struct sbx_landlock_ruleset_attr {
	uint64_t handled_access_fs;
	uint64_t handled_access_net;
	uint64_t scoped;
};

struct sbx_landlock_net_port_attr {
	uint64_t allowed_access;
	uint64_t port;
};

#ifndef CLOSE_RANGE_CLOEXEC
#define CLOSE_RANGE_CLOEXEC (1U << 2)
#endif

static inline long sbx_clone3(struct clone_args *a)
{
	return syscall(SYS_clone3, a, sizeof *a);
}
static inline int sbx_pidfd_send_signal(int pidfd, int sig)
{
	return (int)syscall(SYS_pidfd_send_signal, pidfd, sig, NULL, 0);
}
static inline int sbx_close_range(unsigned lo, unsigned hi, unsigned flags)
{
	return (int)syscall(SYS_close_range, lo, hi, flags);
}
static inline int sbx_openat2(int dirfd, const char *path, struct open_how *how)
{
	return (int)syscall(SYS_openat2, dirfd, path, how, sizeof *how);
}
static inline int sbx_open_tree(int dirfd, const char *path, unsigned flags)
{
	return (int)syscall(SYS_open_tree, dirfd, path, flags);
}
static inline int sbx_move_mount(int fdir, const char *fpath, int tdir,
				 const char *tpath, unsigned flags)
{
	return (int)syscall(SYS_move_mount, fdir, fpath, tdir, tpath, flags);
}
static inline int sbx_mount_setattr(int dirfd, const char *path, unsigned flags,
				    struct mount_attr *attr)
{
	return (int)syscall(SYS_mount_setattr, dirfd, path, flags, attr,
			    sizeof *attr);
}
static inline int sbx_fsopen(const char *fs, unsigned flags)
{
	return (int)syscall(SYS_fsopen, fs, flags);
}
static inline int sbx_fsconfig(int fd, unsigned cmd, const char *key,
			       const void *value, int aux)
{
	return (int)syscall(SYS_fsconfig, fd, cmd, key, value, aux);
}
static inline int sbx_fsmount(int fd, unsigned flags, unsigned attr)
{
	return (int)syscall(SYS_fsmount, fd, flags, attr);
}
static inline int sbx_pivot_root(const char *new_root, const char *put_old)
{
	return (int)syscall(SYS_pivot_root, new_root, put_old);
}
static inline int sbx_landlock_create_ruleset(const void *attr, size_t size,
					      uint32_t flags)
{
	return (int)syscall(SYS_landlock_create_ruleset, attr, size, flags);
}
static inline int sbx_landlock_add_rule(int fd, int type, const void *attr,
					uint32_t flags)
{
	return (int)syscall(SYS_landlock_add_rule, fd, type, attr, flags);
}
static inline int sbx_landlock_restrict_self(int fd, uint32_t flags)
{
	return (int)syscall(SYS_landlock_restrict_self, fd, flags);
}

/* The CPU time (user + system, the clock RLIMIT_CPU counts) of another
 * process, a zombie's included: MAKE_PROCESS_CPUCLOCK(pid, CPUCLOCK_PROF)
 * of the kernel's posix-timers.h, ~pid << 3 (in unsigned arithmetic: a
 * negative value shifted left is undefined in C).  -1 when unreadable. */
static inline int64_t sbx_process_cpu_ns(pid_t pid)
{
	struct timespec ts;
	clockid_t clock = (clockid_t)(~(unsigned)pid << 3);
	if (syscall(SYS_clock_gettime, clock, &ts) != 0)
		return -1;
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

/* PROCMAP_QUERY (Linux 6.11): the mapping that holds an address, asked of
 * a /proc/<pid>/maps descriptor by ioctl (linux/fs.h of 6.11). */
#ifndef PROCMAP_QUERY
struct procmap_query {
	uint64_t size;
	uint64_t query_flags;
	uint64_t query_addr;
	uint64_t vma_start, vma_end, vma_flags, vma_page_size, vma_offset;
	uint64_t inode;
	uint32_t dev_major, dev_minor, vma_name_size, build_id_size;
	uint64_t vma_name_addr, build_id_addr;
};
#define PROCMAP_QUERY _IOWR('f', 17, struct procmap_query)
#define PROCMAP_QUERY_VMA_WRITABLE 0x02
#endif

#endif
