/* SPDX-License-Identifier: MIT */
/*
 * corpus_spawn: fork, exec, wait, posix_spawn and pipes, one step of the
 * strict profile's corpus (scripts/trace-profile.sh).  A forked child
 * writes into a pipe; a forked child execs /bin/sh with an exit status; a
 * posix_spawn'd /bin/sh writes into a pipe set as its stdout.  Prints
 * "spawn ok" and exits 0; any failure prints its step and exits 1.
 * With --seccomp FILE, the work runs under that filter (corpus.h).
 */
#include <spawn.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "corpus.h"

extern char **environ;

static int fail(const char *step)
{
	perror(step);
	return 1;
}

/* waits for pid; its exit status, or -1 */
static int status_of(pid_t pid)
{
	int st;

	if (waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

int main(int argc, char **argv)
{
	char buf[16];
	int p[2];
	pid_t pid;
	posix_spawn_file_actions_t fa;
	char *sh_exit[] = {"sh", "-c", "exit 7", NULL};
	char *sh_echo[] = {"sh", "-c", "echo spawned", NULL};

	if (corpus_seccomp(argc, argv) != 0)
		return 1;
	if (pipe(p) != 0)
		return fail("pipe");
	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		_exit(write(p[1], "child", 5) == 5 ? 0 : 1);
	}
	if (read(p[0], buf, sizeof buf) != 5 || status_of(pid) != 0)
		return fail("fork and pipe");

	pid = fork();
	if (pid < 0)
		return fail("fork");
	if (pid == 0) {
		execve("/bin/sh", sh_exit, environ);
		_exit(127);
	}
	if (status_of(pid) != 7)
		return fail("exec and wait");

	if (posix_spawn_file_actions_init(&fa) != 0 ||
	    posix_spawn_file_actions_adddup2(&fa, p[1], 1) != 0 ||
	    posix_spawn_file_actions_addclose(&fa, p[0]) != 0 ||
	    posix_spawn(&pid, "/bin/sh", &fa, NULL, sh_echo, environ) != 0)
		return fail("posix_spawn");
	posix_spawn_file_actions_destroy(&fa);
	close(p[1]);
	if (read(p[0], buf, sizeof buf) != 8 || memcmp(buf, "spawned\n", 8) ||
	    status_of(pid) != 0)
		return fail("posix_spawn and wait");
	close(p[0]);
	printf("spawn ok\n");
	return 0;
}
