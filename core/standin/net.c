/* SPDX-License-Identifier: MIT */
/*
 * The stand-ins that reach the network: nc (ncat, netcat), telnet and
 * socat connect for real (the box's network sees the connection) and
 * relay stdin and stdout or hand the socket to a program (-e, EXEC:);
 * tftp asks for its file; docker and kubectl try their daemons; the
 * capture and raw scanners try their raw socket, which a user is refused.
 */
#include "standin.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

/* a socket connected to host:port (type SOCK_STREAM or SOCK_DGRAM);
 * the descriptor, or -errno (EAI errors as -EHOSTUNREACH, message in
 * *why) */
static int dial(const char *host, const char *port, int type, const char **why)
{
	struct addrinfo hints = {.ai_family = AF_UNSPEC, .ai_socktype = type};
	struct addrinfo *res, *a;
	int fd = -1, err = ECONNREFUSED;
	int g = getaddrinfo(host, port, &hints, &res);

	if (g != 0) {
		*why = gai_strerror(g);
		return -EHOSTUNREACH;
	}
	for (a = res; a; a = a->ai_next) {
		fd = socket(a->ai_family, a->ai_socktype | SOCK_CLOEXEC,
			    a->ai_protocol);
		if (fd < 0) {
			err = errno;
			continue;
		}
		if (connect(fd, a->ai_addr, a->ai_addrlen) == 0)
			break;
		err = errno;
		close(fd);
		fd = -1;
	}
	freeaddrinfo(res);
	*why = strerror(err);
	return fd >= 0 ? fd : -err;
}

/* a socket that accepted one connection on port; the descriptor or
 * -errno */
static int accept_one(const char *port, int type)
{
	struct sockaddr_in sin = {.sin_family = AF_INET};
	int one = 1, fd, c;

	sin.sin_port = htons((unsigned short)atoi(port));
	fd = socket(AF_INET, type | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return -errno;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 ||
	    (type == SOCK_STREAM && listen(fd, 1) < 0)) {
		c = -errno;
		close(fd);
		return c;
	}
	if (type != SOCK_STREAM)
		return fd;
	c = accept4(fd, NULL, NULL, SOCK_CLOEXEC);
	close(fd);
	return c < 0 ? -errno : c;
}

static int copy_once(int from, int to)
{
	char buf[16384];
	ssize_t n = read(from, buf, sizeof(buf));

	if (n <= 0)
		return n < 0 && errno == EINTR ? 1 : 0;
	for (ssize_t off = 0; off < n;) {
		ssize_t w = write(to, buf + off, (size_t)(n - off));

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return 0;
		off += w;
	}
	return 1;
}

/* relays in -> sock and sock -> out until the peer closes; at the end of
 * in, the socket's sending side is shut */
static void relay(int in, int sock, int out)
{
	int in_open = 1;

	for (;;) {
		struct pollfd p[2] = {
		    {.fd = sock, .events = POLLIN},
		    {.fd = in_open ? in : -1, .events = POLLIN}};

		if (poll(p, 2, -1) < 0) {
			if (errno == EINTR)
				continue;
			return;
		}
		if (p[0].revents && !copy_once(sock, out))
			return;
		if (p[1].revents && !copy_once(in, sock)) {
			in_open = 0;
			shutdown(sock, SHUT_WR);
		}
	}
}

/* the program runs with the socket as its stdin, stdout and stderr */
static int hand_over(int sock, const char *prog, int shell)
{
	char copy[1024], *argv[32];
	int n = 0;

	dup2(sock, 0);
	dup2(sock, 1);
	dup2(sock, 2);
	if (shell) {
		char *sargv[] = {"/bin/sh", "-c", (char *)prog, NULL};
		su_exec(sargv);
		_exit(127);
	}
	snprintf(copy, sizeof(copy), "%s", prog);
	for (char *w = strtok(copy, " \t"); w && n < 31;
	     w = strtok(NULL, " \t"))
		argv[n++] = w;
	argv[n] = NULL;
	if (n > 0)
		su_exec(argv);
	_exit(127);
}

/* ---- nc, ncat, netcat ---- */

struct nc_opts {
	int listen, udp, zero, verbose;
	const char *exec, *cmd, *port, *host, *rport;
};

