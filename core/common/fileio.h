/* SPDX-License-Identifier: MIT */
/*
 * fileio.h: the core's small file helpers (fileio.c): read a small file
 * whole or in one read, read a held descriptor from its start, write a
 * value in one write or a buffer in full, close a descriptor once, write
 * sbxlua's own files past the caller's soft file-size limit.
 *
 * Convention, for these and every plain C helper of the core (the steps
 * of child.c between clone and execve aside, docs/architecture.md): a
 * count or 0 on success, -errno on failure (never -1 with errno set; errno
 * after a call is not part of its answer).  A caller that reports a
 * failure passes -r on as the errno.
 *
 * They call only openat, read, pread, write and close (and, to lift the
 * file-size limit, sigaction, getrlimit and setrlimit): async-signal-safe,
 * so the code between clone and execve (child.c, reap.c) uses them too.
 */
#ifndef SBX_FILEIO_H
#define SBX_FILEIO_H

#include <signal.h>
#include <stddef.h>
#include <sys/resource.h>
#include <sys/types.h>

#ifndef SBX_LOCAL
#define SBX_LOCAL __attribute__((visibility("hidden")))
#endif

/* Reads name below the directory dir (AT_FDCWD: a path) into buf, opened
 * O_RDONLY | O_CLOEXEC | flags (O_NOFOLLOW, say): until end of file or
 * size - 1 bytes (size > 0), NUL-terminated.  The count, or -errno. */
SBX_LOCAL ssize_t sbx_read_at(int dir, const char *name, int flags, char *buf,
			      size_t size);

/* The same in one read (retried on EINTR): for a file the kernel makes
 * whole at its first read (a /proc/<pid> stat, status or comm, an fdinfo,
 * a sysctl, a cgroup's cpu.stat), whose short read is its end; it saves the
 * read that would return 0. */
SBX_LOCAL ssize_t sbx_read_once_at(int dir, const char *name, int flags,
				   char *buf, size_t size);

/* Reads a descriptor held open from its start (pread from offset 0: its
 * offset is left as it was) into buf, until end of file or n bytes; no NUL
 * is added.  The count, or -errno. */
SBX_LOCAL ssize_t sbx_pread_all(int fd, void *buf, size_t n);

/* The name of a file's type by its mode, as Lua and the result see it:
 * "file", "dir", "link", "char", "block", "fifo", "socket", else "other" */
SBX_LOCAL const char *sbx_mode_type(mode_t m);
/* The same for a message: "a directory", "a symlink", "a FIFO", ..., else
 * "an unknown kind of file" */
SBX_LOCAL const char *sbx_mode_words(mode_t m);

/* Writes n bytes of buf to fd in as many writes as it takes (EINTR
 * retried; a write of 0 bytes is -EIO).  0 or -errno. */
SBX_LOCAL int sbx_write_all(int fd, const void *buf, size_t n);

/* Writes n bytes of buf to fd in one write (retried on EINTR), as a kernel
 * file takes its value (an id map, a sysctl, a cgroup limit): a short write
 * is -EIO.  0 or -errno. */
SBX_LOCAL int sbx_write_once(int fd, const void *buf, size_t n);

/* Opens name below dir (AT_FDCWD: a path) O_WRONLY | O_CLOEXEC and writes
 * the string s in one write (sbx_write_once).  0 or -errno. */
SBX_LOCAL int sbx_write_at(int dir, const char *name, const char *s);

/*
 * sbxlua's own files under the caller's RLIMIT_FSIZE (which a memfd obeys
 * too): while they are written the soft limit is raised to the hard one
 * and SIGXFSZ is ignored, so that a limit the caller set for its programs
 * neither kills sbxlua nor cuts its file unseen: a write past the hard
 * limit fails (EFBIG).  sbx_fsize_lift keeps what sbx_fsize_restore puts
 * back; hard is the limit that still applies (RLIM_INFINITY: none).
 */
struct sbx_fsize {
	struct rlimit lim;
	struct sigaction sa;
	rlim_t hard;
};
SBX_LOCAL void sbx_fsize_lift(struct sbx_fsize *s);
SBX_LOCAL void sbx_fsize_restore(const struct sbx_fsize *s);

/* Closes *fd if it is open and marks it closed (-1). */
SBX_LOCAL void sbx_close_fd(int *fd);

#endif
