/* SPDX-License-Identifier: MIT */
/* fileops: runs file operations named on its command line, in order, each
 * OP:PATH[:PATH2], printing "OP: ok" or "OP: <strerror>"; used by
 * tests/notify_spec.lua for the delete, rename and attribute events. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/xattr.h>
#include <unistd.h>

#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452 /* Linux 6.6; not in every toolchain's headers */
#endif

/* op on fd-taking calls: the file opened read-only, then closed */
static long on_fd(const char *op, const char *p)
{
	struct timespec ts[2] = {{0, UTIME_NOW}, {0, UTIME_NOW}};
	long r;
	int fd = open(p, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -1;
	if (!strcmp(op, "fchmod"))
		r = fchmod(fd, 0600);
	else if (!strcmp(op, "fchown"))
		r = fchown(fd, getuid(), getgid());
	else if (!strcmp(op, "fsetxattr"))
		r = fsetxattr(fd, "user.t", "v", 1, 0);
	else
		r = futimens(fd, ts);
	close(fd);
	return r;
}

static long run(const char *op, const char *p, const char *q)
{
	if (!strcmp(op, "mkdir"))
		return mkdir(p, 0755);
	if (!strcmp(op, "write")) {
		int fd =
		    open(p, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
		return fd < 0 ? -1 : close(fd);
	}
	if (!strcmp(op, "unlink"))
		return unlink(p);
	if (!strcmp(op, "rmdir"))
		return rmdir(p);
	if (!strcmp(op, "unlinkat-dir")) /* p relative to /work */
		return unlinkat(open("/work", O_RDONLY | O_DIRECTORY), p,
				AT_REMOVEDIR);
	if (!strcmp(op, "rename"))
		return rename(p, q);
	if (!strcmp(op, "renameat2"))
		return syscall(SYS_renameat2, AT_FDCWD, p, AT_FDCWD, q,
			       1 /* RENAME_NOREPLACE */);
	if (!strcmp(op, "chmod"))
		return chmod(p, 0600);
	if (!strcmp(op, "fchmodat2"))
		return syscall(SYS_fchmodat2, AT_FDCWD, p, 0600, 0);
	if (!strcmp(op, "chown"))
		return chown(p, getuid(), getgid());
	if (!strcmp(op, "utimensat"))
		return utimensat(AT_FDCWD, p, NULL, 0);
	if (!strcmp(op, "setxattr"))
		return setxattr(p, "user.t", "v", 1, 0);
	if (!strcmp(op, "fchmod") || !strcmp(op, "fchown") ||
	    !strcmp(op, "fsetxattr") || !strcmp(op, "futimens"))
		return on_fd(op, p);
	errno = EINVAL;
	return -1;
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++) {
		char buf[1024], *op = buf, *p, *q;
		snprintf(buf, sizeof buf, "%s", argv[i]);
		p = strchr(op, ':');
		if (!p)
			return 2;
		*p++ = '\0';
		q = strchr(p, ':');
		if (q)
			*q++ = '\0';
		long r = run(op, p, q ? q : "");
		printf("%s: %s\n", op, r < 0 ? strerror(errno) : "ok");
		fflush(stdout);
	}
	return 0;
}
