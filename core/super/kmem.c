/* SPDX-License-Identifier: MIT */
/*
 * kmem.c: the memory a box holds in the kernel beside its processes'
 * pages, read by the supervisor where memory is sampled (see kmem.h and
 * docs/limits.md, "What the sampler counts, and what it cannot").
 *
 * - tmpfs: each writable tmpfs of the box (/tmp, /work, /dev/shm and
 *   every --tmp) by fstatfs on a descriptor init opened on its mount:
 *   blocks in use, unlinked but open files and O_TMPFILE files included.
 * - SysV IPC: /proc/sysvipc/shm, msg and sem opened by init; each lists
 *   the objects of the IPC namespace of its opener, whoever reads it
 *   later.  A shared memory segment: its resident and swapped bytes,
 *   attached or not.  A message queue: its bytes, and a kernel record of
 *   SBX_MSG_COST bytes per message (struct msg_msg, 48 bytes in a 64-byte
 *   slab).  A semaphore set: SBX_SEM_COST bytes per semaphore (struct sem
 *   is cache-line aligned) and SBX_SEM_COST for the set.
 * - sockets: a NETLINK_SOCK_DIAG socket made by init, so that its dumps
 *   list the sockets of the box's network namespace.  Unix: every
 *   socket's send buffer in use (SK_MEMINFO_WMEM_ALLOC, what the kernel
 *   charges a sender for the buffers it queued at a peer), and the bytes
 *   waiting in a stream or seqpacket socket's receive queue
 *   (UNIX_DIAG_RQLEN), which stay there when the sender has closed;
 *   sockets passed in SCM_RIGHTS and not yet received are still in the
 *   namespace's table.  Unix sockets no dump lists (a closed sender whose
 *   buffers are unread, a connection not yet accepted) are found by the
 *   namespace's count of sockets in /proc/net/protocols and charged a
 *   bound (see unlisted()).  TCP, UDP and UDP-Lite (v4 and v6, over the
 *   box's lo) and netlink: the receive buffers and the send queue of each
 *   socket, dumped only while the namespace has sockets of the protocol.
 *
 * Mapped tmpfs and SysV pages are also in the RssShmem of the processes
 * that map them: counted twice, an overestimate on the side of the limit.
 *
 * Trust: every descriptor was opened by init before the command existed,
 * in the box's own namespaces; what is read through them is the kernel's
 * own record.  The text of the sysvipc files is parsed without trusting
 * its length; a netlink answer is checked against its own lengths.
 */
#include "kmem.h"
#include "fdpass.h"
#include "fileio.h"
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/netlink_diag.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <unistd.h>

#define SBX_MSG_COST 64
#define SBX_SEM_COST 64

void sbx_kmem_init(struct sbx_kmem *k)
{
	memset(k, 0, sizeof *k);
	k->diag = k->protocols = -1;
	for (size_t i = 0; i < SBX_KMEM_NIPC; i++)
		k->ipc[i] = -1;
	for (size_t i = 0; i < SBX_KMEM_TMPFS; i++)
		k->tmpfs[i] = -1;
}

void sbx_kmem_close(struct sbx_kmem *k)
{
	sbx_close_fd(&k->diag);
	sbx_close_fd(&k->protocols);
	for (size_t i = 0; i < SBX_KMEM_NIPC; i++)
		sbx_close_fd(&k->ipc[i]);
	for (size_t i = 0; i < k->ntmpfs; i++)
		sbx_close_fd(&k->tmpfs[i]);
	k->ntmpfs = 0;
}

/* net.core.wmem_max: the largest send buffer a socket can ask for is
 * twice it (one value for every namespace: a box cannot change it). */
static uint64_t wmem_max(void)
{
	char buf[32];
	if (sbx_read_once_at(AT_FDCWD, "/proc/sys/net/core/wmem_max", 0, buf,
			     sizeof buf) <= 0)
		return 1 << 22; /* unreadable: Linux 6.18's default
				   (older kernels: 212992); errs high */
	return strtoull(buf, NULL, 10);
}

/* Takes the descriptors of a meters message (kmem.h: index says which). */
static void take(struct sbx_kmem *k, unsigned which, const int *fd, size_t n)
{
	size_t i = 0;
	if (k->diag >= 0 || k->ipc[0] >= 0 || k->ntmpfs > 0) {
		/* only one meters message per box: a second is not init's */
		while (i < n)
			close(fd[i++]);
		return;
	}
	if ((which & SBX_KMEM_SOCKETS) && i + 2 <= n) {
		k->diag = fd[i++];
		k->protocols = fd[i++];
		k->sender_max = 4 * wmem_max() + 65536;
	}
	if ((which & SBX_KMEM_IPC) && i + SBX_KMEM_NIPC <= n)
		for (size_t t = 0; t < SBX_KMEM_NIPC; t++)
			k->ipc[t] = fd[i++];
	while (i < n) {
		if (k->ntmpfs < SBX_KMEM_TMPFS)
			k->tmpfs[k->ntmpfs++] = fd[i++];
		else
			close(fd[i++]);
	}
}

