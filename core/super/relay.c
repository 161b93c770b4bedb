/* SPDX-License-Identifier: MIT */
/*
 * relay.c: a job's stdio.  Output read into a buffer up to the stream's
 * cap, passed on to the caller's stdout or stderr (through the terminal
 * filter, ttyfilter.c, when that is a terminal) or discarded; stdin written
 * from memory or relayed from a descriptor.
 */
#include "kept.h"
#include "super.h"

#include "fileio.h"

#define RELAY_READ 65536 /* read from a stream at once */

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Room for more bytes after what stream s holds: 0, or -1 (no memory). */
static int grow_out(struct sbx_job *j, int s, size_t more)
{
	size_t ns = j->size[s] ? j->size[s] : 65536;
	char *nb;
	if (j->len[s] + more <= j->size[s])
		return 0;
	while (ns < j->len[s] + more)
		ns *= 2;
	nb = realloc(j->buf[s], ns);
	if (!nb)
		return -ENOMEM;
	j->buf[s] = nb;
	j->size[s] = ns;
	return 0;
}

/* The end of a stream the caller's terminal shows: the modes it left set
 * that outlast it are reset (ttyfilter.c). */
static void end_filter(struct sbx_job *j, int s)
{
	if (!j->filter[s] || grow_out(j, s, SBX_TTYF_END) < 0)
		return;
	/* what the program left unfinished is its last byte, not ours */
	j->tail_last[s] = j->len[s] ? j->buf[s][j->len[s] - 1] : j->last[s];
	j->tail[s] = sbx_ttyf_end(&j->tf[s], j->buf[s] + j->len[s]);
	j->len[s] += j->tail[s];
}

/* The first io.keep_head bytes of a passed stream, as the box wrote them:
 * what the result shows of output the caller's end already took. */
static void keep_head(struct sbx_job *j, int s, const char *d, size_t n)
{
	size_t room;
	if (j->io.out_mode[s] != SBX_OUT_PASS || !j->io.keep_head)
		return;
	if (!j->head[s] && !(j->head[s] = malloc(j->io.keep_head)))
		return; /* the result then shows none; the relay goes on */
	room = j->io.keep_head - j->head_len[s];
	if (n > room)
		n = room;
	memcpy(j->head[s] + j->head_len[s], d, n);
	j->head_len[s] += n;
}

/* Reads what is available on stream s; past the cap, kills the box. */
static void read_out(struct sbx_job *j, int s, char *tmp, size_t size);

/* The read buffer, kept on the heap (64 KiB, kept.h): on the stack, every
 * call below it would run as far down; 4 KiB of the stack when there is
 * no memory for it. */
void sbx_read_out(struct sbx_job *j, int s)
{
	static void *kept;
	char *buf = sbx_kept(&kept, RELAY_READ);
	if (buf) {
		read_out(j, s, buf, RELAY_READ);
	} else {
		char small[4096];
		read_out(j, s, small, sizeof small);
	}
}

static void read_out(struct sbx_job *j, int s, char *tmp, size_t size)
{
	for (;;) {
		ssize_t n = read(j->out[s], tmp, size);
		size_t keep;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && errno != EIO)
			return; /* EAGAIN */
		if (n <= 0) {	/* EIO: a pty whose slave side is all closed */
			sbx_close_fd(&j->out[s]);
			j->eof[s] = 1;
			end_filter(j, s);
			return;
		}
		keep = (size_t)n;
		if (j->io.out_limit && j->total[s] + keep > j->io.out_limit) {
			keep = j->io.out_limit - j->total[s];
			sbx_kill_box(j, SBX_END_OUTPUT);
		}
		j->total[s] += keep;
		keep_head(j, s, tmp, keep);
		/* passed-through output is buffered too, and written out as
		 * the caller's descriptor takes it (sbx_pass_out): a reader
		 * that stalls must not stall the loop that enforces the limits
		 */
		if (j->io.out_mode[s] != SBX_OUT_DISCARD && keep) {
			if (grow_out(j, s, keep + SBX_TTYF_SEQ + 2) < 0) {
				sbx_kill_box(j, SBX_END_OUTPUT);
				return;
			}
			if (j->filter[s])
				/* to the caller's terminal: only what draws
				 * (ttyfilter.c); the cap counts what the box
				 * wrote */
				j->len[s] +=
				    sbx_ttyf_run(&j->tf[s], tmp, keep,
						 j->buf[s] + j->len[s]);
			else {
				memcpy(j->buf[s] + j->len[s], tmp, keep);
				j->len[s] += keep;
			}
		}
		if (j->end_kind == SBX_END_OUTPUT) {
			sbx_close_fd(&j->out[s]);
			j->eof[s] = 1;
			end_filter(j, s);
			return;
		}
	}
}

