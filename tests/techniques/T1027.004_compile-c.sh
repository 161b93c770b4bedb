#!/bin/sh
# SPDX-License-Identifier: MIT
# Delivered as source and compiled on the spot, so no binary crossed the
# wire: the program asks for the system's name.
# (A C program, built in the box with gcc and run.)
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cat > "$d/p.c" <<'EOF'
#include <stdio.h>
#include <sys/utsname.h>
int main(void)
{
	struct utsname u;
	if (uname(&u) == 0) printf("%s %s\n", u.sysname, u.release);
	return 0;
}
EOF
gcc -O0 -o "$d/p" "$d/p.c" || exit 0
"$d/p"
rm -rf "$d"
exit 0
