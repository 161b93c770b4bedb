/* SPDX-License-Identifier: MIT */
/*
 * procev.c: the deaths of a box's processes that its init does not see.
 *
 * The box's init reaps the command, the orphans and what is left at the
 * end (reap.c); a process reaped by its own parent never reaches it.  The
 * proc connector (NETLINK_CONNECTOR, CN_IDX_PROC) reports every fork, exec
 * and exit of the host, with the exit's wait status; the supervisor opens
 * it before the box exists and follows the box by fork events from its
 * init's host pid, so membership is exact: a process is the box's if its
 * parent was when it was forked.  The events come in the order the kernel
 * sent them (a child's fork before anything the child does).
 *
 * An exit event is sent after the parent was told (exit_notify): by then
 * the parent may have reaped it.  What the kernel keeps of the zombie (CPU
 * time on the clock RLIMIT_CPU is checked against, its limits, its pid in
 * the box) is read only if it is still there, and only if the same zombie
 * stays there for every read (a /proc/<pid> directory opened first reads
 * nothing once its process is reaped, whatever takes its number).
 *
 * Trust: the events come from the kernel; what /proc says of a box process
 * (its name) is the box's and is passed on as text, never interpreted.
 * The socket lives in the caller's network namespace: the connector
 * refuses a subscription from any other (ECONNREFUSED).
 *
 * One socket for every box of this process at once (a run_many): the
 * kernel sends every event of the host to each subscribed socket, so 64
 * sockets would each be read for the events of all 64 boxes and of the
 * host.  The boxes that follow events share the socket; what is read from
 * it goes to each of them (members are looked up by pid), and the socket
 * is closed with the last of them.  The supervisor runs one thread.
 */
#include "procev.h"

#include "compat.h"
#include "fileio.h"
#include "plan.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/cn_proc.h>
#include <linux/connector.h>
#include <linux/netlink.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>

/* Linux 6.6: a subscription may name the events it wants (the headers
 * here are older). */
struct procev_input {
	uint32_t mcast_op;
	uint32_t event_type;
};
#define EV_FORK 0x00000001u
#define EV_EXEC 0x00000002u
#define EV_COMM 0x00000200u
#define EV_EXIT 0x80000000u

#define RCVBUF (4 << 20) /* asked; rmem_max caps it without CAP_NET_ADMIN */
#define SHARERS 64	 /* boxes of one run_many, at most */

static int shared_fd = -1;
static struct sbx_procev *sharers[SHARERS];
static size_t nsharers;

/* pe joins the open shared socket; 0, or -1 when there is none or no
 * room (then pe opens a socket of its own) */
static int share(struct sbx_procev *pe)
{
	if (shared_fd < 0 || nsharers == SHARERS)
		return -1;
	sharers[nsharers++] = pe;
	pe->fd = shared_fd;
	pe->on = 1;
	return 0;
}

/* pe leaves; 1 when it held the shared socket's last reference (or a
 * socket of its own): then the caller closes it */
static int unshare_fd(struct sbx_procev *pe)
{
	size_t i;
	for (i = 0; i < nsharers && sharers[i] != pe; i++)
		;
	if (i == nsharers)
		return 1; /* its own */
	sharers[i] = sharers[--nsharers];
	if (nsharers > 0)
		return 0;
	shared_fd = -1;
	return 1;
}

void sbx_procev_init(struct sbx_procev *pe,
		     void (*on_death)(void *ctx, const struct sbx_death *d),
		     void *ctx)
{
	memset(pe, 0, sizeof *pe);
	pe->fd = -1;
	pe->on_death = on_death;
	pe->ctx = ctx;
}

void sbx_procev_fail(struct sbx_procev *pe, const char *why, int err)
{
	if (!pe->why) {
		pe->why = why;
		pe->err = err;
	}
	pe->on = 0;
}

