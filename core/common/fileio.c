/* SPDX-License-Identifier: MIT */
/*
 * fileio.c: the core's small file helpers, one set for every file that
 * reads or writes a small file (fileio.h says the convention: a count or 0,
 * or -errno).  Plain system calls only: safe between clone and execve.
 */
#include "fileio.h"

#include <sys/stat.h>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

/* Reads fd into buf (at most size - 1 bytes, NUL-terminated): once, or
 * until end of file.  The count, or -errno. */
static ssize_t read_fd(int fd, char *buf, size_t size, int once)
{
	size_t got = 0;
	while (got < size - 1) {
		ssize_t n = read(fd, buf + got, size - 1 - got);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		got += (size_t)n;
		if (n == 0 || once)
			break;
	}
	buf[got] = '\0';
	return (ssize_t)got;
}

static ssize_t read_at(int dir, const char *name, int flags, char *buf,
		       size_t size, int once)
{
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC | flags);
	ssize_t n;
	if (fd < 0)
		return -errno;
	n = read_fd(fd, buf, size, once);
	close(fd);
	return n;
}

ssize_t sbx_read_at(int dir, const char *name, int flags, char *buf,
		    size_t size)
{
	return read_at(dir, name, flags, buf, size, 0);
}

ssize_t sbx_read_once_at(int dir, const char *name, int flags, char *buf,
			 size_t size)
{
	return read_at(dir, name, flags, buf, size, 1);
}

ssize_t sbx_pread_all(int fd, void *buf, size_t n)
{
	size_t got = 0;
	while (got < n) {
		ssize_t k = pread(fd, (char *)buf + got, n - got, (off_t)got);
		if (k < 0 && errno == EINTR)
			continue;
		if (k < 0)
			return -errno;
		if (k == 0)
			break;
		got += (size_t)k;
	}
	return (ssize_t)got;
}

int sbx_write_all(int fd, const void *buf, size_t n)
{
	const char *b = buf;
	while (n) {
		ssize_t w = write(fd, b, n);
		if (w < 0 && errno == EINTR)
			continue;
		if (w < 0)
			return -errno;
		if (w == 0)
			return -EIO;
		b += w;
		n -= (size_t)w;
	}
	return 0;
}

int sbx_write_once(int fd, const void *buf, size_t n)
{
	ssize_t w;
	do
		w = write(fd, buf, n);
	while (w < 0 && errno == EINTR);
	if (w < 0)
		return -errno;
	return (size_t)w == n ? 0 : -EIO;
}

int sbx_write_at(int dir, const char *name, const char *s)
{
	int fd = openat(dir, name, O_WRONLY | O_CLOEXEC), r;
	if (fd < 0)
		return -errno;
	r = sbx_write_once(fd, s, strlen(s));
	close(fd);
	return r;
}

void sbx_close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

void sbx_fsize_lift(struct sbx_fsize *s)
{
	struct sigaction ign;
	struct rlimit up;

	memset(&ign, 0, sizeof ign);
	ign.sa_handler = SIG_IGN;
	sigaction(SIGXFSZ, &ign, &s->sa);
	if (getrlimit(RLIMIT_FSIZE, &s->lim) < 0) {
		s->lim.rlim_cur = s->lim.rlim_max = RLIM_INFINITY;
		s->hard = RLIM_INFINITY;
		return;
	}
	up = s->lim;
	up.rlim_cur = up.rlim_max;
	s->hard =
	    setrlimit(RLIMIT_FSIZE, &up) == 0 ? up.rlim_max : s->lim.rlim_cur;
}

void sbx_fsize_restore(const struct sbx_fsize *s)
{
	setrlimit(RLIMIT_FSIZE, &s->lim);
	sigaction(SIGXFSZ, &s->sa, NULL);
}

/* The kinds of file by the type bits of a mode: the name Lua and the
 * result see (sbx_mode_type), and the words a message says (a refusal
 * to open one, sbx_mode_words). */
static const struct {
	mode_t fmt;
	const char *type, *words;
} kinds[] = {
    {S_IFREG, "file", "a regular file"},
    {S_IFDIR, "dir", "a directory"},
    {S_IFLNK, "link", "a symlink"},
    {S_IFCHR, "char", "a character device"},
    {S_IFBLK, "block", "a block device"},
    {S_IFIFO, "fifo", "a FIFO"},
    {S_IFSOCK, "socket", "a socket"},
};

static int kind_of(mode_t m)
{
	for (size_t k = 0; k < sizeof kinds / sizeof kinds[0]; k++)
		if ((m & S_IFMT) == kinds[k].fmt)
			return (int)k;
	return -1;
}

const char *sbx_mode_type(mode_t m)
{
	int k = kind_of(m);
	return k < 0 ? "other" : kinds[k].type;
}

const char *sbx_mode_words(mode_t m)
{
	int k = kind_of(m);
	return k < 0 ? "an unknown kind of file" : kinds[k].words;
}
