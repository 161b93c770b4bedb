/* SPDX-License-Identifier: MIT */
/*
 * sink.c: the supervisor's side of the network sink (sink.h).  Every
 * byte here comes from the box and is hostile: lengths are checked
 * against what was received, names are kept as raw bytes (the report
 * escapes them), and the number of connections, events and bytes kept is
 * capped.
 */
#include "sink.h"
#include "fdpass.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>
#include <sys/socket.h>
#include <unistd.h>
void sbx_sink_init(struct sbx_sink *s, const struct sbx_sink_plan *p)
{
	memset(s, 0, sizeof *s);
	s->plan = p;
	for (int i = 0; i < SBX_SINK_CONNS; i++)
		s->conn[i].fd = -1;
}

void sbx_sink_take(struct sbx_sink *s, const struct cmsghdr *c)
{
	int fd[SBX_SINK_FDS + 8];
	size_t n;

	n = sbx_cmsg_fds(c, fd, sizeof fd / sizeof fd[0]);
	for (size_t i = 0; i < n; i++) {
		struct sockaddr_in a;
		socklen_t al = sizeof a;
		int type = 0;
		socklen_t tl = sizeof type;
		/* a second message, or one past the cap: closed */
		if (!s || !s->plan || !s->plan->on || s->nfd == SBX_SINK_FDS ||
		    getsockopt(fd[i], SOL_SOCKET, SO_TYPE, &type, &tl) < 0 ||
		    getsockname(fd[i], (struct sockaddr *)&a, &al) < 0 ||
		    a.sin_family != AF_INET) {
			close(fd[i]);
			continue;
		}
		s->fd[s->nfd] = fd[i];
		s->udp[s->nfd] = type == SOCK_DGRAM;
		s->port[s->nfd++] = ntohs(a.sin_port);
	}
}

int sbx_sink_watches(const struct sbx_sink *s, int *fds, double *next)
{
	int n = 0;
	*next = -1;
	for (int i = 0; i < s->nfd; i++)
		fds[n++] = s->fd[i];
	for (int i = 0; i < SBX_SINK_CONNS; i++) {
		const struct sbx_sink_conn *c = &s->conn[i];
		if (c->fd < 0)
			continue;
		fds[n++] = c->fd;
		if (*next < 0 || c->since + SBX_SINK_TIMEOUT < *next)
			*next = c->since + SBX_SINK_TIMEOUT;
	}
	return n;
}

/* A new record of kind, seen at seq, within its budget (else counted and
 * NULL); its data is the caller's to set (freed with the record). */
static struct sbx_sink_event *new_event(struct sbx_sink *s, int kind,
					unsigned long seq)
{
	static const size_t budget[SBX_SINK_KINDS] = {
	    [SBX_SINK_K_DNS] = SBX_SINK_DNS,
	    [SBX_SINK_K_TCP] = SBX_SINK_TCP,
	    [SBX_SINK_K_UDP] = SBX_SINK_UDP,
	    [SBX_SINK_K_HTTP] = SBX_SINK_HTTP,
	};
	struct sbx_sink_event *e;
	if (s->kept[kind] == budget[kind]) {
		s->dropped[kind]++;
		return NULL;
	}
	if (s->nev == s->cap_ev) {
		size_t n = s->cap_ev ? 2 * s->cap_ev : 64;
		struct sbx_sink_event *grown =
		    realloc(s->ev, n * sizeof *grown);
		if (!grown) {
			s->dropped[kind]++;
			return NULL;
		}
		s->ev = grown;
		s->cap_ev = n;
	}
	e = &s->ev[s->nev++];
	memset(e, 0, sizeof *e);
	e->seq = seq;
	s->kept[kind]++;
	return e;
}

/* A record of kind holding a copy of data (len bytes), or NULL. */
static struct sbx_sink_event *new_copy(struct sbx_sink *s, int kind,
				       const void *data, size_t len)
{
	char *copy = malloc(len ? len : 1);
	struct sbx_sink_event *e;
	if (!copy) {
		s->dropped[kind]++;
		return NULL;
	}
	e = new_event(s, kind, s->seq++);
	if (!e) {
		free(copy);
		return NULL;
	}
	memcpy(copy, data, len);
	e->data = copy;
	e->len = len;
	return e;
}

