/* SPDX-License-Identifier: MIT */
/*
 * control.c: the control socket of a running job, the supervisor's end of
 * the protocol of plan.h: setup failures, the exec, deaths init recorded,
 * the probe (what the command's process says of itself before its filter,
 * checked from outside after its execve), and the descriptors init hands
 * over (meters, written places, the sink, the explain channel's pidfd).
 */
#include "kept.h"
#include "super.h"

#include "fileio.h"
#include "lockguard.h"
#include "pidfd.h"
#include "stamp.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#define STATUS_MAX 16384 /* the command's /proc status read */

/*
 * Keeps the probe datagram's text and the descriptors that came with it
 * (fds[0]: the exec pipe, fds[1]: the command's pidfd; -1 if none).  The
 * status read inside is not kept as the command's: it was read before the
 * filter and the execve (sbx_probe_exec reads the program's own); only its
 * Uid: and Gid: lines are, in box_ids.
 */
static void keep_probe(struct sbx_job *j, const char *buf, size_t n, int fds[2])
{
	const char *text = buf + sizeof(struct sbx_msg), *rest = NULL;
	size_t len = n - sizeof(struct sbx_msg);
	if (!j->probe && n > sizeof(struct sbx_msg))
		rest = memchr(text, '\0', len);
	if (!rest)
		goto drop;
	j->box_ids_len = 0;
	for (const char *l = text; l < rest;) {
		const char *e = memchr(l, '\n', (size_t)(rest - l));
		size_t ll = e ? (size_t)(e - l + 1) : (size_t)(rest - l);
		if ((strncmp(l, "Uid:", 4) == 0 ||
		     strncmp(l, "Gid:", 4) == 0) &&
		    j->box_ids_len + ll <= sizeof j->box_ids) {
			memcpy(j->box_ids + j->box_ids_len, l, ll);
			j->box_ids_len += ll;
		}
		l += ll;
	}
	len -= (size_t)(rest - text);
	j->probe = malloc(len);
	if (!j->probe)
		goto drop;	     /* the claims stay unverified */
	memcpy(j->probe, rest, len); /* an empty status, \0, the rest */
	j->probe_len = len;
	if (fds[0] >= 0 && fds[1] >= 0) {
		fcntl(fds[0], F_SETFL, O_NONBLOCK);
		j->exec_fd = fds[0];
		j->cmd_pidfd = fds[1];
		return;
	}
drop:
	for (int i = 0; i < 2; i++)
		if (fds[i] >= 0)
			close(fds[i]);
}

/* Copies the lines of status to out, the box's own Uid: and Gid: lines
 * (j->box_ids) in place of those seen from here; returns the length (at
 * most the length of status plus box_ids_len). */
static size_t merge_status(const struct sbx_job *j, char *out,
			   const char *status)
{
	size_t n = 0;
	for (const char *l = status; *l;) {
		const char *e = strchr(l, '\n');
		size_t len = e ? (size_t)(e - l + 1) : strlen(l);
		if (strncmp(l, "Uid:", 4) == 0 || strncmp(l, "Gid:", 4) == 0) {
			const char *in = j->box_ids,
				   *end = j->box_ids + j->box_ids_len;
			while (in < end) {
				const char *ie =
				    memchr(in, '\n', (size_t)(end - in));
				size_t il = ie ? (size_t)(ie - in + 1)
					       : (size_t)(end - in);
				if (memcmp(in, l, 4) == 0) {
					memcpy(out + n, in, il);
					n += il;
					break;
				}
				in += il;
			}
		} else {
			memcpy(out + n, l, len);
			n += len;
		}
		l += len;
	}
	return n;
}

/*
 * The command's status, read from outside once its execve has happened
 * (the exec pipe at EOF) or it has ended (init keeps its zombie until the
 * supervisor has read this), becomes the probe's status: the filter,
 * no_new_privs and the capabilities are verified on the program's own
 * process, as the kernel holds them for it.  Read after the program
 * started, it can only be more restrictive than at the execve, never less:
 * no_new_privs and a filter cannot be removed, capability sets only shrink
 * (one exception errs the other way: in a user namespace the program made
 * itself, if its profile lets it, the sets are that namespace's, and the
 * claim is reported failed).  The process is named by its pidfd: /proc/<pid>
 * is opened, then the pidfd must still name that pid (not reaped, so the
 * number was not reused).  The status's Uid:
 * and Gid: lines are the host's ids seen from here; the box's own (from the
 * probe inside, which neither the filter nor an execve under no_new_privs
 * can change) stand in their place.  Anything that fails leaves the status
 * empty: its claims are reported failed, never verified.
 */
