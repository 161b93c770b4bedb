/* SPDX-License-Identifier: MIT */
/*
 * plancopy.c: the plan the box's clone reads, copied into one mapping of
 * its own.
 *
 * A plan's strings and arrays are anchored in Lua (spec.c), and
 * sbxlua's Lua heap is not copied into the box (heap.c: a clone gets no
 * copy of it, so the supervisor takes no copy-on-write fault for the Lua
 * it runs while boxes live).  So, just before the clone, everything the
 * plan points to is copied into one anonymous mapping the clone does
 * inherit, at the same addresses; the supervisor keeps the mapping for the
 * next box's plan.  Every pointer of struct sbx_plan is followed here:
 * a field added there must be added here too (a pointer left into the
 * Lua heap faults in the box, at once, in every test of that field).
 */
#include "plan.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* A bump allocator over one mapping; with base NULL it only counts. */
struct arena {
	char *base;
	size_t off;
};

static void *put(struct arena *a, const void *src, size_t n)
{
	char *d = a->base ? a->base + a->off : NULL;

	a->off += (n + 15) & ~(size_t)15;
	if (d && n > 0)
		memcpy(d, src, n);
	return d;
}

static const char *put_str(struct arena *a, const char *s)
{
	return s ? put(a, s, strlen(s) + 1) : NULL;
}

/* A NULL-terminated array of strings (argv, envp). */
static char *const *put_strv(struct arena *a, char *const *v)
{
	size_t n = 0;
	char **d;

	if (!v)
		return NULL;
	while (v[n])
		n++;
	d = put(a, v, (n + 1) * sizeof *v);
	for (size_t i = 0; i < n; i++) {
		const char *s = put_str(a, v[i]);
		if (d)
			d[i] = (char *)s;
	}
	return d;
}

static const struct sbx_mount *put_mounts(struct arena *a,
					  const struct sbx_plan *p)
{
	struct sbx_mount *d;

	if (!p->mounts)
		return NULL;
	d = put(a, p->mounts, p->nmounts * sizeof *p->mounts);
	for (size_t i = 0; i < p->nmounts; i++) {
		const struct sbx_mount *m = &p->mounts[i];
		/* a file's data may hold NULs (datalen); Lua ends every
		 * string with one more */
		size_t n =
		    m->data ? (m->datalen ? m->datalen : strlen(m->data)) : 0;
		const char *src = put_str(a, m->src), *dst = put_str(a, m->dst);
		const char *data = m->data ? put(a, m->data, n + 1) : NULL;
		if (d) {
			d[i].src = src;
			d[i].dst = dst;
			d[i].data = data;
		}
	}
	return d;
}

static const struct sock_fprog *put_filter(struct arena *a,
					   const struct sock_fprog *f)
{
	struct sock_fprog *d;
	struct sock_filter *code;

	if (!f)
		return NULL;
	d = put(a, f, sizeof *f);
	code = put(a, f->filter, f->len * sizeof *f->filter);
	if (d)
		d->filter = code;
	return d;
}

/* Copies everything p points to after the plan itself at a; d is the
 * copy of the plan (NULL while counting). */
static void put_plan(struct arena *a, const struct sbx_plan *p,
		     struct sbx_plan *d)
{
	const char *hostname = put_str(a, p->hostname);
	const char *root_opts = put_str(a, p->root_opts);
	const struct sbx_mount *mounts = put_mounts(a, p);
	const char *path = put_str(a, p->path), *cwd = put_str(a, p->cwd);
	char *const *argv = put_strv(a, p->argv), *const *envp =
						      put_strv(a, p->envp);
	const struct sock_fprog *filter = put_filter(a, p->filter);
	const char *nxdomain = put_str(a, p->sink.nxdomain);
	const char **places =
	    p->places ? put(a, p->places, p->nplaces * sizeof *p->places)
		      : NULL;
	const int *trees =
	    p->trees ? put(a, p->trees, p->nmounts * sizeof *p->trees) : NULL;

