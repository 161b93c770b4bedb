/* SPDX-License-Identifier: MIT */
/*
 * cgroup.c: a cgroup v2 per box.  The probe finds a base directory the
 * caller may create cgroups under and says which controllers a box cgroup
 * there gets; per run, a box cgroup is created with its limits written
 * before any process enters it (the box is cloned straight into it with
 * CLONE_INTO_CGROUP), killed as a whole through cgroup.kill, read for its
 * events and removed.  The helpers return 0 or -errno and never call Lua;
 * core.cgroup_probe and core.cgroup_create wrap them.
 *
 * Trust: the base is the operator's (or the kernel's mount of cgroup2);
 * nothing inside a box can write to it, since the box sees neither the
 * host's /sys nor, through its cgroup namespace, any cgroup above its own.
 */
#include "cgroup.h"
#include "fileio.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/magic.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statfs.h>
#include <sys/utsname.h>
#include <time.h>
#include <unistd.h>
/* ---- small text helpers (files: fileio.c) ---- */

/* snprintf that says when the result did not fit. */
__attribute__((format(printf, 3, 4))) static int fmt(char *out, size_t size,
						     const char *f, ...)
{
	va_list ap;
	int n;
	va_start(ap, f);
	n = vsnprintf(out, size, f, ap);
	va_end(ap);
	return n < 0 || (size_t)n >= size ? -ENAMETOOLONG : 0;
}

/* Value of "key N" at the start of a line of buf; -1 if absent. */
static int64_t key_value(const char *buf, const char *key)
{
	size_t kl = strlen(key);
	const char *p = buf;
	while (*p) {
		if (strncmp(p, key, kl) == 0 && p[kl] == ' ')
			return strtoll(p + kl + 1, NULL, 10);
		p += strcspn(p, "\n");
		if (*p)
			p++;
	}
	return -1;
}

static unsigned controller_bits(const char *list)
{
	static const struct {
		const char *name;
		unsigned bit;
	} c[] = {{"memory", SBX_CG_MEMORY},
		 {"pids", SBX_CG_PIDS},
		 {"cpu", SBX_CG_CPU}};
	unsigned bits = 0;
	const char *p = list;
	while (*p) {
		size_t n;
		p += strspn(p, " \n");
		n = strcspn(p, " \n");
		for (size_t i = 0; i < sizeof c / sizeof c[0]; i++)
			if (n == strlen(c[i].name) &&
			    strncmp(p, c[i].name, n) == 0)
				bits |= c[i].bit;
		p += n;
	}
	return bits;
}

static void bit_names(unsigned bits, char *out, size_t size)
{
	snprintf(out, size, "%s%s%s", bits & SBX_CG_MEMORY ? "memory, " : "",
		 bits & SBX_CG_PIDS ? "pids, " : "",
		 bits & SBX_CG_CPU ? "cpu, " : "");
	if (*out)
		out[strlen(out) - 2] = '\0'; /* the last ", " */
}

/* Decodes the \ooo escapes of a mountinfo field in place. */
static void unescape(char *s)
{
	char *w = s;
	for (; *s; s++) {
		if (s[0] == '\\' && s[1] >= '0' && s[1] <= '3' && s[2] &&
		    s[3]) {
			*w++ = (char)((s[1] - '0') * 64 + (s[2] - '0') * 8 +
				      (s[3] - '0'));
			s += 3;
		} else {
			*w++ = *s;
		}
	}
	*w = '\0';
}

/* The first cgroup2 mount: its mount point and the root it shows. */
static int find_v2_mount(char *mnt, size_t msize, char *root, size_t rsize)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	char line[4096];
	int found = 0;
	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof line, f)) {
		char *sep = strstr(line, " - cgroup2 "), *save = NULL, *fld[5];
		int i;
		if (!sep)
			continue;
		*sep = '\0';
		fld[0] = strtok_r(line, " ", &save);
		for (i = 1; i < 5 && fld[i - 1]; i++)
			fld[i] = strtok_r(NULL, " ", &save);
		if (i < 5 || !fld[4])
			continue;
		unescape(fld[3]);
		unescape(fld[4]);
		found = fmt(root, rsize, "%s", fld[3]) == 0 &&
			fmt(mnt, msize, "%s", fld[4]) == 0;
	}
	fclose(f);
	return found ? 0 : -ENOENT;
}

/* The caller's cgroup v2 path (the "0::" line), relative to the root of
 * its cgroup namespace. */
static int own_cgroup(char *out, size_t size)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	char line[PATH_MAX + 16];
	int found = 0;
	if (!f)
		return -errno;
	while (!found && fgets(line, sizeof line, f))
		if (strncmp(line, "0::", 3) == 0) {
			line[strcspn(line, "\n")] = '\0';
			found = fmt(out, size, "%s", line + 3) == 0;
		}
	fclose(f);
	return found ? 0 : -ENOENT;
}

