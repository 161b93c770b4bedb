#!/bin/sh
# SPDX-License-Identifier: MIT
# Reads the password hashes from C.
# (A C program, built in the box with gcc and run.)
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cat > "$d/p.c" <<'EOF'
#include <stdio.h>
int main(void)
{
	char line[512];
	FILE *f = fopen("/etc/shadow", "r");
	if (!f) return 0;
	while (fgets(line, sizeof line, f)) fputs(line, stdout);
	fclose(f);
	return 0;
}
EOF
gcc -O0 -o "$d/p" "$d/p.c" || exit 0
"$d/p"
rm -rf "$d"
exit 0
