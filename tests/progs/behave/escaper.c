/* SPDX-License-Identifier: MIT */
/* escaper: asks for what the box never gives: a new user namespace, a
 * ptrace of itself, a mount. */
#include <sched.h>
#include <sys/mount.h>
#include <sys/ptrace.h>

int main(void)
{
	(void)unshare(CLONE_NEWUSER);
	(void)ptrace(PTRACE_TRACEME, 0, 0, 0);
	(void)mount("none", "/tmp", "tmpfs", 0, NULL);
	return 0;
}
