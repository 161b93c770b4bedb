/* SPDX-License-Identifier: MIT */
/* hostile: tries one forbidden thing (argv[1]) or all of them ("all"),
 * printing each result; used by tests/notify_spec.lua. */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/ptrace.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

static void say(const char *what, long r)
{
	printf("%s: %s\n", what, r < 0 ? strerror(errno) : "ok");
	fflush(stdout);
}

static void t_shadow(void)
{
	say("open", open("/etc/shadow", O_RDONLY));
}

static void t_socket(void)
{
	say("socket", socket(AF_INET, SOCK_STREAM, 0));
}

static void t_connect(void)
{
	struct sockaddr_in a;
	/* an inet6 socket (socket(AF_INET) is notified itself) */
	int s = socket(AF_INET6, SOCK_STREAM, 0);
	memset(&a, 0, sizeof a);
	a.sin_family = AF_INET;
	a.sin_port = htons(4444);
	a.sin_addr.s_addr = htonl(0x7f000001);
	say("connect", connect(s, (struct sockaddr *)&a, sizeof a));
}

static void t_clone(void)
{
	say("clone",
	    (long)syscall(SYS_clone, CLONE_NEWUSER | SIGCHLD, 0, 0, 0, 0));
}

static void t_mmap(void)
{
	void *p = mmap(NULL, 512UL << 20, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	say("mmap", p == MAP_FAILED ? -1 : 0);
}

static void t_ptrace(void)
{
	say("ptrace", ptrace(PTRACE_TRACEME, 0, 0, 0));
}

/* threads race to rewrite the path of a notified open to a forbidden one
 * while the supervisor reads it: the walls hold the open regardless */
static char racy[64] = "/usr/lib/os-release";
static volatile int stop_race;
static void *flip(void *arg)
{
	(void)arg;
	while (!stop_race) {
		memcpy(racy, "/etc/shadow\0\0\0\0\0\0\0\0", 20);
		memcpy(racy, "/usr/lib/os-release", 20);
	}
	return NULL;
}
static void t_race(void)
{
	pthread_t t[2];
	int opened = 0;
	for (int i = 0; i < 2; i++)
		pthread_create(&t[i], NULL, flip, NULL);
	for (int i = 0; i < 2000; i++) {
		int fd = open(racy, O_RDONLY);
		if (fd >= 0) {
			char buf[8];
			char link[64], path[256];
			ssize_t n;
			snprintf(link, sizeof link, "/proc/self/fd/%d", fd);
			n = readlink(link, path, sizeof path - 1);
			if (n > 0) {
				path[n] = '\0';
				if (strcmp(path, "/etc/shadow") == 0)
					opened++;
			}
			(void)read(fd, buf, sizeof buf);
			close(fd);
		}
	}
	stop_race = 1;
	for (int i = 0; i < 2; i++)
		pthread_join(t[i], NULL);
	printf("race: %d forbidden opens\n", opened);
}

/* a fork bomb: every process forks for ever (stopped at the budget) */
static void t_forkbomb(void)
{
	for (;;)
		fork();
}

/* forks one child at a time, each waited for, until fork fails */
static void t_forks(void)
{
	for (int i = 1; i <= 64; i++) {
		pid_t p = fork();
		if (p == 0)
			_exit(0);
		if (p < 0) {
			printf("fork %d: %s\n", i, strerror(errno));
			return;
		}
		waitpid(p, NULL, 0);
	}
	printf("fork: 64 ok\n");
}

/* execs itself again and again (argv[2] counts), until execve fails */
static void t_execs(const char *n)
{
	char num[16];
	char *av[] = {"hostile", "execs", num, NULL};
	int i = n ? atoi(n) : 0;
	if (i == 64) {
		printf("exec: 64 ok\n");
		return;
	}
	snprintf(num, sizeof num, "%d", i + 1);
	execv("/proc/self/exe", av);
	printf("exec %d: %s\n", i + 1, strerror(errno));
}

/* a fileless exec: the program copied into a memfd, run from there */
static void t_memfd(void)
{
	char buf[65536];
	char *av[] = {"hostile", "done", NULL};
	char *env[] = {NULL};
	ssize_t r;
	int in = open("/proc/self/exe", O_RDONLY | O_CLOEXEC);
	int fd = (int)syscall(SYS_memfd_create, "x", 0);
	if (fd < 0) {
		say("memfd_create", -1);
		return;
	}
	while ((r = read(in, buf, sizeof buf)) > 0)
		if (write(fd, buf, (size_t)r) != r)
			break;
	close(in);
	syscall(SYS_execveat, fd, "", av, env, AT_EMPTY_PATH);
	say("execveat", -1);
}

int main(int argc, char **argv)
{
	const char *w = argc > 1 ? argv[1] : "all";
	if (!strcmp(w, "done"))
		printf("done\n");
	else if (!strcmp(w, "forkbomb"))
		t_forkbomb();
	else if (!strcmp(w, "forks"))
		t_forks();
	else if (!strcmp(w, "execs"))
		t_execs(argc > 2 ? argv[2] : NULL);
	else if (!strcmp(w, "memfd"))
		t_memfd();
	else if (!strcmp(w, "shadow"))
		t_shadow();
	else if (!strcmp(w, "socket"))
		t_socket();
	else if (!strcmp(w, "connect"))
		t_connect();
	else if (!strcmp(w, "clone"))
		t_clone();
	else if (!strcmp(w, "mmap"))
		t_mmap();
	else if (!strcmp(w, "ptrace"))
		t_ptrace();
	else if (!strcmp(w, "race"))
		t_race();
	else if (!strcmp(w, "all")) {
		t_shadow();
		t_socket();
		t_connect();
		t_clone();
		t_mmap();
		t_ptrace();
	}
	return 0;
}