static void traffic(struct sbx_sink *s, const struct sockaddr_in *src,
		    uint32_t addr, uint16_t port, const void *data,
		    size_t bytes)
{
	struct sbx_sink_event *e =
	    new_copy(s, SBX_SINK_K_UDP, data,
		     bytes < SBX_SINK_CAP ? bytes : SBX_SINK_CAP);
	if (!e)
		return;
	e->udp = 1;
	e->addr = addr;
	e->port = port;
	e->saddr = ntohl(src->sin_addr.s_addr);
	e->sport = ntohs(src->sin_port);
	e->bytes = bytes;
}

#define NAME_SLOTS (2 * SBX_SINK_DNS)

static unsigned char lower(char c)
{
	return (unsigned char)(c >= 'A' && c <= 'Z' ? c + 32 : c);
}

/* Whether two names of len bytes are one in ASCII case (a name may hold
 * any byte, NUL too: no str* call) */
static int same_name(const char *a, const char *b, size_t len)
{
	for (size_t i = 0; i < len; i++)
		if (lower(a[i]) != lower(b[i]))
			return 0;
	return 1;
}

/* FNV-1a of a query's name (in lower case), type and answer from the
 * secret seed, then mixed (murmur3's finaliser): every bit of the slot
 * depends on every byte and on the seed */
static uint32_t name_hash(uint32_t seed, const char *name, size_t len,
			  uint16_t qtype, int kind)
{
	uint32_t h = 2166136261u ^ seed;
	for (size_t i = 0; i < len; i++)
		h = (h ^ lower(name[i])) * 16777619u;
	h = (h ^ qtype) * 16777619u;
	h = (h ^ (uint32_t)kind) * 16777619u;
	h ^= h >> 16;
	h *= 0x85ebca6bu;
	h ^= h >> 13;
	h *= 0xc2b2ae35u;
	return h ^ (h >> 16);
}

static void names_init(struct sbx_sink *s)
{
	s->names = calloc(NAME_SLOTS, sizeof *s->names);
	if (s->names && getrandom(&s->seed, sizeof s->seed, GRND_NONBLOCK) !=
			    sizeof s->seed)
		s->seed = (uint32_t)(uintptr_t)s->names ^ (uint32_t)getpid();
}

/* The record of a query: the one of an earlier query of the same name
 * (in any case), type and answer, its count raised; else a new one (the
 * budget counts distinct queries: a repeat is never dropped). */
static struct sbx_sink_event *dns_record(struct sbx_sink *s, const char *name,
					 size_t len, uint16_t qtype, int kind)
{
	uint32_t h;
	size_t i;
	struct sbx_sink_event *e;
	if (!s->names)
		names_init(s);
	h = name_hash(s->seed, name, len, qtype, kind);
	i = h % NAME_SLOTS;
	/* at most SBX_SINK_DNS of NAME_SLOTS used: a free slot ends a probe */
	for (; s->names && s->names[i].ev; i = (i + 1) % NAME_SLOTS) {
		e = &s->ev[s->names[i].ev - 1];
		if (s->names[i].hash == h && e->qtype == qtype &&
		    e->answer == kind && e->len == len &&
		    same_name(e->data, name, len)) {
			e->count++;
			return NULL;
		}
	}
	e = new_copy(s, SBX_SINK_K_DNS, name, len);
	if (e && s->names)
		s->names[i] = (struct sbx_sink_name){h, (uint32_t)s->nev};
	return e;
}

/* name's last bytes are one of the '\n'-joined suffixes of list (a whole
 * label: "example" matches "evil.example" and "example") */
