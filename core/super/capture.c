/* SPDX-License-Identifier: MIT */
/*
 * capture.c: the files a box leaves in its writable places, recorded by
 * the supervisor once the box has ended.
 *
 * Where it runs: in the supervisor, after the box has ended (its init
 * reaped: no process of the box is left to change a file), through an
 * O_PATH descriptor of each written place that init opened once the tree
 * was built and sent before the command existed (SBX_MSG_PLACES, handover.c).
 * A descriptor keeps its mount, detached, when the box's mount namespace
 * dies with init, so a box killed from outside (the wall clock, a limit,
 * an interrupt) is recorded too.  Not from /proc/<init>/root: init is
 * undumpable, and an unprivileged caller may not open that link of an
 * undumpable process (docs/kernel-notes.md); and the namespace is gone by
 * the time a killed box is reaped.  Not in init itself: init runs no
 * allocator, and a copy for --keep would have to cross the control socket
 * byte by byte.  Once detached, the node a mount covered shows (the empty
 * file under the program's bind): sbx.written leaves the tree's mount
 * points out.
 *
 * Trust: everything below a place is the box's and hostile.  Init opens
 * each place with openat2(RESOLVE_IN_ROOT | RESOLVE_NO_SYMLINKS |
 * RESOLVE_NO_MAGICLINKS) before the program runs; below it, each entry is
 * looked at with fstatat(AT_SYMLINK_NOFOLLOW) and opened with O_NOFOLLOW
 * relative to its directory's descriptor, and checked again by fstat (same
 * device and inode, a regular file) before a byte is read.  A symlink's text is
 * read with readlinkat, never followed.  An entry of another device is not
 * entered (a mount still attached; a --tmp under /work is a place of its
 * own).  A FIFO is never opened.  The walk is bounded in entries, depth and
 * bytes read, and the record says which bound was hit.
 *
 * --keep: the directory is made (0700) or checked (empty, the caller's, no
 * symlink) when the spec is compiled, before the box exists, and held by
 * descriptor; copies are made below it with mkdirat and openat(O_CREAT |
 * O_EXCL | O_NOFOLLOW), names made safe (safe_name).
 */
#include "capture.h"
#include "fdpass.h"
#include "kept.h"

#include "compat.h"
#include "digest.h"
#include "fileio.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <unistd.h>

#define WALK_BUF 4096	/* a directory's entries read at once */
#define KEEP_READ 65536 /* a kept file read at once */
#define FILE_READ                                                              \
	(65536 + CAP_MARKER_MAX) /* a file read at once, and the               \
				  * end of the last read */
/* ---- the walk ---- */

static char *xstrdup(const char *s)
{
	return s ? strdup(s) : NULL;
}

static struct sbx_capfile *add_file(struct sbx_capres *r)
{
	struct sbx_capfile *f;
	if (r->n == r->size) {
		size_t ns = r->size ? r->size * 2 : 64;
		struct sbx_capfile *nf = realloc(r->f, ns * sizeof *nf);
		if (!nf)
			return NULL;
		r->f = nf;
		r->size = ns;
	}
	f = &r->f[r->n++];
	memset(f, 0, sizeof *f);
	return f;
}

/* One component of a kept name: bytes outside [A-Za-z0-9._-] as %XX (so
 * no '/', no control character, no '%' of its own); "." and ".." escaped;
 * past CAP_NAME_MAX bytes, cut and followed by '~' and 16 hex digits of
 * the whole name's SHA-256.  out has room for CAP_NAME_MAX + 20. */
