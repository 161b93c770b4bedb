/* SPDX-License-Identifier: MIT */
/*
 * tracer: ptrace between processes, as a sample does it.
 *
 *   tracer antidebug LOG  an anti-debugging sample: PTRACE_TRACEME; when it
 *                         fails ("being debugged") it prints "debugged ERRNO"
 *                         and exits 3; else its payload truncates LOG (a log
 *                         of its own) and prints "payload: LOG truncated"
 *   tracer trace PATH     traces a child of its own at every system call
 *                         (PTRACE_TRACEME, PTRACE_SYSCALL) while the child
 *                         creates PATH and executes /bin/echo traced-exec;
 *                         then attaches (PTRACE_SEIZE, PTRACE_INTERRUPT) to
 *                         another child and detaches; prints "traced N
 *                         stops, exit S" and "seize ok" (or the errno)
 *   tracer attach PID     PTRACE_ATTACH, process_vm_readv and pidfd_open of
 *                         PID (a process outside the box, or its init):
 *                         prints "attach ERR", "vm_readv ERR", "pidfd ERR"
 *                         (ok or the errno name)
 *
 * Used by tests/hostlike_spec.lua.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <unistd.h>

static const char *ename(int e)
{
	switch (e) {
	case 0:
		return "ok";
	case EPERM:
		return "EPERM";
	case ESRCH:
		return "ESRCH";
	case EACCES:
		return "EACCES";
	case EFAULT:
		return "EFAULT";
	case ENOSYS:
		return "ENOSYS";
	default:
		return "other";
	}
}

static int antidebug(const char *log)
{
	int fd = open(log, O_CREAT | O_WRONLY | O_APPEND, 0600);
	if (fd < 0 || write(fd, "login root\n", 11) != 11)
		return 2;
	close(fd);
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0) {
		printf("debugged %s\n", ename(errno));
		return 3;
	}
	/* the payload: the log is wiped */
	fd = open(log, O_WRONLY | O_TRUNC);
	if (fd < 0)
		return 2;
	close(fd);
	printf("payload: %s truncated\n", log);
	return 0;
}

/* A child that stops for its tracer, creates path and executes echo. */
static void traced_child(const char *path)
{
	int fd;
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) < 0)
		_exit(10);
	raise(SIGSTOP);
	fd = open(path, O_CREAT | O_WRONLY, 0600);
	if (fd < 0)
		_exit(11);
	close(fd);
	execl("/bin/echo", "echo", "traced-exec", (char *)NULL);
	_exit(12);
}

/* Steps the child at every call until it exits; returns its stops.  A
 * stop for a signal (not a call's, not the exec's SIGTRAP) passes it on. */
static int step(pid_t child, int *status)
{
	int stops = 0, inject = 0;
	if (waitpid(child, status, 0) < 0 || !WIFSTOPPED(*status))
		return -1;
	ptrace(PTRACE_SETOPTIONS, child, 0,
	       PTRACE_O_TRACESYSGOOD | PTRACE_O_EXITKILL);
	for (;;) {
		int sig;
		if (ptrace(PTRACE_SYSCALL, child, 0, inject) < 0)
			return -1;
		if (waitpid(child, status, 0) < 0)
			return -1;
		if (WIFEXITED(*status) || WIFSIGNALED(*status))
			return stops;
		stops++;
		sig = WSTOPSIG(*status);
		inject = sig == (SIGTRAP | 0x80) || sig == SIGTRAP ? 0 : sig;
	}
}

/* PTRACE_SEIZE of a child that waits on a pipe, interrupted, detached. */
static int seize(void)
{
	int p[2], st, rc = 0;
	pid_t c;
	char b;
	if (pipe(p) < 0)
		return errno;
	c = fork();
	if (c == 0) {
		close(p[1]);
		_exit(read(p[0], &b, 1) == 1 ? 0 : 1);
	}
	close(p[0]);
	if (ptrace(PTRACE_SEIZE, c, 0, 0) < 0)
		rc = errno;
	else if (ptrace(PTRACE_INTERRUPT, c, 0, 0) < 0 ||
		 waitpid(c, &st, 0) < 0 || ptrace(PTRACE_DETACH, c, 0, 0) < 0)
		rc = errno;
	if (write(p[1], "x", 1) != 1 && rc == 0)
		rc = errno;
	close(p[1]);
	waitpid(c, &st, 0);
	return rc;
}

static int trace(const char *path)
{
	int status = 0, stops;
	pid_t child = fork();
	if (child < 0)
		return 2;
	if (child == 0)
		traced_child(path);
	stops = step(child, &status);
	printf("traced %d stops, exit %d\n", stops > 0 ? 1 : 0,
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	printf("seize %s\n", ename(seize()));
	return 0;
}

static int attach(pid_t pid)
{
	char buf[8];
	struct iovec l = {buf, sizeof buf}, r = {(void *)0x10000, sizeof buf};
	int e, fd;
	e = ptrace(PTRACE_ATTACH, pid, 0, 0) < 0 ? errno : 0;
	if (e == 0)
		ptrace(PTRACE_DETACH, pid, 0, 0);
	printf("attach %s\n", ename(e));
	e = process_vm_readv(pid, &l, 1, &r, 1, 0) < 0 ? errno : 0;
	printf("vm_readv %s\n", ename(e));
	fd = (int)syscall(SYS_pidfd_open, pid, 0);
	printf("pidfd %s\n", ename(fd < 0 ? errno : 0));
	if (fd >= 0)
		close(fd);
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc == 3 && strcmp(argv[1], "antidebug") == 0)
		return antidebug(argv[2]);
	if (argc == 3 && strcmp(argv[1], "trace") == 0)
		return trace(argv[2]);
	if (argc == 3 && strcmp(argv[1], "attach") == 0)
		return attach((pid_t)atoi(argv[2]));
	fprintf(stderr,
		"usage: tracer antidebug LOG | trace PATH | attach PID\n");
	return 2;
}