static int listed(const char *list, const char *name, size_t len)
{
	while (list && *list) {
		const char *end = strchr(list, '\n');
		size_t n = end ? (size_t)(end - list) : strlen(list);
		if (n > 0 && n <= len &&
		    strncasecmp(name + len - n, list, n) == 0 &&
		    (n == len || name[len - n - 1] == '.'))
			return 1;
		list = end ? end + 1 : NULL;
	}
	return 0;
}

/* A DNS query q of n bytes: the name (dotted, raw bytes) into name,
 * returns the offset past the question, or 0 when q is no plain query. */
static size_t parse_query(const unsigned char *q, size_t n, char *name,
			  size_t *nlen, uint16_t *qtype)
{
	size_t off = 12, len = 0;
	if (n < 12 || (q[2] & 0xf8) != 0 || q[4] != 0 || q[5] != 1)
		return 0;
	while (off < n && q[off] != 0) {
		size_t l = q[off];
		if (l > 63 || off + 1 + l > n || len + l + 1 > 255)
			return 0; /* a pointer or an over-long name */
		if (len)
			name[len++] = '.';
		memcpy(name + len, q + off + 1, l);
		len += l;
		off += 1 + l;
	}
	if (off + 5 > n)
		return 0;
	*qtype = (uint16_t)(q[off + 1] << 8 | q[off + 2]);
	*nlen = len;
	return off + 5;
}

/* Answers the query q (n bytes) that came to dst from src on fd; -1 when
 * it is no plain query (it is then not answered). */
static int answer(struct sbx_sink *s, int fd, const unsigned char *q, size_t n,
		  const struct sockaddr_in *src, const struct in_pktinfo *dst)
{
	unsigned char r[512 + 16];
	char name[256];
	size_t nlen = 0, qend;
	uint16_t qtype = 0;
	int kind = 0;
	struct sbx_sink_event *e;
	union {
		char b[CMSG_SPACE(sizeof(struct in_pktinfo))];
		struct cmsghdr align;
	} cm;
	struct in_pktinfo pi;
	struct iovec iov;
	struct msghdr mh;
	struct cmsghdr *c;

	qend = parse_query(q, n, name, &nlen, &qtype);
	if (qend == 0 || qend > 512)
		return -1;
	if (listed(s->plan->nxdomain, name, nlen))
		kind = 2;
	else if (qtype == 1 && (q[qend - 2] << 8 | q[qend - 1]) == 1)
		kind = 1;
	e = dns_record(s, name, nlen, qtype, kind);
	if (e) {
		e->count = 1;
		e->dns = 1;
		e->qtype = qtype;
		e->answer = kind;
		e->addr = ntohl(dst->ipi_addr.s_addr);
		e->saddr = ntohl(src->sin_addr.s_addr);
		e->sport = ntohs(src->sin_port);
	}
	memcpy(r, q, qend);
	r[2] = (unsigned char)(0x80 | (q[2] & 0x01)); /* QR, RD as asked */
	r[3] = (unsigned char)(0x80 | (kind == 2 ? 3 : 0)); /* RA, rcode */
	r[6] = r[8] = r[9] = r[10] = r[11] = 0;
	r[7] = kind == 1;
	if (kind == 1) {
		static const unsigned char rr[] = {0xc0, 12, 0, 1,  0, 1,
						   0,	 0,  0, 60, 0, 4};
		uint32_t a = htonl(s->plan->addr);
		memcpy(r + qend, rr, sizeof rr);
		memcpy(r + qend + sizeof rr, &a, 4);
		qend += sizeof rr + 4;
	}
	/* from the address the query went to: a resolver checks it */
	memset(&pi, 0, sizeof pi);
	pi.ipi_spec_dst = dst->ipi_addr;
	iov.iov_base = r;
	iov.iov_len = qend;
	memset(&mh, 0, sizeof mh);
	mh.msg_name = (void *)src;
	mh.msg_namelen = sizeof *src;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.b;
	mh.msg_controllen = sizeof cm.b;
	c = CMSG_FIRSTHDR(&mh);
	c->cmsg_level = IPPROTO_IP;
	c->cmsg_type = IP_PKTINFO;
	c->cmsg_len = CMSG_LEN(sizeof pi);
	memcpy(CMSG_DATA(c), &pi, sizeof pi);
	sendmsg(fd, &mh, MSG_DONTWAIT | MSG_NOSIGNAL);
	return 0;
}

