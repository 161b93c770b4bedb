/* SPDX-License-Identifier: MIT */
/*
 * stop.c: the operator's stop while boxes run: SIGINT, SIGTERM and SIGHUP
 * (and SIGWINCH, for a box's pty) blocked and read from a signalfd; a stop
 * kills every box still running.
 */
#include "super.h"

#include "fileio.h"

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <unistd.h>

/* a stop was read while the present owner held the signals (the boxes
 * were killed for it); owners do not nest, one at a time holds them */
static int stop_read;

/*
 * The operator's stop: while boxes run, the supervisor owns SIGINT, SIGTERM
 * and SIGHUP (the interpreter's SIGINT handler never runs meanwhile), reads
 * them from a signalfd in its loop and kills, reaps and reports the boxes;
 * one the caller set to SIG_IGN is left alone.
 * Blocked before the clone: the child inherits the mask, and init resets it
 * (child.c reset_signals) before anything of the box runs.  A signal that
 * arrives after the loop stays pending and is delivered on release, but
 * for one that repeats the stop the loop has read (sbx_stop_release).
 */
void sbx_stop_own(struct sbx_stop *s, int winch)
{
	static const int sigs[] = {SIGINT, SIGTERM, SIGHUP};
	sigset_t stop;
	int any = 0;
	sigemptyset(&stop);
	s->fd = -1;
	stop_read = 0;
	/* a relayed pty follows the caller's window: SIGWINCH (ignored by
	 * default) is read here too, and resizes each box's pty */
	if (winch) {
		sigaddset(&stop, SIGWINCH);
		any = 1;
	}
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++) {
		struct sigaction cur;
		/* a signal the caller ignores (nohup's SIGHUP) stays ignored:
		 * blocked, it would be queued for the signalfd all the same */
		if (sigaction(sigs[i], NULL, &cur) == 0 &&
		    cur.sa_handler == SIG_IGN)
			continue;
		sigaddset(&stop, sigs[i]);
		any = 1;
	}
	if (!any || sigprocmask(SIG_BLOCK, &stop, &s->old) < 0)
		return;
	s->fd = signalfd(-1, &stop, SFD_CLOEXEC | SFD_NONBLOCK);
	if (s->fd < 0)
		/* no descriptor: the signals keep their handlers */
		sigprocmask(SIG_SETMASK, &s->old, NULL);
}

void sbx_stop_release(struct sbx_stop *s)
{
	if (s->fd < 0)
		return;
	/* the operator's stop repeated after the loop's last read (^C
	 * pressed again while the last output was written out): the stop
	 * the boxes ended for, not another for the interpreter, which would
	 * raise it in the report's Lua and lose the report */
	if (stop_read) {
		struct signalfd_siginfo si;
		while (read(s->fd, &si, sizeof si) == (ssize_t)sizeof si)
			;
	}
	sbx_close_fd(&s->fd);
	sigprocmask(SIG_SETMASK, &s->old, NULL);
}

/*
 * The caller's window size (its stdin, the terminal the pty relays) to each
 * running box's pty: setting it on the master sends SIGWINCH to the box
 * terminal's foreground process group, as a terminal emulator's resize
 * does.  The master is the descriptor the box's output is read from.
 */
static void follow_window(struct sbx_job **jobs, size_t n)
{
	struct winsize ws;
	if (ioctl(0, TIOCGWINSZ, &ws) < 0)
		return;
	for (size_t i = 0; i < n; i++) {
		const struct sbx_job *j = jobs[i];
		if (j->io.pty && !j->done && j->out[0] >= 0)
			ioctl(j->out[0], TIOCSWINSZ, &ws);
	}
}

/* Reads the signals pending on fd: a window change resizes the boxes'
 * ptys; the first stop kills every box still running. */
void sbx_read_stop(int fd, struct sbx_job **jobs, size_t n)
{
	struct signalfd_siginfo si;
	while (read(fd, &si, sizeof si) == (ssize_t)sizeof si) {
		if (si.ssi_signo == SIGWINCH) {
			follow_window(jobs, n);
			continue;
		}
		stop_read = 1;
		for (size_t i = 0; i < n; i++) {
			struct sbx_job *j = jobs[i];
			if (j->done || j->exited ||
			    j->end_kind == SBX_END_INTERRUPTED)
				continue;
			sbx_kill_box(j, SBX_END_INTERRUPTED);
			if (j->end_kind == SBX_END_INTERRUPTED)
				j->stop_signal = (int)si.ssi_signo;
		}
	}
}