void sbx_kmem_take(struct sbx_kmem *k, const void *msg, const struct cmsghdr *c)
{
	int fd[SBX_KMEM_FDS];
	size_t nfd;
	struct sbx_msg m;

	/* the buffer held no more than SBX_KMEM_FDS */
	nfd = sbx_cmsg_fds(c, fd, SBX_KMEM_FDS);
	if (k && msg) {
		memcpy(&m, msg, sizeof m);
		take(k, (unsigned)m.index, fd, nfd);
	} else {
		for (size_t i = 0; i < nfd; i++)
			close(fd[i]);
	}
}

static uint64_t tmpfs_used(int fd)
{
	struct statfs s;
	if (fstatfs(fd, &s) < 0 || s.f_blocks < s.f_bfree)
		return 0;
	return (uint64_t)(s.f_blocks - s.f_bfree) * (uint64_t)s.f_bsize;
}

/*
 * Sums, over the lines after the header of a /proc/sysvipc file, the
 * numbers of fields a and b (0-based, whitespace-separated; -1: none)
 * times their weights, and each per object: what the objects of one kind
 * hold.
 */
static uint64_t ipc_used(int fd, int a, uint64_t wa, int b, uint64_t wb,
			 uint64_t each)
{
	char buf[8192];
	uint64_t sum = 0, v = 0;
	int line = 0, field = 0, in = 0;
	ssize_t n;
	off_t off = 0;
	for (;;) {
		n = pread(fd, buf, sizeof buf, off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			break;
		off += n;
		for (ssize_t i = 0; i < n; i++) {
			char c = buf[i];
			if (c == '\n' || c == ' ') {
				if (in && line > 0 && field == a)
					sum += v * wa;
				else if (in && line > 0 && field == b)
					sum += v * wb;
				if (in)
					field++;
				in = 0;
				v = 0;
				if (c == '\n') {
					if (line > 0 && field > 0)
						sum += each;
					line++;
					field = 0;
				}
			} else {
				in = 1;
				if (c >= '0' && c <= '9')
					v = v * 10 + (uint64_t)(c - '0');
			}
		}
	}
	return sum;
}

/* What one socket holds, from its SK_MEMINFO: the buffers it queued
 * (sent, not yet freed: wmem_alloc, or TCP's wmem_queued, which includes
 * what is not yet acknowledged) and those queued to be read (rmem_alloc:
 * TCP, UDP; a unix receiver is not charged: see the RQLEN below). */
static uint64_t meminfo(const uint32_t *v, int tcp)
{
	return (uint64_t)v[SK_MEMINFO_RMEM_ALLOC] +
	       (tcp ? v[SK_MEMINFO_WMEM_QUEUED] : v[SK_MEMINFO_WMEM_ALLOC]);
}

/* Unix sockets a dump listed, and the connections waiting in their
 * listeners' queues (which no dump lists), by the kernel's two unix
 * protocols: [0] "UNIX-STREAM", [1] "UNIX" (datagram and seqpacket). */
struct unix_tally {
	uint64_t listed[2], embryos[2];
};

/* Sends the dump request q (len bytes) and sums the answers: each
 * socket's meminfo, and for unix stream and seqpacket sockets the bytes
 * of their receive queues; t (unix only) tallies the sockets. */
static uint64_t dump(struct sbx_kmem *k, struct nlmsghdr *q, size_t len,
		     int family, int tcp, struct unix_tally *t)
{
	union {
		char b[32768];
		struct nlmsghdr align;
	} a;
	uint64_t sum = 0;
	unsigned seq = ++k->seq;
	/* the attributes follow the family's header */
	size_t hdr = family == AF_UNIX	    ? sizeof(struct unix_diag_msg)
		     : family == AF_NETLINK ? sizeof(struct netlink_diag_msg)
					    : sizeof(struct inet_diag_msg);
	int mem = family == AF_UNIX	 ? UNIX_DIAG_MEMINFO
		  : family == AF_NETLINK ? NETLINK_DIAG_MEMINFO
					 : INET_DIAG_SKMEMINFO;

	q->nlmsg_len = (uint32_t)len;
	q->nlmsg_type = SOCK_DIAG_BY_FAMILY;
	q->nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	q->nlmsg_seq = seq;
	if (send(k->diag, q, len, MSG_NOSIGNAL) != (ssize_t)len)
		return 0;
	for (;;) {
		/* the kernel queues the next part of a dump as each is read:
		 * there is always one to read until NLMSG_DONE */
		ssize_t n = recv(k->diag, a.b, sizeof a.b, MSG_DONTWAIT);
		struct nlmsghdr *h;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return sum;
		for (h = &a.align; NLMSG_OK(h, (size_t)n);
		     h = NLMSG_NEXT(h, n)) {
			const struct rtattr *at;
			int alen;
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR)
				return sum;
			if (h->nlmsg_len < NLMSG_LENGTH(hdr))
				continue;
			at = (const struct rtattr *)((const char *)NLMSG_DATA(
							 h) +
						     NLMSG_ALIGN(hdr));
			alen = (int)(h->nlmsg_len - NLMSG_LENGTH(hdr));
			const struct unix_diag_msg *d = NLMSG_DATA(h);
			int listen = d->udiag_state == 10, /* TCP_LISTEN */
			    kind = d->udiag_type != SOCK_STREAM;
			if (t)
				t->listed[kind]++;
			for (; RTA_OK(at, alen); at = RTA_NEXT(at, alen)) {
				const uint32_t *v = RTA_DATA(at);
				size_t vl = RTA_PAYLOAD(at);
				if (at->rta_type == mem &&
				    vl >= sizeof(uint32_t) * SK_MEMINFO_VARS)
					sum += meminfo(v, tcp);
				else if (!t ||
					 at->rta_type != UNIX_DIAG_RQLEN ||
					 vl < sizeof(struct unix_diag_rqlen))
					continue;
				else if (listen) /* connections waiting */
					t->embryos[kind] += v[0];
				else if (d->udiag_type != SOCK_DGRAM)
					sum += v[0];
			}
		}
	}
}