/* One datagram of a UDP listener (at most one per wakeup: a flood
 * cannot hold the loop). */
static void datagram(struct sbx_sink *s, int fd, uint16_t port)
{
	static unsigned char buf[65536];
	union {
		char b[CMSG_SPACE(sizeof(struct in_pktinfo)) + 64];
		struct cmsghdr align;
	} cm;
	struct sockaddr_in src;
	struct iovec iov = {buf, sizeof buf};
	struct msghdr mh;
	struct in_pktinfo dst;
	ssize_t n;
	int have = 0, to_resolver;

	memset(&mh, 0, sizeof mh);
	mh.msg_name = &src;
	mh.msg_namelen = sizeof src;
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.b;
	mh.msg_controllen = sizeof cm.b;
	n = recvmsg(fd, &mh, MSG_DONTWAIT | MSG_TRUNC);
	if (n < 0)
		return;
	for (struct cmsghdr *c = CMSG_FIRSTHDR(&mh); c; c = CMSG_NXTHDR(&mh, c))
		if (c->cmsg_level == IPPROTO_IP && c->cmsg_type == IP_PKTINFO &&
		    c->cmsg_len >= CMSG_LEN(sizeof dst)) {
			memcpy(&dst, CMSG_DATA(c), sizeof dst);
			have = 1;
		}
	if (!have)
		return;
	/* a datagram to the resolver is recorded as its query; one to
	 * another address, or one that is no query, as traffic (n: the
	 * datagram's length, MSG_TRUNC; buf holds any UDP datagram) */
	to_resolver =
	    ntohl(dst.ipi_addr.s_addr) == SBX_SINK_RESOLVER && port == 53;
	if (!to_resolver)
		traffic(s, &src, ntohl(dst.ipi_addr.s_addr), port, buf,
			(size_t)n);
	if (port == 53 && mh.msg_namelen == sizeof src &&
	    answer(s, fd, buf, (size_t)n < sizeof buf ? (size_t)n : 0, &src,
		   &dst) < 0 &&
	    to_resolver)
		traffic(s, &src, SBX_SINK_RESOLVER, port, buf, (size_t)n);
}

/* The connection's record, at its end: an HTTP request (one the sink
 * answered) or other TCP, each within its budget, in the place of its
 * accept; the buffer goes to the record (or is freed past the budget) */
static void conn_end(struct sbx_sink *s, struct sbx_sink_conn *c)
{
	struct sbx_sink_event *e =
	    new_event(s, c->replied ? SBX_SINK_K_HTTP : SBX_SINK_K_TCP, c->seq);
	if (e) {
		unsigned char *fit = realloc(c->buf, c->len ? c->len : 1);
		if (fit) /* else the whole buffer stays */
			c->buf = fit;
		e->data = (char *)c->buf;
		e->len = c->len;
		e->bytes = c->bytes;
		e->addr = c->addr;
		e->port = c->port;
		e->saddr = c->saddr;
		e->sport = c->sport;
		e->replied = c->replied;
	} else {
		free(c->buf);
	}
	close(c->fd);
	c->fd = -1;
	c->buf = NULL;
}

static void conn_read(struct sbx_sink *s, struct sbx_sink_conn *c);

/* A free slot; with none, the oldest connection ends (read, answered if
 * it holds an HTTP request, recorded): a flood that holds connections
 * open never refuses the next one */
static struct sbx_sink_conn *free_conn(struct sbx_sink *s)
{
	struct sbx_sink_conn *old = &s->conn[0];
	for (int i = 0; i < SBX_SINK_CONNS; i++) {
		if (s->conn[i].fd < 0)
			return &s->conn[i];
		if (s->conn[i].seq < old->seq)
			old = &s->conn[i];
	}
	conn_read(s, old);
	if (old->fd >= 0)
		conn_end(s, old);
	return old;
}

