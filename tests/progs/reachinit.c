/* SPDX-License-Identifier: MIT */
/*
 * reachinit: try every way the box's command could act on the box's init
 * (pid 1 of its namespace) and print how each ended, "NAME ok" or
 * "NAME ERRNO".  Used by tests/walls_spec.lua.
 *
 * It acts only when it is pid 2 and its parent is pid 1, i.e. when it is
 * the command of a box (pid 2 of the host is kthreadd): run on the host by
 * mistake it does nothing.
 */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/ptrace.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

static void show(const char *name, long rc)
{
	const char *e = rc >= 0 ? "ok" : strerrorname_np(errno);
	printf("%s %s\n", name, e != NULL ? e : "E?");
}

/* opens /proc/1/<leaf> and reads a byte */
static long proc_read(const char *leaf)
{
	char path[64], c;
	long rc;
	int fd;
	snprintf(path, sizeof path, "/proc/1/%s", leaf);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	rc = read(fd, &c, 1);
	close(fd);
	return rc;
}

static long proc_link(const char *leaf)
{
	char path[64], buf[256];
	snprintf(path, sizeof path, "/proc/1/%s", leaf);
	return readlink(path, buf, sizeof buf);
}

int main(void)
{
	struct rlimit old, one = {1, 1};
	struct iovec local, remote;
	char byte;
	long pidfd;

	if (getpid() != 2 || getppid() != 1) {
		fprintf(stderr, "reachinit: not the command of a box\n");
		return 2;
	}
	show("prlimit-get",
	     syscall(SYS_prlimit64, 1L, (long)RLIMIT_CPU, 0L, &old));
	show("prlimit-set",
	     syscall(SYS_prlimit64, 1L, (long)RLIMIT_CPU, &one, 0L));
	show("prlimit-self",
	     syscall(SYS_prlimit64, 0L, (long)RLIMIT_CPU, 0L, &old));
	show("prlimit-own-pid", syscall(SYS_prlimit64, (long)getpid(),
					(long)RLIMIT_CPU, 0L, &old));
	show("kill-0", kill(1, 0));
	show("kill-stop", kill(1, SIGSTOP));
	show("kill-kill", kill(1, SIGKILL));
	show("ptrace-attach",
	     syscall(SYS_ptrace, (long)PTRACE_ATTACH, 1L, 0L, 0L));
	show("ptrace-seize",
	     syscall(SYS_ptrace, (long)PTRACE_SEIZE, 1L, 0L, 0L));
	local.iov_base = &byte;
	local.iov_len = 1;
	remote.iov_base = (void *)&byte; /* init is a copy: mapped there too */
	remote.iov_len = 1;
	show("process_vm_readv",
	     syscall(SYS_process_vm_readv, 1L, &local, 1L, &remote, 1L, 0L));
	show("process_vm_writev",
	     syscall(SYS_process_vm_writev, 1L, &local, 1L, &remote, 1L, 0L));
	pidfd = syscall(SYS_pidfd_open, 1L, 0L);
	show("pidfd_open", pidfd);
	if (pidfd >= 0) {
		show("pidfd_getfd", syscall(SYS_pidfd_getfd, pidfd, 0L, 0L));
		show("pidfd_send_signal", syscall(SYS_pidfd_send_signal, pidfd,
						  (long)SIGKILL, 0L, 0L));
		close((int)pidfd);
	}
	show("proc-environ", proc_read("environ"));
	show("proc-mem", proc_read("mem"));
	show("proc-maps", proc_read("maps"));
	show("proc-auxv", proc_read("auxv"));
	show("proc-cmdline", proc_read("cmdline"));
	show("proc-limits", proc_read("limits"));
	show("proc-exe", proc_link("exe"));
	show("proc-cwd", proc_link("cwd"));
	show("proc-root", proc_link("root"));
	show("proc-fd-0", proc_link("fd/0"));
	/* init is still there: its status is readable */
	show("alive", proc_read("status"));
	return 0;
}
