/* SPDX-License-Identifier: MIT */
/*
 * idcalls: make id-changing and ownership-changing system calls, raw, and
 * print how each ended.
 *
 *   idcalls CASE...   CASE is CALL:ID[:ID[:ID]], e.g. setresuid:-1:65534:-1
 *                     or chown:1000:-1; prints "CASE=ok" or "CASE=ERRNO"
 *                     (EPERM, ...), one a line; setfsuid and setfsgid
 *                     print "CASE=N", the id they returned
 *
 * An ID is a number (0x... allowed) passed in a 64-bit register as written;
 * -1 is passed as 0xffffffff, as libc passes (uid_t)-1.  The ownership
 * calls work on the file ./idcalls.file, created (mode 0600) if missing.
 * Used by tests/ids_spec.lua inside the box.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#define FILE_NAME "idcalls.file"

static unsigned long id_arg(const char *s)
{
	if (strcmp(s, "-1") == 0)
		return 0xffffffffUL;
	return strtoul(s, NULL, 0);
}

static long call(const char *name, const unsigned long *a, int fd)
{
	static const struct {
		const char *name;
		long nr;
	} plain[] = {
	    {"setuid", SYS_setuid},	  {"setgid", SYS_setgid},
	    {"setreuid", SYS_setreuid},	  {"setregid", SYS_setregid},
	    {"setresuid", SYS_setresuid}, {"setresgid", SYS_setresgid},
	    {"setfsuid", SYS_setfsuid},	  {"setfsgid", SYS_setfsgid},
	};
	for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
		if (strcmp(name, plain[i].name) == 0)
			return syscall(plain[i].nr, a[0], a[1], a[2]);
	if (strcmp(name, "chown") == 0)
		return syscall(SYS_chown, FILE_NAME, a[0], a[1]);
	if (strcmp(name, "lchown") == 0)
		return syscall(SYS_lchown, FILE_NAME, a[0], a[1]);
	if (strcmp(name, "fchown") == 0)
		return syscall(SYS_fchown, fd, a[0], a[1]);
	if (strcmp(name, "fchownat") == 0)
		return syscall(SYS_fchownat, AT_FDCWD, FILE_NAME, a[0], a[1],
			       0);
	if (strcmp(name, "setgroups") == 0) {
		unsigned int groups[1];
		groups[0] = (unsigned int)a[0];
		return syscall(SYS_setgroups, 1, groups);
	}
	errno = ENOSYS;
	return -2;
}

int main(int argc, char **argv)
{
	int fd = open(FILE_NAME, O_RDWR | O_CREAT | O_CLOEXEC, 0600);

	if (fd < 0) {
		perror(FILE_NAME);
		return 2;
	}
	for (int i = 1; i < argc; i++) {
		char buf[256], *save = NULL, *name, *tok;
		unsigned long a[3] = {0, 0, 0};
		long r;
		int n = 0;

		snprintf(buf, sizeof buf, "%s", argv[i]);
		name = strtok_r(buf, ":", &save);
		while (name && n < 3 && (tok = strtok_r(NULL, ":", &save)))
			a[n++] = id_arg(tok);
		errno = 0;
		r = name ? call(name, a, fd) : -2;
		if (r == -2) {
			fprintf(stderr, "idcalls: unknown case %s\n", argv[i]);
			return 2;
		}
		if (name && strncmp(name, "setfs", 5) == 0)
			printf("%s=%ld\n", argv[i], r);
		else if (r < 0)
			printf("%s=%s\n", argv[i], strerrorname_np(errno));
		else
			printf("%s=ok\n", argv[i]);
	}
	close(fd);
	return 0;
}
