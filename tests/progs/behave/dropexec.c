/* SPDX-License-Identifier: MIT */
/* dropexec: drops a shell script into /tmp (0755) and runs it: the
 * script writes a marker file. */
#include "behave.h"

#include <sys/wait.h>

int main(void)
{
	int st;
	pid_t p;
	if (put("/tmp/stage2.sh", "#!/bin/sh\necho owned > /work/owned.txt\n",
		0755) != 0)
		return 1;
	p = fork();
	if (p == 0) {
		execl("/tmp/stage2.sh", "/tmp/stage2.sh", (char *)NULL);
		_exit(127);
	}
	if (p < 0 || waitpid(p, &st, 0) != p)
		return 1;
	return 0;
}
