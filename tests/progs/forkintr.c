/* SPDX-License-Identifier: MIT */
/*
 * forkintr N: forks N children that exit at once, with a SIGCHLD handler
 * installed without SA_RESTART (as dash has it), reaping as it goes; a
 * fork the kernel fails is counted by its errno.  Prints
 * "forks N eintr E other O".  The kernel's own fork never fails with EINTR
 * (a pending signal restarts it); a fork held in a seccomp notification
 * that a signal interrupts before the supervisor reads it does.
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile sig_atomic_t chld;

static void on_chld(int sig)
{
	(void)sig;
	chld++;
}

int main(int argc, char **argv)
{
	struct sigaction sa = {.sa_handler = on_chld};
	int n = argc > 1 ? atoi(argv[1]) : 200, eintr = 0, other = 0;
	sigemptyset(&sa.sa_mask);
	sigaction(SIGCHLD, &sa, NULL);
	for (int i = 0; i < n; i++) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0 && errno == EINTR)
			eintr++;
		else if (p < 0)
			other++;
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
	}
	while (wait(NULL) > 0 || errno == EINTR)
		;
	printf("forks %d eintr %d other %d\n", n, eintr, other);
	return eintr || other;
}
