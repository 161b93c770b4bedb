/* SPDX-License-Identifier: MIT */
/*
 * script.c: the scripts the box's interpreters run, as text (script.h).
 *
 * Trust boundary: every byte taken here is the box's, kept as data for the
 * report and never followed.  A file is named by the path the box gave,
 * resolved only inside the box's own tree (its root, from the task's
 * /proc directory reached through a pidfd whose call is checked again
 * after: RESOLVE_IN_ROOT, no magic links, O_PATH first and then only a
 * regular file read), while the interpreter that names it waits in its
 * notified call; the supervisor reads that one open file and no other.
 * The interpreter's own open runs after, under the box's walls (CONTINUE):
 * nothing of the supervisor's is handed to it, except the relay pipe onto
 * a stdin that is a pipe, which carries the same bytes in the same order.
 */
#include "script.h"

#include "compat.h"
#include "digest.h"
#include "fileio.h"
#include "notify.h"
#include "pidfd.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <unistd.h>

/* ---- which interpreter, and where its script is ---- */

/* How each language's command line names its script: the options whose
 * argument is code (text), a script file (file), or anything else (arg);
 * long options taking code or an argument; shell: -c is a flag and the
 * code is the first operand; awk: the first operand is the code. */
struct lang {
	const char *name, *text, *file, *arg;
	const char *const *ltext, *const *larg;
	int shell, awk, module; /* module: python's -m runs no script */
};

static const char *const node_text[] = {"--eval", "--print", NULL};
static const char *const node_arg[] = {"--require", "--import", "--loader",
				       NULL};
static const char *const sh_arg[] = {"--rcfile", "--init-file", NULL};
static const char *const none[] = {NULL};

static const struct lang langs[] = {
    {"sh", "", "", "oO", none, sh_arg, 1, 0, 0},
    {"python", "c", "", "WXQ", none, none, 0, 0, 1},
    {"perl", "eE", "", "IMmCdDFx", none, none, 0, 0, 0},
    {"ruby", "e", "", "rICEx", none, none, 0, 0, 0},
    {"php", "r", "f", "dcBREFz", none, none, 0, 0, 0},
    {"node", "ep", "", "r", node_text, node_arg, 0, 0, 0},
    {"awk", "", "f", "vF", none, none, 0, 1, 0},
};

static const char *const sh_names[] = {"sh",  "bash", "dash", "ash",
				       "zsh", "ksh",  "mksh", NULL};
static const char *const awk_names[] = {"awk", "gawk", "mawk", "nawk", NULL};

/* name, then only digits and dots (python3.11, perl5.36, php8.2)? */
static int versioned(const char *b, const char *name)
{
	size_t l = strlen(name);
	if (strncmp(b, name, l) != 0)
		return 0;
	return strspn(b + l, "0123456789.") == strlen(b + l);
}

static int in_list(const char *b, const char *const *list)
{
	for (; *list; list++)
		if (strcmp(b, *list) == 0)
			return 1;
	return 0;
}

/* The language of the program at path (its base name), or NULL. */
static const struct lang *lang_of(const char *path)
{
	const char *b = strrchr(path, '/');
	b = b ? b + 1 : path;
	if (in_list(b, sh_names))
		return &langs[0];
	if (versioned(b, "python"))
		return &langs[1];
	if (versioned(b, "perl"))
		return &langs[2];
	if (versioned(b, "ruby"))
		return &langs[3];
	if (versioned(b, "php"))
		return &langs[4];
	if (strcmp(b, "node") == 0 || strcmp(b, "nodejs") == 0)
		return &langs[5];
	if (in_list(b, awk_names))
		return &langs[6];
	return NULL;
}

enum { P_NONE, P_TEXT, P_FILE, P_STDIN };
#define P_TEXTS 8
/* Where the script is: arguments (index, offset into it) holding code,
 * joined by "\n" (perl -e -e), or the operand naming a file. */
struct place {
	int kind, n;
	int idx[P_TEXTS], off[P_TEXTS];
	int file;
};

static void add_text(struct place *p, int i, int off)
{
	if (p->n < P_TEXTS) {
		p->idx[p->n] = i;
		p->off[p->n++] = off;
	}
}

/* One cluster of short options (argv[i], past its '-'): returns how many
 * arguments it took past itself (0 or 1), or -1 for python's -m. */