static int is_cgroup2(const char *path)
{
	struct statfs sf;
	return statfs(path, &sf) == 0 && sf.f_type == CGROUP2_SUPER_MAGIC;
}

/*
 * Moving a process into a cgroup (CLONE_INTO_CGROUP included) needs write
 * access to cgroup.procs of the common ancestor of the source and the
 * destination: a delegated base far from the caller's own cgroup is no use.
 */
static int ancestor_writable(const struct sbx_cgroup_base *b, const char *own)
{
	size_t ml = strlen(b->mount), n = 0;
	const char *rel = b->path + ml;
	char dir[PATH_MAX];
	if (strncmp(b->path, b->mount, ml) != 0)
		return 0;
	while (rel[n] && rel[n] == own[n])
		n++;
	if (!((rel[n] == '\0' || rel[n] == '/') &&
	      (own[n] == '\0' || own[n] == '/')))
		while (n > 0 && rel[n - 1] != '/')
			n--;
	while (n > 0 && rel[n - 1] == '/')
		n--;
	if (fmt(dir, sizeof dir, "%s%.*s/cgroup.procs", b->mount, (int)n, rel) <
	    0)
		return 0;
	return access(dir, W_OK) == 0;
}

static int kernel_at_least(int major, int minor)
{
	struct utsname u;
	int ma = 0, mi = 0;
	if (uname(&u) < 0 || sscanf(u.release, "%d.%d", &ma, &mi) != 2)
		return 0;
	return ma > major || (ma == major && mi >= minor);
}

