/* SPDX-License-Identifier: MIT */
/*
 * sink.h: the network sink of a box (sink.c).  The box's network
 * namespace holds one route, `local 0.0.0.0/0 dev lo`: every IPv4 address
 * is the box's own, so a connect or a datagram to any address on a port
 * the sink listens on reaches a socket of the supervisor and nothing
 * leaves the namespace (it has no interface but lo).  The box's init
 * adds the route and opens the listeners (bind 0.0.0.0:port, TCP and UDP,
 * plus UDP 53 for the resolver) while it holds the namespace's
 * capabilities, and hands them to the supervisor in one SBX_MSG_SINK
 * message with SCM_RIGHTS.  The supervisor answers DNS queries on port 53
 * (A: the sink address, unless a rule says NXDOMAIN; every other type:
 * no answer; repeats of one query are one record with a count), records
 * the first bytes of each TCP connection (reading it to EOF or
 * SBX_SINK_TIMEOUT, and counting what passes the cap) and of each
 * datagram, and closes.  A
 * connection whose first bytes are a whole HTTP request (a method, the
 * headers' blank line and the body its Content-Length names) is answered
 * SBX_SINK_HTTP_REPLY once and its sending side shut; any other is never
 * answered.
 */
#ifndef SBX_SINK_H
#define SBX_SINK_H

#include "plan.h" /* the sink's plan and message: SBX_SINK_PORTS, _FDS */

#include <stddef.h>
#include <stdint.h>

/* Open TCP connections at once; a new one past them ends the oldest
 * (read, answered if it holds an HTTP request, recorded): a flood of
 * connections never refuses the next */
#define SBX_SINK_CONNS 16
#define SBX_SINK_CAP 4096    /* bytes recorded per connection or datagram */
#define SBX_SINK_TIMEOUT 2.0 /* seconds a connection is read */
#define SBX_SINK_READS 16    /* reads of one connection per wakeup */
/* The budgets: records kept per kind (sized far past what a compiler, a
 * package build or a test run makes: docs/standard-box.md); what does not
 * fit is still answered as before and counted in dropped[kind].  With
 * the cap, a box's records hold at most about 14 MiB. */
#define SBX_SINK_DNS 4096   /* distinct queries (name, type, answer) */
#define SBX_SINK_TCP 1024   /* connections that held no HTTP request */
#define SBX_SINK_UDP 1024   /* datagrams (a query to the resolver is DNS) */
#define SBX_SINK_HTTP 1024  /* connections the sink answered with HTTP */
#define SBX_SINK_DRAIN 4096 /* datagrams read per listener at the end */
#define SBX_SINK_WATCH (SBX_SINK_FDS + SBX_SINK_CONNS)
#define SBX_SINK_RESOLVER 0x7f000035u /* 127.0.0.53, host order */
/* What the sink answers a whole HTTP request with, on any TCP port: a
 * downloader then sends its request and reads a reply, as from a server */
#define SBX_SINK_HTTP_REPLY                                                    \
	"HTTP/1.1 200 OK\r\nContent-Type: text/html\r\n"                       \
	"Content-Length: 14\r\nConnection: close\r\n\r\n<html></html>\n"

/* The kinds of records, each with its budget */
enum sbx_sink_kind {
	SBX_SINK_K_DNS,
	SBX_SINK_K_TCP,
	SBX_SINK_K_UDP,
	SBX_SINK_K_HTTP,
	SBX_SINK_KINDS
};

struct sbx_sink_conn {
	int fd; /* -1: free */
	unsigned long seq;
	double since;
	uint32_t addr, saddr; /* the destination, the sender (host order) */
	uint16_t port, sport;
	int replied;
	size_t len;	    /* bytes in buf, at most SBX_SINK_CAP */
	size_t bytes;	    /* bytes received */
	unsigned char *buf; /* SBX_SINK_CAP bytes */
};

struct sbx_sink_event {
	unsigned long seq; /* the order the sink saw them (a connection: its
			      accept) */
	int dns;	   /* 1: a query; 0: traffic */
	int udp;	   /* traffic: 1 UDP, 0 TCP */
	uint32_t addr;	   /* traffic: the destination (host order) */
	uint16_t port;
	uint32_t saddr; /* the sender's address and port (host order) */
	uint16_t sport;
	int replied;	     /* TCP: the sink answered SBX_SINK_HTTP_REPLY */
	uint16_t qtype;	     /* dns */
	int answer;	     /* dns: 0 none, 1 the sink address, 2 NXDOMAIN */
	unsigned long count; /* dns: the queries of this name and type */
	size_t bytes;	     /* traffic: bytes received (past len: cut) */
	char *data;	     /* dns: the name; traffic: the first bytes */
	size_t len;
};

struct sbx_sink {
	const struct sbx_sink_plan *plan;
	int fd[SBX_SINK_FDS];
	int udp[SBX_SINK_FDS];
	uint16_t port[SBX_SINK_FDS];
	int nfd;
	struct sbx_sink_conn conn[SBX_SINK_CONNS];
	struct sbx_sink_event *ev;
	size_t nev, cap_ev;
	unsigned long seq;
	size_t kept[SBX_SINK_KINDS];
	unsigned long dropped[SBX_SINK_KINDS]; /* past a budget */
	/* the DNS records by name, open addressing in 2 * SBX_SINK_DNS
	 * slots: the hash keyed by seed (a sample cannot aim its names at
	 * one chain), and 1 + the record's index (0: free) */
	struct sbx_sink_name {
		uint32_t hash, ev;
	} * names;
	uint32_t seed;
};

struct cmsghdr;
void sbx_sink_init(struct sbx_sink *s, const struct sbx_sink_plan *p);
/* Takes the listeners of an SBX_MSG_SINK message (c: its SCM_RIGHTS);
 * with s NULL, closes them. */
void sbx_sink_take(struct sbx_sink *s, const struct cmsghdr *c);
/* The descriptors to poll for POLLIN (returns how many, at most
 * SBX_SINK_WATCH), and the earliest deadline in *next (-1: none). */
int sbx_sink_watches(const struct sbx_sink *s, int *fds, double *next);
/* Acts on a ready descriptor fd, and on the deadlines passed at now. */
void sbx_sink_ready(struct sbx_sink *s, int fd, double now);
void sbx_sink_timers(struct sbx_sink *s, double now);
/* Reads what is left (the queued datagrams, the connections still in a
 * listener's queue, taken at now), records every open connection, closes
 * all; the records are then in the order the sink saw them. */
void sbx_sink_finish(struct sbx_sink *s, double now);
void sbx_sink_close(struct sbx_sink *s);

#endif
