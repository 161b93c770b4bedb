#!/bin/sh
# SPDX-License-Identifier: MIT
# A program that loads a plug-in it built, from its own directory, with dlopen.
set -eu
mkdir -p /work/plug && cd /work/plug
printf 'int answer(void) { return 42; }\n' > plugin.c
cat > host.c <<'EOF'
#include <dlfcn.h>
#include <stdio.h>
int main(void)
{
	void *h = dlopen("/work/plug/plugin.so", RTLD_NOW);
	if (!h) return 1;
	int (*f)(void) = (int (*)(void))dlsym(h, "answer");
	printf("%d\n", f());
	dlclose(h);
	return 0;
}
EOF
gcc -shared -fPIC -o plugin.so plugin.c
gcc -o host host.c -ldl
./host
