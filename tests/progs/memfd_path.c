/* SPDX-License-Identifier: MIT */
/*
 * memfd_path: execs that name a memfd without running one, and one that
 * runs one (tests/inspect_spec.lua).
 *   memfd_path path    execveat(fd, "/memfd:x", ...) with fd a regular
 *                      file: the path is absolute, fd is ignored (ENOENT);
 *                      then execveat(fd, "", AT_EMPTY_PATH) of that file
 *   memfd_path memfd   its own image copied into a memfd and run from it
 *   memfd_path done    prints "done"
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

static char *av[] = {"memfd_path", "done", NULL};
static char *env[] = {NULL};

static void by_path(void)
{
	int fd = open("/proc/self/exe", O_RDONLY);
	if (fd < 0) {
		perror("open");
		return;
	}
	syscall(SYS_execveat, fd, "/memfd:x", av, env, 0);
	printf("path: %s\n", strerror(errno));
	fflush(stdout);
	syscall(SYS_execveat, fd, "", av, env, AT_EMPTY_PATH);
	perror("execveat");
}

static void by_memfd(void)
{
	char buf[65536];
	ssize_t r;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int fd = (int)syscall(SYS_memfd_create, "x", 0);
	if (in < 0 || fd < 0) {
		perror("memfd_create");
		return;
	}
	while ((r = read(in, buf, sizeof buf)) > 0)
		if (write(fd, buf, (size_t)r) != r)
			break;
	syscall(SYS_execveat, fd, "", av, env, AT_EMPTY_PATH);
	perror("execveat");
}

int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "";
	if (!strcmp(w, "path"))
		by_path();
	else if (!strcmp(w, "memfd"))
		by_memfd();
	else if (!strcmp(w, "done"))
		printf("done\n");
	return 0;
}