static int cluster(const struct lang *l, char *const *argv, int argc, int i,
		   struct place *p, int *flags)
{
	const char *a = argv[i];
	for (int j = 1; a[j]; j++) {
		char ch = a[j];
		int more = a[j + 1] != '\0', isfile = strchr(l->file, ch) != 0;
		if (l->shell && (ch == 'c' || ch == 's')) {
			*flags |= ch == 'c' ? 1 : 2;
			continue;
		}
		if (l->module && ch == 'm')
			return -1;
		if (strchr(l->text, ch) || isfile) {
			if (!more && i + 1 >= argc)
				return 0;
			if (isfile)
				p->file =
				    more ? -1 : i + 1; /* attached: none */
			else
				add_text(p, more ? i : i + 1, more ? j + 1 : 0);
			return !more;
		}
		if (strchr(l->arg, ch))
			return !more && i + 1 < argc;
	}
	return 0;
}

/* The script's place in an interpreter's argv (argc strings). */
static void place_of(const struct lang *l, char *const *argv, int argc,
		     struct place *p)
{
	int i = 1, flags = 0, r;
	memset(p, 0, sizeof *p);
	p->file = 0;
	for (; i < argc; i++) {
		const char *a = argv[i];
		if ((a[0] != '-' && !(l->shell && a[0] == '+')) || !a[1])
			break;
		if (strcmp(a, "--") == 0) {
			i++;
			break;
		}
		if (a[1] == '-') {
			if (in_list(a, l->ltext) && i + 1 < argc)
				add_text(p, ++i, 0);
			else if (in_list(a, l->larg))
				i++;
			continue;
		}
		if ((r = cluster(l, argv, argc, i, p, &flags)) < 0)
			return; /* P_NONE */
		i += r;
	}
	if (l->shell && (flags & 1) && i < argc)
		add_text(p, i, 0);
	else if (l->awk && !p->file && i < argc)
		add_text(p, i, 0);
	p->kind = p->n ? P_TEXT : p->file > 0 ? P_FILE : P_STDIN;
	/* sh -s: the operands are the script's arguments, stdin its text */
	if (p->kind == P_STDIN && !(l->shell && (flags & 3)) && i < argc &&
	    strcmp(argv[i], "-") != 0)
		p->kind = P_FILE, p->file = i;
	if (l->shell && (flags & 3) == 1 && !p->n)
		p->kind = P_NONE; /* sh -c with no text: an error */
	if (p->kind == P_STDIN && l->awk)
		p->kind = P_NONE; /* awk's stdin is data */
}

/* ---- keeping a text ---- */

void sbx_scripts_init(struct sbx_scripts *c)
{
	memset(c, 0, sizeof *c);
}

static void relay_close(struct sbx_scripts *c, int slot);

void sbx_scripts_free(struct sbx_scripts *c)
{
	for (int i = 0; i < SBX_RELAYS; i++)
		if (c->relay[i])
			relay_close(c, i);
	for (size_t i = 0; i < c->n; i++)
		free(c->s[i].text);
	free(c->s);
	memset(c, 0, sizeof *c);
}

/* A new entry (text to be set), or NULL past the budgets (counted). */
static struct sbx_script *entry(struct sbx_scripts *c, int pid,
				const char *image, const char *lang,
				const char *source)
{
	struct sbx_script *s;
	if (c->n >= SBX_SCRIPTS_MAX) {
		c->over++;
		return NULL;
	}
	s = realloc(c->s, (c->n + 1) * sizeof *s);
	if (!s) {
		c->over++;
		return NULL;
	}
	c->s = s;
	s += c->n++;
	memset(s, 0, sizeof *s);
	s->pid = pid;
	s->same = -1;
	s->relay = -1;
	snprintf(s->image, sizeof s->image, "%s", image);
	snprintf(s->lang, sizeof s->lang, "%s", lang);
	snprintf(s->source, sizeof s->source, "%s", source);
	return s;
}

/* The text of s is now whole (its sha256 set): one seen before is not
 * kept twice; one past the run's budget is not kept (counted). */
static void settle(struct sbx_scripts *c, struct sbx_script *s)
{
	size_t me = (size_t)(s - c->s);
	for (size_t i = 0; i < me && s->sha256[0]; i++)
		if (strcmp(c->s[i].sha256, s->sha256) == 0) {
			c->used -= s->len;
			free(s->text);
			s->text = NULL;
			s->len = 0;
			s->same = c->s[i].same >= 0 ? c->s[i].same : (long)i;
			return;
		}
}

