/* SPDX-License-Identifier: MIT */
/*
 * selfkill SIG CPU_MS MEM_MIB [ignore]: a program that makes its own end
 * look like a limit's.  It touches MEM_MIB MiB (resident), spins until its
 * own CPU time reaches CPU_MS (-1: forever), then sends itself SIG (XCPU,
 * XFSZ, SYS or KILL).  Its CPU time is read on the clock the kernel checks
 * RLIMIT_CPU against (ITIMER_PROF, the tick-sampled utime + stime), which
 * on a busy machine runs ahead of the scheduler's own count
 * (CLOCK_PROCESS_CPUTIME_ID) by a few percent.  With "ignore", SIGXCPU is
 * ignored first, so that only the hard CPU limit can stop it.  Prints nothing.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <sys/time.h>
#include <unistd.h>

static volatile sig_atomic_t spent;

static void on_prof(int sig)
{
	(void)sig;
	spent = 1;
}

int main(int argc, char **argv)
{
	static const struct {
		const char *name;
		int sig;
	} sigs[] = {{"XCPU", SIGXCPU},
		    {"XFSZ", SIGXFSZ},
		    {"SYS", SIGSYS},
		    {"KILL", SIGKILL}};
	int sig = 0;
	long cpu_ms, mib;
	if (argc < 4)
		return 2;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (strcmp(argv[1], sigs[i].name) == 0)
			sig = sigs[i].sig;
	if (!sig)
		return 2;
	cpu_ms = atol(argv[2]);
	mib = atol(argv[3]);
	if (argc > 4 && strcmp(argv[4], "ignore") == 0)
		signal(SIGXCPU, SIG_IGN);
	for (long i = 0; i < mib; i++) {
		char *p = malloc(1 << 20);
		if (!p)
			return 3;
		memset(p, 1, 1 << 20);
	}
	if (cpu_ms >= 0) {
		struct itimerval it = {{0, 0},
				       {cpu_ms / 1000, (cpu_ms % 1000) * 1000}};
		signal(SIGPROF, on_prof);
		if (cpu_ms == 0)
			spent = 1;
		else if (setitimer(ITIMER_PROF, &it, NULL) < 0)
			return 3;
	}
	while (!spent)
		;
	kill(getpid(), sig);
	return 4;
}
