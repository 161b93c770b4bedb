#!/bin/sh
# SPDX-License-Identifier: MIT
# Takes over another process with ptrace, in C: attaches to a child it
# started and reads its registers' word.
# (A C program, built in the box with gcc and run.)
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cat > "$d/p.c" <<'EOF'
#include <signal.h>
#include <stdio.h>
#include <sys/ptrace.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	pid_t pid = fork();
	if (pid == 0) {
		pause();
		_exit(0);
	}
	usleep(100000);
	if (ptrace(PTRACE_ATTACH, pid, 0, 0) == 0) {
		waitpid(pid, NULL, 0);
		ptrace(PTRACE_PEEKUSER, pid, 0, 0);
		ptrace(PTRACE_DETACH, pid, 0, 0);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return 0;
}
EOF
gcc -O0 -o "$d/p" "$d/p.c" || exit 0
"$d/p"
rm -rf "$d"
exit 0
