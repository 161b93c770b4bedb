// SPDX-License-Identifier: MIT
// Process discovery as an IoT bot's killer does it, without a tool: walks
// /proc, and for every process reads its command line, the link to its
// executable and its open descriptors (two children of its own are there
// to be found).  It kills nothing: the children end when their pipe does.
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/wait.h>
#include <unistd.h>

#include "box_only.h"

static void look(const char *pid)
{
	char path[64], buf[256];
	DIR *fds;
	int fd;
	snprintf(path, sizeof path, "/proc/%s/cmdline", pid);
	fd = open(path, O_RDONLY);
	if (fd >= 0) {
		if (read(fd, buf, sizeof buf) < 0)
			buf[0] = '\0';
		close(fd);
	}
	snprintf(path, sizeof path, "/proc/%s/exe", pid);
	if (readlink(path, buf, sizeof buf - 1) < 0)
		buf[0] = '\0';
	snprintf(path, sizeof path, "/proc/%s/fd", pid);
	fds = opendir(path);
	if (fds) {
		while (readdir(fds))
			;
		closedir(fds);
	}
}

int main(void)
{
	struct dirent *d;
	int p[2];
	DIR *proc;
	if (!in_box() || pipe(p) < 0)
		return 1;
	for (int i = 0; i < 2; i++)
		if (fork() == 0) {
			char c;
			close(p[1]);
			_exit(read(p[0], &c, 1) < 0);
		}
	close(p[0]);
	proc = opendir("/proc");
	while (proc && (d = readdir(proc)))
		if (d->d_name[0] >= '1' && d->d_name[0] <= '9')
			look(d->d_name);
	if (proc)
		closedir(proc);
	close(p[1]);
	while (wait(NULL) > 0)
		;
	return 0;
}