void sbx_procev_close(struct sbx_procev *pe)
{
	if (pe->fd >= 0 && !unshare_fd(pe))
		pe->fd = -1; /* others still read the shared socket */
	if (pe->fd >= 0) {
		/* the kernel makes events only while someone listens */
		struct {
			struct nlmsghdr n;
			struct cn_msg c;
			uint32_t op;
		} __attribute__((packed)) m;
		memset(&m, 0, sizeof m);
		m.n.nlmsg_len = sizeof m;
		m.n.nlmsg_type = NLMSG_DONE;
		m.c.id.idx = CN_IDX_PROC;
		m.c.id.val = CN_VAL_PROC;
		m.c.len = sizeof m.op;
		m.op = PROC_CN_MCAST_IGNORE;
		send(pe->fd, &m, sizeof m, MSG_DONTWAIT);
		close(pe->fd);
		pe->fd = -1;
	}
	free(pe->tab);
	pe->tab = NULL;
	pe->cap = pe->n = 0;
}

static int subscribe(int fd, uint32_t ack, const struct procev_input *in,
		     size_t len)
{
	struct {
		struct nlmsghdr n;
		struct cn_msg c;
		struct procev_input in;
	} __attribute__((packed)) m;
	memset(&m, 0, sizeof m);
	m.n.nlmsg_len = (uint32_t)(sizeof m.n + sizeof m.c + len);
	m.n.nlmsg_type = NLMSG_DONE;
	m.c.id.idx = CN_IDX_PROC;
	m.c.id.val = CN_VAL_PROC;
	m.c.ack = ack;
	m.c.len = (uint16_t)len;
	m.in = *in;
	return send(fd, &m, m.n.nlmsg_len, 0) < 0 ? -1 : 0;
}

/*
 * The plain subscription first: the kernel answers it at once (the
 * answer is queued when send returns) with an error code, and every
 * listener of the group gets that answer, so ours is told by its ack
 * number.  Then the same with the event filter of Linux 6.6 (fork, exec,
 * comm, exit): an older kernel ignores a request of that size, and the
 * socket keeps every event, which is correct, only dearer.
 */
int sbx_procev_open(struct sbx_procev *pe)
{
	struct sockaddr_nl a = {.nl_family = AF_NETLINK,
				.nl_groups = CN_IDX_PROC};
	struct procev_input in = {PROC_CN_MCAST_LISTEN, 0};
	static uint32_t serial;
	uint32_t ack = ((uint32_t)getpid() << 8) ^ ++serial;
	int size = RCVBUF, got = 0;
	char buf[4096];

	if (share(pe) == 0)
		return 0;
	pe->fd = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC | SOCK_NONBLOCK,
			NETLINK_CONNECTOR);
	if (pe->fd < 0) {
		sbx_procev_fail(pe, "socket", errno);
		return -1;
	}
	/* past the host's rmem_max only with CAP_NET_ADMIN */
	if (setsockopt(pe->fd, SOL_SOCKET, SO_RCVBUFFORCE, &size, sizeof size))
		setsockopt(pe->fd, SOL_SOCKET, SO_RCVBUF, &size, sizeof size);
	if (bind(pe->fd, (struct sockaddr *)&a, sizeof a) < 0) {
		sbx_procev_fail(pe, "bind", errno);
		goto fail;
	}
	if (subscribe(pe->fd, ack, &in, sizeof in.mcast_op) < 0) {
		sbx_procev_fail(pe, "subscribe", errno);
		goto fail;
	}
	for (;;) {
		ssize_t n = recv(pe->fd, buf, sizeof buf, 0);
		const struct nlmsghdr *h = (const void *)buf;
		const struct cn_msg *c;
		struct proc_event e;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS)
			continue;
		if (n < (ssize_t)(sizeof *h + sizeof *c + 16))
			break;
		c = NLMSG_DATA(h);
		/* the event follows a 20-byte cn_msg: copied out, since a
		 * struct proc_event needs 8-byte alignment */
		memcpy(&e, c->data, sizeof e);
		if (e.what == PROC_EVENT_NONE && c->ack == ack + 1) {
			got = 1;
			if (e.event_data.ack.err) {
				sbx_procev_fail(pe, "subscribe",
						(int)e.event_data.ack.err);
				goto fail;
			}
			break;
		}
	}
	if (!got) {
		/* the kernel ignores a subscriber outside its initial pid
		 * and user namespaces */
		sbx_procev_fail(pe, "no answer to the subscription", 0);
		goto fail;
	}
	in.event_type = EV_FORK | EV_EXEC | EV_COMM | EV_EXIT;
	subscribe(pe->fd, ack + 2, &in, sizeof in);
	pe->on = 1;
	if (shared_fd < 0) {
		shared_fd = pe->fd;
		sharers[nsharers++] = pe;
	}
	return 0;