void sbx_probe_exec(struct sbx_job *j)
{
	static void *kept_status, *kept_merged;
	char *status = sbx_kept(&kept_status, STATUS_MAX),
	     *merged = sbx_kept(&kept_merged, STATUS_MAX + sizeof j->box_ids);
	char *np;
	size_t n = 0;
	pid_t pid;
	int dfd;

	sbx_close_fd(&j->exec_fd);
	if (j->cmd_pidfd < 0 || !j->probe || j->probe_len == 0 ||
	    j->probe[0] != '\0')
		goto out;
	if (j->have_cannot || (pid = sbx_pidfd_pid(j->cmd_pidfd)) <= 0)
		goto out;
	dfd = sbx_pidfd_proc(j->cmd_pidfd, pid); /* pidfd.h */
	if (dfd < 0)
		goto out;
	if (status && merged &&
	    sbx_read_at(dfd, "status", O_NOFOLLOW, status, STATUS_MAX) > 0)
		n = merge_status(j, merged, status);
	close(dfd);
	if (n == 0 || !(np = malloc(n + j->probe_len)))
		goto out;
	memcpy(np, merged, n);
	memcpy(np + n, j->probe, j->probe_len);
	free(j->probe);
	j->probe = np;
	j->probe_len += n;
out:
	sbx_close_fd(&j->cmd_pidfd);
}

/* One datagram of the control socket, like recv(MSG_DONTWAIT); fds gets
 * the two descriptors a probe carries (close-on-exec), else -1; the job
 * takes those of the memory meters (kmem.h), of the lock guard's places
 * (lockguard.c), of the written places (capture.c) and the sink's
 * listeners (sink.h): any other descriptor that came is closed. */
