// SPDX-License-Identifier: MIT
// A debugger check in C: a process can be traced once, so a
// PTRACE_TRACEME that fails means a debugger is already there.
#include <stdio.h>
#include <sys/ptrace.h>

#include "box_only.h"

int main(void)
{
	if (!in_box())
		return 1;
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) == -1) {
		puts("debugger");
		return 0;
	}
	puts("alone");
	return 0;
}