static void nc_parse(int argc, char **argv, struct nc_opts *o)
{
	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if (a[0] == '-' && a[1] == '-') {
			/* ncat's long options: the ones that change what runs
			 */
			const char *next = i + 1 < argc ? argv[i + 1] : NULL;

			if (!strcmp(a, "--exec") && next)
				o->exec = argv[++i];
			else if (!strcmp(a, "--sh-exec") && next)
				o->cmd = argv[++i];
			o->listen |= !strcmp(a, "--listen");
			o->udp |= !strcmp(a, "--udp");
			continue;
		}
		if (a[0] != '-' || !a[1]) {
			if (!o->host && !o->listen)
				o->host = a;
			else if (!o->rport)
				o->rport = a;
			continue;
		}
		for (const char *c = a + 1; *c; c++) {
			const char *v;

			if (!strchr("ecpwqsixXIOTV", *c)) {
				o->listen |= *c == 'l';
				o->udp |= *c == 'u';
				o->zero |= *c == 'z';
				o->verbose |= *c == 'v';
				continue;
			}
			v = c[1] ? c + 1 : (i + 1 < argc ? argv[++i] : "");
			if (*c == 'e')
				o->exec = v;
			else if (*c == 'c')
				o->cmd = v;
			else if (*c == 'p')
				o->port = v;
			break;
		}
	}
}

static int run_nc(int argc, char **argv)
{
	struct nc_opts o = {0};
	const char *why = "", *port;
	int type, fd;

	nc_parse(argc, argv, &o);
	type = o.udp ? SOCK_DGRAM : SOCK_STREAM;
	port = o.listen ? (o.port ? o.port : o.rport) : o.rport;
	if (!port || (!o.listen && !o.host)) {
		su_err("usage: nc [-46CDdFhklNnrStUuvZz] [-I length] [-i "
		       "interval] [-M ttl]\n");
		return 1;
	}
	fd = o.listen ? accept_one(port, type) : dial(o.host, port, type, &why);
	if (fd < 0 && strcmp(su_base(argv[0]), "ncat") == 0) {
		su_err("Ncat: %s.\n", o.listen ? strerror(-fd) : why);
		return 1;
	}
	if (fd < 0) {
		if (o.listen)
			su_err("nc: %s\n", strerror(-fd));
		else if (fd == -EHOSTUNREACH && *why)
			su_err("nc: getaddrinfo for host \"%s\" port %s: %s\n",
			       o.host, port, why);
		else
			su_err("nc: connect to %s port %s (%s) failed: %s\n",
			       o.host, port, o.udp ? "udp" : "tcp", why);
		return 1;
	}
	if (o.verbose && !o.listen)
		su_err("Connection to %s %s port [%s/*] succeeded!\n", o.host,
		       port, o.udp ? "udp" : "tcp");
	if (o.zero) {
		close(fd);
		return 0;
	}
	if (o.exec || o.cmd)
		return hand_over(fd, o.exec ? o.exec : o.cmd, o.cmd != NULL);
	relay(0, fd, 1);
	close(fd);
	return 0;
}

/* ---- telnet (netkit) ---- */

static int run_telnet(int argc, char **argv)
{
	const char *host = NULL, *port = "23", *why = "";
	int fd;

	for (int i = 1; i < argc; i++) {
		if (argv[i][0] == '-')
			continue;
		if (!host)
			host = argv[i];
		else
			port = argv[i];
	}
	if (!host)
		return 0;
	printf("Trying %s...\n", host);
	fflush(stdout);
	fd = dial(host, port, SOCK_STREAM, &why);
	if (fd < 0) {
		if (fd == -EHOSTUNREACH && *why)
			su_err("telnet: could not resolve %s/%s: %s\n", host,
			       port, why);
		else
			su_err("telnet: Unable to connect to remote host: %s\n",
			       why);
		return 1;
	}
	printf("Connected to %s.\nEscape character is '^]'.\n", host);
	fflush(stdout);
	relay(0, fd, 1);
	close(fd);
	printf("Connection closed by foreign host.\n");
	return 1;
}

/* ---- socat: the usual pairs (a connection with stdio or a program) ---- */

struct socat_end {
	int fd;		  /* a socket, or -1 */
	const char *prog; /* EXEC:/SYSTEM: */
	int shell, stdio;
};

static void socat_fail(const char *what, const char *detail)
{
	time_t now = time(NULL);
	char stamp[32];

	strftime(stamp, sizeof(stamp), "%Y/%m/%d %H:%M:%S", localtime(&now));
	su_err("%s socat[%ld] E %s%s\n", stamp, (long)getpid(), what, detail);
}

