/* SPDX-License-Identifier: MIT */
/*
 * pidfd.h: a box's task reached through a pidfd, never through a bare pid
 * number that may have been freed and given to another process (pidfd.c).
 *
 * The order for a notified call (notify.c, sleep.c, lockguard.c): a pidfd
 * of the notification's pid first, then SECCOMP_IOCTL_NOTIF_ID_VALID (the
 * task still waits in the call, so the pidfd is that task's), then every
 * access through the pidfd: its /proc directory (sbx_pidfd_proc) and what
 * is opened in it (status, mem, maps, fd/N), which stay that task's
 * whatever happens to the number afterwards (docs/kernel-notes.md).
 */
#ifndef SBX_PIDFD_H
#define SBX_PIDFD_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#ifndef SBX_LOCAL
#define SBX_LOCAL __attribute__((visibility("hidden")))
#endif

/* A pidfd of task tid (a process, or a thread that does not lead its
 * group); -errno. */
SBX_LOCAL int sbx_pidfd_open(pid_t tid);
/* The pid the pidfd's task has in our pid namespace now (its fdinfo's
 * Pid: line): -1 once its number has been freed (reaped, or a thread
 * that ended), 0 when it cannot be read. */
SBX_LOCAL pid_t sbx_pidfd_pid(int pidfd);
/* The pidfd's task's pid in the innermost pid namespace it is in (the
 * last of its fdinfo's NSpid: line) and in how many it is seen from ours
 * (*levels); 0 once its number has been freed, or unknown. */
SBX_LOCAL pid_t sbx_pidfd_nspid(int pidfd, int *levels);
/* The last number of a line of pids in /proc (NSpid:'s, NStgid:'s; s
 * just past the name) and how many the line holds (*levels); 0 and 0 for
 * none. */
SBX_LOCAL pid_t sbx_pid_list_last(const char *s, int *levels);
/* /proc/<pid> of the pidfd's task (O_PATH, close-on-exec): opened, then
 * the pidfd must still name pid, so that the number was not freed in
 * between and the directory is that task's; -errno (-ESRCH: it was). */
SBX_LOCAL int sbx_pidfd_proc(int pidfd, pid_t pid);
/* Writes size bytes of buf at addr of the pidfd's task (its /proc mem,
 * opened through sbx_pidfd_proc), only where the task's own mapping is
 * writable (PROCMAP_QUERY): a write the kernel would refuse the task
 * (EFAULT) is not made either, nor any where the kernel cannot say (no
 * PROCMAP_QUERY: before 6.11).  0, or -errno. */
SBX_LOCAL int sbx_pidfd_write(int pidfd, pid_t pid, uint64_t addr,
			      const void *buf, size_t size);

#endif