fail:
	close(pe->fd);
	pe->fd = -1;
	return -1;
}

/* ---- members: open addressing on the host tgid, linear probing ---- */

static size_t slot(const struct sbx_procev *pe, pid_t pid)
{
	return ((size_t)(uint32_t)pid * 2654435761u) & (pe->cap - 1);
}

static struct sbx_procev_member *find(struct sbx_procev *pe, pid_t pid)
{
	if (!pe->cap)
		return NULL;
	for (size_t i = slot(pe, pid);; i = (i + 1) & (pe->cap - 1)) {
		if (pe->tab[i].tgid == pid)
			return &pe->tab[i];
		if (pe->tab[i].tgid == 0)
			return NULL;
	}
}

static struct sbx_procev_member *add(struct sbx_procev *pe, pid_t pid)
{
	struct sbx_procev_member *m = find(pe, pid);
	if (m)
		return m;
	if ((pe->n + 1) * 2 > pe->cap) {
		size_t oc = pe->cap, nc = oc ? oc * 2 : 256;
		struct sbx_procev_member *ot = pe->tab,
					 *nt = calloc(nc, sizeof *nt);
		if (!nt) {
			sbx_procev_fail(pe, "not enough memory", 0);
			return NULL;
		}
		pe->tab = nt;
		pe->cap = nc;
		for (size_t i = 0; i < oc; i++) {
			size_t k;
			if (!ot[i].tgid)
				continue;
			for (k = slot(pe, ot[i].tgid); pe->tab[k].tgid;
			     k = (k + 1) & (nc - 1))
				;
			pe->tab[k] = ot[i];
		}
		free(ot);
	}
	size_t k = slot(pe, pid);
	while (pe->tab[k].tgid)
		k = (k + 1) & (pe->cap - 1);
	m = &pe->tab[k];
	memset(m, 0, sizeof *m);
	m->tgid = pid;
	pe->n++;
	return m;
}

/* Removes a member, moving back the entries its slot held up. */
static void drop(struct sbx_procev *pe, struct sbx_procev_member *m)
{
	size_t i = (size_t)(m - pe->tab), j = i, mask = pe->cap - 1;
	pe->tab[i].tgid = 0;
	pe->n--;
	for (;;) {
		size_t k;
		j = (j + 1) & mask;
		if (!pe->tab[j].tgid)
			return;
		k = slot(pe, pe->tab[j].tgid);
		/* j's entry may move to i if i lies cyclically in [k, j) */
		if ((j > i && (k <= i || k > j)) ||
		    (j < i && k <= i && k > j)) {
			pe->tab[i] = pe->tab[j];
			pe->tab[j].tgid = 0;
			i = j;
		}
	}
}

int sbx_procev_settled(const struct sbx_procev *pe)
{
	return pe->n <= 1; /* init alone (or nothing known) */
}

void sbx_procev_track(struct sbx_procev *pe, pid_t init)
{
	struct sbx_procev_member *m;
	if (!pe->on)
		return;
	pe->init = init;
	m = add(pe, init);
	if (m)
		m->threads = 1;
	pe->live = pe->peak = 1; /* init, as the sampler counts it */
}

/* ---- what /proc keeps of a process ---- */

/* A comm file's text, without its newline. */
static int read_comm(int dfd, const char *name, char comm[16])
{
	char buf[32];
	ssize_t n = sbx_read_once_at(dfd, name, O_NOFOLLOW, buf, sizeof buf);
	if (n <= 0)
		return 0;
	if (buf[n - 1] == '\n')
		n--;
	if (n > 15)
		n = 15;
	memcpy(comm, buf, (size_t)n);
	comm[n] = '\0';
	return 1;
}

/* The last NSpid: number of a status (the pid in the box). */
static int parse_status(const char *s, int *boxpid)
{
	const char *p = strstr(s, "\nNSpid:");
	int ok = 0;
	if (p) {
		const char *e = strchr(p + 1, '\n'), *q = e ? e : p + strlen(p);
		while (q > p && (q[-1] < '0' || q[-1] > '9'))
			q--;
		while (q > p && q[-1] >= '0' && q[-1] <= '9')
			q--;
		*boxpid = atoi(q);
		ok = 1;
	}
	return ok;
}

