/* SPDX-License-Identifier: MIT */
/*
 * evlog.c: the log of a run's events (notify.h struct sbx_evlog), within
 * the budgets notify.h states.  Nothing is dropped without a trace: an
 * event past its kind's budget is summarised (a count per kind, answer
 * and directory, with the first and the last event whole), and one past
 * the summaries is counted by kind.  The program chooses every byte
 * here; the bounds are the log's, never the program's.
 *
 * A record is an event's numbers (the struct's bytes outside its
 * strings) and each string as a 16-bit length and its bytes: an open of
 * a short path takes a tenth of the struct.
 */
#include "notify.h"

#include <fcntl.h>
#include <stdlib.h>
#include <string.h>

/* The strings of an event, in the order of the struct. */
#define STR(f)                                                                 \
	{                                                                      \
		offsetof(struct sbx_event, f),                                 \
		    sizeof(((struct sbx_event *)0)->f)                         \
	}
static const struct {
	size_t off, size;
} strs[] = {STR(path),	 STR(to),   STR(addr), STR(argv),
	    STR(sha256), STR(type), STR(mime)};
#define NSTRS (sizeof strs / sizeof strs[0])
#define ARGV_AT 3 /* strs[ARGV_AT] is argv: argv_len bytes, NULs in it */

/* the count is among the numbers before the first string: a record's
 * count is rewritten in place */
_Static_assert(offsetof(struct sbx_event, count) <
		   offsetof(struct sbx_event, path),
	       "count precedes the strings");

size_t sbx_event_cut(char *dst, size_t size, const char *src, size_t len)
{
	size_t mark = sizeof SBX_CUT_MARK - 1, head, tail;
	if (len < size) {
		memmove(dst, src, len);
		dst[len] = '\0';
		return 0;
	}
	head = (size - 1 - mark) / 2;
	tail = size - 1 - mark - head;
	memmove(dst, src, head);
	memcpy(dst + head, SBX_CUT_MARK, mark);
	memmove(dst + head + mark, src + len - tail, tail);
	dst[size - 1] = '\0';
	return len;
}

static size_t str_len(const struct sbx_event *e, size_t i)
{
	const char *s = (const char *)e + strs[i].off;
	return i == ARGV_AT ? e->argv_len : strnlen(s, strs[i].size - 1);
}

/* The bytes of e's record. */
static size_t rec_size(const struct sbx_event *e)
{
	size_t n = sizeof *e;
	for (size_t i = 0; i < NSTRS; i++)
		n = n - strs[i].size + 2 + str_len(e, i);
	return n;
}

static void encode(const struct sbx_event *e, unsigned char *out)
{
	const unsigned char *b = (const unsigned char *)e;
	size_t at = 0;
	for (size_t i = 0; i < NSTRS; i++) {
		uint16_t l = (uint16_t)str_len(e, i);
		memcpy(out, b + at, strs[i].off - at);
		out += strs[i].off - at;
		memcpy(out, &l, 2);
		memcpy(out + 2, b + strs[i].off, l);
		out += 2 + l;
		at = strs[i].off + strs[i].size;
	}
	memcpy(out, b + at, sizeof *e - at);
}

void sbx_evlog_get(const struct sbx_evlog *l, size_t i, struct sbx_event *out)
{
	const unsigned char *in = l->buf + l->off[i];
	unsigned char *b = (unsigned char *)out;
	size_t at = 0;
	memset(out, 0, sizeof *out);
	for (size_t k = 0; k < NSTRS; k++) {
		uint16_t n;
		memcpy(b + at, in, strs[k].off - at);
		in += strs[k].off - at;
		memcpy(&n, in, 2);
		memcpy(b + strs[k].off, in + 2, n);
		in += 2 + n;
		at = strs[k].off + strs[k].size;
	}
	memcpy(b + at, in, sizeof *out - at);
}

void sbx_evlog_free(struct sbx_evlog *l)
{
	free(l->buf);
	free(l->off);
	free(l->agg);
	memset(l, 0, sizeof *l);
}

unsigned long sbx_evlog_dropped(const struct sbx_evlog *l)
{
	unsigned long n = l->summarised + l->nomem;
	for (int k = 0; k < SBX_EV_COUNT; k++)
		n += l->lost[k];
	return n;
}

static int same_event(const struct sbx_event *a, const struct sbx_event *b)
{
	return a->kind == b->kind && a->answer == b->answer && a->nr == b->nr &&
	       a->pid == b->pid && a->err == b->err && a->flags == b->flags &&
	       a->size == b->size && a->limit == b->limit &&
	       a->target == b->target && a->sig == b->sig &&
	       strcmp(a->sha256, b->sha256) == 0 &&
	       strcmp(a->path, b->path) == 0 && strcmp(a->to, b->to) == 0 &&
	       strcmp(a->addr, b->addr) == 0 && a->argv_len == b->argv_len &&
	       memcmp(a->argv, b->argv, a->argv_len) == 0 &&
	       a->argv_cut == b->argv_cut && a->path_len == b->path_len &&
	       a->to_len == b->to_len && a->argv_cut_len == b->argv_cut_len;
}

