#!/bin/sh
# SPDX-License-Identifier: MIT
# A C program with POSIX threads, built and run.
set -eu
cd /work
cat > th.c <<'EOF'
#include <pthread.h>
#include <stdio.h>
static long sum[4];
static void *work(void *p) { long i = (long)p; for (long k = 0; k < 100000; k++) sum[i] += k % 7; return NULL; }
int main(void)
{
	pthread_t t[4];
	for (long i = 0; i < 4; i++) pthread_create(&t[i], NULL, work, (void *)i);
	for (int i = 0; i < 4; i++) pthread_join(t[i], NULL);
	printf("%ld\n", sum[0] + sum[1] + sum[2] + sum[3]);
	return 0;
}
EOF
gcc -O2 -pthread -o th th.c
./th