/* Room for len more bytes of text in the run's budget: how many fit. */
static size_t room(struct sbx_scripts *c, size_t have, size_t len)
{
	size_t per = SBX_SCRIPT_MAX - have;
	uint64_t run = c->used < SBX_SCRIPT_RUN ? SBX_SCRIPT_RUN - c->used : 0;
	if (len > per)
		len = per;
	return len > run ? (size_t)run : len;
}

/* Appends len bytes to s's text within the bounds; cut past them. */
static void keep(struct sbx_scripts *c, struct sbx_script *s, const void *p,
		 size_t len)
{
	size_t k = room(c, s->len, len);
	if (k > 0 && !s->text)
		s->text = malloc(SBX_SCRIPT_MAX);
	if (!s->text)
		k = 0;
	if (k > 0)
		memcpy(s->text + s->len, p, k);
	s->len += k;
	c->used += k;
	if (k < len)
		s->cut = 1;
	s->size += len;
}

/* A whole text in memory (code on the command line). */
static void keep_text(struct sbx_scripts *c, struct sbx_script *s,
		      const char *text, size_t len)
{
	keep(c, s, text, len);
	sbx_sha256_data(text, len, s->sha256);
	settle(c, s);
}

/* The script in the open file fd, from offset at: kept to the bounds,
 * hashed whole up to SBX_SCRIPT_HASH_MAX (past it: size only). */
static void keep_file(struct sbx_scripts *c, struct sbx_script *s, int fd,
		      off_t at)
{
	static unsigned char buf[1 << 16];
	struct sbx_sha256 h;
	struct stat st;
	ssize_t r;
	sbx_sha256_init(&h);
	while (s->size < SBX_SCRIPT_HASH_MAX &&
	       c->hashed < SBX_SCRIPT_HASH_RUN &&
	       (r = pread(fd, buf, sizeof buf, at)) > 0) {
		keep(c, s, buf, (size_t)r);
		sbx_sha256_update(&h, buf, (size_t)r);
		c->hashed += (uint64_t)r;
		at += r;
	}
	if (s->size < SBX_SCRIPT_HASH_MAX && c->hashed < SBX_SCRIPT_HASH_RUN) {
		sbx_sha256_hex(&h, s->sha256);
	} else if (fstat(fd, &st) == 0 && st.st_size > at) {
		s->size += (uint64_t)(st.st_size - at);
	}
	settle(c, s);
}

/* ---- reading the task ---- */

/* Is the notification still pending (the task waits in the call, so a
 * pid read before is its own)? */
static int pending(int listener, const struct seccomp_notif *req)
{
	return ioctl(listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &req->id) == 0;
}

/* Is the regular file fd on a file system whose files are data a script
 * can be?  Not the kernel's own (proc, sys, debugfs, tracefs,
 * securityfs, configfs, bpf, cgroup, efivarfs: a read there is the
 * kernel's answer, with the supervisor's rights, which may be the host
 * root's: /proc/kcore), nor FUSE (a read could wait on a server). */
static int script_fs(int fd)
{
	static const long kernel[] = {
	    0x9fa0,	      /* PROC_SUPER_MAGIC */
	    0x62656572,	      /* SYSFS_MAGIC */
	    0x64626720,	      /* DEBUGFS_MAGIC */
	    0x74726163,	      /* TRACEFS_MAGIC */
	    0x73636673,	      /* SECURITYFS_MAGIC */
	    0x62656570,	      /* CONFIGFS_MAGIC */
	    (long)0xcafe4a11, /* BPF_FS_MAGIC */
	    0x27e0eb,	      /* CGROUP_SUPER_MAGIC */
	    0x63677270,	      /* CGROUP2_SUPER_MAGIC */
	    (long)0xde5e81e4, /* EFIVARFS_MAGIC */
	    0x65735546,	      /* FUSE_SUPER_MAGIC */
	};
	struct statfs sf;
	if (fstatfs(fd, &sf) < 0)
		return 0;
	for (size_t i = 0; i < sizeof kernel / sizeof kernel[0]; i++)
		if ((long)sf.f_type == kernel[i])
			return 0;
	return 1;
}

/* The regular file at path (absolute, as the box names it) in the task's
 * tree, on a file system of data (script_fs): resolved inside its root,
 * opened for reading; -errno. */