static ssize_t recv_ctl(struct sbx_job *j, char *buf, size_t size, int fds[2])
{
	int ctl = j->ctl;
	struct sbx_kmem *k = &j->kmem;
	struct sbx_sink *sk = &j->sink;
	union {
		struct cmsghdr align;
		char buf[CMSG_SPACE((SBX_KMEM_FDS > SBX_SINK_FDS
					 ? SBX_KMEM_FDS
					 : SBX_SINK_FDS) *
				    sizeof(int))];
	} cm;
	struct iovec iov = {buf, size};
	struct msghdr mh;
	struct cmsghdr *c;
	int got[2] = {-1, -1};
	ssize_t n;

	fds[0] = fds[1] = -1;
	memset(&mh, 0, sizeof mh);
	mh.msg_iov = &iov;
	mh.msg_iovlen = 1;
	mh.msg_control = cm.buf;
	mh.msg_controllen = sizeof cm.buf;
	n = recvmsg(ctl, &mh, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
	c = n >= 0 ? CMSG_FIRSTHDR(&mh) : NULL;
	if (n >= (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type ==
		SBX_MSG_METERS) {
		sbx_kmem_take(k, buf, c);
		return n;
	}
	if (n == (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type ==
		SBX_MSG_PLACES) {
		sbx_capture_take(&j->cap, buf, c);
		return n;
	}
	if (n == (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type ==
		SBX_MSG_LOCKS) {
		sbx_lock_take(&j->nt, c); /* lockguard.c */
		return n;
	}
	if (n >= (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type == SBX_MSG_SINK) {
		sbx_sink_take(sk, c);
		return n;
	}
	if (c && c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS &&
	    c->cmsg_len == CMSG_LEN(sizeof got))
		memcpy(got, CMSG_DATA(c), sizeof got);
	else if (c && c->cmsg_level == SOL_SOCKET &&
		 c->cmsg_type == SCM_RIGHTS &&
		 c->cmsg_len == CMSG_LEN(sizeof got[0]) &&
		 n == (ssize_t)sizeof(struct sbx_msg) &&
		 ((const struct sbx_msg *)(const void *)buf)->type ==
		     SBX_MSG_LISTENER) {
		memcpy(&fds[0], CMSG_DATA(c), sizeof fds[0]);
		return n;
	} else if (c) /* none kept: closed there */
		sbx_kmem_take(NULL, NULL, c);
	if (n > (ssize_t)sizeof(struct sbx_msg) &&
	    ((const struct sbx_msg *)(const void *)buf)->type ==
		SBX_MSG_PROBE) {
		fds[0] = got[0];
		fds[1] = got[1];
	} else {
		for (int i = 0; i < 2; i++)
			if (got[i] >= 0)
				close(got[i]);
	}
	return n;
}

/* The command has ended (init said so, and keeps its zombie): its status
 * from outside if not read yet, then init may let it go.  The events the
 * connector has queued came before the command's end: deaths by SIGKILL
 * after them are the box's end (init kills what is left). */
static void command_ended(struct sbx_job *j)
{
	struct sbx_msg done = {SBX_MSG_GO, 0, 0, -1, 0};
	sbx_stamp(SBX_T_ENDED);
	if (j->cmd_pidfd >= 0)
		sbx_probe_exec(j);
	if (j->deaths_sync) {
		sbx_procev_read(&j->pe);
		/* a following box lives on: its SIGKILLs are still deaths */
		j->pe.teardown = !j->plan->follow;
	}
	if (j->plan->probe || j->deaths_sync)
		send(j->ctl, &done, sizeof done, MSG_NOSIGNAL);
}

/* Every process of the box has ended (init said so, and waits): once the
 * connector has brought every one's exit event, the supervisor says
 * whether init must search the box's writable mounts for a file at the
 * size limit (a death by SIGXFSZ it did not see is named only on that).
 * Without the events (the connector lost them, or they did not all come
 * within a second) it answers with what it has. */
void sbx_answer_reaped(struct sbx_job *j, int late)
{
	struct sbx_msg m = {SBX_MSG_GO, 0, 0, -1, 0};
	if (j->answered || !j->reaped_at)
		return;
	sbx_procev_read(&j->pe);
	if (j->pe.on && !sbx_procev_settled(&j->pe)) {
		if (!late)
			return;
		sbx_procev_fail(&j->pe, "exit events missing at the end", 0);
	}
	for (int i = 0; i < j->ndeaths; i++)
		if ((j->deaths[i].flags & SBX_DEATH_CONNECTOR) &&
		    WIFSIGNALED(j->deaths[i].status) &&
		    WTERMSIG(j->deaths[i].status) == SIGXFSZ)
			m.status = 1;
	j->answered = 1;
	send(j->ctl, &m, sizeof m, MSG_NOSIGNAL);
}

/* init's search: its answer is each SIGXFSZ death the connector saw */
static void found(struct sbx_job *j, int flags)
{
	for (int i = 0; i < j->ndeaths; i++) {
		struct sbx_death *d = &j->deaths[i];
		if ((d->flags & SBX_DEATH_CONNECTOR) &&
		    WIFSIGNALED(d->status) && WTERMSIG(d->status) == SIGXFSZ)
			d->flags = (d->flags & ~(SBX_DEATH_FILE_AT_LIMIT |
						 SBX_DEATH_FILES_PARTIAL)) |
				   (flags & (SBX_DEATH_FILE_AT_LIMIT |
					     SBX_DEATH_FILES_PARTIAL));
	}
}

/* Keeps a death init recorded or the connector saw in the job's records;
 * the command's always has a place (the last one, when the others have
 * taken every other). */
void sbx_keep_death(void *job, const struct sbx_death *dp)
{
	struct sbx_job *j = job;
	struct sbx_death d = *dp;
	d.comm[sizeof d.comm - 1] = '\0';
	if (j->ndeaths == SBX_DEATH_MAX - 1 && !(d.flags & SBX_DEATH_COMMAND)) {
		j->deaths_unseen++;
		return;
	}
	if (j->ndeaths >= SBX_DEATH_MAX) {
		j->deaths_unseen++;
		return;
	}
	j->deaths[j->ndeaths++] = d;
}

void sbx_read_ctl(struct sbx_job *j)
{
	static char buf[SBX_PROBE_MAX + 64];
	struct sbx_msg m;
	ssize_t n;
	int fds[2];
	j->sink.plan = &j->plan->sink;
	while (j->ctl >= 0) {
		n = recv_ctl(j, buf, sizeof buf, fds);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			if (n == 0 || (errno != EAGAIN && errno != EWOULDBLOCK))
				sbx_close_fd(&j->ctl);
			return;
		}
		if (n < (ssize_t)sizeof m)
			continue;
		memcpy(&m, buf, sizeof m);
		if (m.type == SBX_MSG_PROBE) {
			keep_probe(j, buf, (size_t)n, fds);
			continue;
		}
		if (m.type == SBX_MSG_DEATH &&
		    n == (ssize_t)sizeof(struct sbx_death_msg)) {
			struct sbx_death d;
			memcpy(&d, buf + offsetof(struct sbx_death_msg, d),
			       sizeof d);
			d.flags &= SBX_DEATH_COMMAND | SBX_DEATH_FILE_AT_LIMIT |
				   SBX_DEATH_FILES_PARTIAL;
			sbx_keep_death(j, &d);
			continue;
		}
		if (m.type == SBX_MSG_OUTLIVED && j->plan->follow &&
		    n == (ssize_t)sizeof(struct sbx_outlived_msg)) {
			struct sbx_outlived_msg o;
			memcpy(&o, buf, sizeof o);
			sbx_outlived_add(j, &o);
			continue;
		}
		if (n != (ssize_t)sizeof m)
			continue;
		if (m.type == SBX_MSG_CANNOT && !j->have_cannot) {
			j->cannot = m;
			j->have_cannot = 1;
		} else if (m.type == SBX_MSG_EXEC) {
			j->execed = 1;
		} else if (m.type == SBX_MSG_LISTENER) {
			/* the explain channel: taken in the wait loop */
			if (j->io.notify && j->nt.pidfd < 0 && fds[0] >= 0) {
				j->nt.pidfd = fds[0];
				j->nt.want = m.index;
				j->nt.spec = j->io.notify;
			} else if (fds[0] >= 0) {
				close(fds[0]);
			}
		} else if (m.type == SBX_MSG_STATUS) {
			j->status = m.status;
			j->have_status = 1;
			j->cmd_end = sbx_now();
			command_ended(j);
		} else if (m.type == SBX_MSG_UNSEEN && m.index > 0) {
			j->deaths_unseen += (unsigned long)m.index;
		} else if (m.type == SBX_MSG_REAPED && j->deaths_sync &&
			   !j->reaped_at) {
			j->reaped_at = sbx_now();
			sbx_answer_reaped(j, 0);
		} else if (m.type == SBX_MSG_FOUND && j->answered) {
			found(j, m.status);
		}
	}
}
