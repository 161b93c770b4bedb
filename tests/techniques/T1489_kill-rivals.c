// SPDX-License-Identifier: MIT
// A bot's killer: walks /proc for every process but itself, reads where
// its executable lives, and kills those that run from a place it names
// as a rival's (here two `cat`s it started itself, reading a pipe it
// holds open, standing for another bot or a service holding a port).
#include <dirent.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "box_only.h"

static int rival(const char *pid)
{
	char path[64], exe[256];
	ssize_t n;
	int fd;
	snprintf(path, sizeof path, "/proc/%s/exe", pid);
	n = readlink(path, exe, sizeof exe - 1);
	if (n <= 0)
		return 0;
	exe[n] = '\0';
	/* the file itself, as a killer reads it to look for a marker */
	fd = open(path, O_RDONLY);
	if (fd >= 0)
		close(fd);
	return strstr(exe, "/cat") != NULL;
}

int main(void)
{
	struct dirent *d;
	DIR *proc;
	int killed = 0, p[2];
	pid_t pids[2];
	if (!in_box())
		return 1;
	if (pipe(p) < 0)
		return 1;
	for (int i = 0; i < 2; i++) {
		pids[i] = fork();
		if (pids[i] == 0) {
			dup2(p[0], 0);
			close(p[1]);
			execl("/bin/cat", "cat", (char *)NULL);
			_exit(127);
		}
	}
	close(p[0]);
	/* the rivals have executed: their exe names cat */
	for (int i = 0; i < 2; i++) {
		char id[16];
		snprintf(id, sizeof id, "%d", (int)pids[i]);
		for (int tries = 0; tries < 100000 && !rival(id); tries++)
			sched_yield();
	}
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		int pid = atoi(d->d_name);
		if (pid > 1 && pid != getpid() && rival(d->d_name) &&
		    kill(pid, SIGKILL) == 0)
			killed++;
	}
	if (proc)
		closedir(proc);
	close(p[1]);
	while (wait(NULL) > 0)
		;
	printf("killed %d\n", killed);
	return 0;
}
