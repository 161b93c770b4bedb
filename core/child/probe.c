/* SPDX-License-Identifier: MIT */
/*
 * probe.c: what the command's process says of itself before its filter
 * (its status, mounts and namespaces, with a pidfd and a pipe that ends at
 * its execve), and the explain channel's announcement of the listener's
 * descriptor number.
 * Runs between clone and execve (child.h): raw system calls and
 * async-signal-safe libc calls only, every failure sent as (stage, errno,
 * index) by sbx_die.
 */
#include "child.h"

#include "fdpass.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/syscall.h>

/*
 * The box's own view of the command's process just before the filter:
 * /proc/self/status, /proc/self/mountinfo and the namespace links, as one
 * datagram of NUL-separated texts, with two descriptors attached: the read
 * end of a close-on-exec pipe whose write end only this process holds (it
 * reaches EOF when the execve has happened, or the process is gone) and a
 * pidfd of this process.  The supervisor reads the command's status again
 * from outside once the execve has happened (control.c sbx_probe_exec): the
 * seccomp filter, no_new_privs and the capabilities are verified there, on
 * the program's own process.  Mounts and namespaces are taken here: neither
 * the filter nor execve changes them.  A failure here only leaves claims
 * unconfirmed (reported failed, never verified).
 *
 * Trust boundary: this runs before the filter on purpose.  A profile may
 * refuse or trap any call (openat, read, readlink, sendmsg, close, write);
 * after the filter, nothing of sbxlua runs but execve.
 */
void sbx_send_probe(void)
{
	static const char *const ns[] = {"user", "mnt", "pid",	  "ipc",
					 "uts",	 "net", "cgroup", NULL};
	static char buf[SBX_PROBE_MAX];
	struct sbx_msg h = {SBX_MSG_PROBE, 0, 0, -1, 0};
	size_t n = sizeof h, room, nfds = 0;
	int ex[2] = {-1, -1}, fds[2];

	memcpy(buf, &h, sizeof h);
	room = sizeof buf - n - 1;
	n += sbx_slurp("/proc/self/status", buf + n, room / 4);
	buf[n++] = '\0';
	n += sbx_slurp("/proc/self/mountinfo", buf + n, sizeof buf - n - 512);
	buf[n++] = '\0';
	for (int i = 0; ns[i]; i++) {
		char path[32] = "/proc/self/ns/";
		ssize_t r;
		size_t l = strlen(ns[i]);
		strcat(path, ns[i]);
		if (n + l + 64 > sizeof buf)
			break;
		r = readlink(path, buf + n, 48);
		if (r > 0) {
			n += (size_t)r;
			buf[n++] = '\n';
		}
	}
	/* getpid() is this process's number in the box's pid namespace,
	 * where pidfd_open looks it up */
	fds[1] = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (fds[1] >= 0 && pipe2(ex, O_CLOEXEC) == 0) {
		fds[0] = ex[0];
		nfds = 2;
	}
	(void)sbx_send_fds(CTL, buf, n, fds, nfds);
	/* ex[1] stays open until the execve closes it */
	sbx_drop(ex[0], 0);
	sbx_drop(fds[1], 0);
}

/*
 * The explain channel (notify.c): the filter is loaded with a new listener,
 * which the kernel puts at the lowest free descriptor (close-on-exec).
 * Nothing of sbxlua may run after the filter, so that number is said
 * before: this process takes no descriptor between here and the seccomp
 * call, and the supervisor takes the listener from that slot with
 * pidfd_getfd (through the pidfd attached) once it is filled.  The execve
 * that follows is notified (spec.c gate_filter), so the program starts only
 * when the supervisor holds the listener and answers.
 */
void sbx_announce_listener(void)
{
	struct sbx_msg h = {SBX_MSG_LISTENER, 0, 0, -1, 0};
	int pidfd, r;

	/* the pidfd takes the lowest free slot; closed after the message,
	 * that slot is the lowest free one again: the listener's */
	pidfd = (int)syscall(SYS_pidfd_open, getpid(), 0);
	if (pidfd < 0)
		sbx_die(SBX_ST_LISTENER, -1);
	h.index = pidfd;
	r = sbx_send_fds(CTL, &h, sizeof h, &pidfd, 1);
	if (r < 0) {
		errno = -r;
		sbx_die(SBX_ST_LISTENER, -1);
	}
	close(pidfd);
}
