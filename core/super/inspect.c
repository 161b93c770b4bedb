/* SPDX-License-Identifier: MIT */
/*
 * inspect.c: the supervisor's side of content inspection (inspect.h): one
 * worker per sbxlua process (inspect_worker.c), forked on the first
 * request, a queue of requests sent one at a time, and the answers handed
 * back by callback.
 *
 * Nothing here waits on the worker: the loop (loop.c) polls its socket
 * while a request waits and calls sbx_inspect_service, which reads what
 * is there (MSG_DONTWAIT) and sends the next request; a request is one
 * datagram of at most SBX_MAGIC_BYTES, sent only when none is in flight,
 * so a send never blocks either.  A worker that does not answer by its
 * deadline (the run's budget left, at least INSPECT_FLOOR seconds of wall
 * clock per its CPU, and INSPECT_SLACK) is killed, its request skipped;
 * one that dies is reaped; a new one is forked for the next request, up
 * to INSPECT_RESTARTS in a row that never became ready, then every
 * request is skipped.  Its owner ends an idle worker when its runs are
 * collected (box.c: a run, a pool's last box, sbx.core.filetype), so
 * that sbxlua holds no descriptor of it between runs; the boxes of one
 * pool that never empties share one.
 *
 * The worker's bytes back (its answer) are the only thing read from it,
 * by their exact size; a type and a MIME type are cut and NUL-terminated
 * here whatever it sent.
 */
#include "inspect.h"

#include "compat.h"
#include "digest.h"
#include "fileio.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#define INSPECT_START 10.0 /* seconds a worker may take to be ready */
#define INSPECT_SLACK 1.0  /* seconds of wall clock past the budget left */
#define INSPECT_FLOOR 3.0  /* wall clock per CPU second (a loaded host) */
#define INSPECT_RESTARTS 16
/* seconds of a run's budget a request charges when its worker died or
 * overran on it (the worker cannot say what it used) */
#define INSPECT_LOST 0.5

struct sbx_inspect_req {
	struct sbx_inspect_req *next;
	struct sbx_inspect_run *run; /* NULL: cancelled (in flight only) */
	sbx_inspect_cb cb;
	void *ctx;
	size_t idx, len;
	unsigned char data[];
};

enum { W_NONE, W_STARTING, W_IDLE, W_BUSY, W_FAILED };

static struct {
	int state;
	pid_t pid;
	int pidfd, sock;
	double deadline; /* W_STARTING, W_BUSY: killed past it */
	/* the runs with requests queued, served in turn: one request of
	 * the first, which then goes last (a box of many files does not
	 * hold back another's few) */
	struct sbx_inspect_run *head, *tail;
	struct sbx_inspect_req *cur; /* in flight (W_BUSY) */
	unsigned starts;
} w = {W_NONE, 0, -1, -1, 0, NULL, NULL, NULL, 0};

/* The compiled YARA rules the next worker loads, and the area a scan's
 * bytes are put in (shared with every worker forked once it exists). */
static struct {
	unsigned char *blob;
	size_t len;
	unsigned char *area;
	/* sbx_inspect_yara_inline's answers */
	int inline_on;
	struct sbx_yara_inline *kept;
	size_t nkept, lost;
} yara;

/* A type request's answer during a run with rules (its text not empty):
 * kept by the sha256 and size of its bytes. */
static void keep_inline(const struct sbx_inspect_req *q, const char *text)
{
	struct sbx_yara_inline *k;
	if (!yara.inline_on || !text[0])
		return;
	if (yara.nkept >= SBX_YARA_INLINE_MAX) {
		yara.lost++;
		return;
	}
	k = realloc(yara.kept, (yara.nkept + 1) * sizeof *k);
	if (!k) {
		yara.lost++;
		return;
	}
	yara.kept = k;
	k += yara.nkept;
	k->text = strdup(text);
	if (!k->text) {
		yara.lost++;
		return;
	}
	sbx_sha256_data(q->data + 1, q->len - 1, k->sha256);
	k->len = q->len - 1;
	yara.nkept++;
}

