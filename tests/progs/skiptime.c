/* SPDX-License-Identifier: MIT */
/*
 * skiptime MODE ...: a box whose tasks wait in different ways, each line
 * printed by the task that saw it happen (one write per line):
 *   pair P C [wait]  a child sleeps C s and says "child woke"; its parent
 *                    polls the child's pipe with a timeout of P s: "parent
 *                    timeout" when it ran out, with how long that took on
 *                    the parent's own clock ("waited N s"), then kills
 *                    the child ("child killed 9"), or with "wait" waits for
 *                    it ("child exited 0")
 *   busy S           a child spins for S s of its own clock ("busy done")
 *                    beside a sleeper of 600 s ("sleeper woke")
 *   two A B          two children sleep A and B s, each says "woke N" when
 *                    its sleep returns
 *   alarm S          alarm(2) with a handler, then a nanosleep of S s:
 *                    "nanosleep R rem N" (R: 0 or -errno, N the whole
 *                    seconds left), "alarms 1"
 *   timerfd S        a timerfd armed for 1 s, read by the parent ("timer
 *                    fired") while a child sleeps S s ("child woke")
 *   sigmask S        SIGUSR1 blocked and sent to itself, then pselect6 and
 *                    ppoll of S s with a mask that lets it through: each
 *                    "NAME R handled N"
 *   signal S         a child sleeps S s; its parent sends it SIGUSR1 once
 *                    its /proc says it waits in nanosleep: the child's
 *                    "nanosleep R rem N handled 1"
 */
#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/timerfd.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static void say(const char *fmt, long v)
{
	char line[128];
	int n = snprintf(line, sizeof line, fmt, v);
	if (n > 0 && write(1, line, (size_t)n) < 0)
		_exit(3);
}

static double now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* A child that sleeps s seconds, says what, and exits 0; fd (if >= 0)
 * is the end of a pipe it holds open until then. */
static pid_t sleeper(long s, const char *what, int fd)
{
	pid_t pid = fork();
	if (pid == 0) {
		struct timespec t = {s, 0};
		nanosleep(&t, NULL);
		say(what, s);
		if (fd >= 0)
			close(fd);
		_exit(0);
	}
	return pid;
}

static void report_child(pid_t pid)
{
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	if (WIFSIGNALED(st))
		say("child killed %ld\n", WTERMSIG(st));
	else
		say("child exited %ld\n", WEXITSTATUS(st));
}

static void pair(long p, long c, int wait_it)
{
	int fds[2];
	struct pollfd pf;
	double t0;
	pid_t pid;
	if (pipe(fds) < 0)
		exit(2);
	pid = sleeper(c, "child woke\n", fds[1]);
	close(fds[1]);
	pf = (struct pollfd){fds[0], POLLIN, 0};
	t0 = now();
	if (poll(&pf, 1, (int)(p * 1000)) == 0) {
		say("parent timeout\n", 0);
		say("waited %ld s\n", (long)(now() - t0));
		if (!wait_it)
			kill(pid, SIGKILL);
	}
	report_child(pid);
}

static void busy(long s)
{
	pid_t a = fork();
	if (a == 0) {
		double end = now() + (double)s;
		while (now() < end)
			;
		say("busy done\n", 0);
		_exit(0);
	}
	report_child(sleeper(600, "sleeper woke\n", -1));
	report_child(a);
}

static volatile sig_atomic_t alarms;
static void on_alarm(int sig)
{
	(void)sig;
	alarms++;
}

static void alarm_sleep(long s)
{
	struct sigaction sa;
	struct timespec t = {s, 0}, rem = {0, 0};
	long r;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_alarm;
	sigaction(SIGALRM, &sa, NULL);
	alarm(2);
	r = nanosleep(&t, &rem) < 0 ? -errno : 0;
	say("nanosleep %ld", r);
	say(" rem %ld\n", (long)rem.tv_sec);
	say("alarms %ld\n", alarms);
}

