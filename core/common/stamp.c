/* SPDX-License-Identifier: MIT */
/*
 * stamp.c: the shared page of stamp.h and its one line at exit.
 */
#include "stamp.h"

#include "plan.h" /* SBX_LOCAL */

#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/mman.h>
#include <unistd.h>

SBX_LOCAL uint64_t *sbx_stamps;
SBX_LOCAL int64_t sbx_stamp_offset;
static pid_t stamp_pid;
static uint64_t main_ns;

static const char *const names[SBX_T_COUNT] = {
    "main",	 "core",   "filter0", "filter1", "start",  "cgroup0",
    "cgroup1",	 "clone",  "cloned",  "maps",	 "child",  "ids",
    "tree0",	 "proc0",  "proc1",   "tree1",	 "step",   "landlock0",
    "landlock1", "probe1", "execve",  "ended",	 "finish", "exit"};

/* at exit of sbxlua itself (never of a copy of it): one line
 * "name=microseconds since main ..." appended to $SBXLUA_STAMPS */
static void stamp_write(void)
{
	const char *path = getenv("SBXLUA_STAMPS");
	char line[1024];
	size_t n = 0;
	int fd;

	if (sbx_stamps == NULL || getpid() != stamp_pid || path == NULL)
		return;
	sbx_stamp(SBX_T_EXIT);
	for (int i = 0; i < SBX_T_COUNT && n < sizeof line - 48; i++) {
		uint64_t base = main_ns ? main_ns : sbx_stamps[SBX_T_CORE];
		if (sbx_stamps[i] == 0 || sbx_stamps[i] < base)
			continue;
		n += (size_t)snprintf(line + n, sizeof line - n, "%s=%.1f ",
				      names[i],
				      (double)(sbx_stamps[i] - base) / 1e3);
	}
	line[n++] = '\n';
	fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOFOLLOW,
		  0600);
	if (fd < 0)
		return;
	if (write(fd, line, n) < 0) {
		/* a lost line is a lost sample */
	}
	close(fd);
}

/* Once per process: map the page when SBXLUA_STAMPS is set. */
void sbx_stamp_init(void)
{
	static int done;
	void *p;

	if (done)
		return;
	done = 1;
	if (getenv("SBXLUA_STAMPS") == NULL)
		return;
	p = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_ANONYMOUS,
		 -1, 0);
	if (p == MAP_FAILED)
		return;
	sbx_stamps = p;
	stamp_pid = getpid();
	atexit(stamp_write);
}

/* main() of sbxlua: its stamp, taken before the page exists */
void sbx_stamp_main(uint64_t ns)
{
	main_ns = ns;
	sbx_stamp_init();
	if (sbx_stamps)
		sbx_stamps[SBX_T_MAIN] = ns;
}
