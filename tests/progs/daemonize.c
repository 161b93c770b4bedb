/* SPDX-License-Identifier: MIT */
/*
 * daemonize: a sample that goes to the background the way most Linux
 * malware does (fork, setsid, fork, the parents exit) and acts only once
 * the command, its first process, has exited.
 *
 *   daemonize act MARKER      the daemon reads /etc/shadow, forks a worker
 *                             that never executes anything (it opens /proc
 *                             and connects to 10.0.0.7:4444), waits for it,
 *                             looks up evil.example.org and exits
 *   daemonize forever MARKER  the daemon waits forever (pause: no sleep a
 *                             box could skip)
 *   daemonize forever MARKER FILE  the same, once the command has exited
 *                             the daemon first creates FILE (a host can
 *                             wait for it)
 *   daemonize                 forever, the marker in its own name (a copy
 *                             of it a batch runs without arguments)
 *
 * MARKER is only carried in the command line (every process of the
 * sample keeps it: none executes), so that the host can look for a
 * survivor.  No timing: the command exits only once the daemon exists
 * (a byte on a pipe), and the daemon acts only once the command has
 * exited (the end of another pipe, whose last writer is the command).
 * Exit status: 0, the command's own.
 */
#include <arpa/inet.h>
#include <fcntl.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

static void worker(void)
{
	struct sockaddr_in a;
	int fd = open("/proc", O_RDONLY | O_DIRECTORY), s;
	if (fd >= 0)
		close(fd);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(4444);
	inet_pton(AF_INET, "10.0.0.7", &a.sin_addr);
	s = socket(AF_INET, SOCK_STREAM, 0);
	if (s >= 0) {
		connect(s, (struct sockaddr *)&a, sizeof a);
		close(s);
	}
	_exit(0);
}

static void act(void)
{
	char buf[256];
	struct addrinfo *ai = NULL;
	int fd = open("/etc/shadow", O_RDONLY);
	pid_t w;
	if (fd >= 0) {
		while (read(fd, buf, sizeof buf) > 0)
			;
		close(fd);
	}
	w = fork();
	if (w == 0)
		worker();
	if (w > 0)
		waitpid(w, NULL, 0);
	if (getaddrinfo("evil.example.org", "80", NULL, &ai) == 0)
		freeaddrinfo(ai);
}

/* the daemon: says it exists, then waits for the command's end */
static void daemon_main(int ready, int cmd_alive, int forever, const char *file)
{
	char c = 'r';
	if (write(ready, &c, 1) != 1)
		_exit(1);
	close(ready);
	while (read(cmd_alive, &c, 1) > 0)
		;
	if (!forever) {
		act();
		_exit(0);
	}
	if (file)
		close(open(file, O_WRONLY | O_CREAT | O_EXCL, 0644));
	for (;;)
		pause();
}

int main(int argc, char **argv)
{
	int ready[2], alive[2], forever;
	char c;
	if (argc != 1 &&
	    (argc < 3 || argc > 4 ||
	     (strcmp(argv[1], "act") && strcmp(argv[1], "forever")))) {
		fprintf(stderr,
			"usage: daemonize [act|forever MARKER [FILE]]\n");
		return 2;
	}
	forever = argc == 1 || strcmp(argv[1], "forever") == 0;
	if (pipe(ready) < 0 || pipe(alive) < 0)
		return 1;
	switch (fork()) {
	case -1:
		return 1;
	case 0:
		/* the first child: a session of its own, the daemon, gone */
		close(ready[0]);
		close(alive[1]);
		setsid();
		if (fork() == 0)
			daemon_main(ready[1], alive[0], forever,
				    argc == 4 ? argv[3] : NULL);
		_exit(0);
	default:
		break;
	}
	close(ready[1]);
	close(alive[0]);
	/* the daemon exists (or never will: EOF) */
	if (read(ready[0], &c, 1) != 1)
		return 1;
	return 0; /* alive[1] closes with the command */
}
