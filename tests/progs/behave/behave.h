/* SPDX-License-Identifier: MIT */
/* behave.h: what the behaviour corpus's programs share (tests/corpus_spec.lua).
 * Each program does one kind of thing, the same every run, and prints
 * nothing that varies. */
#ifndef BEHAVE_H
#define BEHAVE_H
#include <fcntl.h>
#include <string.h>
#include <unistd.h>

/* Writes text to path (created with mode); 0 or -1. */
static inline int put(const char *path, const char *text, int mode)
{
	int fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, mode);
	if (fd < 0)
		return -1;
	if (write(fd, text, strlen(text)) != (ssize_t)strlen(text)) {
		close(fd);
		return -1;
	}
	return close(fd);
}
#endif
