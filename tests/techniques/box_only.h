// SPDX-License-Identifier: MIT
// What the ATT&CK corpus's C programs share (tests/techniques_spec.lua):
// the check that a program runs inside sbxlua's analysis box, whose user's
// HOME is /home/dana (sbx.stdbox.user), so that one run by hand on a host
// does nothing.
#ifndef BOX_ONLY_H
#define BOX_ONLY_H
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

// 1 inside the analysis box; else says so on stderr and returns 0.
static inline int in_box(void)
{
	const char *home = getenv("HOME");
	if (home && strcmp(home, "/home/dana") == 0)
		return 1;
	fputs("run only inside sbxlua's analysis box\n", stderr);
	return 0;
}
#endif
