// SPDX-License-Identifier: MIT
// A bot sizing up its host before it picks a payload: the kernel's own
// summary (uptime, memory, swap, load, process count) through sysinfo(2),
// without a tool or a file of /proc.  It changes nothing.
#include <stdio.h>
#include <sys/sysinfo.h>

int main(void)
{
	struct sysinfo si;
	if (sysinfo(&si) != 0)
		return 0;
	printf("up %ld s, %lu MiB RAM, %hu processes, load %.2f\n", si.uptime,
	       (unsigned long)(si.totalram * si.mem_unit >> 20), si.procs,
	       si.loads[0] / 65536.0);
	return 0;
}
