/* SPDX-License-Identifier: MIT */
/*
 * inspect_yara.c: libyara in the inspection worker (inspect.h): the
 * operator's YARA rules compiled in a child of their own, and box-made
 * bytes scanned by the confined worker, never in sbxlua.
 *
 * libyara is opened by dlopen, by the path the build found (never
 * searched for by name), in those two processes alone: sbxlua holds the
 * compiled rules as opaque bytes (yr_rules_save_stream's) and never maps
 * the library.  The worker loads them (yr_rules_load_stream, from the
 * memory it inherited at its fork) before it locks itself down; a scan
 * then needs memory and the clock only.
 *
 * A scan's matches are written as lines of text, tab-separated, each
 * field escaped (\t, \n, \\ and any byte outside printable ASCII as \xHH):
 *   rule NAMESPACE NAME TAGS      (tags space-separated)
 *   meta KEY i|s|b VALUE
 *   string IDENTIFIER OFFSET      (at most SBX_YARA_OFFSETS per rule)
 *   more N                        (the string matches of the rule left out)
 *   cut                           (the text was full: rules left out)
 * bounded by the answer's text (SBX_YARA_TEXT): what does not fit is
 * said, never dropped silently.
 */
#include "inspect.h"

#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <yara.h>

#ifndef SBX_LIBYARA
#define SBX_LIBYARA "/usr/lib/x86_64-linux-gnu/libyara.so.9"
#endif

static struct {
	int (*init)(void);
	int (*compiler_create)(YR_COMPILER **);
	void (*set_callback)(YR_COMPILER *, YR_COMPILER_CALLBACK_FUNC, void *);
	void (*set_include)(YR_COMPILER *, YR_COMPILER_INCLUDE_CALLBACK_FUNC,
			    YR_COMPILER_INCLUDE_FREE_FUNC, void *);
	int (*add_string)(YR_COMPILER *, const char *, const char *);
	int (*get_rules)(YR_COMPILER *, YR_RULES **);
	int (*save_stream)(YR_RULES *, YR_STREAM *);
	int (*load_stream)(YR_STREAM *, YR_RULES **);
	int (*scan_mem)(YR_RULES *, const uint8_t *, size_t, int,
			YR_CALLBACK_FUNC, void *, int);
} yr;

int sbx_yara_open(void)
{
	void *h = dlopen(SBX_LIBYARA, RTLD_NOW | RTLD_LOCAL);
	if (!h)
		return -ELIBACC;
#define SYM(f, n) yr.f = (__typeof__(yr.f))dlsym(h, n)
	SYM(init, "yr_initialize");
	SYM(compiler_create, "yr_compiler_create");
	SYM(set_callback, "yr_compiler_set_callback");
	SYM(set_include, "yr_compiler_set_include_callback");
	SYM(add_string, "yr_compiler_add_string");
	SYM(get_rules, "yr_compiler_get_rules");
	SYM(save_stream, "yr_rules_save_stream");
	SYM(load_stream, "yr_rules_load_stream");
	SYM(scan_mem, "yr_rules_scan_mem");
#undef SYM
	if (!yr.init || !yr.compiler_create || !yr.set_callback ||
	    !yr.set_include || !yr.add_string || !yr.get_rules ||
	    !yr.save_stream || !yr.load_stream || !yr.scan_mem)
		return -ELIBBAD;
	return yr.init() == ERROR_SUCCESS ? 0 : -ENOMEM;
}

/* ---- compiling ---- */

struct errs {
	const char *name; /* the source being added */
	char *buf;
	size_t cap, len;
};

static void on_error(int level, const char *file, int line, const YR_RULE *r,
		     const char *msg, void *ud)
{
	struct errs *e = ud;
	int n;
	(void)file;
	(void)r;
	if (level != YARA_ERROR_LEVEL_ERROR || e->len + 1 >= e->cap)
		return;
	n = snprintf(e->buf + e->len, e->cap - e->len, "%s%s:%d: %s",
		     e->len ? "; " : "", e->name, line, msg);
	if (n > 0)
		e->len += (size_t)n < e->cap - e->len ? (size_t)n
						      : e->cap - e->len - 1;
}

/* includes are refused: every file a rule set reads is named by the
 * operator and checked by sbxlua (sbx.yara) */
static const char *no_include(const char *name, const char *from,
			      const char *ns, void *ud)
{
	(void)name;
	(void)from;
	(void)ns;
	(void)ud;
	return NULL;
}

struct sink {
	unsigned char *p;
	size_t len, cap;
};

static size_t sink_write(const void *ptr, size_t size, size_t count, void *ud)
{
	struct sink *s = ud;
	size_t n = size * count;
	if (size && n / size != count)
		return 0;
	if (s->len + n > s->cap) {
		size_t cap = s->cap ? s->cap : 65536;
		unsigned char *p;
		while (cap < s->len + n)
			cap *= 2;
		if (cap > SBX_YARA_RULES_MAX || !(p = realloc(s->p, cap)))
			return 0;
		s->p = p;
		s->cap = cap;
	}
	memcpy(s->p + s->len, ptr, n);
	s->len += n;
	return count;
}