/* The name of a live member, after its execve (its comm file: the
 * cheapest read there is; status, with its pid in the box, costs four
 * times as much here, and the pid is read from the zombie instead). */
static void read_exec(struct sbx_procev *pe, struct sbx_procev_member *m)
{
	char path[40];
	snprintf(path, sizeof path, "/proc/%d/comm", (int)m->tgid);
	pe->records++;
	if (!read_comm(AT_FDCWD, path, m->comm))
		m->comm[0] = '\0'; /* gone: its old name is not its own */
}

/*
 * The zombie of pid, still unreaped: its state and wait status (the last
 * field of stat) must be the exit's; then its CPU time on CPUCLOCK_PROF and
 * its limits, read by number; then its status through the same directory,
 * which reads only while that very process is there.  1 if all of it held.
 */
static int read_zombie(struct sbx_procev *pe, pid_t pid, int code,
		       struct sbx_death *d)
{
	char path[32], buf[2048], *p;
	struct rlimit rl;
	int dfd, ok = 0, boxpid = 0;
	char comm[16];
	int64_t cpu = -1, soft = -1, hard = -1, fsize = -1;
	snprintf(path, sizeof path, "/proc/%d", (int)pid);
	dfd = open(path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dfd < 0)
		return 0;
	pe->records++;
	if (sbx_read_once_at(dfd, "stat", O_NOFOLLOW, buf, sizeof buf) <= 0 ||
	    !(p = strrchr(buf, ')')) || p[1] != ' ' || p[2] != 'Z')
		goto out;
	p = strrchr(buf, ' ');
	if (!p || atoi(p + 1) != code)
		goto out;
	cpu = sbx_process_cpu_ns(pid);
	if (syscall(SYS_prlimit64, pid, RLIMIT_CPU, NULL, &rl) == 0) {
		if (rl.rlim_cur != RLIM_INFINITY)
			soft = (int64_t)rl.rlim_cur;
		if (rl.rlim_max != RLIM_INFINITY)
			hard = (int64_t)rl.rlim_max;
	} else
		goto out;
	if (syscall(SYS_prlimit64, pid, RLIMIT_FSIZE, NULL, &rl) < 0)
		goto out;
	if (rl.rlim_cur != RLIM_INFINITY)
		fsize = (int64_t)rl.rlim_cur;
	if (!read_comm(dfd, "comm", comm) ||
	    sbx_read_once_at(dfd, "status", O_NOFOLLOW, buf, sizeof buf) <= 0 ||
	    !strstr(buf, "State:\tZ") || !parse_status(buf, &boxpid))
		goto out;
	d->cpu_ns = cpu;
	d->cpu_soft = soft;
	d->cpu_hard = hard;
	d->fsize = fsize;
	if (boxpid > 0)
		d->pid = boxpid;
	memcpy(d->comm, comm, sizeof comm);
	ok = 1;
out:
	close(dfd);
	return ok;
}

static int limit_signal(int sig)
{
	return sig == SIGXCPU || sig == SIGXFSZ || sig == SIGKILL ||
	       sig == SIGSYS;
}

static void on_exit_event(struct sbx_procev *pe, const struct proc_event *e)
{
	pid_t tgid = e->event_data.exit.process_tgid;
	int code = (int)e->event_data.exit.exit_code, sig = code & 0x7f;
	struct sbx_procev_member *m = find(pe, tgid);
	if (!m || tgid == pe->init)
		return;
	/* a process whose parent is init is reaped and recorded by init;
	 * a SIGKILL once the box is ending is its end, not a limit */
	if (!m->dead && sig && sig != 0x7f && limit_signal(sig) &&
	    e->event_data.exit.parent_tgid != pe->init &&
	    !(sig == SIGKILL && pe->teardown)) {
		struct sbx_death d;
		memset(&d, 0, sizeof d);
		d.pid = m->boxpid;
		d.status = code;
		d.flags = SBX_DEATH_CONNECTOR;
		d.cpu_ns = d.cpu_soft = d.cpu_hard = d.fsize = -1;
		memcpy(d.comm, m->comm, sizeof d.comm);
		if (!read_zombie(pe, tgid, code, &d))
			d.flags |= SBX_DEATH_UNREAD;
		if (sig == SIGXFSZ) /* until init's search answers */
			d.flags |= SBX_DEATH_FILES_PARTIAL;
		pe->on_death(pe->ctx, &d);
	}
	if (sig)
		m->dead = 1;
	if (pe->live > 0)
		pe->live--;
	if (--m->threads <= 0)
		drop(pe, m);
}

