/*
 * kmem.c: the memory a box holds in the kernel beside its processes'
 * pages, read by the supervisor where memory is sampled (see kmem.h and
 * docs/limits.md, "What the sampler counts, and what it cannot").
 *
 * - tmpfs: each writable tmpfs of the box (/tmp, /work, /dev/shm and
 *   every --tmp) by fstatfs on a descriptor init opened on its mount:
 *   blocks in use, unlinked but open files and O_TMPFILE files included.
 * - SysV shared memory: /proc/sysvipc/shm opened by init, which lists the
 *   segments of the IPC namespace of its opener whoever reads it later:
 *   the resident and swapped bytes of every segment, attached or not.
 * - unix sockets: a NETLINK_SOCK_DIAG socket made by init, so that its
 *   dumps list the sockets of the box's network namespace: every socket's
 *   send buffer in use (SK_MEMINFO_WMEM_ALLOC, what the kernel charges a
 *   sender for the buffers it queued at a peer), and the bytes waiting in
 *   a stream or seqpacket socket's receive queue (UNIX_DIAG_RQLEN), which
 *   stay there when the sender has closed; sockets passed in SCM_RIGHTS
 *   and not yet received are still in the namespace's table.
 *
 * Mapped tmpfs and SysV pages are also in the RssShmem of the processes
 * that map them: counted twice, an overestimate on the side of the limit.
 *
 * Trust: every descriptor was opened by init before the command existed,
 * in the box's own namespaces; what is read through them is the kernel's
 * own record.  The text of /proc/sysvipc/shm is parsed without trusting
 * its length; a netlink answer is checked against its own lengths.
 */
#include "sbx.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/statfs.h>
#include <unistd.h>

static void close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void sbx_kmem_init(struct sbx_kmem *k)
{
	memset(k, 0, sizeof *k);
	k->diag = k->shm = -1;
	for (size_t i = 0; i < SBX_KMEM_TMPFS; i++)
		k->tmpfs[i] = -1;
}

void sbx_kmem_close(struct sbx_kmem *k)
{
	close_fd(&k->diag);
	close_fd(&k->shm);
	for (size_t i = 0; i < k->ntmpfs; i++)
		close_fd(&k->tmpfs[i]);
	k->ntmpfs = 0;
}

/* Takes the descriptors of a meters message (kmem.h: index says which). */
static void take(struct sbx_kmem *k, unsigned which, const int *fd, size_t n)
{
	size_t i = 0;
	if (k->diag >= 0 || k->shm >= 0 || k->ntmpfs > 0) {
		/* only one meters message per box: a second is not init's */
		while (i < n)
			close(fd[i++]);
		return;
	}
	if ((which & SBX_KMEM_SOCKETS) && i < n)
		k->diag = fd[i++];
	if ((which & SBX_KMEM_SHM) && i < n)
		k->shm = fd[i++];
	while (i < n) {
		if (k->ntmpfs < SBX_KMEM_TMPFS)
			k->tmpfs[k->ntmpfs++] = fd[i++];
		else
			close(fd[i++]);
	}
}

ssize_t sbx_kmem_recv(int ctl, void *buf, size_t len, struct sbx_kmem *k)
{
	union {
		char b[CMSG_SPACE(sizeof(int) * (SBX_KMEM_TMPFS + 2))];
		struct cmsghdr align;
	} cm;
	struct iovec iov = {buf, len};
	struct msghdr mh;
	struct cmsghdr *c;
	struct sbx_msg m;
	ssize_t n;

	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.b;
	mh.msg_controllen = sizeof cm.b;
	n = recvmsg(ctl, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	if (n < 0)
		return n;
	if ((size_t)n >= sizeof m)
		memcpy(&m, buf, sizeof m);
	else
		m.type = 0;
	for (c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c)) {
		int fd[SBX_KMEM_TMPFS + 2];
		size_t nfd;
		if (c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS)
			continue;
		nfd = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		if (nfd > sizeof fd / sizeof fd[0])
			nfd = sizeof fd / sizeof fd[0];
		memcpy(fd, CMSG_DATA(c), nfd * sizeof(int));
		if (m.type == SBX_MSG_METERS)
			take(k, (unsigned)m.index, fd, nfd);
		else
			for (size_t i = 0; i < nfd; i++)
				close(fd[i]);
	}
	return n;
}

static uint64_t tmpfs_used(int fd)
{
	struct statfs s;
	if (fstatfs(fd, &s) < 0 || s.f_blocks < s.f_bfree)
		return 0;
	return (uint64_t)(s.f_blocks - s.f_bfree) * (uint64_t)s.f_bsize;
}

/* Adds field number want (0-based, whitespace-separated) of each line
 * after the header: the rss and swap columns of /proc/sysvipc/shm. */
static uint64_t shm_used(int fd)
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
				if (in && line > 0 && (field == 14 || field == 15))
					sum += v;
				if (in)
					field++;
				in = 0;
				v = 0;
				if (c == '\n') {
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

/* One dump of the unix sockets of the box's network namespace. */
static uint64_t sockets_used(struct sbx_kmem *k)
{
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} q;
	union {
		char b[32768];
		struct nlmsghdr align;
	} a;
	uint64_t sum = 0;
	unsigned seq = ++k->seq;

	memset(&q, 0, sizeof q);
	q.h.nlmsg_len = sizeof q;
	q.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	q.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	q.h.nlmsg_seq = seq;
	q.r.sdiag_family = AF_UNIX;
	q.r.udiag_states = ~0u;
	q.r.udiag_show = UDIAG_SHOW_MEMINFO | UDIAG_SHOW_RQLEN;
	if (send(k->diag, &q, sizeof q, MSG_NOSIGNAL) != (ssize_t)sizeof q)
		return 0;
	for (;;) {
		ssize_t n = recv(k->diag, a.b, sizeof a.b, 0);
		struct nlmsghdr *h;
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return sum;
		for (h = &a.align; NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			const struct unix_diag_msg *d;
			const struct rtattr *at;
			int alen;
			if (h->nlmsg_seq != seq)
				continue;
			if (h->nlmsg_type == NLMSG_DONE ||
			    h->nlmsg_type == NLMSG_ERROR)
				return sum;
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof *d))
				continue;
			d = NLMSG_DATA(h);
			at = (const struct rtattr *)(d + 1);
			alen = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof *d));
			for (; RTA_OK(at, alen); at = RTA_NEXT(at, alen)) {
				const uint32_t *v = RTA_DATA(at);
				size_t vl = RTA_PAYLOAD(at);
				if (at->rta_type == UNIX_DIAG_MEMINFO &&
				    vl >= sizeof(uint32_t) * SK_MEMINFO_VARS)
					sum += v[SK_MEMINFO_WMEM_ALLOC];
				else if (at->rta_type == UNIX_DIAG_RQLEN &&
					 vl >= sizeof(struct unix_diag_rqlen) &&
					 d->udiag_type != SOCK_DGRAM &&
					 d->udiag_state != 10 /* TCP_LISTEN */)
					sum += v[0];
			}
		}
	}
}

uint64_t sbx_kmem_sample(struct sbx_kmem *k, struct sbx_kmem_use *u)
{
	struct sbx_kmem_use x = {0, 0, 0};
	for (size_t i = 0; i < k->ntmpfs; i++)
		x.tmpfs += tmpfs_used(k->tmpfs[i]);
	if (k->shm >= 0)
		x.shm = shm_used(k->shm);
	if (k->diag >= 0)
		x.sockets = sockets_used(k);
	if (u)
		*u = x;
	return x.tmpfs + x.shm + x.sockets;
}
