#!/bin/sh
# SPDX-License-Identifier: MIT
# Looks for a virtual machine from C: the firmware's product name.
# (A C program, built in the box with gcc and run.)
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
d=$(mktemp -d)
cat > "$d/p.c" <<'EOF'
#include <stdio.h>
#include <string.h>
int main(void)
{
	char name[128] = "";
	FILE *f = fopen("/sys/class/dmi/id/product_name", "r");
	if (f) {
		if (!fgets(name, sizeof name, f)) name[0] = 0;
		fclose(f);
	}
	if (strstr(name, "VirtualBox") || strstr(name, "KVM")) return 0;
	puts("bare metal");
	return 0;
}
EOF
gcc -O0 -o "$d/p" "$d/p.c" || exit 0
"$d/p"
rm -rf "$d"
exit 0
