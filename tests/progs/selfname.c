// SPDX-License-Identifier: MIT
// What a process can do to the name the supervisor reads at its
// prctl(PR_SET_NAME) and to the socket() it watches; one case per run,
// each printing the kernel's answer as the process sees it:
//   edge   a name of 15 bytes and no NUL, its last byte the last of a
//          mapped page (the next page unmapped): the kernel takes the 15
//   fault  a name at an unmapped address: the kernel answers EFAULT
//   flood  argv[0] overwritten, with the rest of the argument area, by
//          bytes that hold no NUL (give it a long argument), then a name
//   raw    socket(AF_INET, SOCK_RAW|SOCK_NONBLOCK|SOCK_CLOEXEC, ICMP)
//          and socket(AF_PACKET, SOCK_RAW, 0)
// then prints /proc/self/comm as the kernel holds it.
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <unistd.h>

static void show_comm(void)
{
	char comm[32] = "";
	FILE *f = fopen("/proc/self/comm", "r");
	if (f) {
		if (!fgets(comm, sizeof comm, f))
			comm[0] = '\0';
		fclose(f);
	}
	printf("comm %s", comm);
}

static int edge(void)
{
	char *p = mmap(NULL, 8192, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (p == MAP_FAILED || munmap(p + 4096, 4096) != 0)
		return 1;
	memcpy(p + 4096 - 15, "EDGE15BYTESNAME", 15);
	printf("prctl %d\n", prctl(PR_SET_NAME, p + 4096 - 15, 0, 0, 0));
	return 0;
}

static int flood(char **argv)
{
	/* the argument area runs from argv[0] to the end of the last one */
	char *end = argv[1] + strlen(argv[1]);
	memset(argv[0], 'A', (size_t)(end - argv[0]));
	printf("prctl %d\n", prctl(PR_SET_NAME, "flooded", 0, 0, 0));
	return 0;
}

static int raw(void)
{
	int a = socket(AF_INET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
		       IPPROTO_ICMP);
	int ea = a < 0 ? errno : 0;
	int b = socket(AF_PACKET, SOCK_RAW, 0);
	int eb = b < 0 ? errno : 0;
	printf("inet %s\npacket %s\n", a < 0 ? strerror(ea) : "made",
	       b < 0 ? strerror(eb) : "made");
	return 0;
}

int main(int argc, char **argv)
{
	int r = 1;
	if (argc < 2)
		return 2;
	if (strcmp(argv[1], "edge") == 0)
		r = edge();
	else if (strcmp(argv[1], "fault") == 0) {
		int k = prctl(PR_SET_NAME, (char *)16, 0, 0, 0);
		printf("prctl %d %s\n", k, k ? strerror(errno) : "");
		r = 0;
	} else if (strncmp(argv[1], "flood", 5) == 0)
		r = flood(argv);
	else if (strcmp(argv[1], "raw") == 0)
		r = raw();
	show_comm();
	return r;
}
