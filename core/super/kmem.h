/* SPDX-License-Identifier: MIT */
/*
 * kmem.h: memory a box holds in the kernel outside its processes' pages,
 * counted by the supervisor beside the sampled RssAnon + RssShmem
 * (kmem.c): the used bytes of the box's writable tmpfs mounts, its SysV
 * IPC objects (shared memory, message queues, semaphores) and the buffers
 * queued in its unix, TCP and UDP sockets.
 *
 * The box's init opens the meters inside the box's own namespaces (a
 * tmpfs by its mount, /proc/sysvipc/{shm,msg,sem} of its IPC namespace, a
 * NETLINK_SOCK_DIAG socket of its network namespace) and hands them to the
 * supervisor in one SBX_MSG_METERS message with SCM_RIGHTS, before the
 * command exists.  index of that message says which meters follow, in
 * this order: SBX_KMEM_SOCKETS (two: the diag socket, /proc/net/protocols
 * of the box's network namespace), SBX_KMEM_IPC (three: shm, msg, sem), then
 * one descriptor per tmpfs.
 */
#ifndef SBX_KMEM_H
#define SBX_KMEM_H

#include "plan.h" /* the meters' message: SBX_KMEM_* */

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

struct sbx_kmem {
	int diag;		   /* NETLINK_SOCK_DIAG of the box's netns */
	int protocols;		   /* /proc/net/protocols of the same */
	uint64_t sender_max;	   /* the most one socket can have sent */
	int ipc[SBX_KMEM_NIPC];	   /* /proc/sysvipc/{shm,msg,sem} of its ns */
	int tmpfs[SBX_KMEM_TMPFS]; /* O_PATH of each writable tmpfs */
	size_t ntmpfs;
	unsigned seq; /* netlink sequence number */
};

/* Bytes found by one sample, per kind. */
struct sbx_kmem_use {
	uint64_t tmpfs, ipc, sockets;
};

void sbx_kmem_init(struct sbx_kmem *k);
void sbx_kmem_close(struct sbx_kmem *k);
/* Takes the descriptors of control message c (SCM_RIGHTS) that came with
 * msg, a SBX_MSG_METERS message (struct sbx_msg), into k; with k or msg
 * NULL, closes them. */
struct cmsghdr;
void sbx_kmem_take(struct sbx_kmem *k, const void *msg,
		   const struct cmsghdr *c);
/* Sums what the meters of k hold now (fills u when not NULL). */
uint64_t sbx_kmem_sample(struct sbx_kmem *k, struct sbx_kmem_use *u);

#endif
