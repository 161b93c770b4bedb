/* SPDX-License-Identifier: MIT */
/*
 * fdpass.c: descriptors over the control socket (fdpass.h).
 */
#include "fdpass.h"

#include <errno.h>
#include <stdint.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>

/* ETOOMANYREFS: the descriptors in flight on unix sockets, counted per
 * user, pass the sender's RLIMIT_NOFILE.  Every box of one host id is one
 * user, so other boxes' hand-overs the supervisor has not read yet count
 * against this one's (sixteen boxes starting at once, the command's
 * limit 256): it waits for the supervisor to read them, 1 ms a try, at
 * most SEND_WAITS tries, then fails as before. */
#define SEND_WAITS 2000

int sbx_send_fds(int sock, const void *buf, size_t len, const int *fds,
		 size_t n)
{
	union {
		char b[CMSG_SPACE(sizeof(int) * SBX_FDPASS_MAX)];
		struct cmsghdr align;
	} cm;
	struct iovec iov = {(void *)(uintptr_t)buf, len};
	struct msghdr mh;
	ssize_t w;

	if (n > SBX_FDPASS_MAX)
		return -EINVAL;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	if (n > 0) {
		struct cmsghdr *c;
		memset(&cm, 0, sizeof cm);
		mh.msg_control = cm.b;
		mh.msg_controllen = CMSG_SPACE(sizeof(int) * n);
		c = CMSG_FIRSTHDR(&mh);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int) * n);
		memcpy(CMSG_DATA(c), fds, sizeof(int) * n);
	}
	for (int waits = 0;;) {
		struct timespec ms = {0, 1000000};
		w = sendmsg(sock, &mh, MSG_NOSIGNAL);
		if (w >= 0 || (errno != EINTR && errno != ETOOMANYREFS))
			break;
		if (errno == ETOOMANYREFS) {
			if (++waits > SEND_WAITS)
				break;
			nanosleep(&ms, NULL);
		}
	}
	return w < 0 ? -errno : 0;
}

size_t sbx_cmsg_fds(const struct cmsghdr *c, int *fds, size_t max)
{
	size_t n;

	if (!c || c->cmsg_level != SOL_SOCKET || c->cmsg_type != SCM_RIGHTS ||
	    c->cmsg_len < CMSG_LEN(0))
		return 0;
	n = (c->cmsg_len - CMSG_LEN(0)) / sizeof(int);
	if (n > max)
		n = max;
	memcpy(fds, CMSG_DATA(c), n * sizeof(int));
	return n;
}