/* The run goes last in the turn (if it has a request queued). */
static void ring_add(struct sbx_inspect_run *run)
{
	if (run->ringed || !run->head)
		return;
	run->next = NULL;
	if (w.tail)
		w.tail->next = run;
	else
		w.head = run;
	w.tail = run;
	run->ringed = 1;
}

/* The run leaves the turn. */
static void ring_remove(struct sbx_inspect_run *run)
{
	struct sbx_inspect_run **p = &w.head, *prev = NULL;
	if (!run->ringed)
		return;
	while (*p && *p != run) {
		prev = *p;
		p = &(*p)->next;
	}
	if (*p)
		*p = run->next;
	if (w.tail == run)
		w.tail = prev;
	run->next = NULL;
	run->ringed = 0;
}

static double now_s(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

static void req_free(struct sbx_inspect_req *q)
{
	if (q->idx == SBX_INSPECT_OWN)
		free(q->ctx);
	free(q);
}

static void skip(struct sbx_inspect_req *q)
{
	if (q->run) {
		q->run->pending--;
		q->run->skipped++;
	}
	req_free(q);
}

/* Forks the worker; W_STARTING until its first message. */
static int start(double now)
{
	int sv[2];
	pid_t pid;
	if (w.starts >= INSPECT_RESTARTS)
		return -EAGAIN;
	w.starts++;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		int e = errno;
		close(sv[0]);
		close(sv[1]);
		return -e;
	}
	if (pid == 0)
		sbx_inspect_worker_main(sv[1]);
	close(sv[1]);
	w.pid = pid;
	w.pidfd = (int)syscall(SYS_pidfd_open, pid, 0);
	w.sock = sv[0];
	w.state = W_STARTING;
	w.deadline = now + INSPECT_START;
	return 0;
}

/* Ends the worker (killed when alive) and reaps it; its request, if
 * one was in flight, is skipped. */
static void lose(void)
{
	if (w.pid > 0) {
		if (w.pidfd >= 0)
			sbx_pidfd_send_signal(w.pidfd, SIGKILL);
		else
			kill(w.pid, SIGKILL);
		while (waitpid(w.pid, NULL, __WALL) < 0 && errno == EINTR)
			;
	}
	sbx_close_fd(&w.pidfd);
	sbx_close_fd(&w.sock);
	w.pid = 0;
	if (w.cur && w.cur->run)
		w.cur->run->used += INSPECT_LOST;
	if (w.cur)
		skip(w.cur);
	w.cur = NULL;
	w.state = W_NONE;
}

/* The budget a request of run has left, in seconds of CPU. */
static double left(const struct sbx_inspect_run *run)
{
	return run ? SBX_INSPECT_BUDGET - run->used : SBX_INSPECT_BUDGET;
}

/* Drops every request the run has queued (skipped), out of the turn. */
static void drop_queued(struct sbx_inspect_run *run)
{
	ring_remove(run);
	while (run->head) {
		struct sbx_inspect_req *q = run->head;
		run->head = q->next;
		skip(q);
	}
	run->tail = NULL;
}

/* Sends a request: a type's bytes as they are; a scan's put in the
 * shared area first, its datagram saying how many and libyara's timeout
 * (at most the run's budget left). */
static int send_req(const struct sbx_inspect_req *q, double left_s)
{
	unsigned char msg[1 + sizeof(struct sbx_yara_req)];
	struct sbx_yara_req y = {q->len - 1, SBX_YARA_TIMEOUT};
	const void *p = q->data;
	size_t n = q->len;
	if (q->data[0] == 'Y') {
		if (!yara.area)
			return -ENOENT;
		if (left_s < y.timeout)
			y.timeout = left_s < 1 ? 1 : (int32_t)left_s;
		memcpy(yara.area, q->data + 1, q->len - 1);
		msg[0] = 'Y';
		memcpy(msg + 1, &y, sizeof y);
		p = msg;
		n = sizeof msg;
	}
	if (send(w.sock, p, n, MSG_DONTWAIT | MSG_NOSIGNAL) != (ssize_t)n)
		return -EIO;
	return 0;
}

/* The next request: the first of the run whose turn it is, all of the
 * run's skipped when its budget is spent; sent when the worker is idle,
 * a worker forked when none. */
