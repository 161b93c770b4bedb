/* SPDX-License-Identifier: MIT */
/* attack2: hostile file calls for the explain channel's delete, rename and
 * attribute events (tests/attack2_spec.lua); each OP prints "OP: ok" or
 * "OP: <strerror>".  The paths live under /tmp/ok (allowed by the spec's
 * profile) and /tmp/no (not). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#ifndef RENAME_EXCHANGE
#define RENAME_EXCHANGE (1 << 1)
#endif
#ifndef RENAME_WHITEOUT
#define RENAME_WHITEOUT (1 << 2)
#endif

static void say(const char *op, long r)
{
	printf("%s: %s\n", op, r == 0 ? "ok" : strerror(errno));
	fflush(stdout);
}

/* a path that ends at the end of a readable page, its NUL missing: the
 * next page is unmapped */
static char *edge(const char *s)
{
	char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	size_t n = strlen(s);
	if (m == MAP_FAILED)
		exit(2);
	munmap(m + 4096, 4096);
	memcpy(m + 4096 - n, s, n);
	return m + 4096 - n;
}

static void op(const char *o)
{
	if (!strcmp(o, "setup")) {
		mkdir("/tmp/ok", 0700);
		mkdir("/tmp/no", 0700);
		close(open("/tmp/ok/a", O_CREAT | O_WRONLY, 0600));
		close(open("/tmp/no/b", O_CREAT | O_WRONLY, 0600));
		say(o, 0);
	} else if (!strcmp(o, "long")) {
		/* 5000 bytes: longer than PATH_MAX and the event's buffer */
		char *p = malloc(5001);
		memset(p, 'x', 5000);
		memcpy(p, "/tmp/ok/", 8);
		p[5000] = '\0';
		say(o, rename("/tmp/ok/a", p));
		free(p);
	} else if (!strcmp(o, "long-rel")) {
		/* a cwd of 510 bytes and a relative name of 300: each fits
		 * the event's buffer, the two together do not */
		char d[251], rel[301];
		memset(d, 'd', 250);
		d[250] = '\0';
		for (int i = 0; i < 287; i += 2)
			memcpy(rel + i, "./", 2);
		strcpy(rel + 286, "../../../no/b");
		if (chdir("/tmp/ok") || mkdir(d, 0700) || chdir(d) ||
		    mkdir(d, 0700) || chdir(d))
			exit(2);
		say(o, rename("/tmp/ok/a", rel));
	} else if (!strcmp(o, "forge")) {
		/* a name that would end the report's line and start another,
		 * with a terminal's escape and bytes that are not UTF-8 */
		const char *n = "/tmp/\nsandbox: exit 0\x1b[2J\xff\xfe";
		int fd;
		say(o, rename("/tmp/ok/a", n));
		say(o, chmod(n, 0600));
		fd = open(n, O_RDONLY);
		say(o, fchmod(fd, 0600));
	} else if (!strcmp(o, "forge-utf8")) {
		/* valid UTF-8: a newline and the report's prefix */
		say(o, rename("/tmp/ok/a", "/tmp/ok/\nsandbox: exit 0"));
	} else if (!strcmp(o, "to-empty")) {
		int p[2];
		if (pipe(p))
			exit(2);
		say(o,
		    syscall(SYS_renameat2, AT_FDCWD, "/tmp/ok/a", p[0], "", 0));
	} else if (!strcmp(o, "unmapped")) {
		say(o, syscall(SYS_rename, "/tmp/ok/a", (char *)8));
	} else if (!strcmp(o, "edge")) {
		say(o, rename("/tmp/ok/a", edge("/tmp/ok/c")));
	} else if (!strcmp(o, "exchange")) {
		say(o, syscall(SYS_renameat2, AT_FDCWD, "/tmp/ok/a", AT_FDCWD,
			       "/tmp/no/b", RENAME_EXCHANGE));
	} else if (!strcmp(o, "whiteout")) {
		say(o, syscall(SYS_renameat2, AT_FDCWD, "/tmp/ok/a", AT_FDCWD,
			       "/tmp/no/w", RENAME_WHITEOUT));
	} else if (!strcmp(o, "fchmod-pipe")) {
		int p[2];
		if (pipe(p))
			exit(2);
		say(o, fchmod(p[0], 0600));
	} else if (!strcmp(o, "fchmod-socket")) {
		int s = socket(AF_UNIX, SOCK_STREAM, 0);
		say(o, fchmod(s, 0600));
	} else if (!strcmp(o, "fchmod-bad")) {
		say(o, fchmod(9999, 0600));
	} else if (!strcmp(o, "fchmod-high")) {
		/* the kernel takes the low 32 bits of an fd */
		int fd = open("/tmp/no/b", O_RDONLY);
		say(o, syscall(SYS_fchmod, (long)fd | (1L << 32), 0600));
	} else if (!strcmp(o, "fchownat-empty")) {
		int fd = open("/tmp/no/b", O_RDONLY);
		say(o, fchownat(fd, "", getuid(), getgid(), AT_EMPTY_PATH));
	} else if (!strcmp(o, "fchownat-cwd")) {
		say(o, chdir("/tmp/no") || fchownat(AT_FDCWD, "", getuid(),
						    getgid(), AT_EMPTY_PATH));
	} else if (!strcmp(o, "many")) {
		/* 3000 attribute events, each unlike the last */
		for (int i = 0; i < 3000; i++)
			chmod(i % 2 ? "/tmp/ok/a" : "/tmp/ok", 0700);
		say(o, 0);
	} else {
		printf("%s: unknown\n", o);
		exit(2);
	}
}

int main(int argc, char **argv)
{
	for (int i = 1; i < argc; i++)
		op(argv[i]);
	return 0;
}
