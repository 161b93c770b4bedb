/* SPDX-License-Identifier: MIT */
/* attack_paths: hostile path arguments for the explain channel.
 *   unmapped: "/etc/passwd" ends a page, the next is unmapped (no NUL)
 *   long:     "/etc/passwd" then 2000 slashes then "../tmp/x"
 *   addr:     connects with address lengths 0, 2, 65536 and 16 of an
 *             unknown family, and a unix name of 108 bytes with no NUL
 *   many:     5000 opens of distinct missing paths
 *   argv:     execs of /nonexistent with 100 arguments, with one of 1000
 *             bytes, and with an argv array that runs into an unmapped
 *             page (no NULL)
 * Each open's result is printed as the errno's number (0: opened). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <unistd.h>

static int try_open(const char *p)
{
	long fd = syscall(SYS_openat, AT_FDCWD, p, O_RDONLY);
	if (fd < 0)
		return errno;
	close((int)fd);
	return 0;
}

int main(int argc, char **argv)
{
	static char big[4096];
	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "unmapped") == 0) {
		const char *s = "/etc/passwd";
		size_t l = strlen(s);
		char *m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
			       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED || munmap(m + 4096, 4096) < 0)
			return 3;
		memcpy(m + 4096 - l, s, l);
		printf("unmapped: %d\n", try_open(m + 4096 - l));
	} else if (strcmp(argv[1], "long") == 0) {
		size_t o = (size_t)snprintf(big, sizeof big, "/etc/passwd");
		memset(big + o, '/', 2000);
		snprintf(big + o + 2000, sizeof big - o - 2000, "../tmp/x");
		printf("long: %d\n", try_open(big));
	} else if (strcmp(argv[1], "addr") == 0) {
		struct sockaddr_un un;
		static char huge[65536];
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);
		memset(&un, 'A', sizeof un);
		un.sun_family = AF_UNIX;
		huge[0] = 57; /* family 0x3939 */
		huge[1] = 57;
		printf("addr: %d", connect(fd, (void *)&un, 0) < 0 ? errno : 0);
		printf(" %d", connect(fd, (void *)&un, 2) < 0 ? errno : 0);
		printf(" %d",
		       connect(fd, (void *)huge, sizeof huge) < 0 ? errno : 0);
		printf(" %d", connect(fd, (void *)huge, 16) < 0 ? errno : 0);
		printf(" %d\n",
		       connect(fd, (void *)&un, sizeof un) < 0 ? errno : 0);
	} else if (strcmp(argv[1], "many") == 0) {
		int refused = 0;
		for (int i = 0; i < 5000; i++) {
			char p[64];
			snprintf(p, sizeof p, "/nonexistent/%d", i);
			refused += try_open(p) != 0;
		}
		printf("many: %d\n", refused);
	} else if (strcmp(argv[1], "argv") == 0) {
		static char *many[101], one[1001];
		char **m = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
				MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
		if (m == MAP_FAILED || munmap((char *)m + 4096, 4096) < 0)
			return 3;
		for (int i = 0; i < 100; i++)
			many[i] = "x";
		memset(one, 'y', 1000);
		for (int i = 0; i < 512; i++)
			m[i] = "z";
		printf("argv: %d", execv("/nonexistent", many) < 0 ? errno : 0);
		many[1] = one;
		many[2] = NULL;
		printf(" %d", execv("/nonexistent", many) < 0 ? errno : 0);
		printf(" %d\n", execv("/nonexistent", m) < 0 ? errno : 0);
	}
	return 0;
}
