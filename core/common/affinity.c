/* SPDX-License-Identifier: MIT */
/*
 * affinity.c: a batch's worker kept on one core, its boxes on them all.
 *
 * With a worker per core (sbx.spread), each kept on its own: a worker
 * that moves between cores makes every copy-on-write fault of its own
 * memory (a box's clone write-protects what it shares) flush the other
 * core's TLB by an interrupt, and leaves its cache behind
 * (docs/performance.md).  Its boxes' init runs its set-up there too, and
 * gives itself the whole set back before it forks the command, whose
 * processes see every CPU the host lets sbxlua use, as a program run
 * there does.
 */
#include "affinity.h"

#include <errno.h>
#include <sched.h>

static cpu_set_t box_set; /* the set before the pin */
static int pinned;

int sbx_pin_to(int k)
{
	cpu_set_t all, one;
	int n, cpu = -1;
	if (k < 0)
		return -EINVAL;
	if (pinned)
		all = box_set;
	else if (sched_getaffinity(0, sizeof all, &all) < 0)
		return -errno;
	n = CPU_COUNT(&all);
	if (n < 1)
		return -EINVAL;
	k %= n;
	for (int c = 0; c < CPU_SETSIZE && cpu < 0; c++)
		if (CPU_ISSET(c, &all) && k-- == 0)
			cpu = c;
	CPU_ZERO(&one);
	CPU_SET(cpu, &one);
	if (sched_setaffinity(0, sizeof one, &one) < 0)
		return -errno;
	box_set = all;
	pinned = 1;
	return cpu;
}

int sbx_box_affinity(void)
{
	if (!pinned)
		return 0;
	return sched_setaffinity(0, sizeof box_set, &box_set) < 0 ? -errno : 0;
}
