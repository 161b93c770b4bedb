// SPDX-License-Identifier: MIT
// Takes over another process with ptrace, in C: attaches to a child it
// started and reads its registers' word.
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>

#include "box_only.h"

int main(void)
{
	if (!in_box())
		return 1;
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	usleep(100000);
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) == 0) {
		waitpid(pid, NULL, 0);
		ptrace(PTRACE_PEEKUSER, pid, 0, 0);
		ptrace(PTRACE_DETACH, pid, 0, 0);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}
