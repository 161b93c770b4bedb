/* SPDX-License-Identifier: MIT */
/*
 * net.c: the box's network namespace, set up by init while it holds the
 * namespace's capabilities: lo up, and for the sink (sink.h) the route
 * that makes every IPv4 address the box's own and the listeners handed to
 * the supervisor.
 * Runs between clone and execve (child.h): raw system calls and
 * async-signal-safe libc calls only, every failure sent as (stage, errno,
 * index) by sbx_die.
 */
#include "child.h"

#include <errno.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <netinet/in.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

int sbx_lo_up(void)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), r;
	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	memcpy(ifr.ifr_name, "lo", 3);
	r = ioctl(s, SIOCGIFFLAGS, &ifr);
	if (r == 0) {
		ifr.ifr_flags |= IFF_UP | IFF_RUNNING;
		r = ioctl(s, SIOCSIFFLAGS, &ifr);
	}
	close(s);
	return r;
}

/*
 * The network sink (sink.h): `ip route add local 0.0.0.0/0 dev lo` in the
 * box's own network namespace (every IPv4 address is the box's, so
 * nothing is routed anywhere), then one listener per port and protocol,
 * bound to 0.0.0.0 while init holds the namespace's capabilities (ports
 * below 1024), sent to the supervisor; init keeps none of them.
 */
static int local_route(void)
{
	struct {
		struct nlmsghdr h;
		struct rtmsg r;
		struct rtattr a;
		int oif;
	} req;
	struct {
		struct nlmsghdr h;
		struct nlmsgerr e;
	} ack;
	struct ifreq ifr;
	struct sockaddr_nl k = {.nl_family = AF_NETLINK};
	int s = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, NETLINK_ROUTE);
	ssize_t n;

	if (s < 0)
		return -1;
	memset(&ifr, 0, sizeof ifr);
	memcpy(ifr.ifr_name, "lo", 3);
	if (ioctl(s, SIOCGIFINDEX, &ifr) < 0)
		return sbx_drop(s, -1);
	memset(&req, 0, sizeof req);
	req.h.nlmsg_len = sizeof req;
	req.h.nlmsg_type = RTM_NEWROUTE;
	req.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | NLM_F_CREATE;
	req.h.nlmsg_seq = 1;
	req.r.rtm_family = AF_INET;
	req.r.rtm_table = RT_TABLE_LOCAL;
	req.r.rtm_protocol = RTPROT_BOOT;
	req.r.rtm_scope = RT_SCOPE_HOST;
	req.r.rtm_type = RTN_LOCAL;
	req.a.rta_len = RTA_LENGTH(sizeof(int));
	req.a.rta_type = RTA_OIF;
	req.oif = ifr.ifr_ifindex;
	if (sendto(s, &req, sizeof req, 0, (struct sockaddr *)&k, sizeof k) !=
	    (ssize_t)sizeof req)
		return sbx_drop(s, -1);
	do
		n = recv(s, &ack, sizeof ack, 0);
	while (n < 0 && errno == EINTR);
	if (n < (ssize_t)sizeof ack || ack.h.nlmsg_type != NLMSG_ERROR) {
		errno = n < 0 ? errno : EPROTO;
		return sbx_drop(s, -1);
	}
	if (ack.e.error != 0) {
		errno = -ack.e.error;
		return sbx_drop(s, -1);
	}
	return sbx_drop(s, 0);
}

static int listener(int type, int port)
{
	struct sockaddr_in a = {.sin_family = AF_INET,
				.sin_port = htons((uint16_t)port)};
	int one = 1,
	    s = socket(AF_INET, type | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
	if (s < 0)
		return -1;
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) < 0 ||
	    (type == SOCK_DGRAM &&
	     setsockopt(s, IPPROTO_IP, IP_PKTINFO, &one, sizeof one) < 0) ||
	    bind(s, (struct sockaddr *)&a, sizeof a) < 0 ||
	    (type == SOCK_STREAM && listen(s, 16) < 0))
		return sbx_drop(s, -1);
	return s;
}

int sbx_start_sink(const struct sbx_sink_plan *sp)
{
	int fd[SBX_SINK_FDS], n = 0, r = 0;
	struct sbx_msg m = {SBX_MSG_SINK, 0, 0, 0, 0};

	if (local_route() < 0)
		return -1;
	fd[n] = listener(SOCK_DGRAM, 53); /* the resolver */
	r = fd[n] < 0 ? -1 : (n++, 0);
	for (int i = 0; i < sp->nports && r == 0; i++) {
		fd[n] = listener(SOCK_STREAM, sp->ports[i]);
		r = fd[n] < 0 ? -1 : (n++, 0);
		if (r == 0 && sp->ports[i] != 53) {
			fd[n] = listener(SOCK_DGRAM, sp->ports[i]);
			r = fd[n] < 0 ? -1 : (n++, 0);
		}
	}
	return sbx_hand_over(&m, fd, n, r);
}