/* A new connection: its destination is the accepted socket's own name.
 * 1 when one was taken from the listener's queue, 0 when none was. */
static int accept_one(struct sbx_sink *s, int fd, double now)
{
	struct sockaddr_in a, peer;
	socklen_t al = sizeof a, pl = sizeof peer;
	struct sbx_sink_conn *c;
	unsigned char *buf;
	int cfd = accept4(fd, (struct sockaddr *)&peer, &pl,
			  SOCK_NONBLOCK | SOCK_CLOEXEC);
	if (cfd < 0)
		return 0;
	buf = malloc(SBX_SINK_CAP);
	if (!buf || getsockname(cfd, (struct sockaddr *)&a, &al) < 0) {
		s->dropped[SBX_SINK_K_TCP]++;
		free(buf);
		close(cfd);
		return 1;
	}
	c = free_conn(s);
	memset(c, 0, sizeof *c);
	c->fd = cfd;
	c->seq = s->seq++;
	c->since = now;
	c->addr = ntohl(a.sin_addr.s_addr);
	c->port = ntohs(a.sin_port);
	c->saddr = ntohl(peer.sin_addr.s_addr);
	c->sport = ntohs(peer.sin_port);
	c->buf = buf;
	return 1;
}

/* The Content-Length a request's headers (h, n bytes, from the request
 * line to the blank line) name: a line that begins "content-length:" in
 * any case, digits after blanks; SBX_SINK_CAP for a value past it, 0 for
 * none or one not a number. */
static size_t content_length(const unsigned char *h, size_t n)
{
	static const char name[] = "content-length:";
	const size_t nl = sizeof name - 1;
	size_t v = 0;
	for (size_t i = 0; i + 1 + nl < n; i++) {
		size_t k = i + 1 + nl;
		if (h[i] != '\n' ||
		    strncasecmp((const char *)h + i + 1, name, nl))
			continue;
		while (k < n && (h[k] == ' ' || h[k] == '\t'))
			k++;
		for (; k < n && h[k] >= '0' && h[k] <= '9' && v < SBX_SINK_CAP;
		     k++)
			v = v * 10 + (size_t)(h[k] - '0');
		return v < SBX_SINK_CAP ? v : SBX_SINK_CAP;
	}
	return 0;
}

/* Whether buf (len bytes, the first of a connection) holds a whole HTTP
 * request: a method of capitals and a space, headers up to a blank line,
 * and the body they name (or as much as the cap leaves room for). */
static int http_whole(const unsigned char *buf, size_t len)
{
	const unsigned char *end;
	size_t m = 0, head;
	while (m < len && m < 16 && buf[m] >= 'A' && buf[m] <= 'Z')
		m++;
	if (m == 0 || m >= len || buf[m] != ' ')
		return 0;
	end = memmem(buf, len, "\r\n\r\n", 4);
	if (!end)
		return 0;
	head = (size_t)(end - buf) + 4;
	return len == SBX_SINK_CAP || len - head >= content_length(buf, head);
}

/* Answers a whole HTTP request once, then shuts the sending side: the
 * client reads the reply to its end and closes, which ends the record. */
static void http_reply(struct sbx_sink_conn *c)
{
	static const char reply[] = SBX_SINK_HTTP_REPLY;
	if (c->replied || !http_whole(c->buf, c->len))
		return;
	c->replied = 1;
	send(c->fd, reply, sizeof reply - 1, MSG_DONTWAIT | MSG_NOSIGNAL);
	shutdown(c->fd, SHUT_WR);
}

/* Reads what the connection has (at most SBX_SINK_READS reads: a sender
 * cannot hold the loop); the first SBX_SINK_CAP bytes are kept, the rest
 * counted.  Ends it at EOF or an error. */