/* The kinds every program makes by the thousand: a read-only open, a
 * mapping, any other call let through.  The rest carry intent. */
static int flood_kind(const struct sbx_event *e)
{
	if (e->answer != SBX_ANS_ALLOW)
		return 0;
	switch (e->kind) {
	case SBX_EV_OPEN:
		return !(e->flags & (O_WRONLY | O_RDWR | O_CREAT | O_TRUNC));
	case SBX_EV_MMAP:
	case SBX_EV_PROTECT:
	case SBX_EV_SYSCALL:
		return 1;
	default:
		return 0;
	}
}

#define EVLOG_MAX                                                              \
	(SBX_FLOOD_BYTES + SBX_INTENT_BYTES + SBX_SAMPLE_BYTES + SBX_KEEP_BYTES)

/* Grows l to take a record of size bytes; 0 or -1. */
static int grow(struct sbx_evlog *l, size_t size)
{
	if (l->n == l->cap) {
		size_t cap = l->cap ? l->cap * 2 : 64;
		size_t *p = realloc(l->off, cap * sizeof *p);
		if (!p)
			return -1;
		l->off = p;
		l->cap = cap;
	}
	if (l->len + size > l->size) {
		size_t want = l->size ? l->size * 2 : 16384;
		unsigned char *p;
		while (want < l->len + size)
			want *= 2;
		if (want > EVLOG_MAX) /* the budgets' sum: no more is kept */
			want = EVLOG_MAX;
		p = realloc(l->buf, want);
		if (!p)
			return -1;
		l->buf = p;
		l->size = want;
	}
	return 0;
}

/* The directory an event's path names ("" for a kind with no path, or a
 * path with no '/'), into dir (SBX_EVENT_PATH bytes). */
static void dir_of(const struct sbx_event *e, char *dir)
{
	const char *slash;
	size_t n;
	dir[0] = '\0';
	if (e->kind != SBX_EV_OPEN && e->kind != SBX_EV_EXEC &&
	    e->kind != SBX_EV_DELETE && e->kind != SBX_EV_RENAME &&
	    e->kind != SBX_EV_ATTRIBUTE)
		return;
	slash = strrchr(e->path, '/');
	if (!slash)
		return;
	n = slash == e->path ? 1 : (size_t)(slash - e->path);
	memcpy(dir, e->path, n);
	dir[n] = '\0';
}

/* Summarises e: in the summary of its kind, answer and directory, a new
 * one while there is room (returned); else counted as lost, by kind
 * (NULL). */
static struct sbx_agg *summarise(struct sbx_evlog *l, const struct sbx_event *e)
{
	char dir[SBX_EVENT_PATH];
	struct sbx_agg *a = NULL;
	dir_of(e, dir);
	for (size_t i = l->nagg; i-- > 0 && !a;)
		if (l->agg[i].kind == e->kind &&
		    l->agg[i].answer == e->answer &&
		    strcmp(l->agg[i].dir, dir) == 0)
			a = &l->agg[i];
	if (!a && l->nagg < SBX_AGGS) {
		struct sbx_agg *p = realloc(l->agg, (l->nagg + 1) * sizeof *p);
		if (p) {
			l->agg = p;
			a = &l->agg[l->nagg++];
			memset(a, 0, sizeof *a);
			a->kind = e->kind;
			a->answer = e->answer;
			memcpy(a->dir, dir, sizeof dir);
			a->first = *e;
		}
	}
	if (!a) {
		l->lost[e->kind >= 0 && e->kind < SBX_EV_COUNT
			    ? e->kind
			    : SBX_EV_SYSCALL]++;
		return NULL;
	}
	a->count++;
	a->last = *e;
	l->summarised++;
	return a;
}

void sbx_evlog_add(struct sbx_evlog *l, const struct sbx_event *e)
{
	int flood = flood_kind(e);
	size_t size, *used, budget;

	if (l->have_last && same_event(&l->last, e)) {
		l->last.count++;
		memcpy(l->buf + l->off[l->n - 1] +
			   offsetof(struct sbx_event, count),
		       &l->last.count, sizeof l->last.count);
		return;
	}
	size = rec_size(e);
	used = e->keep ? &l->kept : flood ? &l->flood : &l->intent;
	budget = e->keep ? SBX_KEEP_BYTES
		 : flood ? SBX_FLOOD_BYTES
			 : SBX_INTENT_BYTES;
	if (*used + size > budget) {
		/* past the budget: summarised, and the first few of each
		 * summary kept whole all the same (a read of /etc/shadow after
		 * a flood of /tmp is one of the first of /etc's) */
		struct sbx_event c = *e;
		struct sbx_agg *a;
		c.count = 1;
		l->have_last = 0;
		a = summarise(l, &c);
		if (!a || a->samples >= SBX_SAMPLES ||
		    l->sampled + size > SBX_SAMPLE_BYTES)
			return;
		a->samples++;
		used = &l->sampled;
	}
	if (grow(l, size) < 0) {
		l->nomem++;
		l->have_last = 0;
		return;
	}
	l->last = *e;
	l->last.count = 1;
	l->have_last = 1;
	l->off[l->n++] = l->len;
	encode(&l->last, l->buf + l->len);
	l->len += size;
	*used += size;
}