static void timer(long s)
{
	struct itimerspec it = {{0, 0}, {1, 0}};
	unsigned long long ticks = 0;
	int fd = timerfd_create(CLOCK_MONOTONIC, 0);
	pid_t pid;
	if (fd < 0 || timerfd_settime(fd, 0, &it, NULL) < 0)
		exit(2);
	pid = sleeper(s, "child woke\n", -1);
	if (read(fd, &ticks, sizeof ticks) == sizeof ticks)
		say("timer fired\n", 0);
	report_child(pid);
}

static volatile sig_atomic_t handled;
static void on_usr1(int sig)
{
	(void)sig;
	handled++;
}

/* SIGUSR1 caught by on_usr1, and blocked */
static void catch_usr1(sigset_t *open)
{
	struct sigaction sa;
	sigset_t b;
	memset(&sa, 0, sizeof sa);
	sa.sa_handler = on_usr1;
	sigaction(SIGUSR1, &sa, NULL);
	sigemptyset(&b);
	sigaddset(&b, SIGUSR1);
	sigprocmask(SIG_BLOCK, &b, open);
}

static void sigmask_sleep(long s)
{
	struct timespec t = {s, 0};
	struct {
		const sigset_t *set;
		size_t size;
	} arg;
	sigset_t open;
	long r;
	catch_usr1(&open);
	arg.set = &open;
	arg.size = 8;
	kill(getpid(), SIGUSR1);
	r = syscall(SYS_pselect6, 0, NULL, NULL, NULL, &t, &arg);
	say("pselect6 %ld", r < 0 ? -errno : r);
	say(" handled %ld\n", handled);
	kill(getpid(), SIGUSR1);
	t.tv_sec = s;
	r = syscall(SYS_ppoll, NULL, 0, &t, &open, 8);
	say("ppoll %ld", r < 0 ? -errno : r);
	say(" handled %ld\n", handled);
}

/* Whether task pid waits in call nr (its /proc syscall file). */
static int waits_in(pid_t pid, long nr)
{
	char path[64], buf[64] = "";
	FILE *f;
	snprintf(path, sizeof path, "/proc/%d/syscall", (int)pid);
	if (!(f = fopen(path, "r")))
		return 0;
	if (!fgets(buf, sizeof buf, f))
		buf[0] = '\0';
	fclose(f);
	return atol(buf) == nr && buf[0] != 'r';
}

static void signal_sleep(long s)
{
	sigset_t open;
	pid_t pid;
	catch_usr1(&open);
	pid = fork();
	if (pid == 0) {
		struct timespec t = {s, 0}, rem = {0, 0};
		long r;
		sigprocmask(SIG_SETMASK, &open, NULL);
		r = syscall(SYS_nanosleep, &t, &rem) < 0 ? -errno : 0;
		say("nanosleep %ld", r);
		say(" rem %ld", (long)rem.tv_sec);
		say(" handled %ld\n", handled);
		_exit(0);
	}
	while (!waits_in(pid, SYS_nanosleep))
		usleep(10000);
	kill(pid, SIGUSR1);
	report_child(pid);
}

int main(int argc, char **argv)
{
	const char *m = argc > 1 ? argv[1] : "";
	long a = argc > 2 ? atol(argv[2]) : 0, b = argc > 3 ? atol(argv[3]) : 0;
	if (strcmp(m, "pair") == 0 && argc > 3)
		pair(a, b, argc > 4 && strcmp(argv[4], "wait") == 0);
	else if (strcmp(m, "busy") == 0 && argc > 2)
		busy(a);
	else if (strcmp(m, "two") == 0 && argc > 3) {
		pid_t x = sleeper(a, "woke %ld\n", -1);
		pid_t y = sleeper(b, "woke %ld\n", -1);
		report_child(x);
		report_child(y);
	} else if (strcmp(m, "alarm") == 0 && argc > 2)
		alarm_sleep(a);
	else if (strcmp(m, "timerfd") == 0 && argc > 2)
		timer(a);
	else if (strcmp(m, "sigmask") == 0 && argc > 2)
		sigmask_sleep(a);
	else if (strcmp(m, "signal") == 0 && argc > 2)
		signal_sleep(a);
	else {
		fprintf(stderr, "usage: skiptime pair P C [wait] | busy S | "
				"two A B | alarm S | timerfd S | sigmask S | "
				"signal S\n");
		return 2;
	}
	return 0;
}
