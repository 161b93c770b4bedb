#!/bin/sh
# SPDX-License-Identifier: MIT
# A debugger check in C: a process can be traced once, so a
# PTRACE_TRACEME that fails means a debugger is already there.
# (A C program, built in the box with gcc and run.)
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cat > "$d/p.c" <<'EOF'
#include <stdio.h>
#include <sys/ptrace.h>
int main(void)
{
	if (ptrace(PTRACE_TRACEME, 0, 0, 0) == -1) {
		puts("debugger");
		return 0;
	}
	puts("alone");
	return 0;
}
EOF
gcc -O0 -o "$d/p" "$d/p.c" || exit 0
"$d/p"
rm -rf "$d"
exit 0
