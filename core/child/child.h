/* SPDX-License-Identifier: MIT */
/*
 * child.h: what the code between clone and execve shares (child.c, the
 * init and the command's process; tree.c, net.c, handover.c, lock.c,
 * probe.c).  Everything here runs in the freshly cloned box init or the
 * command's process forked from it: raw system calls and async-signal-safe
 * libc calls only (no allocator, no stdio, no Lua, no locks).  A failure
 * is sent to the supervisor as (stage, errno, index) by sbx_die, and the
 * process exits 126.
 */
#ifndef SBX_CHILD_H
#define SBX_CHILD_H

#include "plan.h"

#include <errno.h>
#include <unistd.h>

#define CTL 3 /* the control socket, once descriptors are in place */
#define BASE "/tmp"

/* A step's call: on failure (< 0, errno set), sbx_die with its stage. */
#define CHECK(expr, stage, index)                                              \
	do {                                                                   \
		if ((expr) < 0)                                                \
			sbx_die(stage, index);                                 \
	} while (0)

/* Closes fd (if open) keeping errno; returns r: the error paths below
 * report the errno of the call that failed, not of the cleanup. */
static inline int sbx_drop(int fd, int r)
{
	int e = errno;
	if (fd >= 0)
		close(fd);
	errno = e;
	return r;
}

/* child.c */
SBX_LOCAL _Noreturn void sbx_die(int stage, int index);
SBX_LOCAL size_t sbx_slurp(const char *path, char *buf, size_t room);

/* tree.c: the box's tree */
SBX_LOCAL int sbx_is_dir(int fd);
SBX_LOCAL int sbx_open_beneath(int dirfd, const char *path, int flags);
SBX_LOCAL int sbx_proc_fs(void);
SBX_LOCAL void sbx_make_tree(const struct sbx_plan *p);
SBX_LOCAL void sbx_open_sources(const struct sbx_plan *p);
SBX_LOCAL void sbx_setup_fds(const struct sbx_plan *p);

/* net.c: the network namespace */
SBX_LOCAL int sbx_lo_up(void);
SBX_LOCAL int sbx_start_sink(const struct sbx_sink_plan *sp);

/* handover.c: what init hands to the supervisor.  sbx_hand_over sends m
 * with the n descriptors fd when r is 0 (a step's failure so far), then
 * closes them: 0, or -1 with errno. */
SBX_LOCAL int sbx_hand_over(const struct sbx_msg *m, const int *fd, int n,
			    int r);
SBX_LOCAL int sbx_open_meters(const struct sbx_plan *p);
SBX_LOCAL int sbx_send_meters(const struct sbx_plan *p);
SBX_LOCAL void sbx_send_locks(const struct sbx_plan *p);
SBX_LOCAL void sbx_send_places(const struct sbx_plan *p);

/* lock.c: capabilities and Landlock */
SBX_LOCAL int sbx_apply_landlock(const struct sbx_landlock *ll);
SBX_LOCAL int sbx_drop_caps(int last_cap, int bounding);

/* probe.c: the command's process reports itself */
SBX_LOCAL void sbx_announce_listener(void);
SBX_LOCAL void sbx_send_probe(void);

#endif
