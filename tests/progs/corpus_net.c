/* SPDX-License-Identifier: MIT */
/*
 * corpus_net: a loopback TCP and UDP client and server in one process, one
 * step of the strict profile's corpus (scripts/trace-profile.sh).  Needs
 * only 127.0.0.1 (a box's network namespace has lo up).  Prints "net ok"
 * and exits 0; any failure prints its step and exits 1.
 * With --seccomp FILE, the work runs under that filter (corpus.h).
 */
#include <arpa/inet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "corpus.h"

static int fail(const char *step)
{
	perror(step);
	return 1;
}

/* a socket of type bound to 127.0.0.1 on a free port, its address in *a */
static int bound(int type, struct sockaddr_in *a)
{
	socklen_t len = sizeof *a;
	int one = 1, s = socket(AF_INET, type, 0);

	if (s < 0)
		return -1;
	memset(a, 0, sizeof *a);
	a->sin_family = AF_INET;
	a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one) != 0 ||
	    bind(s, (struct sockaddr *)a, sizeof *a) != 0 ||
	    getsockname(s, (struct sockaddr *)a, &len) != 0) {
		close(s);
		return -1;
	}
	return s;
}

int main(int argc, char **argv)
{
	struct sockaddr_in a, from;
	socklen_t len = sizeof from;
	char buf[16];
	struct iovec iov = {buf, sizeof buf};
	struct msghdr msg = {0};
	int srv, cli, conn, u1, u2;

	if (corpus_seccomp(argc, argv) != 0)
		return 1;
	srv = bound(SOCK_STREAM, &a);
	if (srv < 0 || listen(srv, 1) != 0)
		return fail("tcp listen");
	cli = socket(AF_INET, SOCK_STREAM, 0);
	if (cli < 0 || connect(cli, (struct sockaddr *)&a, sizeof a) != 0)
		return fail("tcp connect");
	conn = accept(srv, NULL, NULL);
	if (conn < 0 || send(cli, "ping", 4, 0) != 4 ||
	    recv(conn, buf, sizeof buf, 0) != 4 ||
	    write(conn, "pong", 4) != 4 || read(cli, buf, sizeof buf) != 4 ||
	    memcmp(buf, "pong", 4) != 0)
		return fail("tcp exchange");
	if (shutdown(cli, SHUT_WR) != 0 || recv(conn, buf, sizeof buf, 0) != 0)
		return fail("tcp shutdown");
	close(conn);
	close(cli);
	close(srv);

	u1 = bound(SOCK_DGRAM, &a);
	u2 = socket(AF_INET, SOCK_DGRAM, 0);
	if (u1 < 0 || u2 < 0)
		return fail("udp socket");
	if (sendto(u2, "ping", 4, 0, (struct sockaddr *)&a, sizeof a) != 4 ||
	    recvfrom(u1, buf, sizeof buf, 0, (struct sockaddr *)&from, &len) !=
		4)
		return fail("udp sendto");
	msg.msg_name = &from;
	msg.msg_namelen = len;
	msg.msg_iov = &iov;
	msg.msg_iovlen = 1;
	iov.iov_len = 4;
	if (sendmsg(u1, &msg, 0) != 4)
		return fail("udp sendmsg");
	msg.msg_name = NULL;
	msg.msg_namelen = 0;
	iov.iov_len = sizeof buf;
	if (recvmsg(u2, &msg, 0) != 4 || memcmp(buf, "ping", 4) != 0)
		return fail("udp recvmsg");
	close(u1);
	close(u2);
	printf("net ok\n");
	return 0;
}
