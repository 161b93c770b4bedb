// SPDX-License-Identifier: MIT
// A bot hiding under a kernel thread's name: overwrites its argv[0] in
// memory (what ps and /proc/PID/cmdline show) and sets its task name
// (prctl PR_SET_NAME: /proc/PID/comm, what top shows), then goes on.
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

#include "box_only.h"

int main(int argc, char **argv)
{
	const char *name = "[kworker/0:2]";
	size_t room = strlen(argv[0]);
	(void)argc;
	if (!in_box())
		return 1;
	memset(argv[0], 0, room);
	memcpy(argv[0], name, strlen(name) < room ? strlen(name) : room);
	if (prctl(PR_SET_NAME, "kworker/0:2", 0, 0, 0) != 0)
		perror("prctl");
	puts("renamed");
	return 0;
}