/* The command of a following box ended while the caller's terminal (fd
 * 0, raw: core/api/box.c supervise_all) passes keys to the box's pty: the
 * terminal gets its own settings back, as a shell takes its terminal back
 * when a job ends, so that ^C is sbxlua's SIGINT again (the operator's
 * stop) instead of a byte for a box whose foreground job is gone.  Not
 * before what there was to show at the command's end is shown, under the
 * raw settings it was written for: what the box's pty holds (a read of
 * the master flushes the kernel's pending work first) and what sbxlua
 * has not passed on yet; shown after, each of the pty's \r\n would be
 * the cooked terminal's \r\r\n.  What the box writes after counts not
 * (a process left writing must not keep ^C from sbxlua), nor does the
 * rest past SBX_TTY_BACK_WAIT on a terminal slower than the box.  The
 * loop waits (sbx_tty_try_back after each write to the caller, and in its
 * timers), never a blocking write here, which would hold the loop (its
 * limits, its sampler) on a slow terminal. */
void sbx_tty_give_back(struct sbx_job *j)
{
	if (!j->io.pty || !j->io.has_termios || !isatty(0))
		return;
	for (int s = 0; s < 2; s++) {
		if (j->io.out_mode[s] != SBX_OUT_PASS)
			continue;
		if (j->out[s] >= 0)
			sbx_read_out(j, s);
		j->back_at[s] = j->passed[s] + (j->len[s] - j->sent[s]);
	}
	j->tty_back = 1;
	j->tty_back_by = sbx_now() + SBX_TTY_BACK_WAIT;
	sbx_tty_try_back(j, 0);
}

void sbx_tty_try_back(struct sbx_job *j, double now)
{
	if (!j->tty_back)
		return;
	/* what is left the loop writes when the caller can take it */
	for (int s = 0; s < 2 && now < j->tty_back_by; s++)
		if (j->io.out_mode[s] == SBX_OUT_PASS &&
		    j->passed[s] < j->back_at[s])
			return;
	j->tty_back = 0;
	tcsetattr(0, TCSANOW, &j->io.termios);
}

/* Writes stdin to the box from memory or from the relayed descriptor. */
void sbx_write_in(struct sbx_job *j)
{
	int reads = 0;
	for (;;) {
		const char *d;
		size_t left;
		ssize_t w;
		if (j->io.in_fd >= 0) {
			if (j->inbuf_off == j->inbuf_len) {
				ssize_t n;
				if (j->in_eof) {
					sbx_close_fd(&j->in);
					return;
				}
				/* one read per wakeup: the source may be the
				 * caller's terminal, which must not block us */
				if (reads++)
					return;
				if (j->io.in_pread)
					n = pread(j->io.in_fd, j->inbuf,
						  sizeof j->inbuf, j->in_pos);
				else
					n = read(j->io.in_fd, j->inbuf,
						 sizeof j->inbuf);
				if (n < 0 && errno == EINTR)
					continue;
				if (n < 0 && errno == EAGAIN)
					return;
				if (n <= 0) {
					sbx_close_fd(&j->in);
					return;
				}
				j->inbuf_len = (size_t)n;
				j->inbuf_off = 0;
				j->in_pos += n;
			}
			d = j->inbuf + j->inbuf_off;
			left = j->inbuf_len - j->inbuf_off;
		} else {
			d = j->io.in_data + j->in_off;
			left = j->io.in_len - j->in_off;
			if (left == 0) {
				sbx_close_fd(&j->in);
				return;
			}
		}
		w = write(j->in, d, left);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK)
				sbx_close_fd(
				    &j->in); /* EPIPE: the box closed it */
			return;
		}
		if (j->io.in_fd >= 0)
			j->inbuf_off += (size_t)w;
		else
			j->in_off += (size_t)w;
	}
}

/* Writes buffered pass-through output to the caller's stdout or stderr:
 * at most PIPE_BUF bytes per wakeup, which a pipe that polled writable
 * takes without blocking; all of it (blocking) once the box is over. */
void sbx_pass_out(struct sbx_job *j, int s, int all)
{
	do {
		size_t left = j->len[s] - j->sent[s];
		ssize_t w;
		if (left == 0)
			break;
		w = write(SBX_OUT_FD(&j->io, s), j->buf[s] + j->sent[s],
			  all || left < 4096 ? left : 4096);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			/* the caller's end is gone: as if shown */
			j->passed[s] += left;
			j->sent[s] = j->len[s];
			break;
		}
		j->sent[s] += (size_t)w;
		j->passed[s] += (size_t)w;
		j->last[s] = j->sent[s] + j->tail[s] > j->len[s]
				 ? j->tail_last[s]
				 : j->buf[s][j->sent[s] - 1];
	} while (all);
	if (j->sent[s] == j->len[s])
		j->sent[s] = j->len[s] = j->tail[s] = 0;
}
