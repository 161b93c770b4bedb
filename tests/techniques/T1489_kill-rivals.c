// SPDX-License-Identifier: MIT
// A bot's killer: walks /proc for every process but itself, reads where
// its executable lives, and kills those that run from a place it names
// as a rival's (here two `sleep`s it started itself, standing for another
// bot or a service holding a port it wants).
#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

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
	return strstr(exe, "sleep") != NULL;
}

int main(void)
{
	const char *home = getenv("HOME");
	struct dirent *d;
	DIR *proc;
	int killed = 0;
	if (!home || strcmp(home, "/home/dana") != 0) {
		fputs("run only inside sbxlua's analysis box\n", stderr);
		return 1;
	}
	for (int i = 0; i < 2; i++)
		if (fork() == 0) {
			execl("/bin/sleep", "sleep", "30", (char *)NULL);
			_exit(127);
		}
	usleep(200000); /* the rivals have executed */
	proc = opendir("/proc");
	while (proc && (d = readdir(proc))) {
		int pid = atoi(d->d_name);
		if (pid > 1 && pid != getpid() && rival(d->d_name) &&
		    kill(pid, SIGKILL) == 0)
			killed++;
	}
	if (proc)
		closedir(proc);
	while (wait(NULL) > 0)
		;
	printf("killed %d\n", killed);
	return 0;
}
