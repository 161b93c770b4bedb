/* SPDX-License-Identifier: MIT */
/*
 * pidreuse: a box task's pid number given to another process, and what the
 * supervisor's pidfd helpers (core/super/pidfd.c, included) then reach.
 * Needs root (it sets /proc/sys/kernel/ns_last_pid to hand the freed
 * number to a new process).  Prints one line each:
 *   before P    sbx_pidfd_proc of the live task: 0, its directory opened
 *   proc R      sbx_pidfd_proc after the reuse: -errno (-3, ESRCH)
 *   write R     sbx_pidfd_write after the reuse: -errno
 *   word W      the new process's word, after those: 1, untouched
 *   by_pid R    process_vm_writev by the number, as sleep.c wrote once
 *   word W      the new process's word now: 9, the hole the pidfd closes
 * or "not reused" (exit 3) when the number could not be handed over.
 */
#include "../../core/common/fileio.c"
#include "../../core/super/pidfd.c"

#include <signal.h>
#include <sys/uio.h>
#include <sys/wait.h>

static volatile long word = 1;

/* a child that waits for a byte on in, prints its word and says so on
 * out, twice */
static pid_t child(int in, int out)
{
	pid_t p = fork();
	char c;
	if (p != 0)
		return p;
	for (int i = 0; i < 2 && read(in, &c, 1) == 1; i++) {
		printf("word %ld\n", word);
		if (write(out, "y", 1) != 1)
			break;
	}
	_exit(0);
}

static void last_pid(pid_t p)
{
	char n[32];
	int fd = open("/proc/sys/kernel/ns_last_pid", O_WRONLY);
	int k = snprintf(n, sizeof n, "%d", (int)p);
	if (fd >= 0 && write(fd, n, (size_t)k) < 0)
		perror("ns_last_pid");
	if (fd >= 0)
		close(fd);
}

int main(void)
{
	int go[2], done[2], pidfd, dfd;
	char c;
	long nine = 9, seven = 7;
	pid_t a, b = -1;
	struct iovec l = {&nine, sizeof nine}, r = {(void *)&word, sizeof nine};

	setvbuf(stdout, NULL, _IONBF, 0);
	if (pipe(go) < 0 || pipe(done) < 0)
		return 1;
	a = child(go[0], done[1]);
	pidfd = sbx_pidfd_open(a);
	dfd = sbx_pidfd_proc(pidfd, a);
	printf("before %d\n", dfd >= 0 ? 0 : dfd);
	if (dfd >= 0)
		close(dfd);
	kill(a, SIGKILL);
	waitpid(a, NULL, 0);
	for (int i = 0; i < 100 && b != a; i++) {
		if (b > 0) {
			kill(b, SIGKILL);
			waitpid(b, NULL, 0);
		}
		last_pid(a - 1);
		b = child(go[0], done[1]);
	}
	if (b != a) {
		printf("not reused\n");
		return 3;
	}
	printf("proc %d\n", sbx_pidfd_proc(pidfd, a));
	printf("write %d\n", sbx_pidfd_write(pidfd, a, (uintptr_t)&word, &seven,
					     sizeof seven));
	if (write(go[1], "x", 1) != 1 || read(done[0], &c, 1) != 1)
		return 1;
	printf("by_pid %zd\n", process_vm_writev(a, &l, 1, &r, 1, 0));
	if (write(go[1], "x", 1) != 1)
		return 1;
	waitpid(b, NULL, 0);
	return 0;
}
