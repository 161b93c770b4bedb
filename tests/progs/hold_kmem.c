/* SPDX-License-Identifier: MIT */
/*
 * hold_kmem KIND MiB [PATH]: holds MiB mebibytes where the processes of a
 * box do not have them resident, then prints "held N" (bytes) and sleeps;
 * a refusal prints "refused N CALL ERRNO" (N: bytes held before it) and
 * sleeps too, so that the box is either stopped or ends on its wall clock.
 *
 *   tmpfs  files of 4 MiB under PATH (a tmpfs: /tmp, /dev/shm, /work)
 *   shm    SysV segments of 4 MiB, filled, detached
 *   msg    SysV message queues, filled until the kernel refuses
 *   sem    SysV semaphore sets of 32000 semaphores (about 2 MiB each)
 *   memfd  memfds of 4 MiB, written, never mapped
 *   sock   unix stream socket pairs, filled until they block, in
 *          processes of 96 pairs each (RLIMIT_NOFILE is per process)
 *   tcp    the same with TCP connections over lo, never read
 *   dgram  unix datagram socket pairs: the sender fills its peer's queue
 *          and closes, the receiver never reads
 *   embryo connections to a unix stream listener that never accepts:
 *          each client fills its connection and closes
 *   netlink route netlink sockets whose answers are never read, in
 *          processes of 96 sockets each
 *   pipe   pipes filled until they block, in processes of 96 each (not
 *          counted: see docs/limits.md)
 */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <netinet/in.h>
#include <signal.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ipc.h>
#include <sys/mman.h>
#include <sys/msg.h>
#include <sys/sem.h>
#include <sys/shm.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <sys/wait.h>
#include <unistd.h>

#define CHUNK (4L << 20)

static char block[1 << 16];

static _Noreturn void hold(const char *what, long long n, const char *call)
{
	if (call)
		printf("refused %lld %s %s\n", n, call, strerrorname_np(errno));
	else
		printf("%s %lld\n", what ? what : "held", n);
	fflush(stdout);
	for (;;)
		pause();
}

static int fill(int fd, long len)
{
	for (long off = 0; off < len; off += (long)sizeof block)
		if (write(fd, block, sizeof block) != (ssize_t)sizeof block)
			return -1;
	return 0;
}

/* a connected TCP pair over lo */
static int tcp_pair(int sv[2])
{
	struct sockaddr_in a = {.sin_family = AF_INET};
	socklen_t al = sizeof a;
	int l = socket(AF_INET, SOCK_STREAM, 0);
	a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	if (l < 0 || bind(l, (struct sockaddr *)&a, sizeof a) < 0 ||
	    listen(l, 1) < 0 || getsockname(l, (struct sockaddr *)&a, &al) < 0)
		return -1;
	sv[0] = socket(AF_INET, SOCK_STREAM, 0);
	if (sv[0] < 0 || connect(sv[0], (struct sockaddr *)&a, sizeof a) < 0)
		return -1;
	sv[1] = accept(l, NULL, NULL);
	close(l);
	return sv[1] < 0 ? -1 : 0;
}

/* 96 route netlink sockets, each asked for lo's link until its receive
 * buffer is full; returns the bytes asked for (as the kernel answered) */
static long long netlink_batch(void)
{
	long long n = 0;
	for (int i = 0; i < 96; i++) {
		struct {
			struct nlmsghdr h;
			struct ifinfomsg i;
		} q = {{sizeof q, RTM_GETLINK, NLM_F_REQUEST, 0, 0},
		       {.ifi_index = 1}};
		int s = socket(AF_NETLINK, SOCK_RAW, NETLINK_ROUTE),
		    big = 1 << 30;
		if (s < 0)
			break;
		setsockopt(s, SOL_SOCKET, SO_RCVBUF, &big, sizeof big);
		for (;;) {
			/* SK_MEMINFO_RMEM_ALLOC: what its receive queue holds
			 */
			unsigned m0[SK_MEMINFO_VARS], m1[SK_MEMINFO_VARS];
			socklen_t l0 = sizeof m0, l1 = sizeof m1;
			if (getsockopt(s, SOL_SOCKET, SO_MEMINFO, m0, &l0) <
				0 ||
			    send(s, &q, sizeof q, 0) < 0 ||
			    getsockopt(s, SOL_SOCKET, SO_MEMINFO, m1, &l1) <
				0 ||
			    m1[SK_MEMINFO_RMEM_ALLOC] <=
				m0[SK_MEMINFO_RMEM_ALLOC])
				break; /* the kernel dropped the answer */
			n += m1[SK_MEMINFO_RMEM_ALLOC] -
			     m0[SK_MEMINFO_RMEM_ALLOC];
		}
	}
	return n;
}