static void describe_base(struct sbx_cgroup_base *b, const char *own)
{
	char buf[256], names[64];
	int dir = open(b->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	unsigned miss;
	if (dir < 0) {
		fmt(b->reason, sizeof b->reason, "%s: %s", b->path,
		    strerror(errno));
		return;
	}
	if (sbx_read_at(dir, "cgroup.controllers", 0, buf, sizeof buf) >= 0)
		b->available = controller_bits(buf);
	if (sbx_read_at(dir, "cgroup.subtree_control", 0, buf, sizeof buf) >= 0)
		b->enabled = controller_bits(buf);
	/* the hierarchy's root has no cgroup.kill; its children do from
	 * Linux 5.14 */
	b->kill = faccessat(dir, "cgroup.kill", F_OK, 0) == 0 ||
		  (strcmp(b->path, b->mount) == 0 && kernel_at_least(5, 14));
	close(dir);
	if (access(b->path, W_OK) != 0) {
		fmt(b->reason, sizeof b->reason,
		    "%s is not writable by this user (%s)", b->path,
		    strerror(errno));
		return;
	}
	if (!ancestor_writable(b, own)) {
		fmt(b->reason, sizeof b->reason,
		    "cgroup.procs of the common ancestor of %s and this "
		    "process's cgroup %s is not writable",
		    b->path, own);
		return;
	}
	b->usable = 1;
	miss = (SBX_CG_MEMORY | SBX_CG_PIDS) & ~b->enabled;
	if (!miss)
		return;
	bit_names(miss, names, sizeof names);
	if (miss & b->available)
		fmt(b->reason, sizeof b->reason,
		    "%s available but not enabled in "
		    "%s/cgroup.subtree_control%s",
		    names, b->path,
		    b->source == SBX_CGB_OWN
			? " (it holds this process: a cgroup with "
			  "enabled controllers cannot hold processes)"
			: "");
	else
		fmt(b->reason, sizeof b->reason,
		    "%s: not offered under %s (on a hybrid host they "
		    "belong to cgroup v1)",
		    names, b->path);
}

/* <mount>/sbxlua for root: created if missing; holds no process, so every
 * available controller can be enabled for the box cgroups below it. */
static void create_base(struct sbx_cgroup_base *b)
{
	char buf[256], want[64] = "";
	int dir;
	unsigned avail;
	if (fmt(b->path, sizeof b->path, "%s/sbxlua", b->mount) < 0)
		return;
	if (mkdir(b->path, 0755) < 0 && errno != EEXIST)
		return;
	dir = open(b->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (dir < 0)
		return;
	if (sbx_read_at(dir, "cgroup.controllers", 0, buf, sizeof buf) >= 0) {
		avail = controller_bits(buf);
		if (sbx_read_at(dir, "cgroup.subtree_control", 0, buf,
				sizeof buf) >= 0)
			avail &= ~controller_bits(buf);
		snprintf(want, sizeof want, "%s%s%s",
			 avail & SBX_CG_MEMORY ? "+memory " : "",
			 avail & SBX_CG_PIDS ? "+pids " : "",
			 avail & SBX_CG_CPU ? "+cpu " : "");
		if (*want)
			sbx_write_at(dir, "cgroup.subtree_control", want);
	}
	close(dir);
}

int sbx_cgroup_probe(const char *explicit_base, struct sbx_cgroup_base *b)
{
	char root[PATH_MAX], own[PATH_MAX];
	int r;

	memset(b, 0, sizeof *b);
	r = find_v2_mount(b->mount, sizeof b->mount, root, sizeof root);
	if (r < 0 && r != -ENOENT)
		return r;
	b->v2 = r == 0;
	own[0] = '\0';
	if (b->v2 && (r = own_cgroup(own, sizeof own)) < 0)
		return r;
	/* in a cgroup namespace the "0::" path is relative to the namespace
	 * root, which is also what the mount shows (root "/") */
	if (strcmp(root, "/") != 0 && strncmp(own, root, strlen(root)) == 0)
		memmove(own, own + strlen(root),
			strlen(own + strlen(root)) + 1);

	if (explicit_base) {
		struct stat st;
		if (explicit_base[0] != '/')
			return -EINVAL;
		if (stat(explicit_base, &st) < 0)
			return -errno;
		if (!S_ISDIR(st.st_mode))
			return -ENOTDIR;
		b->source = SBX_CGB_EXPLICIT;
		if (fmt(b->path, sizeof b->path, "%s", explicit_base) < 0)
			return -ENAMETOOLONG;
		if (!b->v2 || !is_cgroup2(b->path)) {
			fmt(b->reason, sizeof b->reason,
			    "%s is not a cgroup v2 directory", b->path);
			return 0;
		}
		describe_base(b, own);
		return 0;
	}
	if (!b->v2) {
		fmt(b->reason, sizeof b->reason,
		    "no cgroup v2 hierarchy is mounted");
		return 0;
	}
	if (strcmp(own, "/") != 0) {
		if (fmt(b->path, sizeof b->path, "%s%s", b->mount, own) == 0 &&
		    is_cgroup2(b->path) && access(b->path, W_OK) == 0) {
			b->source = SBX_CGB_OWN;
			describe_base(b, own);
			return 0;
		}
	}
	if (geteuid() == 0) {
		b->source = SBX_CGB_CREATED;
		create_base(b);
		if (!is_cgroup2(b->path)) {
			fmt(b->reason, sizeof b->reason, "cannot create %s: %s",
			    b->path, strerror(errno));
			return 0;
		}
		describe_base(b, own);
		return 0;
	}
	fmt(b->reason, sizeof b->reason,
	    "this process's cgroup %s%s is %s and only root creates "
	    "%s/sbxlua: an operator must delegate a base "
	    "(see docs/limits.md)",
	    b->mount, strcmp(own, "/") == 0 ? "" : own,
	    strcmp(own, "/") == 0 ? "the hierarchy's root"
				  : "not writable by this user",
	    b->mount);
	b->path[0] = '\0';
	return 0;
}

/* ---- one box cgroup ---- */

void sbx_cgroup_init(struct sbx_cgroup *cg)
{
	memset(cg, 0, sizeof *cg);
	cg->fd = cg->base_fd = -1;
}

static int set_limits(struct sbx_cgroup *cg, unsigned enabled,
		      const struct sbx_cgroup_limits *lim)
{
	char v[64];
	int r;
	/* no process is in the cgroup yet: every limit holds from the first
	 * instruction of the box init */
	if (lim->memory && (enabled & SBX_CG_MEMORY)) {
		snprintf(v, sizeof v, "%llu", (unsigned long long)lim->memory);
		cg->what = "memory.max";
		if ((r = sbx_write_at(cg->fd, "memory.max", v)) < 0)
			return r;
		/* absent without swap accounting: nothing to turn off */
		cg->what = "memory.swap.max";
		r = sbx_write_at(cg->fd, "memory.swap.max", "0");
		if (r < 0 && r != -ENOENT)
			return r;
		/* an OOM kill takes the whole box, never a random part */
		cg->what = "memory.oom.group";
		if ((r = sbx_write_at(cg->fd, "memory.oom.group", "1")) < 0)
			return r;
		cg->limited |= SBX_CG_MEMORY;
	}
	if (lim->pids && (enabled & SBX_CG_PIDS)) {
		snprintf(v, sizeof v, "%llu", (unsigned long long)lim->pids);
		cg->what = "pids.max";
		if ((r = sbx_write_at(cg->fd, "pids.max", v)) < 0)
			return r;
		cg->limited |= SBX_CG_PIDS;
	}
	if (lim->cpu_quota_us && (enabled & SBX_CG_CPU)) {
		snprintf(v, sizeof v, "%llu %llu",
			 (unsigned long long)lim->cpu_quota_us,
			 (unsigned long long)(lim->cpu_period_us
						  ? lim->cpu_period_us
						  : 100000));
		cg->what = "cpu.max";
		if ((r = sbx_write_at(cg->fd, "cpu.max", v)) < 0)
			return r;
		cg->limited |= SBX_CG_CPU;
	}
	cg->what = NULL;
	return 0;
}

int sbx_cgroup_create(const struct sbx_cgroup_base *b,
		      const struct sbx_cgroup_limits *lim,
		      struct sbx_cgroup *cg)
{
	static unsigned seq;
	int r = 0;

	sbx_cgroup_init(cg);
	if (!b->usable)
		return -EOPNOTSUPP;
	cg->what = "base";
	cg->base_fd = open(b->path, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cg->base_fd < 0)
		return -errno;
	cg->what = "mkdir";
	for (int tries = 0; tries < 1000; tries++) {
		snprintf(cg->name, sizeof cg->name, "box-%d-%u", (int)getpid(),
			 seq++);
		if (mkdirat(cg->base_fd, cg->name, 0755) == 0) {
			r = 0;
			break;
		}
		r = -errno;
		if (r != -EEXIST)
			break;
	}
	if (r < 0)
		goto fail;
	cg->fd =
	    openat(cg->base_fd, cg->name, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cg->fd < 0) {
		r = -errno;
		unlinkat(cg->base_fd, cg->name, AT_REMOVEDIR);
		goto fail;
	}
	r = set_limits(cg, b->enabled, lim);
	if (r < 0) {
		const char *what = cg->what;
		sbx_cgroup_remove(cg);
		cg->what = what;
		return r;
	}
	return 0;
fail:
	close(cg->base_fd);
	cg->base_fd = -1;
	return r;
}

int sbx_cgroup_kill(const struct sbx_cgroup *cg)
{
	if (cg->fd < 0)
		return -EBADF;
	return sbx_write_at(cg->fd, "cgroup.kill", "1");
}

int sbx_cgroup_attach(const struct sbx_cgroup *cg, pid_t pid)
{
	char v[32];
	if (cg->fd < 0)
		return -EBADF;
	snprintf(v, sizeof v, "%d", (int)pid);
	return sbx_write_at(cg->fd, "cgroup.procs", v);
}

int sbx_cgroup_events(const struct sbx_cgroup *cg, struct sbx_cgroup_events *ev)
{
	char buf[1024];
	ev->oom = ev->oom_kill = ev->memory_peak = ev->pids_max = -1;
	ev->pids_current = ev->cpu_usec = ev->populated = -1;
	if (cg->fd < 0)
		return -EBADF;
	if (sbx_read_at(cg->fd, "memory.events", 0, buf, sizeof buf) >= 0) {
		ev->oom = key_value(buf, "oom");
		ev->oom_kill = key_value(buf, "oom_kill");
	}
	if (sbx_read_at(cg->fd, "memory.peak", 0, buf, sizeof buf) >= 0)
		ev->memory_peak = strtoll(buf, NULL, 10);
	if (sbx_read_at(cg->fd, "pids.events", 0, buf, sizeof buf) >= 0)
		ev->pids_max = key_value(buf, "max");
	if (sbx_read_at(cg->fd, "pids.current", 0, buf, sizeof buf) >= 0)
		ev->pids_current = strtoll(buf, NULL, 10);
	if (sbx_read_at(cg->fd, "cpu.stat", 0, buf, sizeof buf) >= 0)
		ev->cpu_usec = key_value(buf, "usage_usec");
	if (sbx_read_at(cg->fd, "cgroup.events", 0, buf, sizeof buf) >= 0)
		ev->populated = key_value(buf, "populated");
	return 0;
}

int sbx_cgroup_remove(struct sbx_cgroup *cg)
{
	int r = 0;
	if (cg->fd >= 0) {
		close(cg->fd);
		cg->fd = -1;
	}
	if (cg->base_fd >= 0) {
		/* the kernel may still count a process that was just reaped:
		 * retry for up to 200 ms */
		for (int i = 0; i < 100; i++) {
			struct timespec ts = {0, 2000000};
			r = unlinkat(cg->base_fd, cg->name, AT_REMOVEDIR) < 0
				? -errno
				: 0;
			if (r != -EBUSY)
				break;
			nanosleep(&ts, NULL);
		}
		if (r == -ENOENT)
			r = 0;
		close(cg->base_fd);
		cg->base_fd = -1;
	}
	return r;
}