int sbx_yara_compile(const struct sbx_yara_source *src, size_t n,
		     unsigned char **blob, size_t *len, char *err, size_t cap)
{
	struct errs e = {NULL, err, cap, 0};
	struct sink s = {NULL, 0, 0};
	YR_STREAM st = {&s, NULL, sink_write};
	YR_COMPILER *c = NULL;
	YR_RULES *rules = NULL;
	err[0] = '\0';
	if (yr.compiler_create(&c) != ERROR_SUCCESS)
		return -ENOMEM;
	yr.set_callback(c, on_error, &e);
	yr.set_include(c, no_include, NULL, NULL);
	for (size_t i = 0; i < n; i++) {
		e.name = src[i].name;
		if (yr.add_string(c, src[i].text, src[i].ns) != 0)
			return -EINVAL; /* the process ends: nothing freed */
	}
	if (yr.get_rules(c, &rules) != ERROR_SUCCESS)
		return -ENOMEM;
	if (yr.save_stream(rules, &st) != ERROR_SUCCESS)
		return -EFBIG;
	*blob = s.p;
	*len = s.len;
	return 0;
}

/* ---- loading and scanning (the worker) ---- */

struct source {
	const unsigned char *p;
	size_t len, off;
};

static size_t source_read(void *ptr, size_t size, size_t count, void *ud)
{
	struct source *s = ud;
	size_t want = size * count;
	if (!size || want / size != count || want > s->len - s->off)
		return 0;
	memcpy(ptr, s->p + s->off, want);
	s->off += want;
	return count;
}

int sbx_yara_load(const void *blob, size_t len, void **rules)
{
	struct source s = {blob, len, 0};
	YR_STREAM st = {&s, source_read, NULL};
	YR_RULES *r = NULL;
	if (yr.load_stream(&st, &r) != ERROR_SUCCESS)
		return -EINVAL;
	*rules = r;
	return 0;
}

struct out {
	char *p;
	size_t cap, len;
	int cut;
};

/* appends to o, or marks it cut (room kept for the "cut" line) */
static int put(struct out *o, const char *fmt, ...)
{
	va_list ap;
	int n;
	if (o->cut)
		return -1;
	va_start(ap, fmt);
	n = vsnprintf(o->p + o->len, o->cap - o->len - 8, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= o->cap - o->len - 8) {
		o->p[o->len] = '\0';
		o->cut = 1;
		return -1;
	}
	o->len += (size_t)n;
	return 0;
}

/* s escaped into buf (cap bytes) */
static const char *esc(const char *s, char *buf, size_t cap)
{
	size_t j = 0;
	for (; s && *s && j + 5 < cap; s++) {
		unsigned char c = (unsigned char)*s;
		if (c == '\\' || c < 0x20 || c > 0x7e)
			j += (size_t)snprintf(buf + j, cap - j, "\\x%02x", c);
		else
			buf[j++] = (char)c;
	}
	buf[j] = '\0';
	return buf;
}

static void put_rule(struct out *o, YR_SCAN_CONTEXT *ctx, YR_RULE *rule)
{
	char a[256], b[256], tags[512];
	const char *tag;
	YR_META *m;
	YR_STRING *s;
	size_t t = 0;
	tags[0] = '\0';
	yr_rule_tags_foreach(rule, tag)
	{
		if (t + strlen(tag) + 2 < sizeof tags)
			t += (size_t)snprintf(tags + t, sizeof tags - t, "%s%s",
					      t ? " " : "", tag);
	}
	put(o, "rule\t%s\t%s\t%s\n", esc(rule->ns->name, a, sizeof a),
	    esc(rule->identifier, b, sizeof b), esc(tags, tags, sizeof tags));
	yr_rule_metas_foreach(rule, m)
	{
		if (m->type == META_TYPE_STRING)
			put(o, "meta\t%s\ts\t%s\n",
			    esc(m->identifier, a, sizeof a),
			    esc(m->string, b, sizeof b));
		else
			put(o, "meta\t%s\t%c\t%lld\n",
			    esc(m->identifier, a, sizeof a),
			    m->type == META_TYPE_BOOLEAN ? 'b' : 'i',
			    (long long)m->integer);
	}
	t = 0;
	yr_rule_strings_foreach(rule, s)
	{
		YR_MATCH *match;
		yr_string_matches_foreach(ctx, s, match)
		{
			if (t++ < SBX_YARA_OFFSETS &&
			    put(o, "string\t%s\t%lld\n",
				esc(s->identifier, a, sizeof a),
				(long long)(match->base + match->offset)) < 0)
				return;
		}
	}
	if (t > SBX_YARA_OFFSETS)
		put(o, "more\t%zu\n", t - SBX_YARA_OFFSETS);
}

static int on_scan(YR_SCAN_CONTEXT *ctx, int msg, void *data, void *ud)
{
	if (msg == CALLBACK_MSG_RULE_MATCHING)
		put_rule(ud, ctx, data);
	return CALLBACK_CONTINUE;
}

int sbx_yara_scan(void *rules, const void *buf, size_t len, int timeout,
		  char *text, size_t cap)
{
	struct out o = {text, cap, 0, 0};
	int r;
	text[0] = '\0';
	r = yr.scan_mem(rules, buf, len, 0, on_scan, &o, timeout);
	if (o.cut)
		snprintf(text + o.len, cap - o.len, "cut\n");
	if (r == ERROR_SCAN_TIMEOUT)
		return -ETIME;
	return r == ERROR_SUCCESS ? 0 : -EIO;
}