/* fills 96 socket pairs and returns the bytes queued */
static long long sock_batch(int tcp)
{
	long long n = 0;
	if (tcp == 2)
		return netlink_batch();
	if (tcp == 3) {
		for (int i = 0; i < 96; i++) {
			int p[2];
			ssize_t w;
			if (pipe2(p, O_NONBLOCK) < 0)
				break;
			fcntl(p[1], F_SETPIPE_SZ, 1 << 20);
			while ((w = write(p[1], block, 4096)) > 0)
				n += w;
		}
		return n;
	}
	for (int i = 0; i < 96; i++) {
		int sv[2], big = 1 << 20;
		ssize_t w;
		if (tcp ? tcp_pair(sv) < 0
			: socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
			break;
		setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
		fcntl(sv[0], F_SETFL, O_NONBLOCK);
		while ((w = write(sv[0], block, 4096)) > 0)
			n += w;
	}
	return n;
}

int main(int argc, char **argv)
{
	const char *kind = argc > 1 ? argv[1] : "";
	long long want = argc > 2 ? atoll(argv[2]) << 20 : 0, n = 0;

	memset(block, 'k', sizeof block);
	if (want <= 0) {
		fprintf(stderr, "usage: hold_kmem KIND MiB [PATH]\n");
		return 2;
	}
	if (strcmp(kind, "tmpfs") == 0 && argc > 3) {
		for (int i = 0; n < want; i++) {
			char path[4096];
			int fd;
			snprintf(path, sizeof path, "%s/hold.%d", argv[3], i);
			fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0600);
			if (fd < 0)
				hold(NULL, n, "open");
			if (fill(fd, CHUNK) < 0)
				hold(NULL, n, "write");
			close(fd);
			n += CHUNK;
		}
	} else if (strcmp(kind, "shm") == 0) {
		while (n < want) {
			int id = shmget(IPC_PRIVATE, CHUNK, IPC_CREAT | 0600);
			char *p;
			if (id < 0)
				hold(NULL, n, "shmget");
			p = shmat(id, NULL, 0);
			if (p == (void *)-1)
				hold(NULL, n, "shmat");
			for (long off = 0; off < CHUNK; off += 4096)
				p[off] = 1;
			shmdt(p);
			n += CHUNK;
		}
	} else if (strcmp(kind, "msg") == 0) {
		struct {
			long type;
			char text[8192];
		} m;
		m.type = 1;
		memset(m.text, 'm', sizeof m.text);
		while (n < want) {
			int id = msgget(IPC_PRIVATE, IPC_CREAT | 0600);
			if (id < 0)
				hold(NULL, n, "msgget");
			while (n < want &&
			       msgsnd(id, &m, sizeof m.text, IPC_NOWAIT) == 0)
				n += (long long)sizeof m.text;
		}
	} else if (strcmp(kind, "dgram") == 0) {
		while (n < want) {
			int sv[2], big = 1 << 30;
			ssize_t w;
			if (socketpair(AF_UNIX, SOCK_DGRAM, 0, sv) < 0)
				hold(NULL, n, "socketpair");
			setsockopt(sv[0], SOL_SOCKET, SO_SNDBUF, &big,
				   sizeof big);
			fcntl(sv[0], F_SETFL, O_NONBLOCK);
			while ((w = write(sv[0], block, sizeof block)) > 0)
				n += w;
			close(sv[0]);
		}
	} else if (strcmp(kind, "embryo") == 0) {
		struct sockaddr_un a = {.sun_family = AF_UNIX};
		socklen_t al = offsetof(struct sockaddr_un, sun_path) + 7;
		int l = socket(AF_UNIX, SOCK_STREAM, 0);
		memcpy(a.sun_path, "\0embryo", 7);
		if (l < 0 || bind(l, (struct sockaddr *)&a, al) < 0 ||
		    listen(l, 128) < 0)
			hold(NULL, n, "listen");
		while (n < want) {
			int c = socket(AF_UNIX, SOCK_STREAM, 0), big = 1 << 30;
			ssize_t w;
			if (c < 0 || connect(c, (struct sockaddr *)&a, al) < 0)
				hold(NULL, n, "connect");
			setsockopt(c, SOL_SOCKET, SO_SNDBUF, &big, sizeof big);
			fcntl(c, F_SETFL, O_NONBLOCK);
			while ((w = write(c, block, sizeof block)) > 0)
				n += w;
			close(c);
		}
	} else if (strcmp(kind, "sem") == 0) {
		while (n < want) {
			if (semget(IPC_PRIVATE, 32000, IPC_CREAT | 0600) < 0)
				hold(NULL, n, "semget");
			n += 32000LL * 64;
		}
	} else if (strcmp(kind, "memfd") == 0) {
		while (n < want) {
			int fd = memfd_create("hold", MFD_CLOEXEC);
			if (fd < 0)
				hold(NULL, n, "memfd_create");
			if (fill(fd, CHUNK) < 0)
				hold(NULL, n, "write");
			n += CHUNK;
		}
	} else if (strcmp(kind, "sock") == 0 || strcmp(kind, "tcp") == 0 ||
		   strcmp(kind, "netlink") == 0 || strcmp(kind, "pipe") == 0) {
		int p[2];
		if (pipe(p) < 0)
			return 1;
		while (n < want) {
			long long got = 0;
			pid_t pid = fork();
			if (pid < 0)
				hold(NULL, n, "fork");
			if (pid == 0) {
				got = sock_batch(kind[0] == 't'	  ? 1
						 : kind[0] == 'n' ? 2
						 : kind[0] == 'p' ? 3
								  : 0);
				if (write(p[1], &got, sizeof got) < 0)
					_exit(1);
				for (;;)
					pause();
			}
			if (read(p[0], &got, sizeof got) != (ssize_t)sizeof got)
				hold(NULL, n, "read");
			if (got == 0)
				hold(NULL, n, "socketpair");
			n += got;
		}
	} else {
		fprintf(stderr, "hold_kmem: unknown kind %s\n", kind);
		return 2;
	}
	hold("held", n, NULL);
}