static void kick(double now)
{
	while (w.head && w.state != W_STARTING && w.state != W_BUSY) {
		struct sbx_inspect_run *run = w.head;
		struct sbx_inspect_req *q = run->head;
		if (left(run) <= 0 || w.state == W_FAILED) {
			run->budget_hit |= left(run) <= 0;
			drop_queued(run);
			continue;
		}
		if (w.state == W_NONE) {
			if (start(now) < 0)
				w.state = W_FAILED;
			continue;
		}
		if (send_req(q, left(run)) < 0) {
			lose();
			continue;
		}
		ring_remove(run);
		run->head = q->next;
		if (!run->head)
			run->tail = NULL;
		ring_add(run); /* last in the turn, if it has more */
		q->next = NULL;
		w.cur = q;
		w.state = W_BUSY;
		w.deadline = now + left(run) * INSPECT_FLOOR + INSPECT_SLACK;
	}
}

/* A scan's answer: its matches' text (cut and NUL-terminated here), or
 * why libyara stopped. */
static void on_scanned(struct sbx_inspect_req *q,
		       const struct sbx_inspect_answer *a)
{
	static char text[SBX_YARA_TEXT];
	q->run->used += (double)a->cpu_us / 1e6;
	q->run->pending--;
	q->run->typed++;
	if (a->err) {
		q->cb(q->ctx, q->idx, NULL,
		      a->err == ETIME ? "timeout" : "error");
		return;
	}
	memcpy(text, a->text, sizeof text);
	text[sizeof text - 1] = '\0';
	q->cb(q->ctx, q->idx, text, NULL);
}

/* One message from the worker: its ready (W_STARTING) or an answer. */
static void on_message(const struct sbx_inspect_answer *a)
{
	struct sbx_inspect_req *q = w.cur;
	if (w.state == W_STARTING) {
		if (a->err) { /* it could not load or lock down: never again */
			lose();
			w.state = W_FAILED;
		} else {
			w.state = W_IDLE;
			w.starts =
			    0; /* a worker that starts is not a failure */
		}
		return;
	}
	w.cur = NULL;
	w.state = W_IDLE;
	if (q->run && q->data[0] == 'Y') {
		on_scanned(q, a);
	} else if (q->run) {
		char type[SBX_FILETYPE_MAX], mime[SBX_MIME_MAX];
		q->run->used += (double)a->cpu_us / 1e6;
		q->run->pending--;
		if (a->err) {
			q->run->skipped++;
		} else {
			static char text[SBX_YARA_TEXT];
			memcpy(type, a->type, sizeof type);
			memcpy(mime, a->mime, sizeof mime);
			memcpy(text, a->text, sizeof text);
			type[sizeof type - 1] = mime[sizeof mime - 1] = '\0';
			text[sizeof text - 1] = '\0';
			keep_inline(q, text);
			q->run->typed++;
			q->cb(q->ctx, q->idx, type, mime);
		}
	}
	req_free(q);
}

void sbx_inspect_service(double now)
{
	struct sbx_inspect_answer a;
	while (w.sock >= 0 && (w.state == W_STARTING || w.state == W_BUSY)) {
		ssize_t n = recv(w.sock, &a, sizeof a, MSG_DONTWAIT);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK)) {
			if (now >= w.deadline)
				lose(); /* overran: killed */
			break;
		}
		if (n != (ssize_t)sizeof a) { /* ended, or a short message */
			int starting = w.state == W_STARTING;
			lose();
			if (starting)
				w.state = W_FAILED;
			break;
		}
		on_message(&a);
	}
	kick(now);
}

