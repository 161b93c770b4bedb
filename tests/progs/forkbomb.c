/* SPDX-License-Identifier: MIT */
/*
 * forkbomb [TAG]: every process forks for ever; a process whose fork fails
 * waits there for good instead of exiting.  The bomb therefore holds as
 * many tasks as the kernel lets it have until something stops it, however
 * slowly the machine runs: a task limit must see it and stop the box.
 */
#include <unistd.h>

int main(void)
{
	for (;;)
		if (fork() < 0)
			for (;;)
				pause();
}
