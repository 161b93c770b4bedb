#!/bin/sh
# SPDX-License-Identifier: MIT
# Runs a program from memory, in C: the bytes of the host's `true` go into
# a memfd, which is executed; nothing is written to a disk.
# (A C program, built in the box with gcc and run.)
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cat > "$d/p.c" <<'EOF'
#define _GNU_SOURCE
#include <stdio.h>
#include <sys/mman.h>
#include <sys/wait.h>
#include <unistd.h>
int main(void)
{
	FILE *in = fopen("/bin/true", "rb");
	char buf[4096];
	size_t n;
	int fd = memfd_create("x", 0);
	if (!in || fd < 0) return 0;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0)
		if (write(fd, buf, n) < 0) return 0;
	fclose(in);
	pid_t pid = fork();
	if (pid == 0) {
		char *argv[] = { "[kworker/0:2]", NULL }, *envp[] = { NULL };
		fexecve(fd, argv, envp);
		_exit(127);
	}
	waitpid(pid, NULL, 0);
	return 0;
}
EOF
gcc -O0 -o "$d/p" "$d/p.c" || exit 0
"$d/p"
rm -rf "$d"
exit 0
