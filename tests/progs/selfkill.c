/*
 * selfkill SIG CPU_MS MEM_MIB [ignore]: a program that makes its own end
 * look like a limit's.  It touches MEM_MIB MiB (resident), spins until its
 * own CPU time reaches CPU_MS (-1: forever), then sends itself SIG (XCPU,
 * XFSZ, SYS or KILL).  With "ignore", SIGXCPU is ignored first, so that
 * only the hard CPU limit can stop it.  Prints nothing.
 */
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

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
	for (;;) {
		struct timespec t;
		clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
		if (cpu_ms >= 0 &&
		    t.tv_sec * 1000 + t.tv_nsec / 1000000 >= cpu_ms)
			break;
	}
	kill(getpid(), sig);
	return 4;
}