/* The protocols of /proc/net/protocols whose sockets are counted, by
 * the name the kernel gives them there; a dump is made only of a protocol
 * the box's network namespace has sockets of (TCP, UDP and netlink
 * sockets are in tables shared by every namespace: a dump of one walks
 * the whole host's). */
enum {
	P_UNIX_STREAM,
	P_UNIX, /* datagram and seqpacket */
	P_TCP,
	P_TCP6,
	P_UDP,
	P_UDP6,
	P_UDPLITE,
	P_UDPLITE6,
	P_NETLINK,
	P_COUNT
};
static const struct {
	const char *name;
	unsigned char family, protocol;
} proto[P_COUNT] = {
    [P_UNIX_STREAM] = {"UNIX-STREAM", AF_UNIX, 0},
    [P_UNIX] = {"UNIX", AF_UNIX, 0},
    [P_TCP] = {"TCP", AF_INET, IPPROTO_TCP},
    [P_TCP6] = {"TCPv6", AF_INET6, IPPROTO_TCP},
    [P_UDP] = {"UDP", AF_INET, IPPROTO_UDP},
    [P_UDP6] = {"UDPv6", AF_INET6, IPPROTO_UDP},
    [P_UDPLITE] = {"UDP-Lite", AF_INET, IPPROTO_UDPLITE},
    [P_UDPLITE6] = {"UDPLITEv6", AF_INET6, IPPROTO_UDPLITE},
    [P_NETLINK] = {"NETLINK", AF_NETLINK, 0},
};

/* The sockets in use of each protocol of the box's network namespace,
 * from its /proc/net/protocols ("name size sockets ..."): every socket
 * not yet freed, listed by a dump or not. */
static void in_use(int fd, uint64_t out[P_COUNT])
{
	char buf[8192];
	ssize_t got = sbx_pread_all(fd, buf, sizeof buf - 1);
	memset(out, 0, sizeof(uint64_t) * P_COUNT);
	buf[got > 0 ? got : 0] = '\0';
	for (char *l = buf; *l; l++) {
		size_t len = strcspn(l, " \n");
		for (int p = 0; p < P_COUNT; p++) {
			char *f = l + len;
			if (strlen(proto[p].name) != len ||
			    strncmp(l, proto[p].name, len) != 0)
				continue;
			f += strspn(f, " "); /* size, then the sockets */
			f += strcspn(f, " \n");
			out[p] = strtoull(f, NULL, 10);
		}
		l += strcspn(l, "\n");
		if (!*l)
			break;
	}
}