static int open_in_box(pid_t host, int listener,
		       const struct seccomp_notif *req, const char *path)
{
	struct open_how how = {.flags = O_PATH | O_CLOEXEC,
			       .resolve =
				   RESOLVE_IN_ROOT | RESOLVE_NO_MAGICLINKS};
	char self[64];
	struct stat st;
	int pidfd = sbx_pidfd_open(host), dfd, root = -1, at = -1, fd = -1;
	if (pidfd < 0)
		return pidfd;
	dfd = sbx_pidfd_proc(pidfd, host);
	if (dfd >= 0)
		root = openat(dfd, "root", O_PATH | O_DIRECTORY | O_CLOEXEC);
	/* the root is the task's only if it still waits in its call */
	if (root >= 0 && pending(listener, req))
		at = sbx_openat2(root, path, &how);
	if (at >= 0 && fstat(at, &st) == 0 && S_ISREG(st.st_mode) &&
	    script_fs(at)) {
		snprintf(self, sizeof self, "/proc/self/fd/%d", at);
		fd = open(self, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	}
	if (fd < 0)
		fd = -(errno ? errno : EBADF);
	for (int *p = (int[]){pidfd, dfd, root, at}, k = 0; k < 4; k++)
		if (p[k] >= 0)
			close(p[k]);
	return fd;
}

/* The exec's argument list at addr (its arguments' strings from e->argv,
 * each as the event holds it: enough to parse options) into argv. */
static int split_argv(const struct sbx_event *e, char **argv, int max)
{
	static char copy[SBX_EVENT_ARGV];
	int argc = 0;
	memcpy(copy, e->argv, e->argv_len);
	for (size_t at = 0; at < e->argv_len && argc < max;) {
		argv[argc++] = copy + at;
		at += strnlen(copy + at, e->argv_len - at) + 1;
	}
	return argc;
}

/* Is the newest entry of process pid from source, with the hash sha256
 * (NULL: any)?  A shell looks a name up along PATH, one execve a
 * directory until one runs: the same script is taken once, named by the
 * image of the last attempt (the one that ran). */
static int repeated(struct sbx_scripts *c, const struct sbx_event *e,
		    const char *source, const char *sha256)
{
	for (size_t i = c->n; i-- > 0;) {
		struct sbx_script *s = &c->s[i];
		if (s->pid != e->pid)
			continue;
		if (strcmp(s->source, source) != 0 ||
		    (sha256 && strcmp(s->sha256, sha256) != 0))
			return 0;
		snprintf(s->image, sizeof s->image, "%s", e->path);
		return 1;
	}
	return 0;
}

/* Code on the command line: the arguments the place names, read whole
 * from the task's memory (each at most the kernel's MAX_ARG_STRLEN),
 * joined by "\n"; kept once the task is seen to wait in its exec still
 * (the reads were by pid: a task killed meanwhile, its pid reused, would
 * have lent another process's memory). */
static void take_text(struct sbx_scripts *c, int listener,
		      const struct seccomp_notif *req,
		      const struct sbx_event *e, const struct lang *l,
		      const struct place *p)
{
	static char arg[32 * 4096 + 1], all[P_TEXTS * (32 * 4096 + 1)];
	uint64_t list = req->data.args[req->data.nr == SYS_execveat ? 2 : 1];
	pid_t host = (pid_t)req->pid;
	struct sbx_script *s;
	char sha[65];
	size_t len = 0;
	for (int k = 0; k < p->n; k++) {
		uint64_t ptr;
		long n = -1;
		if (sbx_task_mem(host, list + 8 * (uint64_t)p->idx[k], &ptr,
				 sizeof ptr) == 0)
			n = sbx_task_str(host, ptr, arg, sizeof arg);
		if (n < p->off[k])
			continue;
		if (len)
			all[len++] = '\n';
		memcpy(all + len, arg + p->off[k], (size_t)(n - p->off[k]));
		len += (size_t)(n - p->off[k]);
	}
	sbx_sha256_data(all, len, sha);
	if (!pending(listener, req) || repeated(c, e, "-c", sha) ||
	    !(s = entry(c, e->pid, e->path, l->name, "-c")))
		return;
	keep_text(c, s, all, len);
}

/* ---- stdin ---- */

static int relay_slot(const struct sbx_scripts *c)
{
	for (int i = 0; i < SBX_RELAYS; i++)
		if (!c->relay[i])
			return i;
	return -1;
}

/* The box's pipe src (a copy of the task's fd 0) replaced in the task by
 * a relay pipe (ADDFD onto fd 0 while it waits in its exec); 0 or
 * -errno. */
static int relay_start(struct sbx_scripts *c, int listener,
		       const struct seccomp_notif *req, int src, long idx)
{
	struct seccomp_notif_addfd add;
	struct sbx_relay *r;
	int p[2], slot = relay_slot(c);
	if (slot < 0)
		return -EMFILE;
	if (pipe2(p, O_CLOEXEC) < 0)
		return -errno;
	memset(&add, 0, sizeof add);
	add.id = req->id;
	add.flags = SECCOMP_ADDFD_FLAG_SETFD;
	add.srcfd = (unsigned)p[0];
	add.newfd = 0;
	r = calloc(1, sizeof *r);
	if (r)
		r->hash = malloc(sizeof(struct sbx_sha256));
	if (!r || !r->hash ||
	    ioctl(listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add) < 0) {
		int err = r && r->hash ? errno : ENOMEM;
		if (r)
			free(r->hash);
		free(r);
		close(p[0]);
		close(p[1]);
		return -err;
	}
	close(p[0]);
	fcntl(p[1], F_SETFL, O_NONBLOCK);
	sbx_sha256_init(r->hash);
	r->src = src;
	r->dst = p[1];
	r->entry = idx;
	c->relay[slot] = r;
	c->s[idx].relay = slot;
	return 0;
}

/* The interpreter reads its script on stdin: its fd 0, a regular file
 * (read from its offset) or a pipe (relayed); a terminal, /dev/null or a
 * socket is no script's (no entry). */
static void take_stdin(struct sbx_scripts *c, int listener,
		       const struct seccomp_notif *req,
		       const struct sbx_event *e, const struct lang *l)
{
	struct stat st;
	struct sbx_script *s = NULL;
	int fd = sbx_task_fd((pid_t)req->pid, 0);
	off_t at = 0;
	if (fd >= 0 && fstat(fd, &st) == 0 && pending(listener, req) &&
	    !repeated(c, e, "stdin", NULL) &&
	    ((S_ISREG(st.st_mode) && script_fs(fd) &&
	      (at = lseek(fd, 0, SEEK_CUR)) >= 0) ||
	     S_ISFIFO(st.st_mode)))
		s = entry(c, e->pid, e->path, l->name, "stdin");
	if (s && S_ISREG(st.st_mode))
		keep_file(c, s, fd, at);
	else if (s && relay_start(c, listener, req, fd, (long)(s - c->s)) == 0)
		return; /* fd is the relay's now */
	if (fd >= 0)
		close(fd);
}

/* ---- the hooks ---- */

/* A #! script executed: its interpreter's language from its first line
 * ("#!/usr/bin/env python3" names python3), the file read as the exec's
 * own (the kernel runs the interpreter on that path). */
static void take_hashbang(struct sbx_scripts *c, int listener,
			  const struct seccomp_notif *req,
			  const struct sbx_event *e)
{
	char line[256], *p, *w;
	const struct lang *l = NULL;
	struct sbx_script *s;
	int fd = open_in_box((pid_t)req->pid, listener, req, e->path);
	ssize_t r = fd >= 0 ? pread(fd, line, sizeof line - 1, 0) : -1;
	if (r > 2 && line[0] == '#' && line[1] == '!') {
		line[r] = '\0';
		line[strcspn(line, "\n")] = '\0';
		p = line + 2 + strspn(line + 2, " \t");
		w = strtok(p, " \t");
		l = w ? lang_of(w) : NULL;
		if (w && !l &&
		    strcmp(strrchr(w, '/') ? strrchr(w, '/') + 1 : w, "env") ==
			0 &&
		    (w = strtok(NULL, " \t")))
			l = w[0] != '-' ? lang_of(w) : NULL;
	}
	if (l && (s = entry(c, e->pid, w, l->name, e->path)))
		keep_file(c, s, fd, 0);
	if (fd >= 0)
		close(fd);
}

/* Awaits the interpreter's open of its script operand (made absolute
 * against the exec's working directory, e->to). */
static void await_open(struct sbx_scripts *c, pid_t host,
		       const struct sbx_event *e, const struct lang *l,
		       const char *operand)
{
	static unsigned next;
	struct sbx_script_wait *w = &c->wait[next++ % SBX_SCRIPT_WAITS];
	char full[2 * SBX_SCRIPT_NAME + 2];
	if (operand[0] == '/')
		snprintf(full, sizeof full, "%s", operand);
	else
		snprintf(full, sizeof full, "%s/%s", e->to, operand);
	sbx_clean_path(full);
	w->host = host;
	w->pid = e->pid;
	snprintf(w->image, sizeof w->image, "%s", e->path);
	snprintf(w->lang, sizeof w->lang, "%s", l->name);
	snprintf(w->path, sizeof w->path, "%s", full);
}

void sbx_script_exec(struct sbx_scripts *c, int listener,
		     const struct seccomp_notif *req, const struct sbx_event *e)
{
	char *argv[64];
	struct place p;
	const struct lang *l = lang_of(e->path);
	int argc;
	for (int i = 0; i < SBX_SCRIPT_WAITS; i++)
		if (c->wait[i].host == (pid_t)req->pid)
			c->wait[i].host = 0; /* a new program in that task */
	if (e->memfd >= 0)
		return;
	if (!l) {
		take_hashbang(c, listener, req, e);
		return;
	}
	argc = split_argv(e, argv, 64);
	place_of(l, argv, argc, &p);
	if (p.kind == P_FILE && p.file > 0 && p.file < argc)
		await_open(c, (pid_t)req->pid, e, l, argv[p.file]);
	if (p.kind == P_STDIN)
		take_stdin(c, listener, req, e, l);
	if (p.kind == P_TEXT)
		take_text(c, listener, req, e, l, &p);
}

void sbx_script_open(struct sbx_scripts *c, int listener,
		     const struct seccomp_notif *req, const struct sbx_event *e)
{
	struct sbx_script_wait *w = NULL;
	struct sbx_script *s;
	int fd;
	for (int i = 0; i < SBX_SCRIPT_WAITS && !w; i++)
		if (c->wait[i].host == (pid_t)req->pid &&
		    strcmp(c->wait[i].path, e->path) == 0)
			w = &c->wait[i];
	if (!w)
		return;
	w->host = 0;
	fd = open_in_box((pid_t)req->pid, listener, req, e->path);
	if (fd < 0)
		return;
	s = entry(c, w->pid, w->image, w->lang, e->path);
	if (s)
		keep_file(c, s, fd, 0);
	close(fd);
}

/* ---- relays ---- */

static void relay_close(struct sbx_scripts *c, int slot)
{
	struct sbx_relay *r = c->relay[slot];
	struct sbx_script *s = &c->s[r->entry];
	sbx_close_fd(&r->src);
	sbx_close_fd(&r->dst);
	sbx_sha256_hex(r->hash, s->sha256);
	s->relay = -1;
	free(r->hash);
	free(r);
	c->relay[slot] = NULL;
	settle(c, s);
}

size_t sbx_script_watch(const struct sbx_scripts *c, int *fds, short *ev)
{
	size_t n = 0;
	for (int i = 0; i < SBX_RELAYS; i++) {
		const struct sbx_relay *r = c->relay[i];
		if (!r)
			continue;
		if (r->head < r->tail) {
			fds[n] = r->dst;
			ev[n++] = POLLOUT;
		} else if (!r->eof) {
			fds[n] = r->src;
			ev[n++] = POLLIN;
		}
	}
	return n;
}

/* One relay's step: read what the box's pipe holds (never waiting:
 * RWF_NOWAIT), write what the relay takes (non-blocking); 1 when it is
 * done (the box's pipe ended and all was written, or the reader left). */
static int relay_step(struct sbx_scripts *c, struct sbx_relay *r)
{
	struct sbx_script *s = &c->s[r->entry];
	if (r->head == r->tail && !r->eof) {
		struct iovec v = {r->buf, sizeof r->buf};
		ssize_t k = preadv2(r->src, &v, 1, -1, RWF_NOWAIT);
		if (k > 0) {
			keep(c, s, r->buf, (size_t)k);
			sbx_sha256_update(r->hash, r->buf, (size_t)k);
			r->head = 0;
			r->tail = (size_t)k;
		} else if (k == 0 || errno != EAGAIN) {
			r->eof = 1;
		}
	}
	if (r->head < r->tail) {
		ssize_t w = write(r->dst, r->buf + r->head, r->tail - r->head);
		if (w > 0)
			r->head += (size_t)w;
		else if (w < 0 && errno != EAGAIN)
			return 1; /* the interpreter and its children left */
	}
	return r->eof && r->head == r->tail;
}

void sbx_script_pump(struct sbx_scripts *c)
{
	for (int i = 0; i < SBX_RELAYS; i++)
		if (c->relay[i] && relay_step(c, c->relay[i]))
			relay_close(c, i);
}

void sbx_script_end(struct sbx_scripts *c)
{
	for (int i = 0; i < SBX_RELAYS; i++)
		if (c->relay[i])
			relay_close(c, i);
}
