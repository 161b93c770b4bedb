/* SPDX-License-Identifier: MIT */
/*
 * corpus.h: the strict profile's corpus programs (corpus_*.c) share one
 * option.  `corpus_X --seccomp FILE` installs the classic BPF program in
 * FILE (sbx.filter's f:export(): struct sock_filter records) in the
 * process itself, after no_new_privs and before the step's work: the work
 * then runs under the filter with no listener, so a call the filter sends
 * to the supervisor (notify) fails with ENOSYS (tests/strict_spec.lua).
 * Without the option the program runs as it is (scripts/trace-profile.sh).
 */
#ifndef CORPUS_H
#define CORPUS_H

#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/syscall.h>
#include <unistd.h>

/* 0 when there is nothing to do or the filter is in place, else 1 */
static int corpus_seccomp(int argc, char **argv)
{
	static struct sock_filter insns[BPF_MAXINSNS + 1];
	struct sock_fprog prog;
	ssize_t n;
	int fd;

	if (argc < 2)
		return 0;
	if (argc != 3 || strcmp(argv[1], "--seccomp") != 0) {
		fprintf(stderr, "usage: %s [--seccomp FILE]\n", argv[0]);
		return 1;
	}
	fd = open(argv[2], O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		perror(argv[2]);
		return 1;
	}
	n = read(fd, insns, sizeof insns);
	close(fd);
	if (n <= 0 || (size_t)n % sizeof insns[0] != 0 ||
	    (size_t)n / sizeof insns[0] > BPF_MAXINSNS) {
		fprintf(stderr, "%s: not a BPF program\n", argv[2]);
		return 1;
	}
	prog.len = (unsigned short)((size_t)n / sizeof insns[0]);
	prog.filter = insns;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) != 0) {
		perror("seccomp");
		return 1;
	}
	return 0;
}

#endif