static void safe_name(const char *name, char *out)
{
	static const char hex[] = "0123456789ABCDEF";
	size_t o = 0;
	int dots = !strcmp(name, ".") || !strcmp(name, "..");
	for (const unsigned char *s = (const void *)name; *s; s++) {
		unsigned char ch = *s;
		int ok = (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
			 (ch >= '0' && ch <= '9') || ch == '_' || ch == '-' ||
			 (ch == '.' && !dots);
		if (o + 3 > CAP_NAME_MAX) {
			char h[SBX_SHA256_HEX];
			sbx_sha256_data(name, strlen(name), h);
			out[o++] = '~';
			memcpy(out + o, h, 16);
			o += 16;
			break;
		}
		if (ok) {
			out[o++] = (char)ch;
		} else {
			out[o++] = '%';
			out[o++] = hex[ch >> 4];
			out[o++] = hex[ch & 15];
		}
	}
	out[o] = '\0';
}

/* Opens (making) the directory of the kept copy of rel (components
 * separated by '/', each raw) under the keep directory, and its leaf's
 * safe name; the kept name (safe components joined) into kept.  The
 * directory's descriptor, or -errno. */
static int keep_parent(int keep, const char *rel, char *leaf, char *kept,
		       size_t kept_size)
{
	char comp[4096], safe[CAP_NAME_MAX + 24];
	int dfd = dup(keep);
	size_t k = 0;
	const char *p = rel;
	kept[0] = '\0';
	if (dfd < 0)
		return -errno;
	for (;;) {
		const char *e = strchr(p, '/');
		size_t l = e ? (size_t)(e - p) : strlen(p);
		int nfd;
		if (l >= sizeof comp) {
			close(dfd);
			return -ENAMETOOLONG;
		}
		memcpy(comp, p, l);
		comp[l] = '\0';
		safe_name(comp, safe);
		if (k + strlen(safe) + 2 > kept_size) {
			close(dfd);
			return -ENAMETOOLONG;
		}
		k += (size_t)snprintf(kept + k, kept_size - k, "%s%s",
				      k ? "/" : "", safe);
		if (!e) {
			strcpy(leaf, safe);
			return dfd;
		}
		if (mkdirat(dfd, safe, 0700) < 0 && errno != EEXIST)
			nfd = -errno;
		else if ((nfd = openat(dfd, safe,
				       O_RDONLY | O_DIRECTORY | O_NOFOLLOW |
					   O_CLOEXEC)) < 0)
			nfd = -errno;
		close(dfd);
		if (nfd < 0)
			return nfd;
		dfd = nfd;
		p = e + 1;
	}
}

/* The --keep copy of one file as it is read: its directory and leaf under
 * the keep directory, its descriptor (-1: none, or dropped). */
struct copy {
	int out, kdir;
	char leaf[CAP_NAME_MAX + 24], kept[4096];
};

static void copy_begin(const struct sbx_capture *c, struct sbx_capres *r,
		       struct sbx_capfile *f, const struct stat *fs,
		       const char *rel, struct copy *cp);

/* The tree's own node at the box path, or NULL. */
static const struct sbx_placed *find_placed(const struct sbx_capture *c,
					    const char *path)
{
	for (size_t i = 0; i < c->nplaced; i++)
		if (strcmp(path, c->placed[i].path) == 0)
			return &c->placed[i];
	return NULL;
}

/* Opens the copy of the file at rel (of size fs) where there is a keep
 * directory and room in its budget; f->keep_err says why not.  Never for
 * the tree's own node (a file it placed is copied once its hash says the
 * program changed it: keep_changed). */
static void copy_open(const struct sbx_capture *c, struct sbx_capres *r,
		      struct sbx_capfile *f, const struct stat *fs,
		      const char *rel, struct copy *cp)
{
	cp->out = cp->kdir = -1;
	if (c->keep_fd < 0 || find_placed(c, f->path))
		return;
	copy_begin(c, r, f, fs, rel, cp);
}

/* copy_open's copy, whoever's the file. */
static void copy_begin(const struct sbx_capture *c, struct sbx_capres *r,
		       struct sbx_capfile *f, const struct stat *fs,
		       const char *rel, struct copy *cp)
{
	cp->out = cp->kdir = -1;
	if (fs->st_size > c->keep_max ||
	    fs->st_size > c->keep_total - r->kept) {
		r->hit_keep = 1;
		f->keep_err = EFBIG;
		return;
	}
	cp->kdir =
	    keep_parent(c->keep_fd, rel, cp->leaf, cp->kept, sizeof cp->kept);
	if (cp->kdir < 0) {
		f->keep_err = -cp->kdir;
		cp->kdir = -1;
		return;
	}
	cp->out =
	    openat(cp->kdir, cp->leaf,
		   O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (cp->out < 0)
		f->keep_err = errno;
}

/* Appends n bytes to the copy; a copy that cannot be written is dropped
 * (no partial copy left). */
static void copy_write(struct sbx_capfile *f, struct copy *cp, const char *b,
		       size_t n)
{
	int e;
	if (cp->out < 0 || (e = sbx_write_all(cp->out, b, n)) == 0)
		return;
	f->keep_err = -e;
	close(cp->out);
	cp->out = -1;
	unlinkat(cp->kdir, cp->leaf, 0);
}

/* Closes the copy: kept (counted in the budget) if the file was read
 * whole, else removed. */
static void copy_close(struct sbx_capres *r, struct sbx_capfile *f,
		       struct copy *cp, off_t size)
{
	if (cp->out >= 0) {
		close(cp->out);
		if (f->err && !f->keep_err) {
			/* no copy of a file that was not read whole */
			f->keep_err = f->err;
			unlinkat(cp->kdir, cp->leaf, 0);
		}
		if (!f->keep_err) {
			f->kept = xstrdup(cp->kept);
			r->kept += size;
		}
	}
	if (cp->kdir >= 0)
		close(cp->kdir);
}

/* The worker's answer for file idx of the record ctx. */
static void typed(void *ctx, size_t idx, const char *type, const char *mime)
{
	struct sbx_capfile *f = &((struct sbx_capres *)ctx)->f[idx];
	free(f->filetype);
	free(f->mime);
	f->filetype = xstrdup(type);
	f->mime = xstrdup(mime);
}

/* Is a file to be typed: typing on, and the run's count not passed (a
 * file past it is counted skipped, the bound said)? */
static int want_type(const struct sbx_capture *c, struct sbx_capres *r)
{
	if (!c->filetype)
		return 0;
	if (r->typed >= CAP_TYPED) {
		r->hit_types = 1;
		r->insp->skipped++;
		return 0;
	}
	return 1;
}

/* Queues the type of a file read whole, from its first bytes (head: what
 * the walk read from its own descriptor, never the name again): the
 * answer comes when the worker gives it (typed). */
static void type_file(struct sbx_capres *r, struct sbx_capfile *f,
		      const char *head, size_t len)
{
	r->typed++;
	sbx_inspect_submit(r->insp, head, len, typed, r, (size_t)(f - r->f));
}

/* A file the tree placed that the program changed, copied for keep once
 * its hash says so: read again from the walk's own descriptor (the tree's
 * files lie in the box's own tmpfs, which nothing writes once the box has
 * ended); the copy is kept only when this read hashes as the first did. */
static void keep_changed(const struct sbx_capture *c, struct sbx_capres *r,
			 struct sbx_capfile *f, int fd, const struct stat *fs,
			 const char *rel)
{
	static void *kept;
	char *buf = sbx_kept(&kept, KEEP_READ), sum[SBX_SHA256_HEX];
	struct sbx_sha256 h;
	struct copy cp;
	ssize_t n;
	if (!buf) {
		f->keep_err = ENOMEM;
		return;
	}
	if (fs->st_size > c->max_read - r->read) {
		r->hit_read = 1;
		f->keep_err = EFBIG;
		return;
	}
	if (lseek(fd, 0, SEEK_SET) != 0) {
		f->keep_err = errno;
		return;
	}
	copy_begin(c, r, f, fs, rel, &cp);
	if (cp.out < 0) {
		if (cp.kdir >= 0)
			close(cp.kdir);
		return;
	}
	r->read += fs->st_size;
	sbx_sha256_init(&h);
	while (cp.out >= 0 && (n = read(fd, buf, KEEP_READ)) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			f->keep_err = errno;
			break;
		}
		sbx_sha256_update(&h, buf, (size_t)n);
		copy_write(f, &cp, buf, (size_t)n);
	}
	sbx_sha256_hex(&h, sum);
	if (!f->keep_err && strcmp(sum, f->sha256) != 0)
		f->keep_err = ESTALE;
	if (cp.out >= 0) {
		close(cp.out);
		if (f->keep_err) {
			unlinkat(cp.kdir, cp.leaf, 0);
		} else {
			f->kept = xstrdup(cp.kept);
			r->kept += fs->st_size;
		}
	}
	close(cp.kdir);
}

/* Opens name below dir (st: a regular file or a directory) with flags
 * when its mode denies the caller, its owner, what the walk needs: a box
 * that takes read (and search) away from what it wrote does not hide it
 * so.  The mode is raised on that node alone (an O_PATH descriptor
 * checked to be st, reopened through /proc/self/fd: no symlink is
 * followed); the caller puts it back with fchmod (a directory once it is
 * walked: a lookup below it needs the search right).  The descriptor,
 * or -errno. */
static int open_own(int dir, const char *name, const struct stat *st, int flags)
{
	mode_t need = S_ISDIR(st->st_mode) ? S_IRUSR | S_IXUSR : S_IRUSR;
	mode_t mode = st->st_mode & 07777;
	char p[64];
	struct stat ps;
	int fd, e, path;
	if (st->st_uid != geteuid() || (mode & need) == need)
		return -EACCES;
	path = openat(dir, name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
	if (path < 0)
		return -errno;
	if (fstat(path, &ps) < 0 || ps.st_ino != st->st_ino ||
	    ps.st_dev != st->st_dev ||
	    (ps.st_mode & S_IFMT) != (st->st_mode & S_IFMT)) {
		close(path);
		return -ESTALE;
	}
	snprintf(p, sizeof p, "/proc/self/fd/%d", path);
	if (chmod(p, mode | need) < 0) {
		e = errno;
		close(path);
		return -e;
	}
	fd = open(p, flags);
	e = errno;
	if (fd < 0)
		(void)chmod(p, mode);
	close(path);
	return fd >= 0 ? fd : -e;
}

/* Opens the regular file the walk found at name (st): never a symlink
 * swapped in, nor another file renamed over it since (ESTALE); its
 * descriptor, its stat in fs, or -1 with f->err set. */
static int open_walked(int dir, const char *name, const struct stat *st,
		       struct stat *fs, struct sbx_capfile *f)
{
	int fd =
	    openat(dir, name,
		   O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
	if (fd < 0 && errno == EACCES) {
		fd = open_own(dir, name, st,
			      O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
		if (fd >= 0)
			(void)fchmod(fd, st->st_mode & 07777);
	} else if (fd < 0) {
		fd = -errno;
	}
	if (fd < 0) {
		f->err = -fd;
		return -1;
	}
	if (fstat(fd, fs) < 0 || !S_ISREG(fs->st_mode) ||
	    fs->st_ino != st->st_ino || fs->st_dev != st->st_dev) {
		f->err = ESTALE;
		close(fd);
		return -1;
	}
	return fd;
}

/* A file read whole: its hashes (hashes.h), SHA-256 among them; one that
 * was not has none. */
static void hashed(struct sbx_capfile *f, struct sbx_hashes *h)
{
	struct sbx_hash_hex x;
	if (f->err) {
		sbx_hashes_free(h);
		return;
	}
	sbx_hashes_final(h, &x);
	memcpy(f->sha256, x.sha256, sizeof f->sha256);
	f->hashed = 1;
	if ((f->hx = malloc(sizeof x)))
		*f->hx = x;
}

/* Reads a regular file once: its hashes, the markers in it, its copy,
 * and its type (type_file) from its first read, which starts at offset 0
 * and holds up to SBX_MAGIC_BYTES of it (kept until the file is read
 * whole).  A file the tree placed is typed only when its content is no
 * longer the tree's, a node the tree mounts over never: typing starts
 * the worker, which a run that wrote nothing of its own does not need. */
static void read_file(const struct sbx_capture *c, struct sbx_capres *r,
		      struct sbx_capfile *f, int dir, const char *name,
		      const struct stat *st, const char *rel)
{
	static void *kept;
	char *buf = sbx_kept(&kept, FILE_READ);
	size_t carry = 0, total = 0;
	struct copy cp;
	struct sbx_hashes h;
	struct stat fs;
	const struct sbx_placed *placed = find_placed(c, f->path);
	char *head = NULL; /* the first read, to type */
	size_t head_len = 0;
	int want = (!placed || placed->sha256) && want_type(c, r);
	int fd;
	if (!buf) {
		f->err = ENOMEM;
		return;
	}
	if (st->st_size > c->max_read - r->read) {
		r->hit_read = 1;
		f->err = EFBIG;
		return;
	}
	if ((fd = open_walked(dir, name, st, &fs, f)) < 0)
		return;
	copy_open(c, r, f, &fs, rel, &cp);
	sbx_hashes_init(&h);
	for (;;) {
		ssize_t n = read(fd, buf + carry, FILE_READ - carry);
		size_t have;
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			f->err = errno;
			break;
		}
		if (n == 0)
			break;
		/* more than its size: another writer of a --rw bind (another
		 * box, a host process) grew it during the walk; its hash and
		 * copy would not be those of the size reported */
		if ((size_t)n > (size_t)fs.st_size - total) {
			f->err = ESTALE;
			break;
		}
		total += (size_t)n;
		if (r->read + n > c->max_read) { /* it grew: a --rw bind */
			r->hit_read = 1;
			f->err = EFBIG;
			break;
		}
		r->read += n;
		/* the first read: the head */
		if (total == (size_t)n && want && (head = malloc((size_t)n)))
			memcpy(head, buf, head_len = (size_t)n);
		sbx_hashes_update(&h, buf + carry, (size_t)n);
		copy_write(f, &cp, buf + carry, (size_t)n);
		have = carry + (size_t)n;
		for (size_t i = 0; i < c->nmarkers; i++)
			if (memmem(buf, have, c->markers[i], c->marker_len[i]))
				f->markers |= 1u << i;
		carry = have < CAP_MARKER_MAX - 1 ? have : CAP_MARKER_MAX - 1;
		memmove(buf, buf + have - carry, carry);
	}
	if (!f->err && total != (size_t)fs.st_size)
		f->err = ESTALE; /* it shrank during the walk */
	hashed(f, &h);
	/* typed only when read whole; a file the tree placed only when the
	 * program changed it (typed and kept as the program's) */
	if (!f->err && want && (head || total == 0) &&
	    (!placed || strcmp(f->sha256, placed->sha256) != 0))
		type_file(r, f, head ? head : buf, head_len);
	if (!f->err && placed && placed->sha256 &&
	    strcmp(f->sha256, placed->sha256) != 0 && c->keep_fd >= 0)
		keep_changed(c, r, f, fd, &fs, rel);
	close(fd);
	free(head);
	copy_close(r, f, &cp, fs.st_size);
}

/* A directory below dir to walk, its mode raised when it denied the
 * caller (*raised: the caller puts it back); or -1. */
static int open_subdir(int dir, const char *name, const struct stat *st,
		       int *raised)
{
	int sub =
	    openat(dir, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	*raised = sub < 0 && errno == EACCES;
	if (*raised)
		sub =
		    open_own(dir, name, st, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	return sub;
}

/* A link's target into f (its errno when it cannot be read); apart, so
 * that its 4 KiB is not in each level of walk's frame. */
static __attribute__((noinline)) void read_link(struct sbx_capfile *f, int dir,
						const char *name)
{
	char t[4097];
	ssize_t k = readlinkat(dir, name, t, sizeof t - 1);
	if (k >= 0) {
		t[k] = '\0';
		f->link = strdup(t);
	} else {
		f->err = errno;
	}
}

static void walk(const struct sbx_capture *c, struct sbx_capres *r, int dir,
		 dev_t dev, char *path, size_t plen, size_t relstart,
		 int depth);

/* One directory of walk's, its entries read into buf (WALK_BUF bytes). */
static void walk_dir(const struct sbx_capture *c, struct sbx_capres *r, int dir,
		     dev_t dev, char *path, size_t plen, size_t relstart,
		     int depth, char *buf)
{
	for (;;) {
		long n = syscall(SYS_getdents64, dir, buf, WALK_BUF);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			r->partial = 1;
		if (n <= 0)
			return;
		for (long off = 0; off < n;) {
			const struct dirent64 *d = (const void *)(buf + off);
			const char *name = d->d_name;
			size_t l = strlen(name);
			struct sbx_capfile *f;
			struct stat st;
			off += d->d_reclen;
			if (name[0] == '.' &&
			    (!name[1] || (name[1] == '.' && !name[2])))
				continue;
			if (++r->entries > c->max_entries) {
				r->hit_entries = 1;
				return;
			}
			if (plen + 1 + l + 1 > 8192) {
				r->partial = 1;
				continue;
			}
			path[plen] = '/';
			memcpy(path + plen + 1, name, l + 1);
			if (fstatat(dir, name, &st, AT_SYMLINK_NOFOLLOW) < 0) {
				r->partial = 1;
				continue;
			}
			if (st.st_dev != dev) /* a mount: not this place */
				continue;
			if (S_ISDIR(st.st_mode)) {
				int sub, raised;
				if (depth + 1 >= c->max_depth) {
					r->hit_depth = 1;
					continue;
				}
				sub = open_subdir(dir, name, &st, &raised);
				if (sub < 0) {
					r->partial = 1;
					continue;
				}
				walk(c, r, sub, dev, path, plen + 1 + l,
				     relstart, depth + 1);
				if (raised)
					(void)fchmod(sub, st.st_mode & 07777);
				close(sub);
				continue;
			}
			f = add_file(r);
			if (!f || !(f->path = strdup(path))) {
				r->partial = 1;
				if (f)
					r->n--;
				continue;
			}
			f->type = sbx_mode_type(st.st_mode);
			f->mode = st.st_mode & 07777;
			f->size = st.st_size;
			if (S_ISLNK(st.st_mode)) {
				read_link(f, dir, name);
			} else if (S_ISREG(st.st_mode)) {
				read_file(c, r, f, dir, name, &st,
					  path + relstart);
			}
		}
	}
}

/* Walks the place below dir (its path so far in path, plen long): each
 * level's entries in a buffer of the heap, not of the stack, which the
 * boxes' clones write-protect in this process (loop.c kept_watches). */
static void walk(const struct sbx_capture *c, struct sbx_capres *r, int dir,
		 dev_t dev, char *path, size_t plen, size_t relstart, int depth)
{
	char *buf = malloc(WALK_BUF);
	if (!buf) {
		r->partial = 1;
		return;
	}
	walk_dir(c, r, dir, dev, path, plen, relstart, depth, buf);
	free(buf);
}

/* Takes the descriptors of a SBX_MSG_PLACES (msg, with its control
 * message c) into cs, by the mask in its index; closes any it does not
 * keep. */
void sbx_capture_take(struct sbx_capstate *cs, const void *msg,
		      const struct cmsghdr *c)
{
	struct sbx_msg m;
	int fd[SBX_PLACES_MAX];
	size_t n = 0, k = 0;
	memcpy(&m, msg, sizeof m);
	/* more than SBX_PLACES_MAX cannot come: init's cap */
	n = sbx_cmsg_fds(c, fd, SBX_PLACES_MAX);
	if (cs->spec && !cs->place_mask)
		for (int i = 0; i < SBX_PLACES_MAX && k < n; i++)
			if ((unsigned)m.index & (1u << i)) {
				cs->place_fd[i] = fd[k++];
				cs->place_mask |= 1u << i;
			}
	for (; k < n; k++)
		close(fd[k]);
	if (cs->spec && !cs->files) {
		cs->files = calloc(1, sizeof *cs->files);
		if (cs->files && n < cs->spec->nplaces)
			cs->files->partial = 1;
	}
}

static void close_places(struct sbx_capstate *cs)
{
	for (int i = 0; i < SBX_PLACES_MAX; i++)
		if (cs->place_mask & (1u << i))
			close(cs->place_fd[i]);
	cs->place_mask = 0;
}

/* Marks place i full when its file system is a tmpfs (the box's own,
 * sized by its plan) with no block or no inode left: a write or a create
 * past its size fails there (ENOSPC). */
static void note_full(struct sbx_capres *r, size_t i, int fd)
{
	struct statfs s;
	if (fstatfs(fd, &s) < 0 || s.f_type != TMPFS_MAGIC || s.f_blocks == 0)
		return;
	if (s.f_bavail == 0 || (s.f_files > 0 && s.f_ffree == 0)) {
		r->full |= 1u << i;
		r->full_size[i] = (int64_t)s.f_blocks * (int64_t)s.f_bsize;
	}
}

/* Walks every place init sent, once the box has ended: each a detached
 * mount by now, held by its descriptor; the record into cs->files. */
void sbx_capture_run(struct sbx_capstate *cs)
{
	const struct sbx_capture *c = cs->spec;
	struct sbx_capres *r = cs->files;
	static void *kept;
	char *path = sbx_kept(&kept, 8192 + 256);
	if (!c || !r || r->done || !path) {
		if (r && !path)
			r->partial = 1;
		close_places(cs);
		return;
	}
	r->done = 1;
	r->insp = &cs->insp;
	for (size_t i = 0; i < c->nplaces; i++) {
		struct stat st;
		size_t l = strlen(c->places[i]);
		int fd;
		if (!(cs->place_mask & (1u << i)))
			continue;
		fd = openat(cs->place_fd[i], ".",
			    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (fd < 0 || fstat(fd, &st) < 0 || l + 1 > 256) {
			if (fd >= 0)
				close(fd);
			r->partial = 1;
			continue;
		}
		memcpy(path, c->places[i], l + 1);
		if (l == 1)
			l = 0; /* "/": its entries are "/name" */
		note_full(r, i, fd);
		walk(c, r, fd, st.st_dev, path, l, 1, 0);
		close(fd);
	}
	close_places(cs);
}

void sbx_capture_free(struct sbx_capstate *cs)
{
	struct sbx_capres *r = cs->files;
	/* no answer may come for a record (or a notify's event) freed */
	sbx_inspect_cancel(&cs->insp);
	close_places(cs);
	if (!r)
		return;
	for (size_t i = 0; i < r->n; i++) {
		free(r->f[i].path);
		free(r->f[i].link);
		free(r->f[i].filetype);
		free(r->f[i].mime);
		free(r->f[i].kept);
		free(r->f[i].hx);
	}
	free(r->f);
	free(r);
	cs->files = NULL;
}
