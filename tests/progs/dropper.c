/* SPDX-License-Identifier: MIT */
/* dropper: writes /work/dropped.bin (0755, fixed bytes); with "more" also
 * /work/note.txt; used by tests/behaviour_spec.lua. */
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

static void drop(const char *path, const char *text, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, mode);
	if (fd >= 0) {
		(void)write(fd, text, strlen(text));
		close(fd);
	}
}

int main(int argc, char **argv)
{
	drop("/work/dropped.bin", "\177ELF dropped payload\n", 0755);
	if (argc > 1 && !strcmp(argv[1], "more"))
		drop("/work/note.txt", "one thing more\n", 0644);
	return 0;
}