static void conn_read(struct sbx_sink *s, struct sbx_sink_conn *c)
{
	static unsigned char past[65536]; /* bytes past the cap: counted */
	ssize_t n = -1;
	int err = EAGAIN;
	for (int k = 0; k < SBX_SINK_READS; k++) {
		if (c->len < SBX_SINK_CAP)
			n = recv(c->fd, c->buf + c->len, SBX_SINK_CAP - c->len,
				 MSG_DONTWAIT);
		else
			n = recv(c->fd, past, sizeof past, MSG_DONTWAIT);
		if (n <= 0)
			break;
		if (c->len < SBX_SINK_CAP)
			c->len += (size_t)n;
		c->bytes += (size_t)n;
	}
	if (n < 0)
		err = errno; /* before the reply's calls */
	if (c->len > 0)
		http_reply(c);
	if (n == 0 || (n < 0 && err != EAGAIN && err != EINTR))
		conn_end(s, c);
}

void sbx_sink_ready(struct sbx_sink *s, int fd, double now)
{
	for (int i = 0; i < s->nfd; i++)
		if (s->fd[i] == fd) {
			if (s->udp[i])
				datagram(s, fd, s->port[i]);
			else
				(void)accept_one(s, fd, now);
			return;
		}
	for (int i = 0; i < SBX_SINK_CONNS; i++)
		if (s->conn[i].fd == fd) {
			conn_read(s, &s->conn[i]);
			return;
		}
}

void sbx_sink_timers(struct sbx_sink *s, double now)
{
	for (int i = 0; i < SBX_SINK_CONNS; i++)
		if (s->conn[i].fd >= 0 &&
		    now >= s->conn[i].since + SBX_SINK_TIMEOUT)
			conn_end(s, &s->conn[i]);
}

static int by_seq(const void *a, const void *b)
{
	const struct sbx_sink_event *x = a, *y = b;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void sbx_sink_finish(struct sbx_sink *s, double now)
{
	/* what came before the box's end: queued datagrams, then the
	 * connections, each with what it had sent */
	for (int i = 0; i < s->nfd; i++) {
		if (s->udp[i]) {
			int k = 0;
			while (k++ < SBX_SINK_DRAIN &&
			       recv(s->fd[i], NULL, 0,
				    MSG_DONTWAIT | MSG_PEEK | MSG_TRUNC) >= 0)
				datagram(s, s->fd[i], s->port[i]);
		}
	}
	/* the connections still in a listener's queue: the kernel made them
	 * while the loop took one a wake, and the box ended first; each is
	 * taken and recorded as any (the oldest ended when all are open) */
	for (int i = 0; i < s->nfd; i++)
		for (int k = 0; !s->udp[i] && k < SBX_SINK_DRAIN &&
				accept_one(s, s->fd[i], now);
		     k++)
			;
	for (int i = 0; i < SBX_SINK_CONNS; i++)
		if (s->conn[i].fd >= 0) {
			conn_read(s, &s->conn[i]);
			if (s->conn[i].fd >= 0)
				conn_end(s, &s->conn[i]);
		}
	for (int i = 0; i < s->nfd; i++)
		close(s->fd[i]);
	s->nfd = 0;
	/* the records in the order the sink saw them (a connection's was
	 * made at its end); the names' index is no longer needed */
	if (s->nev > 1)
		qsort(s->ev, s->nev, sizeof *s->ev, by_seq);
	free(s->names);
	s->names = NULL;
}

void sbx_sink_close(struct sbx_sink *s)
{
	for (int i = 0; i < s->nfd; i++)
		close(s->fd[i]);
	s->nfd = 0;
	for (int i = 0; i < SBX_SINK_CONNS; i++)
		if (s->conn[i].fd >= 0) {
			close(s->conn[i].fd);
			s->conn[i].fd = -1;
			free(s->conn[i].buf);
			s->conn[i].buf = NULL;
		}
	for (size_t i = 0; i < s->nev; i++)
		free(s->ev[i].data);
	free(s->ev);
	s->ev = NULL;
	s->nev = s->cap_ev = 0;
	free(s->names);
	s->names = NULL;
}
