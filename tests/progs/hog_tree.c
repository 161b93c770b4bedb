/* SPDX-License-Identifier: MIT */
/*
 * hog_tree N [seconds]: becomes a child subreaper, as a box init is the
 * reaper of its pid namespace, then makes N orphans: each child forks a
 * grandchild and exits at once, so the grandchild is re-parented to this
 * process.  Prints "ready" when the N orphans run, and sleeps (default
 * 30 s); the orphans sleep as long and then exit.  Tree: 1 + N processes,
 * each orphan a child of this process though it did not fork it.  The
 * tree is a process group of its own: SIGTERM to this process, or the end
 * of the sleep, kills all of it.
 */
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

static void end_all(int sig)
{
	(void)sig;
	kill(-getpid(), SIGKILL);
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 4;
	int secs = argc > 2 ? atoi(argv[2]) : 30;
	int p[2];
	char c;

	if (n < 1 || n > 1024 || pipe(p) < 0) {
		fprintf(stderr, "usage: hog_tree N [seconds]\n");
		return 2;
	}
	setpgid(0, 0);
	signal(SIGTERM, end_all);
	if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0) {
		perror("prctl");
		return 1;
	}
	for (int i = 0; i < n; i++) {
		pid_t pid = fork();
		if (pid < 0) {
			perror("fork");
			return 1;
		}
		if (pid == 0) {
			if (fork() == 0) {
				close(p[0]);
				signal(SIGTERM, SIG_DFL);
				if (write(p[1], "x", 1) != 1)
					_exit(1);
				close(p[1]);
				sleep((unsigned)secs);
				_exit(0);
			}
			_exit(0);
		}
		waitpid(pid, NULL, 0);
	}
	close(p[1]);
	for (int i = 0; i < n; i++)
		if (read(p[0], &c, 1) != 1)
			return 1;
	printf("ready %d\n", (int)getpid());
	fflush(stdout);
	sleep((unsigned)secs);
	end_all(0);
	return 0;
}