/* Queues a request of kind 'T' or 'Y' and its len bytes. */
static int enqueue(struct sbx_inspect_run *run, char kind, const void *buf,
		   size_t len, sbx_inspect_cb cb, void *ctx, size_t idx)
{
	struct sbx_inspect_req *q;
	if (left(run) <= 0 || w.state == W_FAILED) {
		run->budget_hit |= left(run) <= 0;
		run->skipped++;
		if (idx == SBX_INSPECT_OWN)
			free(ctx);
		return -EDQUOT;
	}
	q = malloc(sizeof *q + 1 + len);
	if (!q) {
		run->skipped++;
		if (idx == SBX_INSPECT_OWN)
			free(ctx);
		return -ENOMEM;
	}
	/* the datagram: 'T' and the bytes (an empty file is not an empty
	 * datagram, which reads as the end) */
	*q = (struct sbx_inspect_req){NULL, run, cb, ctx, idx, 1 + len};
	q->data[0] = (unsigned char)kind;
	memcpy(q->data + 1, buf, len);
	if (run->tail)
		run->tail->next = q;
	else
		run->head = q;
	run->tail = q;
	ring_add(run);
	run->pending++;
	kick(now_s());
	return 0;
}

int sbx_inspect_submit(struct sbx_inspect_run *run, const void *buf, size_t len,
		       sbx_inspect_cb cb, void *ctx, size_t idx)
{
	return enqueue(run, 'T', buf,
		       len > SBX_MAGIC_BYTES ? SBX_MAGIC_BYTES : len, cb, ctx,
		       idx);
}

int sbx_inspect_yara_submit(struct sbx_inspect_run *run, const void *buf,
			    size_t len, sbx_inspect_cb cb, void *ctx,
			    size_t idx)
{
	return enqueue(run, 'Y', buf,
		       len > SBX_YARA_BYTES ? SBX_YARA_BYTES : len, cb, ctx,
		       idx);
}

void sbx_inspect_cancel(struct sbx_inspect_run *run)
{
	drop_queued(run);
	if (w.cur && w.cur->run == run) {
		run->pending--;
		run->skipped++;
		w.cur->run = NULL; /* its answer is dropped */
	}
}

void sbx_inspect_cancel_all(void)
{
	while (w.head)
		drop_queued(w.head);
	if (w.cur && w.cur->run) {
		w.cur->run->pending--;
		w.cur->run->skipped++;
		w.cur->run = NULL;
	}
}

void sbx_inspect_timers(double now)
{
	if ((w.state == W_STARTING || w.state == W_BUSY) && now >= w.deadline)
		sbx_inspect_service(now);
}

int sbx_inspect_watch(double now, double *next)
{
	(void)now;
	if (w.sock < 0 || (w.state != W_STARTING && w.state != W_BUSY))
		return -1;
	if (*next < 0 || w.deadline < *next)
		*next = w.deadline;
	return w.sock;
}

void sbx_inspect_drain(struct sbx_inspect_run *run, double timeout)
{
	double end = now_s() + timeout;
	while (run->pending > 0) {
		double now = now_s(), next = -1;
		int fd = sbx_inspect_watch(now, &next);
		struct pollfd p = {fd, POLLIN, 0};
		if (fd < 0 || now >= end) {
			sbx_inspect_cancel(run);
			break;
		}
		if (next > end)
			next = end;
		poll(&p, 1, (int)((next - now) * 1000) + 1);
		sbx_inspect_service(now_s());
	}
}

void sbx_inspect_stop(void)
{
	if (w.head || w.cur || w.state == W_FAILED)
		return;
	lose(); /* idle (or starting): killed and reaped at once */
	w.starts = 0;
}

int sbx_inspect_worker(pid_t *pid)
{
	double end = now_s() + INSPECT_START;
	if (w.state == W_FAILED)
		return -ENOEXEC;
	if (w.state == W_NONE && start(now_s()) < 0) {
		w.state = W_FAILED;
		return -ENOEXEC;
	}
	while (w.state == W_STARTING && now_s() < end) {
		struct pollfd p = {w.sock, POLLIN, 0};
		poll(&p, 1, 100);
		sbx_inspect_service(now_s());
	}
	if (w.state != W_IDLE && w.state != W_BUSY)
		return -ENOEXEC;
	*pid = w.pid;
	return 0;
}

/* ---- YARA: the rules' compiler and the rules a worker loads ---- */

