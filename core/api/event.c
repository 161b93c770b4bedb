/* SPDX-License-Identifier: MIT */
/*
 * event.c: the explain channel's Lua side.  An event (notify.h) as the
 * Lua table of lua-api.md, and a box's Lua rule as the channel's rule
 * callback: box.c installs it with the rule function on the stack while
 * the jobs run, so that the supervisor (loop.c, notify.c) calls a C
 * function and never Lua.
 */
#include "sbx.h"

#include <limits.h>
#include <seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/syscall.h>

/* What every event says: its kind, process and parent, time, answer and
 * call. */
static void push_event_call(lua_State *L, const struct sbx_event *e,
			    const char *sc)
{
	sbx_set_str(L, "kind", sbx_event_kind(e->kind));
	if (e->pid)
		sbx_set_int(L, "pid", e->pid);
	sbx_set_int(L, "ppid", e->ppid); /* 0: outside the box, or unknown */
	sbx_set_int(L, "time_ms", (lua_Integer)e->time_ms);
	sbx_set_str(L, "answer", sbx_answer_name(e->answer));
	sbx_set_str(L, "syscall", sc);
	sbx_set_int(L, "nr", e->nr);
	if (e->answer == SBX_ANS_DENY && e->err)
		sbx_set_str(L, "errno", sbx_errno_name(e->err));
	if (e->path[0])
		sbx_set_str(L, "path", e->path);
	if (e->path_len)
		sbx_set_int(L, "path_cut", (lua_Integer)e->path_len);
	if (e->to[0])
		sbx_set_str(L, e->kind == SBX_EV_EXEC ? "cwd" : "to", e->to);
	if (e->to_len)
		sbx_set_int(L, e->kind == SBX_EV_EXEC ? "cwd_cut" : "to_cut",
			    (lua_Integer)e->to_len);
}

/* The fields of the kinds that have flags, sizes or a signal. */
static void push_event_args(lua_State *L, const struct sbx_event *e)
{
	if (e->kind == SBX_EV_OPEN || e->kind == SBX_EV_CLONE ||
	    e->kind == SBX_EV_PTRACE ||
	    ((e->kind == SBX_EV_DELETE || e->kind == SBX_EV_RENAME) &&
	     e->flags))
		sbx_set_int(L, "flags", (lua_Integer)e->flags);
	if (e->kind == SBX_EV_CLONE)
		sbx_set_bool(L, "namespaces", e->ns != 0);
	if (e->kind == SBX_EV_MMAP || e->kind == SBX_EV_PROTECT) {
		sbx_set_int(L, "size", (lua_Integer)e->size);
		sbx_set_int(L, "prot", (lua_Integer)e->flags);
	}
	if (e->kind == SBX_EV_MEMFD)
		sbx_set_int(L, "flags", (lua_Integer)e->flags);
	if (e->kind == SBX_EV_SYSCALL && e->nr == SYS_mknod)
		sbx_set_int(L, "mode", (lua_Integer)e->flags);
	if (e->kind == SBX_EV_SIGNAL) {
		sbx_set_int(L, "target", (lua_Integer)e->target);
		sbx_set_int(L, "signal", e->sig);
		if (e->sig > 0 && e->sig < 65)
			sbx_set_str(L, "signame", sbx_signal_name(e->sig));
	}
}

/* A network call's address, family and protocol. */
static void push_event_addr(lua_State *L, const struct sbx_event *e)
{
	/* a socket() the profile watches: its family and type, no address */
	if (e->kind == SBX_EV_SYSCALL && e->family)
		sbx_set_str(L, "family",
			    e->family == AF_INET    ? "inet"
			    : e->family == AF_INET6 ? "inet6"
			    : e->family == AF_UNIX  ? "unix"
						    : "other");
	if (e->kind == SBX_EV_SYSCALL && e->socktype == SOCK_RAW)
		sbx_set_str(L, "protocol", "raw");
	/* a call of no kind of its own: its first argument, as auditd's
	 * SYSCALL record has it (syslog's action, a descriptor, a flag) */
	if (e->kind == SBX_EV_SYSCALL)
		sbx_set_int(L, "a0", (lua_Integer)e->a0);
	if (e->addr[0]) {
		sbx_set_str(L, "addr", e->addr);
		sbx_set_str(L, "family",
			    e->family == AF_INET    ? "inet"
			    : e->family == AF_INET6 ? "inet6"
			    : e->family == AF_UNIX  ? "unix"
						    : "other");
	}
	if (e->socktype == SOCK_STREAM || e->socktype == SOCK_DGRAM)
		sbx_set_str(L, "protocol",
			    e->socktype == SOCK_STREAM ? "tcp" : "udp");
}

/* An exec's argv, and the digest of a memfd it ran. */
static void push_event_exec(lua_State *L, const struct sbx_event *e)
{
	int i = 1;

	lua_newtable(L);
	for (size_t o = 0; o < e->argv_len; o += strlen(e->argv + o) + 1)
		lua_pushstring(L, e->argv + o), lua_rawseti(L, -2, i++);
	lua_setfield(L, -2, "argv");
	if (e->argv_cut)
		sbx_set_bool(L, "argv_cut", 1);
	/* the last argument kept cut: its whole length */
	if (e->argv_cut_len)
		sbx_set_int(L, "arg_cut", (lua_Integer)e->argv_cut_len);
	/* the executed file was a memfd (notify.c exec_memfd: from the
	 * descriptor itself, never from the path the program named) */
	if (e->memfd >= 0)
		sbx_set_bool(L, "memfd", 1);
	if (e->sha256[0]) {
		sbx_set_str(L, "sha256", e->sha256);
		sbx_set_int(L, "size", (lua_Integer)e->size);
	}
	if (e->type[0] && e->mime[0]) {
		sbx_set_str(L, "type", e->type);
		sbx_set_str(L, "mime", e->mime);
	}
	/* the file's lookup in the box at the call (notify.c exec_lookup):
	 * "found", or the errno the exec cannot escape */
	if (e->exec_err >= 0)
		sbx_set_str(L, "result",
			    e->exec_err ? sbx_errno_name(e->exec_err)
					: "found");
}

