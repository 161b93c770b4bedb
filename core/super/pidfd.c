/* SPDX-License-Identifier: MIT */
/*
 * pidfd.c: a box's task reached through a pidfd (pidfd.h).
 *
 * Trust boundary: a pid number names whatever process holds it now.  A
 * task of the box can be killed and reaped, and its number given to a
 * host process, between any two steps of the supervisor; a root
 * supervisor that then wrote to that number (process_vm_writev) or read
 * its /proc would touch a host process.  A pidfd names the task itself,
 * and a /proc/<pid> directory opened while the pidfd still names pid is
 * the task's own: what is opened in it later is that task's, or fails
 * (ESRCH), never another's (probed: docs/kernel-notes.md, "Access by pid
 * through a pidfd").  The caller checks the notification's id after
 * taking the pidfd: the task still waits in the call, so the pidfd is of
 * the task that made it.
 */
#include "pidfd.h"

#include "compat.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* Linux 6.9: a pidfd of a thread */
#endif

int sbx_pidfd_open(pid_t tid)
{
	int fd = (int)syscall(SYS_pidfd_open, tid, 0);
	/* a thread that does not lead its group: ENOENT on 6.18 (EINVAL on
	 * earlier kernels); PIDFD_THREAD takes it */
	if (fd < 0 && (errno == ENOENT || errno == EINVAL))
		fd = (int)syscall(SYS_pidfd_open, tid, PIDFD_THREAD);
	return fd < 0 ? -errno : fd;
}

/* The pidfd's fdinfo into buf (size > 0); 0, or -1. */
static int fdinfo(int pidfd, char *buf, size_t size)
{
	char path[64];
	snprintf(path, sizeof path, "/proc/self/fdinfo/%d", pidfd);
	return sbx_read_once_at(AT_FDCWD, path, 0, buf, size) > 0 ? 0 : -1;
}

pid_t sbx_pidfd_pid(int pidfd)
{
	char buf[512], *s;
	if (fdinfo(pidfd, buf, sizeof buf) < 0)
		return 0;
	s = strstr(buf, "\nPid:");
	return s ? (pid_t)strtol(s + 5, NULL, 10) : 0;
}

pid_t sbx_pid_list_last(const char *s, int *levels)
{
	pid_t pid = 0;
	*levels = 0;
	while (*s && *s != '\n') {
		char *e;
		long v = strtol(s, &e, 10);
		if (e == s)
			break;
		pid = (pid_t)v;
		(*levels)++;
		s = e;
	}
	return pid;
}

pid_t sbx_pidfd_nspid(int pidfd, int *levels)
{
	char buf[512], *s;
	pid_t pid;
	*levels = 0;
	if (fdinfo(pidfd, buf, sizeof buf) < 0 ||
	    !(s = strstr(buf, "\nNSpid:")))
		return 0;
	pid = sbx_pid_list_last(s + 7, levels);
	return pid > 0 ? pid : 0;
}

int sbx_pidfd_proc(int pidfd, pid_t pid)
{
	char path[64];
	int dfd;
	if (pidfd < 0 || pid <= 0)
		return -ESRCH;
	snprintf(path, sizeof path, "/proc/%d", (int)pid);
	dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return -errno;
	/* the number still the pidfd's: it was not freed before the open */
	if (sbx_pidfd_pid(pidfd) != pid) {
		close(dfd);
		return -ESRCH;
	}
	return dfd;
}

/* Does the task's mapping at addr allow it to write there?  1, 0, or
 * -errno when the kernel cannot say (no PROCMAP_QUERY before 6.11). */
static int writable(int maps, uint64_t addr)
{
	struct procmap_query q;
	memset(&q, 0, sizeof q);
	q.size = sizeof q;
	q.query_flags = PROCMAP_QUERY_VMA_WRITABLE;
	q.query_addr = addr;
	if (ioctl(maps, PROCMAP_QUERY, &q) == 0)
		return 1;
	return errno == ENOENT ? 0 : -errno;
}

int sbx_pidfd_write(int pidfd, pid_t pid, uint64_t addr, const void *buf,
		    size_t size)
{
	int dfd = sbx_pidfd_proc(pidfd, pid), maps, mem, r = 0;
	ssize_t n;
	if (dfd < 0)
		return dfd;
	if (size == 0 || addr + size < addr) {
		close(dfd);
		return -EFAULT;
	}
	/* /proc/<pid>/mem writes even where the task may not (FOLL_FORCE):
	 * the task's own protection is asked first, of both ends; a kernel
	 * that cannot say gets no write */
	maps = openat(dfd, "maps", O_RDONLY | O_CLOEXEC);
	if (maps < 0) {
		r = -errno;
	} else {
		r = writable(maps, addr);
		if (r == 1)
			r = writable(maps, addr + size - 1);
		r = r == 1 ? 0 : r == 0 ? -EFAULT : r;
		close(maps);
	}
	mem = r == 0 ? openat(dfd, "mem", O_WRONLY | O_CLOEXEC) : -1;
	if (r == 0 && mem < 0)
		r = -errno;
	close(dfd);
	if (mem < 0)
		return r;
	n = pwrite(mem, buf, size, (off_t)addr);
	r = n == (ssize_t)size ? 0 : n < 0 ? -errno : -EFAULT;
	close(mem);
	return r;
}
