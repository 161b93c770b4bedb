/* SPDX-License-Identifier: MIT */
/*
 * fdpass.h: descriptors passed over the control socket (fdpass.c), the
 * one place that builds and reads SCM_RIGHTS: the box's init and the
 * command's process send what they opened inside the box (meters, written
 * places, the sink's listeners, the probe's pidfd and pipe, the explain
 * channel's pidfd); the supervisor takes them out of what it received.
 *
 * Only sendmsg and memcpy: async-signal-safe, for the code between clone
 * and execve (child.c) as for the supervisor.
 */
#ifndef SBX_FDPASS_H
#define SBX_FDPASS_H

#include <stddef.h>

#ifndef SBX_LOCAL
#define SBX_LOCAL __attribute__((visibility("hidden")))
#endif

#define SBX_FDPASS_MAX 64 /* descriptors in one message */

/* Sends the len bytes at buf on sock with the n descriptors at fds (n at
 * most SBX_FDPASS_MAX; none when n is 0) in one message, retried on
 * EINTR, and on ETOOMANYREFS for up to 2 s (fdpass.c).  0, or -errno. */
SBX_LOCAL int sbx_send_fds(int sock, const void *buf, size_t len,
			   const int *fds, size_t n);

/* The descriptors a control message c carries (SCM_RIGHTS; none when c
 * is NULL or of another kind), at most max of them into fds; returns how
 * many.  The caller owns them (and closes those it keeps no place for). */
struct cmsghdr;
SBX_LOCAL size_t sbx_cmsg_fds(const struct cmsghdr *c, int *fds, size_t max);

#endif
