/* SPDX-License-Identifier: MIT */
/*
 * forktree: many processes forked at once, each saying its own pid and
 * its parent's as it sees them (getpid, getppid: the box's pid namespace).
 *
 *   forktree N M   forks N children, released together once all exist;
 *                  each execs this program as "forktree mid M"
 *   mid M          forks M children at once; child k execs the k-th of
 *                  /bin/true, /bin/echo, /bin/false (distinct programs)
 *
 *   orphan         a child's child left by its parent before it calls
 *                  anything watched, then executing /bin/true
 *
 * Every process writes "pid ppid name\n" to stdout in one write (shorter
 * than PIPE_BUF: lines of concurrent writers never mix) and then calls
 * umount2, which every box refuses and names (a wall of the analysis box
 * too, where ptrace is let through), so that each process has an event of
 * its own even where execs are not events; its flags are invalid, so that
 * a kernel that ran it would only answer EINVAL.  Each
 * parent waits for its children; the exit status is 0 when all were made.
 */
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const char *name)
{
	char line[64];
	int n = snprintf(line, sizeof line, "%d %d %s\n", (int)getpid(),
			 (int)getppid(), name);
	if (write(1, line, (size_t)n) != n)
		_exit(3);
	syscall(SYS_umount2, "/nonexistent-forktree", 0x80000000L);
}

static int wait_all(void)
{
	int st, bad = 0;
	while (wait(&st) > 0)
		bad |= !WIFEXITED(st);
	return bad;
}

static int mid(int m)
{
	static const char *const progs[] = {"/bin/true", "/bin/echo",
					    "/bin/false"};
	say("mid");
	for (int k = 0; k < m; k++) {
		pid_t c = fork();
		if (c < 0)
			return 2;
		if (c == 0) {
			const char *p = progs[k % 3];
			say(strrchr(p, '/') + 1);
			execl(p, p, (char *)NULL);
			_exit(127);
		}
	}
	return wait_all();
}

static int root(int n, const char *m)
{
	char self[4096];
	int go[2];
	ssize_t l = readlink("/proc/self/exe", self, sizeof self - 1);
	if (l <= 0 || pipe(go) < 0)
		return 2;
	self[l] = '\0';
	say("root");
	for (int i = 0; i < n; i++) {
		pid_t c = fork();
		char b;
		if (c < 0)
			return 2;
		if (c == 0) {
			close(go[1]);
			/* released together: the pipe's end, once all exist */
			if (read(go[0], &b, 1) < 0)
				_exit(4);
			close(go[0]);
			execl(self, "forktree", "mid", m, (char *)NULL);
			_exit(127);
		}
	}
	close(go[0]);
	close(go[1]);
	return wait_all();
}

/* orphan: a child whose parent exits before the child's first watched
 * call (the child waits for the end of a pipe only its parent held), then
 * execs /bin/true; this process waits for the end of a pipe the child's
 * program holds until it exits. */
static int orphan(void)
{
	int done[2], go[2];
	char b;
	pid_t p;
	if (pipe(done) < 0 || pipe(go) < 0)
		return 2;
	say("root");
	p = fork();
	if (p == 0) {
		pid_t parent = getpid();
		if (fork() == 0) {
			close(go[1]);
			close(done[0]);
			if (read(go[0], &b, 1) < 0)
				_exit(4);
			/* the pipe ends as the parent exits, before the kernel
			 * gives this process its new parent: wait for that */
			while (getppid() == parent)
				sched_yield();
			say("orphan");
			execl("/bin/true", "/bin/true", (char *)NULL);
			_exit(127);
		}
		_exit(0);
	}
	close(go[0]);
	close(go[1]);
	close(done[1]);
	if (p < 0 || waitpid(p, NULL, 0) < 0 || read(done[0], &b, 1) < 0)
		return 2;
	return 0;
}

int main(int argc, char **argv)
{
	if (argc == 2 && strcmp(argv[1], "orphan") == 0)
		return orphan();
	if (argc == 3 && strcmp(argv[1], "mid") == 0)
		return mid(atoi(argv[2]));
	if (argc == 3)
		return root(atoi(argv[1]), argv[2]);
	fprintf(stderr, "usage: forktree N M | forktree orphan\n");
	return 2;
}