/*
 * Memory no dump shows: a unix socket closed while buffers it sent are
 * queued at a peer stays allocated (charged with them) but leaves the
 * table, and a connection waiting to be accepted is in no table.  Their
 * number is what the protocol has in use less what the dump listed and
 * the connections waiting.  A closed datagram or seqpacket sender's
 * buffers may sit in no receive queue the dump counts (a datagram
 * socket's queue shows only its first datagram): each is charged the
 * most a sender can have queued.  A closed stream sender's bytes are in
 * its peer's receive queue, counted, unless the peer is a connection
 * waiting to be accepted: as many closed stream senders as there are
 * such connections are charged the same.  The bound: a sender allocates
 * while it holds less than its send buffer, which is at most twice
 * net.core.wmem_max, so it never holds more than four times that (plus
 * one buffer's overhead).
 */
static uint64_t unlisted(const struct sbx_kmem *k, const uint64_t *use,
			 const struct unix_tally *t)
{
	uint64_t gone[2];
	for (int p = 0; p < 2; p++) {
		uint64_t seen = t->listed[p] + t->embryos[p];
		gone[p] = use[p] > seen ? use[p] - seen : 0;
	}
	if (gone[0] > t->embryos[0])
		gone[0] = t->embryos[0];
	return (gone[0] + gone[1]) * k->sender_max;
}

/* The unix, TCP, UDP and netlink sockets of the box's network namespace
 * (its only interface is lo; raw and packet sockets need a capability
 * the command has not). */
static uint64_t sockets_used(struct sbx_kmem *k)
{
	union {
		struct {
			struct nlmsghdr h;
			struct unix_diag_req r;
		} u;
		struct {
			struct nlmsghdr h;
			struct inet_diag_req_v2 r;
		} in;
		struct {
			struct nlmsghdr h;
			struct netlink_diag_req r;
		} nl;
	} q;
	struct unix_tally t;
	uint64_t use[P_COUNT], sum = 0;

	in_use(k->protocols, use);
	memset(&t, 0, sizeof t);
	if (use[P_UNIX_STREAM] + use[P_UNIX] > 0) {
		memset(&q, 0, sizeof q);
		q.u.r.sdiag_family = AF_UNIX;
		q.u.r.udiag_states = ~0u;
		q.u.r.udiag_show = UDIAG_SHOW_MEMINFO | UDIAG_SHOW_RQLEN;
		sum += dump(k, &q.u.h, sizeof q.u, AF_UNIX, 0, &t);
		sum += unlisted(k, use, &t);
	}
	for (int p = P_TCP; p <= P_UDPLITE6; p++) {
		if (use[p] == 0)
			continue;
		memset(&q, 0, sizeof q);
		q.in.r.sdiag_family = proto[p].family;
		q.in.r.sdiag_protocol = proto[p].protocol;
		q.in.r.idiag_states = ~0u;
		q.in.r.idiag_ext = 1 << (INET_DIAG_SKMEMINFO - 1);
		sum += dump(k, &q.in.h, sizeof q.in, proto[p].family,
			    proto[p].protocol == IPPROTO_TCP, NULL);
	}
	/* the meter itself is one */
	if (use[P_NETLINK] > 1) {
		memset(&q, 0, sizeof q);
		q.nl.r.sdiag_family = AF_NETLINK;
		q.nl.r.sdiag_protocol = NDIAG_PROTO_ALL;
		q.nl.r.ndiag_show = NDIAG_SHOW_MEMINFO;
		sum += dump(k, &q.nl.h, sizeof q.nl, AF_NETLINK, 0, NULL);
	}
	return sum;
}

uint64_t sbx_kmem_sample(struct sbx_kmem *k, struct sbx_kmem_use *u)
{
	struct sbx_kmem_use x = {0, 0, 0};
	for (size_t i = 0; i < k->ntmpfs; i++)
		x.tmpfs += tmpfs_used(k->tmpfs[i]);
	/* shm: rss and swap (bytes); msg: cbytes, qnum; sem: nsems */
	if (k->ipc[SBX_KMEM_SHM] >= 0)
		x.ipc =
		    ipc_used(k->ipc[SBX_KMEM_SHM], 14, 1, 15, 1, 0) +
		    ipc_used(k->ipc[SBX_KMEM_MSG], 3, 1, 4, SBX_MSG_COST, 0) +
		    ipc_used(k->ipc[SBX_KMEM_SEM], 3, SBX_SEM_COST, -1, 0,
			     SBX_SEM_COST);
	if (k->diag >= 0)
		x.sockets = sockets_used(k);
	if (u)
		*u = x;
	return x.tmpfs + x.ipc + x.sockets;
}