void sbx_push_event(lua_State *L, const struct sbx_event *e)
{
	char sc[64];
	char *name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, e->nr);

	/* copied out of malloc'ed memory before any call that can raise */
	snprintf(sc, sizeof sc, "%s", name ? name : "?");
	free(name);

	lua_createtable(L, 0, 10);
	push_event_call(L, e, sc);
	push_event_args(L, e);
	push_event_addr(L, e);
	if (e->kind == SBX_EV_EXEC)
		push_event_exec(L, e);
	if (e->limit)
		sbx_set_int(L, "limit", (lua_Integer)e->limit);
	if (e->count > 1)
		sbx_set_int(L, "count", (lua_Integer)e->count);
}

void sbx_push_events(lua_State *L, const struct sbx_notify *n)
{
	const struct sbx_evlog *l = &n->log;
	struct sbx_event e;
	lua_createtable(L, l->n > INT_MAX ? INT_MAX : (int)l->n, 0);
	for (size_t i = 0; i < l->n; i++) {
		sbx_evlog_get(l, i, &e);
		const struct sbx_hash_hex *hx = sbx_notify_hashes(n, &e);
		sbx_notify_typed(n, &e);
		sbx_push_event(L, &e);
		if (hx) /* an executed memfd's payload: every hash */
			sbx_push_hashes(L, hx);
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

void sbx_push_summaries(lua_State *L, const struct sbx_evlog *l)
{
	lua_createtable(L, (int)l->nagg, 0);
	for (size_t i = 0; i < l->nagg; i++) {
		const struct sbx_agg *a = &l->agg[i];
		lua_createtable(L, 0, 6);
		sbx_set_str(L, "kind", sbx_event_kind(a->kind));
		sbx_set_str(L, "answer", sbx_answer_name(a->answer));
		if (a->dir[0])
			sbx_set_str(L, "dir", a->dir);
		sbx_set_int(L, "count", (lua_Integer)a->count);
		sbx_set_int(L, "kept",
			    (lua_Integer)a->samples); /* in events too */
		sbx_push_event(L, &a->first);
		lua_setfield(L, -2, "first");
		if (a->count > 1) {
			sbx_push_event(L, &a->last);
			lua_setfield(L, -2, "last");
		}
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

void sbx_push_scripts(lua_State *L, struct sbx_scripts *c)
{
	sbx_script_end(c);
	lua_createtable(L, c->n > INT_MAX ? INT_MAX : (int)c->n, 0);
	for (size_t i = 0; i < c->n; i++) {
		const struct sbx_script *s = &c->s[i];
		const struct sbx_script *t = s->same >= 0 ? &c->s[s->same] : s;
		lua_createtable(L, 0, 9);
		sbx_set_int(L, "pid", s->pid);
		sbx_set_str(L, "image", s->image);
		sbx_set_str(L, "language", s->lang);
		sbx_set_str(L, "source", s->source);
		if (s->sha256[0])
			sbx_set_str(L, "sha256", s->sha256);
		sbx_set_int(L, "size", (lua_Integer)s->size);
		sbx_set_bool(L, "cut", s->cut || t->cut);
		/* a text seen before is the earlier entry's, named once */
		if (s->same >= 0)
			sbx_set_int(L, "same", (lua_Integer)s->same + 1);
		lua_pushlstring(L, s->text ? (const char *)s->text : "",
				s->text ? s->len : 0);
		lua_setfield(L, -2, "text");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

void sbx_push_lost(lua_State *L, const struct sbx_evlog *l)
{
	lua_newtable(L);
	for (int k = 0; k < SBX_EV_COUNT; k++)
		if (l->lost[k])
			sbx_set_int(L, sbx_event_kind(k),
				    (lua_Integer)l->lost[k]);
	if (l->nomem)
		sbx_set_int(L, "memory", (lua_Integer)l->nomem);
}

int sbx_lua_rule(void *ctx, const struct sbx_event *e, char *error, size_t size)
{
	const struct sbx_lua_rule *rule = ctx;
	lua_State *L = rule->L;
	int top = lua_gettop(L), ans = -1;
	lua_pushvalue(L, rule->idx);
	sbx_push_event(L, e);
	if (lua_pcall(L, 1, 1, 0) != LUA_OK) {
		if (!error[0])
			snprintf(error, size, "%s",
				 lua_type(L, -1) == LUA_TSTRING
				     ? lua_tostring(L, -1)
				     : "(error object is not a string)");
		ans = SBX_ANS_STOP;
	} else if (lua_type(L, -1) == LUA_TSTRING) {
		const char *s = lua_tostring(L, -1);
		ans = strcmp(s, "allow") == 0  ? SBX_ANS_ALLOW
		      : strcmp(s, "deny") == 0 ? SBX_ANS_DENY
		      : strcmp(s, "stop") == 0 ? SBX_ANS_STOP
					       : -2;
	} else if (!lua_isnil(L, -1)) {
		ans = -2;
	}
	if (ans == -2) {
		if (!error[0])
			snprintf(error, size,
				 "rule returned %s, not \"allow\", \"deny\", "
				 "\"stop\" or nil",
				 luaL_typename(L, -1));
		ans = SBX_ANS_STOP;
	}
	lua_settop(L, top);
	return ans;
}