/* One more live task of the box (a fork seen), and its peak. */
static void task_born(struct sbx_procev *pe)
{
	if (++pe->live > pe->peak)
		pe->peak = pe->live;
}

static void on_event(struct sbx_procev *pe, const struct proc_event *e)
{
	struct sbx_procev_member *m, *p;
	switch (e->what) {
	case PROC_EVENT_FORK: {
		pid_t ct = e->event_data.fork.child_tgid;
		char comm[16];
		if (e->event_data.fork.child_pid != ct) {
			/* a thread: counted in its process */
			if ((m = find(pe, ct)) != NULL) {
				m->threads++;
				if (ct != pe->init)
					task_born(pe);
			}
			break;
		}
		if (ct == pe->init) {
			if (e->event_data.fork.parent_tgid == getpid())
				pe->seen_init = 1;
			break;
		}
		/* the parent's name, copied before the table moves */
		p = find(pe, e->event_data.fork.parent_tgid);
		if (p)
			memcpy(comm, p->comm, sizeof comm);
		m = find(pe, ct);
		if (m) { /* a number used again: its exits were lost */
			pe->live -= (unsigned long)m->threads < pe->live
					? (unsigned long)m->threads
					: pe->live;
			drop(pe, m);
		}
		if (p && (m = add(pe, ct)) != NULL) {
			m->threads = 1;
			memcpy(m->comm, comm, sizeof comm);
			task_born(pe);
		}
		break;
	}
	case PROC_EVENT_EXEC:
		m = find(pe, e->event_data.exec.process_tgid);
		if (m && m->tgid != pe->init)
			read_exec(pe, m);
		break;
	case PROC_EVENT_COMM:
		m = find(pe, e->event_data.comm.process_tgid);
		if (m && e->event_data.comm.process_pid ==
			     e->event_data.comm.process_tgid) {
			memcpy(m->comm, e->event_data.comm.comm, 16);
			m->comm[15] = '\0';
		}
		break;
	case PROC_EVENT_EXIT:
		on_exit_event(pe, e);
		break;
	default:
		break;
	}
}

/* The socket overran: every box reading it has lost events. */
static void overrun(struct sbx_procev *pe)
{
	int fd = pe->fd;
	if (fd == shared_fd) {
		while (nsharers > 0) {
			struct sbx_procev *o = sharers[--nsharers];
			sbx_procev_fail(
			    o, "events lost (receive buffer overrun)", 0);
			o->fd = -1;
		}
		shared_fd = -1;
	}
	sbx_procev_fail(pe, "events lost (receive buffer overrun)", 0);
	pe->fd = -1;
	close(fd);
}

void sbx_procev_read(struct sbx_procev *pe)
{
	char buf[8192] __attribute__((aligned(8)));
	while (pe->fd >= 0) {
		ssize_t n = recv(pe->fd, buf, sizeof buf, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno == ENOBUFS) {
			/* the receive buffer overran: events were lost, and
			 * membership can no longer be told; what was seen
			 * stays, nothing more is read */
			overrun(pe);
			return;
		}
		if (n <= 0)
			return;
		for (const struct nlmsghdr *h = (const void *)buf;
		     NLMSG_OK(h, (size_t)n); h = NLMSG_NEXT(h, n)) {
			const struct cn_msg *c = NLMSG_DATA(h);
			struct proc_event e; /* aligned: see sbx_procev_open */
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof *c) ||
			    c->id.idx != CN_IDX_PROC ||
			    c->len < sizeof(struct proc_event) ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof *c + c->len))
				continue;
			memcpy(&e, c->data, sizeof e);
			if (pe->fd != shared_fd) {
				pe->events++;
				if (pe->on)
					on_event(pe, &e);
				continue;
			}
			for (size_t i = 0; i < nsharers; i++) {
				struct sbx_procev *o = sharers[i];
				o->events++;
				if (o->on)
					on_event(o, &e);
			}
		}
	}
}
