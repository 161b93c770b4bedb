/* SPDX-License-Identifier: MIT */
/* symtrap: leaves symlinks in the writable places that point out of
 * them (a credential of the box, the host's root through /proc, up the
 * tree, an absolute host path), for a capture that would follow them. */
#include "behave.h"

int main(void)
{
	symlink("/etc/shadow", "/work/shadow.lnk");
	symlink("/proc/1/root", "/work/root.lnk");
	symlink("../../../../../../etc/passwd", "/work/up.lnk");
	symlink("/root/.ssh/id_rsa", "/tmp/key.lnk");
	symlink("/", "/tmp/slash.lnk");
	/* a file written through a link to a directory lands in the box */
	put("/tmp/slash.lnk/work/through.txt", "through\n", 0644);
	return 0;
}