/* opens one address; 0, or 1 after saying why not */
static int socat_open(const char *addr, struct socat_end *e)
{
	char type[32], rest[1024], *comma, *colon;
	const char *why = "";

	snprintf(type, sizeof(type), "%.*s", (int)strcspn(addr, ":,"), addr);
	snprintf(rest, sizeof(rest), "%s",
		 addr + strlen(type) + (addr[strlen(type)] == ':'));
	for (char *c = type; *c; c++)
		*c = (char)(*c >= 'a' && *c <= 'z' ? *c - 32 : *c);
	e->fd = -1;
	if (!strcmp(type, "-") || !strcmp(type, "STDIO") ||
	    !strcmp(type, "STDIN") || !strcmp(type, "STDOUT"))
		return e->stdio = 1, 0;
	if (!strcmp(type, "EXEC") || !strcmp(type, "SYSTEM")) {
		if ((comma = strchr(rest, ',')))
			*comma = '\0';
		e->prog = strdup(rest);
		e->shell = type[0] == 'S';
		return 0;
	}
	if ((comma = strchr(rest, ',')))
		*comma = '\0';
	int udp = strncmp(type, "UDP", 3) == 0;
	if (strstr(type, "LISTEN")) {
		e->fd = accept_one(rest, udp ? SOCK_DGRAM : SOCK_STREAM);
		why = e->fd < 0 ? strerror(-e->fd) : "";
	} else if (!strncmp(type, "TCP", 3) || udp ||
		   !strcmp(type, "OPENSSL") || !strcmp(type, "SSL")) {
		colon = strrchr(rest, ':');
		if (!colon)
			return socat_fail("wrong number of parameters", ""), 1;
		*colon = '\0';
		e->fd =
		    dial(rest, colon + 1, udp ? SOCK_DGRAM : SOCK_STREAM, &why);
	} else {
		char d[1100];

		snprintf(d, sizeof(d), "\"%s\"", type);
		return socat_fail("unknown device/address ", d), 1;
	}
	if (e->fd < 0)
		return socat_fail("connect(): ", why), 1;
	return 0;
}

static int run_socat(int argc, char **argv)
{
	struct socat_end a = {0}, b = {0};
	int i = 1;

	while (i < argc && argv[i][0] == '-' && argv[i][1])
		i++;
	if (argc - i < 2) {
		socat_fail("exactly 2 addresses required (there are ",
			   "fewer)");
		return 1;
	}
	if (socat_open(argv[i], &a) || socat_open(argv[i + 1], &b))
		return 1;
	struct socat_end *sock = a.fd >= 0 ? &a : &b,
			 *other = sock == &a ? &b : &a;
	if (sock->fd < 0) {
		socat_fail("no network address given", "");
		return 1;
	}
	if (other->prog)
		return hand_over(sock->fd, other->prog, other->shell);
	if (other->fd >= 0) {
		relay(other->fd, sock->fd, other->fd);
		return 0;
	}
	relay(0, sock->fd, 1);
	return 0;
}

/* ---- tftp: a read request for the file, as busybox and tftp-hpa ask ---- */

static int tftp_get(int fd, const char *file)
{
	char pkt[600];
	int len =
	    snprintf(pkt, sizeof(pkt), "%c%c%s%coctet%c", 0, 1, file, 0, 0);
	struct pollfd p = {.fd = fd, .events = POLLIN};

	if (len <= 0 || send(fd, pkt, (size_t)len, 0) < 0) {
		su_err("tftp: sendto: %s\n", strerror(errno));
		return 1;
	}
	if (poll(&p, 1, 5000) <= 0) {
		su_err("tftp: timeout\n");
		return 1;
	}
	ssize_t n = recv(fd, pkt, sizeof(pkt) - 1, 0);
	if (n >= 4 && pkt[1] == 5) {
		pkt[n] = '\0';
		su_err("tftp: server error: (%d) %s\n", pkt[3], pkt + 4);
		return 1;
	}
	su_err("tftp: timeout\n");
	return 1;
}