int sbx_inspect_yara_rules(const void *blob, size_t len)
{
	unsigned char *copy = NULL;
	if (w.head || w.cur)
		return -EBUSY;
	if (!blob)
		yara.inline_on = 0;
	if (blob && yara.blob && len == yara.len &&
	    memcmp(blob, yara.blob, len) == 0)
		return 0; /* the same rules: the worker keeps them */
	if (blob && !(copy = malloc(len ? len : 1)))
		return -ENOMEM;
	if (blob && !yara.area) {
		void *a = mmap(NULL, SBX_YARA_BYTES, PROT_READ | PROT_WRITE,
			       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (a == MAP_FAILED) {
			free(copy);
			return -ENOMEM;
		}
		yara.area = a;
	}
	if (copy)
		memcpy(copy, blob, len);
	free(yara.blob);
	yara.blob = copy;
	yara.len = copy ? len : 0;
	lose();			  /* the next worker loads them */
	if (!copy && yara.area) { /* no worker maps it now */
		munmap(yara.area, SBX_YARA_BYTES);
		yara.area = NULL;
	}
	w.starts = 0;
	if (w.state == W_FAILED)
		w.state = W_NONE;
	return 0;
}

int sbx_inspect_yara_inline(const void *blob, size_t len)
{
	int r = sbx_inspect_yara_rules(blob, len);
	if (r == 0)
		yara.inline_on = blob != NULL;
	return r;
}

struct sbx_yara_inline *sbx_inspect_yara_inline_take(size_t *n, size_t *lost)
{
	struct sbx_yara_inline *k = yara.kept;
	*n = yara.nkept;
	*lost = yara.lost;
	yara.kept = NULL;
	yara.nkept = yara.lost = 0;
	return k;
}

const void *sbx_inspect_yara_blob(size_t *len)
{
	*len = yara.len;
	return yara.blob;
}

const unsigned char *sbx_inspect_yara_area(void)
{
	return yara.area;
}

/* Reads the compiling child's answer, then its compiled rules until it
 * closes its end (a stream), by the deadline; 0 or -errno. */
static int read_compiled(int fd, unsigned char **blob, size_t *len, char *err,
			 size_t cap)
{
	static struct sbx_inspect_answer a;
	double end = now_s() + SBX_YARA_COMPILE_WAIT;
	size_t got = 0, size = 0, head = 0;
	*blob = NULL;
	for (;;) {
		struct pollfd p = {fd, POLLIN, 0};
		unsigned char *to;
		size_t room;
		ssize_t n;
		double now = now_s();
		if (now >= end)
			return -ETIME;
		if (poll(&p, 1, (int)((end - now) * 1000) + 1) <= 0)
			continue;
		if (head == sizeof a && got == size) {
			unsigned char *b;
			size = size ? size * 2 : 1 << 20;
			if (size > SBX_YARA_RULES_MAX * 2 ||
			    !(b = realloc(*blob, size)))
				return -EFBIG;
			*blob = b;
		}
		to = head < sizeof a ? (unsigned char *)&a + head : *blob + got;
		room = head < sizeof a ? sizeof a - head : size - got;
		n = recv(fd, to, room, MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			continue;
		if (n <= 0 && head < sizeof a)
			return -EPIPE; /* it died before it said */
		if (n <= 0) {
			*len = got;
			return n == 0 && got > 0 ? 0 : -EPIPE;
		}
		if (head < sizeof a) {
			head += (size_t)n;
			if (head < sizeof a)
				continue;
			a.text[sizeof a.text - 1] = '\0';
			snprintf(err, cap, "%s", a.text);
			if (a.err)
				return -a.err;
		} else {
			got += (size_t)n;
		}
	}
}

int sbx_inspect_yara_compile(const struct sbx_yara_source *src, size_t n,
			     unsigned char **blob, size_t *len, char *err,
			     size_t cap)
{
	int sv[2], r;
	pid_t pid;
	err[0] = '\0';
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return -errno;
	pid = fork();
	if (pid < 0) {
		r = -errno;
		close(sv[0]);
		close(sv[1]);
		return r;
	}
	if (pid == 0)
		sbx_yara_compile_main(sv[1], src, n);
	close(sv[1]);
	r = read_compiled(sv[0], blob, len, err, cap);
	close(sv[0]);
	kill(pid, SIGKILL);
	while (waitpid(pid, NULL, __WALL) < 0 && errno == EINTR)
		;
	if (r < 0) {
		free(*blob);
		*blob = NULL;
	}
	return r;
}