	for (size_t i = 0; i < p->nplaces && p->places; i++) {
		const char *s = put_str(a, p->places[i]);
		if (places)
			places[i] = s;
	}
	for (size_t i = 0; i < p->nsysctls; i++) {
		const char *s = put_str(a, p->sysctls[i].name);
		if (d)
			d->sysctls[i].name = s;
	}
	for (size_t i = 0; i < p->landlock.nrules; i++) {
		const char *s = put_str(a, p->landlock.rules[i].path);
		if (d)
			d->landlock.rules[i].path = s;
	}
	if (!d)
		return;
	d->hostname = hostname;
	d->root_opts = root_opts;
	d->mounts = mounts;
	d->path = path;
	d->cwd = cwd;
	d->argv = argv;
	d->envp = envp;
	d->filter = filter;
	/* the explain channel's gate names the execve by its path's address
	 * (spec.c): this copy's */
	if (filter && p->notify) {
		sbx_gate_point(filter->filter, path);
		sbx_gate_mmap(filter->filter, p->gate_mmap);
	}
	d->sink.nxdomain = nxdomain;
	d->places = places;
	d->trees = trees;
}

/*
 * The mappings, one a live box: each shared (MAP_SHARED), so that the
 * clone write-protects none of its pages in this process, which then
 * writes the next plan into another without a fault (a private mapping
 * reused took one a page a box, twenty for an analysis box's 80 KiB: the
 * stand-in program's bytes are most of it).  Each is MADV_DONTFORK but
 * for the one clone that reads it (sbx_plan_fork): no other box, and no
 * other process this one forks, maps it.  A box's mapping is taken again
 * only once its init is reaped (sbx_plan_release), every process of the
 * box gone: nothing but this process maps it then.
 */
struct slot {
	char *map;
	size_t len;
	int busy;
};
static struct slot *slots;
static size_t nslots;

/* A free slot of at least len bytes (a free one grown, or a new one):
 * its index, or -1 (errno). */
static int take_slot(size_t len)
{
	size_t i, pick = nslots;
	for (i = 0; i < nslots; i++) {
		if (slots[i].busy)
			continue;
		if (slots[i].len >= len) {
			slots[i].busy = 1;
			return (int)i;
		}
		if (pick == nslots)
			pick = i;
	}
	if (pick == nslots) {
		struct slot *n = realloc(slots, (nslots + 1) * sizeof *n);
		if (!n)
			return -1;
		slots = n;
		slots[nslots] = (struct slot){NULL, 0, 0};
		pick = nslots++;
	}
	size_t l = (len + 0xffff) & ~(size_t)0xffff;
	void *m = mmap(NULL, l, PROT_READ | PROT_WRITE,
		       MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return -1;
	if (madvise(m, l, MADV_DONTFORK) != 0) {
		int e = errno;
		munmap(m, l);
		errno = e;
		return -1;
	}
	if (slots[pick].map)
		munmap(slots[pick].map, slots[pick].len);
	slots[pick] = (struct slot){m, l, 1};
	return (int)pick;
}

struct sbx_plan *sbx_plan_copy(const struct sbx_plan *p, int *slot)
{
	struct arena a = {NULL, 0};
	struct sbx_plan *d;
	int i;

	put(&a, p, sizeof *p);
	put_plan(&a, p, NULL);
	if ((i = take_slot(a.off)) < 0)
		return NULL;
	*slot = i;
	a.base = slots[i].map;
	a.off = 0;
	d = put(&a, p, sizeof *p);
	put_plan(&a, p, d);
	return d;
}

int sbx_plan_fork(int slot, int inherit)
{
	struct slot *s;
	if (slot < 0 || (size_t)slot >= nslots || !slots[slot].map)
		return 0;
	s = &slots[slot];
	if (madvise(s->map, s->len, inherit ? MADV_DOFORK : MADV_DONTFORK) == 0)
		return 0;
	if (!inherit) {
		/* left inheritable, it is this process's no more: the box
		 * keeps its own reference, the slot maps anew when taken */
		munmap(s->map, s->len);
		s->map = NULL;
		s->len = 0;
	}
	return -1;
}

void sbx_plan_release(int *slot)
{
	if (*slot >= 0 && (size_t)*slot < nslots)
		slots[*slot].busy = 0;
	*slot = -1;
}