static int run_tftp(int argc, char **argv)
{
	const char *host = NULL, *port = "69", *file = NULL, *why = "";

	for (int i = 1; i < argc; i++) {
		const char *a = argv[i];

		if ((!strcmp(a, "-r") || !strcmp(a, "-c") || !strcmp(a, "-l") ||
		     !strcmp(a, "-m")) &&
		    i + 1 < argc) {
			i++;
			if (a[1] == 'r' ||
			    (a[1] == 'c' && !strcmp(argv[i], "get") &&
			     i + 1 < argc && (i++, 1)))
				file = argv[i];
		} else if (a[0] != '-') {
			if (!host)
				host = a;
			else
				port = a;
		}
	}
	if (!host || !file) {
		su_err("Usage: tftp [OPTIONS] HOST [PORT]\n");
		return 1;
	}
	int fd = dial(host, port, SOCK_DGRAM, &why);
	if (fd < 0) {
		su_err("tftp: bad address '%s'\n", host);
		return 1;
	}
	int r = tftp_get(fd, file);
	close(fd);
	return r;
}

/* ---- docker, kubectl: their daemons are asked for, and absent ---- */

static int run_docker(int argc, char **argv)
{
	struct sockaddr_un sun = {.sun_family = AF_UNIX,
				  .sun_path = "/var/run/docker.sock"};
	int fd;

	if (argc >= 2 &&
	    (!strcmp(argv[1], "--version") || !strcmp(argv[1], "-v"))) {
		printf("Docker version 24.0.7, build afdd53b\n");
		return 0;
	}
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd >= 0 && connect(fd, (struct sockaddr *)&sun, sizeof(sun)) == 0) {
		close(fd);
		return 0;
	}
	if (fd >= 0)
		close(fd);
	su_err("Cannot connect to the Docker daemon at "
	       "unix:///var/run/docker.sock. Is the docker daemon running?\n");
	return 1;
}

static int run_kubectl(int argc, char **argv)
{
	const char *why = "";
	int fd;

	if (argc >= 3 && !strcmp(argv[1], "version") &&
	    !strcmp(argv[2], "--client")) {
		printf("Client Version: v1.28.2\n"
		       "Kustomize Version: "
		       "v5.0.4-0.20230601165947-6ce0bf390ce3\n");
		return 0;
	}
	fd = dial("127.0.0.1", "8080", SOCK_STREAM, &why);
	if (fd >= 0)
		close(fd);
	su_err("The connection to the server localhost:8080 was refused - did "
	       "you specify the right host or port?\n");
	return 1;
}

/* ---- tcpdump, masscan, hping3: the raw socket a user is refused ---- */

static int raw_socket(int family, int type, int proto)
{
	int fd = socket(family, type | SOCK_CLOEXEC, proto);

	if (fd < 0)
		return -errno;
	close(fd);
	return 0;
}

static int run_tcpdump(int argc, char **argv)
{
	const char *dev = "eth0";

	for (int i = 1; i < argc; i++) {
		if (!strcmp(argv[i], "--version")) {
			printf("tcpdump version 4.99.3\nlibpcap version 1.10.3 "
			       "(with TPACKET_V3)\n");
			return 0;
		}
		if (!strcmp(argv[i], "-i") && i + 1 < argc)
			dev = argv[++i];
	}
	int r = raw_socket(AF_PACKET, SOCK_RAW, htons(0x0003));
	su_err("tcpdump: %s: You don't have permission to perform this capture "
	       "on that device\n(socket: %s)\n",
	       dev, strerror(r < 0 ? -r : EPERM));
	return 1;
}

static int run_masscan(int argc, char **argv)
{
	if (argc < 2) {
		su_err(
		    "usage:\nmasscan -p80,8000-8100 10.0.0.0/8 --rate=10000\n");
		return 1;
	}
	raw_socket(AF_PACKET, SOCK_RAW, htons(0x0003));
	su_err("FAIL: permission denied\n"
	       "    [hint] need to sudo or run as root or something\n");
	return 1;
}

static int run_hping3(int argc, char **argv)
{
	raw_socket(AF_INET, SOCK_RAW, IPPROTO_RAW);
	su_err("[open_sockraw] socket(): Operation not permitted\n"
	       "[main] can't open raw socket\n");
	return 1;
}

const struct standin standin_net[] = {
    {"nc", run_nc},	      {"ncat", run_nc},
    {"netcat", run_nc},	      {"telnet", run_telnet},
    {"socat", run_socat},     {"tftp", run_tftp},
    {"docker", run_docker},   {"kubectl", run_kubectl},
    {"tcpdump", run_tcpdump}, {"masscan", run_masscan},
    {"hping3", run_hping3},   {NULL, NULL},
};
