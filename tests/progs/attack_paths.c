/* attack_paths: hostile path arguments for the explain channel.
 *   unmapped: "/etc/passwd" ends a page, the next is unmapped (no NUL)
 *   long:     "/etc/passwd" then 2000 slashes then "../tmp/x"
 * Each open's result is printed as the errno's number (0: opened). */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
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
	}
	return 0;
}
