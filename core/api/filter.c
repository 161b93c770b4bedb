/* SPDX-License-Identifier: MIT */
/*
 * filter.c: seccomp filters (sbx.filter), compiled with libseccomp.
 *
 * core.filter{default = ACTION, rules = {...}} validates a spec table,
 * compiles it in the calling process into a classic-BPF program and keeps
 * the program in the userdata, so that the box only hands a pointer to
 * seccomp(2) between clone and execve.  The object is immutable once built.
 * The spec language is documented in docs/seccomp.md.
 *
 * Memory: the libseccomp context and the scratch memfd are owned by the
 * userdata from the moment they exist, so a Lua error (which unwinds past
 * any C local) never leaks them; __gc releases both.
 */
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <link.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <seccomp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "fileio.h"
#include "sbx.h"
#include "stamp.h"

#define FILTER_MT "sbx.filter"
#define MAX_CMP 6	   /* a system call has six arguments */
#define MAX_ERRNO_VAL 4095 /* the kernel's MAX_ERRNO */

/* Uservalues of an sbx.filter. */
enum { UV_PROG = 1, UV_SKIPPED = 2, UV_ERRNOS = 3, UV_COUNT = 3 };

struct filter {
	scmp_filter_ctx ctx; /* NULL once closed (or before it is built) */
	int fd;		     /* scratch memfd while exporting, else -1 */
	int notify;	     /* some action is "notify" */
	int exec_notified;   /* execve itself is notified (an event each) */
	int locks;	     /* the program starts with the lock prefix */
	size_t nrules;	     /* rules added (optional ones skipped excluded) */
	/* calls refused with an errno that the supervisor also names
	 * ({errno = E, notify = true}): the errno stays the answer */
	struct sbx_notify_errno *errnos; /* in uservalue UV_ERRNOS */
	size_t nerrnos;
	struct sock_fprog prog; /* .filter points into uservalue UV_PROG */
};

/* One validated rule: everything seccomp_rule_add_array needs. */
struct frule {
	const char *name; /* owned by the spec table, alive for the call */
	int nr;		  /* native syscall number; -1: optional, skipped */
	uint32_t action;
	int nerr; /* {errno = E, notify = true}: E, else 0 */
	unsigned ncmp;
	struct scmp_arg_cmp cmp[MAX_CMP];
};

/* ---- spec parsing: everything here may raise, nothing is acquired ---- */

/* Raise "bad argument #<arg> to 'filter' (<where>: <msg>)". */
static int arg_error(lua_State *L, int arg, const char *where, const char *msg)
{
	if (where != NULL && where[0] != '\0')
		msg = lua_pushfstring(L, "%s: %s", where, msg);
	return luaL_argerror(L, arg, msg);
}

/* The spec is argument 1 of core.filter. */
static int spec_error(lua_State *L, const char *where, const char *fmt, ...)
{
	va_list ap;
	const char *msg;
	va_start(ap, fmt);
	msg = lua_pushvfstring(L, fmt, ap);
	va_end(ap);
	return arg_error(L, 1, where, msg);
}

/*
 * Reject any key of the table at idx that is not in keys (NULL-terminated)
 * and, when seq > 0, any key that is not an integer in 1..seq.  A silently
 * ignored typo in a sandbox spec is a hole, so unknown keys always raise.
 */
static void check_keys(lua_State *L, int idx, const char *const *keys,
		       lua_Integer seq, const char *where)
{
	idx = lua_absindex(L, idx);
	lua_pushnil(L);
	while (lua_next(L, idx) != 0) {
		int ok = 0;

		lua_pop(L, 1);
		if (lua_type(L, -1) == LUA_TSTRING && keys != NULL) {
			const char *k = lua_tostring(L, -1);
			for (size_t i = 0; keys[i] != NULL; i++)
				ok = ok || strcmp(keys[i], k) == 0;
		} else if (lua_isinteger(L, -1) && seq > 0) {
			lua_Integer k = lua_tointeger(L, -1);
			ok = k >= 1 && k <= seq;
		}
		if (!ok) {
			const char *k;
			if (lua_type(L, -1) == LUA_TSTRING)
				k = lua_pushfstring(L, "'%s'",
						    lua_tostring(L, -1));
			else
				k = luaL_tolstring(L, -1, NULL);
			if (where[0] == '\0')
				spec_error(L, NULL, "unknown key %s", k);
			else
				spec_error(L, NULL, "unknown key %s in %s", k,
					   where);
		}
	}
}

/* Push t[k] (raw: a spec's metatable never supplies a field) and its type. */
static int raw_field(lua_State *L, int t, const char *k)
{
	t = lua_absindex(L, t);
	lua_pushstring(L, k);
	return lua_rawget(L, t);
}

/* An errno given as a name ("EPERM") or a number (0..4095). */
static uint32_t check_errno(lua_State *L, int idx, const char *where)
{
	if (lua_type(L, idx) == LUA_TSTRING) {
		const char *name = lua_tostring(L, idx);
		for (int e = 1; e <= MAX_ERRNO_VAL; e++) {
			const char *n = strerrorname_np(e);
			if (n != NULL && strcmp(n, name) == 0)
				return (uint32_t)e;
		}
		spec_error(L, where, "unknown errno '%s'", name);
	} else if (lua_type(L, idx) == LUA_TNUMBER) {
		int isint;
		lua_Integer e = lua_tointegerx(L, idx, &isint);
		if (!isint || e < 0 || e > MAX_ERRNO_VAL)
			spec_error(L, where, "errno out of range 0..%d",
				   MAX_ERRNO_VAL);
		return (uint32_t)e;
	}
	spec_error(L, where, "errno must be a name or a number, got %s",
		   luaL_typename(L, idx));
	return 0;
}

/*
 * An action: "allow", "kill" (the process), "kill_thread", "trap", "log",
 * "notify" or {errno = NAME_OR_NUMBER[, notify = true]}.  The last one
 * (only where nerr is given: a rule's action) is a refusal with that errno
 * that the supervisor names first: compiled to "notify", the errno kept
 * in *nerr for the answer.
 */
static uint32_t check_action(lua_State *L, int idx, const char *where,
			     int *nerr)
{
	static const char *const names[] = {
	    "allow", "kill", "kill_thread", "trap", "log", "notify", NULL};
	static const uint32_t acts[] = {
	    SCMP_ACT_ALLOW, SCMP_ACT_KILL_PROCESS, SCMP_ACT_KILL_THREAD,
	    SCMP_ACT_TRAP,  SCMP_ACT_LOG,	   SCMP_ACT_NOTIFY};
	static const char *const errno_keys[] = {"errno", "notify", NULL};
	uint32_t act;

	idx = lua_absindex(L, idx);
	switch (lua_type(L, idx)) {
	case LUA_TSTRING: {
		const char *s = lua_tostring(L, idx);
		for (size_t i = 0; names[i] != NULL; i++)
			if (strcmp(names[i], s) == 0)
				return acts[i];
		spec_error(L, where, "invalid action '%s'", s);
		break;
	}
	case LUA_TTABLE:
		check_keys(L, idx, errno_keys, 0, where);
		if (raw_field(L, idx, "errno") == LUA_TNIL)
			spec_error(L, where, "action table without 'errno'");
		act = SCMP_ACT_ERRNO(check_errno(L, -1, where));
		lua_pop(L, 1);
		switch (raw_field(L, idx, "notify")) {
		case LUA_TNIL:
			break;
		case LUA_TBOOLEAN:
			if (!lua_toboolean(L, -1))
				break;
			if (nerr == NULL) {
				spec_error(L, where,
					   "'notify' only in a "
					   "rule's action");
				return 0;
			}
			if ((act & SECCOMP_RET_DATA) == 0)
				spec_error(L, where,
					   "'notify' needs a "
					   "nonzero errno");
			*nerr = (int)(act & SECCOMP_RET_DATA);
			act = SCMP_ACT_NOTIFY;
			break;
		default:
			spec_error(L, where, "'notify' must be a boolean");
		}
		lua_pop(L, 1);
		return act;
	default:
		break;
	}
	spec_error(L, where, "action expected, got %s", luaL_typename(L, idx));
	return 0;
}

/* The integer t[i] of a comparison, named what in the message. */
static lua_Integer cmp_int(lua_State *L, int t, int i, const char *what,
			   const char *where)
{
	lua_Integer v;
	int isint;

	lua_rawgeti(L, t, i);
	v = lua_tointegerx(L, -1, &isint);
	if (lua_type(L, -1) != LUA_TNUMBER || !isint)
		spec_error(L, where, "%s must be an integer, got %s", what,
			   luaL_typename(L, -1));
	lua_pop(L, 1);
	return v;
}

/* One comparison {index, op, value[, mask]} of rules[i].args[j]. */
static void check_cmp(lua_State *L, int idx, struct scmp_arg_cmp *c,
		      const char *where)
{
	static const char *const ops[] = {
	    "==", "!=", "<", "<=", ">", ">=", "&==", NULL};
	static const enum scmp_compare cmps[] = {
	    SCMP_CMP_EQ, SCMP_CMP_NE, SCMP_CMP_LT,	 SCMP_CMP_LE,
	    SCMP_CMP_GT, SCMP_CMP_GE, SCMP_CMP_MASKED_EQ};
	lua_Integer v[4] = {0, 0, 0, 0};
	size_t op = 0;
	int masked;

	idx = lua_absindex(L, idx);
	if (lua_type(L, idx) != LUA_TTABLE)
		spec_error(L, where, "table expected, got %s",
			   luaL_typename(L, idx));
	if (lua_rawgeti(L, idx, 2) != LUA_TSTRING)
		spec_error(L, where, "operator expected, got %s",
			   luaL_typename(L, -1));
	while (ops[op] != NULL && strcmp(ops[op], lua_tostring(L, -1)) != 0)
		op++;
	if (ops[op] == NULL)
		spec_error(L, where, "invalid operator '%s'",
			   lua_tostring(L, -1));
	lua_pop(L, 1);
	masked = cmps[op] == SCMP_CMP_MASKED_EQ;
	check_keys(L, idx, NULL, masked ? 4 : 3, where);
	v[0] = cmp_int(L, idx, 1, "argument index", where);
	v[2] = cmp_int(L, idx, 3, "value", where);
	if (masked)
		v[3] = cmp_int(L, idx, 4, "mask", where);
	if (v[0] < 0 || v[0] >= MAX_CMP)
		spec_error(L, where, "argument index must be 0..5");
	c->arg = (unsigned)v[0];
	c->op = cmps[op];
	if (c->op == SCMP_CMP_MASKED_EQ) {
		/* libseccomp: (arg & datum_a) == datum_b */
		c->datum_a = (scmp_datum_t)v[3];
		c->datum_b = (scmp_datum_t)v[2];
	} else {
		c->datum_a = (scmp_datum_t)v[2];
		c->datum_b = 0;
	}
}

/* rules[i].optional: a boolean or nothing. */
static int rule_optional(lua_State *L, int idx, const char *where)
{
	int optional = 0;

	switch (raw_field(L, idx, "optional")) {
	case LUA_TNIL:
		break;
	case LUA_TBOOLEAN:
		optional = lua_toboolean(L, -1);
		break;
	default:
		spec_error(L, where, "'optional' must be a boolean, got %s",
			   luaL_typename(L, -1));
	}
	lua_pop(L, 1);
	return optional;
}

/* rules[i].call into r->name and r->nr; an optional rule's unknown name
 * goes to the table skipped and makes r->nr -1. */
static void rule_call(lua_State *L, int idx, struct frule *r, int optional,
		      int skipped, const char *where)
{
	if (raw_field(L, idx, "call") != LUA_TSTRING)
		spec_error(L, where, "'call' must be a string, got %s",
			   luaL_typename(L, -1));
	/* The string stays alive in the spec table, which is argument 1. */
	r->name = lua_tostring(L, -1);
	lua_pop(L, 1);
	/* Names are resolved for the native ABI only; negative numbers are
	 * libseccomp's pseudo-syscalls of other ABIs (not real calls here). */
	r->nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, r->name);
	if (r->nr < 0) {
		if (!optional)
			spec_error(L, where, "unknown system call '%s'",
				   r->name);
		r->nr = -1;
		lua_pushstring(L, r->name);
		lua_rawseti(L, skipped,
			    (lua_Integer)lua_rawlen(L, skipped) + 1);
	}
}

/* rules[i].args, the table at the top of the stack, into r->cmp. */
static void rule_args(lua_State *L, struct frule *r, const char *where)
{
	lua_Integer nargs = (lua_Integer)lua_rawlen(L, -1);
	char sub[96];

	snprintf(sub, sizeof sub, "%s.args", where);
	check_keys(L, -1, NULL, nargs, sub);
	if (nargs > MAX_CMP)
		spec_error(L, where, "more than %d comparisons", MAX_CMP);
	for (lua_Integer j = 1; j <= nargs; j++) {
		struct scmp_arg_cmp *c = &r->cmp[r->ncmp];
		snprintf(sub, sizeof sub, "%s.args[%lld]", where, (long long)j);
		lua_rawgeti(L, -1, j);
		check_cmp(L, -1, c, sub);
		lua_pop(L, 1);
		/* libseccomp compares each argument once per rule */
		for (unsigned k = 0; k < r->ncmp; k++)
			if (r->cmp[k].arg == c->arg)
				spec_error(L, sub, "argument %d compared twice",
					   (int)c->arg);
		r->ncmp++;
	}
}

/* rules[i]: {call = NAME, action = ACTION, args = {...}, optional = BOOL},
 * every field checked before anything is added to the filter. */
static void check_rule(lua_State *L, int idx, lua_Integer i, uint32_t def,
		       struct frule *r, int skipped)
{
	static const char *const keys[] = {"call", "action", "args", "optional",
					   NULL};
	char where[32], sub[96];
	int optional;

	snprintf(where, sizeof where, "rules[%lld]", (long long)i);
	idx = lua_absindex(L, idx);
	if (lua_type(L, idx) != LUA_TTABLE)
		spec_error(L, where, "table expected, got %s",
			   luaL_typename(L, idx));
	check_keys(L, idx, keys, 0, where);
	optional = rule_optional(L, idx, where);
	rule_call(L, idx, r, optional, skipped, where);

	if (raw_field(L, idx, "action") == LUA_TNIL)
		spec_error(L, where, "missing key 'action'");
	snprintf(sub, sizeof sub, "%s.action", where);
	r->nerr = 0;
	r->action = check_action(L, -1, sub, &r->nerr);
	lua_pop(L, 1);
	if (r->action == def)
		spec_error(L, where, "action is the filter's default action");

	r->ncmp = 0;
	switch (raw_field(L, idx, "args")) {
	case LUA_TNIL:
		break;
	case LUA_TTABLE:
		rule_args(L, r, where);
		break;
	default:
		spec_error(L, where, "'args' must be a table, got %s",
			   luaL_typename(L, -1));
	}
	lua_pop(L, 1);
}

static int same_cmps(const struct frule *a, const struct frule *b)
{
	if (a->ncmp != b->ncmp)
		return 0;
	for (unsigned i = 0; i < a->ncmp; i++) {
		int found = 0;
		for (unsigned j = 0; j < b->ncmp && !found; j++)
			found = a->cmp[i].arg == b->cmp[j].arg &&
				a->cmp[i].op == b->cmp[j].op &&
				a->cmp[i].datum_a == b->cmp[j].datum_a &&
				a->cmp[i].datum_b == b->cmp[j].datum_b;
		if (!found)
			return 0;
	}
	return 1;
}

/*
 * libseccomp lets an unconditional rule swallow every other rule of the same
 * call, whatever their actions, and refuses two rules with the same
 * comparisons; both are spec mistakes, raised here with the rules named.
 */
static void check_conflicts(lua_State *L, const struct frule *r, size_t n)
{
	for (size_t j = 1; j < n; j++)
		for (size_t i = 0; i < j; i++) {
			if (r[i].nr != r[j].nr || r[i].nr < 0 ||
			    r[i].action == r[j].action)
				continue;
			if (r[i].ncmp == 0 || r[j].ncmp == 0 ||
			    same_cmps(&r[i], &r[j]))
				spec_error(L, NULL,
					   "rules[%d] and rules[%d] give '%s' "
					   "two actions",
					   (int)i + 1, (int)j + 1, r[j].name);
		}
}

/* ---- compiling: plain C, no Lua call; returns 0 or -errno ---- */

static void filter_release(struct filter *f)
{
	if (f->fd >= 0)
		close(f->fd);
	f->fd = -1;
	if (f->ctx != NULL)
		seccomp_release(f->ctx);
	f->ctx = NULL;
	f->prog.len = 0;
	f->prog.filter = NULL;
}

/* Build the libseccomp context; on a failed rule, *bad is its index. */

/* Comparison k of a notified refusal, from libseccomp's form. */
static void set_errno_cmp(struct sbx_notify_errno *e, unsigned k,
			  const struct scmp_arg_cmp *c)
{
	e->cmp[k].arg = c->arg;
	e->cmp[k].op = (int)c->op;
	e->cmp[k].a = c->datum_a;
	e->cmp[k].b = c->datum_b;
}

/* A notified refusal the supervisor answers with its errno, under the
 * rule's comparisons (notify.c filter_errno): one entry per rule, in the
 * spec's order (f->errnos has room for every rule, made before the
 * build). */
static void keep_errno(struct filter *f, const struct frule *r)
{
	struct sbx_notify_errno *e = &f->errnos[f->nerrnos++];
	e->nr = r->nr;
	e->err = r->nerr;
	e->ncmp = r->ncmp;
	for (unsigned k = 0; k < r->ncmp; k++)
		set_errno_cmp(e, k, &r->cmp[k]);
}

static int filter_build(struct filter *f, uint32_t def, const struct frule *r,
			size_t n, size_t *bad)
{
	int rc;

	*bad = n;
	f->ctx = seccomp_init(def);
	if (f->ctx == NULL)
		return -ENOMEM;
	/*
	 * Trust boundary: the filter is the box's last wall.  A system call
	 * of any other ABI (the 32-bit int 0x80 ABI on x86-64) kills the
	 * whole process: numbers mean other calls there, so every rule below
	 * could be bypassed.  libseccomp sends x32 numbers (nr >= 0x40000000)
	 * of an x86_64 filter to the same bad-architecture action.
	 * no_new_privs is the box's business (set before Landlock and
	 * seccomp), not the filter's.
	 */
	rc = seccomp_attr_set(f->ctx, SCMP_FLTATR_API_SYSRAWRC, 1);
	if (rc == 0)
		rc = seccomp_attr_set(f->ctx, SCMP_FLTATR_ACT_BADARCH,
				      SCMP_ACT_KILL_PROCESS);
	if (rc == 0)
		rc = seccomp_attr_set(f->ctx, SCMP_FLTATR_CTL_NNP, 0);
	if (rc < 0)
		return rc;
	for (size_t i = 0; i < n; i++) {
		if (r[i].nr < 0)
			continue;
		rc = seccomp_rule_add_array(f->ctx, r[i].action, r[i].nr,
					    r[i].ncmp, r[i].cmp);
		if (rc < 0) {
			*bad = i;
			return rc;
		}
		f->nrules++;
		f->notify = f->notify || r[i].action == SCMP_ACT_NOTIFY;
		f->exec_notified =
		    f->exec_notified ||
		    (r[i].nr == SCMP_SYS(execve) &&
		     r[i].action == SCMP_ACT_NOTIFY && !r[i].nerr);
		if (r[i].nerr)
			keep_errno(f, &r[i]);
	}
	f->notify = f->notify || def == SCMP_ACT_NOTIFY;
	f->exec_notified = f->exec_notified || def == SCMP_ACT_NOTIFY;
	return 0;
}

/* Write the program (bpf) or its text (pfc) to a new memfd kept in f->fd;
 * return its size or -errno. */
static ssize_t filter_export_fd(struct filter *f, int pfc)
{
	struct stat st;
	struct sbx_fsize fs;
	int rc;

	if (f->fd >= 0)
		close(f->fd);
	f->fd =
	    memfd_create(pfc ? "sbx-filter-pfc" : "sbx-filter", MFD_CLOEXEC);
	if (f->fd < 0)
		return -errno;
	/* the caller's file-size limit must not cut the program: a program
	 * as long as the limit may have been cut, and is refused */
	sbx_fsize_lift(&fs);
	rc = pfc ? seccomp_export_pfc(f->ctx, f->fd)
		 : seccomp_export_bpf(f->ctx, f->fd);
	sbx_fsize_restore(&fs);
	if (rc < 0)
		return rc;
	if (fstat(f->fd, &st) < 0)
		return -errno;
	if (fs.hard != RLIM_INFINITY && (rlim_t)st.st_size >= fs.hard)
		return -EFBIG;
	return (ssize_t)st.st_size;
}

/* Read size bytes of f->fd from offset 0 into buf, then close it. */
static int filter_read_fd(struct filter *f, void *buf, size_t size)
{
	ssize_t got = sbx_pread_all(f->fd, buf, size);

	sbx_close_fd(&f->fd);
	if (got < 0)
		return (int)got;
	return (size_t)got == size ? 0 : -EIO;
}

/* ---- the Lua side ---- */

/* Pushes a new filter object, closed (no context, no descriptor, no
 * program) until its owner fills it. */
static struct filter *new_filter(lua_State *L)
{
	struct filter *f = lua_newuserdatauv(L, sizeof *f, UV_COUNT);

	f->ctx = NULL;
	f->fd = -1;
	f->notify = 0;
	f->locks = 0;
	f->nrules = 0;
	f->nerrnos = 0;
	f->errnos = NULL;
	f->exec_notified = 0;
	f->prog.len = 0;
	f->prog.filter = NULL;
	luaL_setmetatable(L, FILTER_MT);
	return f;
}

/*
 * The lock prefix (spec key locks = true): before the rules, flock and
 * fcntl's lock commands of the native ABI go to the supervisor, whatever
 * a rule says of the call (lockguard.c answers them: no lock of the box
 * on a host file).  It comes first so that no profile's rule on flock or
 * fcntl (strict allows both) can meet it in libseccomp's tree: the lock
 * rule has one owner.  Any other call, or another architecture, goes on
 * to the rules' program, which checks the architecture again.  fcntl's
 * command is an unsigned int: its low 32 bits.  F_SETLEASE stays the
 * profiles' (refused, EPERM).
 */
#define LOCK_PREFIX_LEN 11
static const struct sock_filter lock_prefix[LOCK_PREFIX_LEN] = {
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, arch)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, AUDIT_ARCH_X86_64, 0, 9),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_flock, 6, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_fcntl, 0, 6),
    BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETLK, 3, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_SETLKW, 2, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_OFD_SETLK, 1, 0),
    BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, F_OFD_SETLKW, 0, 1),
    BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
};

static int has_lock_prefix(const struct sock_filter *insns, size_t len)
{
	return len > LOCK_PREFIX_LEN &&
	       memcmp(insns, lock_prefix, sizeof lock_prefix) == 0;
}

/* Whether a program starts with the load of the architecture: checked,
 * not assumed, as no rule of a program without it can be trusted. */
static int starts_with_arch(const struct sock_filter *insns)
{
	return insns[0].code == (BPF_LD | BPF_W | BPF_ABS) &&
	       insns[0].k == offsetof(struct seccomp_data, arch);
}

static struct filter *check_filter(lua_State *L, int idx)
{
	struct filter *f = luaL_checkudata(L, idx, FILTER_MT);
	if (f->prog.filter == NULL) /* closed (a program from the cache has
				       no libseccomp context) */
		luaL_error(L, "attempt to use a closed filter");
	return f;
}

/* Close f and return nil, "filter <what>: <strerror>", errno. */
static int filter_fail(lua_State *L, struct filter *f, const char *what,
		       int err)
{
	filter_release(f);
	return sbx_fail(L, "filter", what, err);
}

/* The spec at 1, checked whole (raises on any misuse): its default action
 * into *def, the names of the optional rules that were skipped at 2, its
 * rules at 3 and their validated copy at 4 (Lua memory: nothing leaks),
 * which is returned with their count in *n. */
static struct frule *check_spec(lua_State *L, uint32_t *def, lua_Integer *n,
				int *locks)
{
	static const char *const keys[] = {"default", "rules", "locks", NULL};
	struct frule *rules;

	luaL_checktype(L, 1, LUA_TTABLE);
	lua_settop(L, 1);
	check_keys(L, 1, keys, 0, "");
	if (raw_field(L, 1, "default") == LUA_TNIL)
		spec_error(L, NULL, "missing key 'default'");
	*def = check_action(L, -1, "default", NULL);
	lua_pop(L, 1);
	switch (raw_field(L, 1, "locks")) {
	case LUA_TNIL:
	case LUA_TBOOLEAN:
		*locks = lua_toboolean(L, -1);
		break;
	default:
		spec_error(L, NULL, "'locks' must be a boolean, got %s",
			   luaL_typename(L, -1));
	}
	lua_pop(L, 1);

	*n = 0;
	lua_newtable(L);		    /* 2 */
	switch (raw_field(L, 1, "rules")) { /* 3 */
	case LUA_TNIL:
		break;
	case LUA_TTABLE:
		*n = (lua_Integer)lua_rawlen(L, 3);
		check_keys(L, 3, NULL, *n, "rules");
		break;
	default:
		spec_error(L, NULL, "'rules' must be a table, got %s",
			   luaL_typename(L, 3));
	}
	if ((size_t)*n > SIZE_MAX / sizeof *rules)
		spec_error(L, NULL, "too many rules");
	rules = lua_newuserdatauv(L, (size_t)*n * sizeof *rules + 1, 0); /* 4 */
	for (lua_Integer i = 1; i <= *n; i++) {
		lua_rawgeti(L, 3, i);
		check_rule(L, -1, i, *def, &rules[i - 1], 2);
		lua_pop(L, 1);
	}
	check_conflicts(L, rules, (size_t)*n);
	return rules;
}

/* Compiles the n rules into f (at 5) and keeps the program as its user
 * value: 1 with f, or f closed and the failure triple.  No Lua call until
 * the program's size is known. */
static int filter_compile(lua_State *L, struct filter *f, uint32_t def,
			  const struct frule *rules, size_t n)
{
	struct sock_filter *insns;
	size_t pre = f->locks ? sizeof lock_prefix : 0;
	ssize_t size;
	size_t bad;
	int rc = filter_build(f, def, rules, n, &bad);

	if (rc < 0) {
		char what[96];
		if (bad < n)
			snprintf(what, sizeof what, "rule %s", rules[bad].name);
		else
			snprintf(what, sizeof what, "init");
		return filter_fail(L, f, what, -rc);
	}
	size = filter_export_fd(f, 0);
	if (size < 0)
		return filter_fail(L, f, "export", (int)-size);
	if (size == 0 || size % (ssize_t)sizeof *insns != 0)
		return filter_fail(L, f, "export", EPROTO);
	/* The kernel refuses a longer program; say so here, not in the box. */
	if (((size_t)size + pre) / sizeof *insns > BPF_MAXINSNS)
		return filter_fail(L, f, "export", E2BIG);
	insns = lua_newuserdatauv(L, (size_t)size + pre, 0); /* 6 */
	memcpy(insns, lock_prefix, pre);
	rc = filter_read_fd(f, (char *)insns + pre, (size_t)size);
	if (rc < 0)
		return filter_fail(L, f, "export", -rc);
	if (!starts_with_arch(insns + pre / sizeof *insns))
		return filter_fail(L, f, "export", EPROTO);
	lua_setiuservalue(L, 5, UV_PROG);
	f->prog.filter = insns;
	f->prog.len = (unsigned short)(((size_t)size + pre) / sizeof *insns);
	return 1;
}

/* core.filter(spec) -> sbx.filter | nil, msg, errno: the steps of a
 * Lua-facing function in their prescribed order (arguments, keys, then
 * libseccomp), each failure path closing f. */
static int l_filter(lua_State *L)
{
	struct filter *f;
	struct frule *rules;
	uint32_t def;
	lua_Integer n;
	size_t nerr = 0;
	int r, locks = 0;

	/* 1. Validate the whole spec; raise on any misuse. */
	sbx_stamp(SBX_T_FILTER0);
	rules = check_spec(L, &def, &n, &locks);

	/* 2. The object, closed until built; it owns ctx and fd from now. */
	f = new_filter(L); /* 5 */
	f->locks = locks;
	f->notify = locks; /* the prefix notifies */
	lua_pushvalue(L, 2);
	lua_setiuservalue(L, 5, UV_SKIPPED);
	/* room for every notified refusal (filter_build keeps them) */
	for (lua_Integer i = 0; i < n; i++)
		nerr += rules[i].nerr && rules[i].nr >= 0;
	f->errnos = lua_newuserdatauv(L, nerr * sizeof *f->errnos + 1, 0);
	lua_setiuservalue(L, 5, UV_ERRNOS);

	/* 3. Compile and export. */
	r = filter_compile(L, f, def, rules, (size_t)n);
	if (r == 1)
		sbx_stamp(SBX_T_FILTER1);
	return r;
}

/*
 * The named refusals packed (f:export_refusals(), core.filter_bpf's
 * argument 5): for each, nr and errno as 16-bit words, the count of its
 * comparisons as a byte, then each comparison as the argument's index and
 * libseccomp's operator (a byte each) and its two 64-bit data, in this
 * machine's byte order (a cache entry is keyed on this build).  One string
 * read in C: no Lua table per refusal between the cache and the filter.
 */
#define PACK_HEAD 5
#define PACK_CMP 18

static void pack_errnos(lua_State *L, const struct filter *f)
{
	luaL_Buffer b;
	luaL_buffinit(L, &b);
	for (size_t i = 0; i < f->nerrnos; i++) {
		const struct sbx_notify_errno *e = &f->errnos[i];
		unsigned char h[PACK_HEAD];
		uint16_t nr = (uint16_t)e->nr, err = (uint16_t)e->err;
		memcpy(h, &nr, 2);
		memcpy(h + 2, &err, 2);
		h[4] = (unsigned char)e->ncmp;
		luaL_addlstring(&b, (const char *)h, sizeof h);
		for (unsigned k = 0; k < e->ncmp; k++) {
			unsigned char c[PACK_CMP];
			c[0] = (unsigned char)e->cmp[k].arg;
			c[1] = (unsigned char)e->cmp[k].op;
			memcpy(c + 2, &e->cmp[k].a, 8);
			memcpy(c + 10, &e->cmp[k].b, 8);
			luaL_addlstring(&b, (const char *)c, sizeof c);
		}
	}
	luaL_pushresult(&b);
}

/* The number of records the packed refusals p[0..len) hold; for a
 * truncated one, the most that len could hold (bpf_errnos then says which
 * is malformed). */
static size_t count_refusals(const unsigned char *p, size_t len)
{
	size_t n = 0, at = 0, ncmp;

	while (at < len) {
		if (len - at < PACK_HEAD)
			return len / PACK_HEAD;
		ncmp = p[at + 4];
		at += PACK_HEAD;
		if (ncmp > MAX_CMP || (len - at) / PACK_CMP < ncmp)
			return len / PACK_HEAD;
		at += ncmp * PACK_CMP;
		n++;
	}
	return n;
}

/* The packed refusals of argument 5 into f, at the top of the stack;
 * raises on a malformed one (the bound of each field as core.filter's). */
static void bpf_errnos(lua_State *L, struct filter *f)
{
	size_t len, n = 0, at = 0;
	const unsigned char *p;

	if (lua_isnoneornil(L, 5))
		return;
	p = (const unsigned char *)luaL_checklstring(L, 5, &len);
	/* room for the records there are: room for the most a length could
	 * hold is 32 bytes a packed byte (the default profile's 16 KB of
	 * refusals took half a megabyte of the Lua heap at each start) */
	f->errnos = lua_newuserdatauv(
	    L, count_refusals(p, len) * sizeof *f->errnos + 1, 0);
	lua_setiuservalue(L, -2, UV_ERRNOS);
	while (at < len) {
		struct sbx_notify_errno *e = &f->errnos[n];
		uint16_t nr, err;
		if (len - at < PACK_HEAD)
			luaL_argerror(L, 5, "truncated refusal");
		memcpy(&nr, p + at, 2);
		memcpy(&err, p + at + 2, 2);
		e->ncmp = p[at + 4];
		at += PACK_HEAD;
		if (nr >= 4096 || err == 0 || err > MAX_ERRNO_VAL ||
		    e->ncmp > MAX_CMP || (len - at) / PACK_CMP < e->ncmp)
			luaL_argerror(L, 5,
				      lua_pushfstring(L, "refusal %d malformed",
						      (int)n + 1));
		e->nr = nr;
		e->err = err;
		for (unsigned k = 0; k < e->ncmp; k++, at += PACK_CMP) {
			struct sbx_arg_cmp *c = &e->cmp[k];
			c->arg = p[at];
			c->op = p[at + 1];
			memcpy(&c->a, p + at + 2, 8);
			memcpy(&c->b, p + at + 10, 8);
			if (c->arg >= MAX_CMP || c->op < SCMP_CMP_NE ||
			    c->op > SCMP_CMP_MASKED_EQ)
				luaL_argerror(
				    L, 5,
				    lua_pushfstring(L, "refusal %d malformed",
						    (int)n + 1));
		}
		n++;
	}
	f->nerrnos = n;
}

/*
 * core.filter_bpf(bpf, rules, notify [, exec_notified [, refusals]])
 *   -> sbx.filter
 * A filter from a program f:export() gave (sbx.profile's cache, which
 * checks where it came from): whole 8-byte instructions, at most
 * BPF_MAXINSNS, starting with the load of the architecture as every
 * program of core.filter does.  rules, notify and exec_notified are what
 * f:info() said; refusals is f:export_refusals() (each named
 * refusal with the errno the supervisor answers it with).  It has no libseccomp
 * context: f:dump() fails on it.
 */
static int l_filter_bpf(lua_State *L)
{
	size_t len;
	const char *bpf = luaL_checklstring(L, 1, &len);
	lua_Integer nrules = luaL_checkinteger(L, 2);
	struct sock_filter *insns;
	struct filter *f;

	luaL_checktype(L, 3, LUA_TBOOLEAN);
	lua_settop(L, 5); /* the filter's values go above the arguments */
	if (!lua_isnoneornil(L, 4))
		luaL_checktype(L, 4, LUA_TBOOLEAN);
	luaL_argcheck(L, nrules >= 0, 2, "negative");
	luaL_argcheck(L,
		      len > 0 && len % sizeof *insns == 0 &&
			  len / sizeof *insns <= BPF_MAXINSNS,
		      1, "not a BPF program");
	insns = (struct sock_filter *)(uintptr_t)bpf;
	luaL_argcheck(L, starts_with_arch(insns), 1,
		      "does not start with the architecture's load");
	f = new_filter(L);
	f->notify = lua_toboolean(L, 3);
	f->exec_notified = lua_toboolean(L, 4);
	f->locks = has_lock_prefix(insns, len / sizeof *insns);
	luaL_argcheck(L, f->notify || !f->locks, 3,
		      "the program notifies (its lock prefix)");
	f->nrules = (size_t)nrules;
	bpf_errnos(L, f);
	lua_newtable(L);
	lua_setiuservalue(L, -2, UV_SKIPPED);
	insns = lua_newuserdatauv(L, len, 0);
	memcpy(insns, bpf, len);
	lua_setiuservalue(L, -2, UV_PROG);
	f->prog.filter = insns;
	f->prog.len = (unsigned short)(len / sizeof *insns);
	return 1;
}

/* The GNU build id of the object this code is in (sbxlua, or sbx/core.so),
 * as hex into out (empty when it has none): dl_iterate_phdr's callback. */
struct build_id {
	char out[2 * 64 + 1];
};

static int find_build_id(struct dl_phdr_info *info, size_t size, void *data)
{
	struct build_id *b = data;
	uintptr_t here = (uintptr_t)(void *)find_build_id;
	int mine = 0;
	(void)size;
	for (int i = 0; i < info->dlpi_phnum && !mine; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		uintptr_t lo = info->dlpi_addr + ph->p_vaddr;
		mine = ph->p_type == PT_LOAD && here >= lo &&
		       here < lo + ph->p_memsz;
	}
	for (int i = 0; i < info->dlpi_phnum && mine; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		const char *p = (const char *)(info->dlpi_addr + ph->p_vaddr);
		const char *end = p + ph->p_memsz;
		if (ph->p_type != PT_NOTE)
			continue;
		while (p + sizeof(ElfW(Nhdr)) <= end) {
			const ElfW(Nhdr) *n =
			    (const ElfW(Nhdr) *)(const void *)p;
			const unsigned char *desc = (const unsigned char *)p +
						    sizeof *n +
						    ((n->n_namesz + 3) & ~3u);
			if (n->n_type == NT_GNU_BUILD_ID && n->n_namesz == 4 &&
			    memcmp(p + sizeof *n, "GNU", 4) == 0 &&
			    n->n_descsz <= 64 &&
			    (const char *)desc + n->n_descsz <= end) {
				for (unsigned k = 0; k < n->n_descsz; k++)
					snprintf(b->out + 2 * k, 3, "%02x",
						 desc[k]);
				return 1;
			}
			p = (const char *)desc + ((n->n_descsz + 3) & ~3u);
		}
	}
	return mine;
}

/* core.filter_abi() -> "libseccomp MAJOR.MINOR.MICRO arch 0xAUDIT build
 * HEX": what a compiled program depends on besides its spec (the pointer
 * is libseccomp's own), and the build of this compiler: a cached program
 * is never taken from another build of sbxlua (its tables may differ). */
static int l_filter_abi(lua_State *L)
{
	const struct scmp_version *v = seccomp_version();
	struct build_id b = {{0}};
	char s[256];
	dl_iterate_phdr(find_build_id, &b);
	snprintf(s, sizeof s, "libseccomp %u.%u.%u arch 0x%x build %s",
		 v->major, v->minor, v->micro, (unsigned)seccomp_arch_native(),
		 b.out[0] ? b.out : "unknown");
	lua_pushstring(L, s);
	return 1;
}

/* f:export() -> the BPF program as a string of 8-byte instructions */
static int l_export(lua_State *L)
{
	struct filter *f = check_filter(L, 1);
	lua_pushlstring(L, (const char *)f->prog.filter,
			(size_t)f->prog.len * sizeof *f->prog.filter);
	return 1;
}

/* f:export_refusals() -> the named refusals packed (pack_errnos:
 * core.filter_bpf's argument 5) */
static int l_export_refusals(lua_State *L)
{
	pack_errnos(L, check_filter(L, 1));
	return 1;
}

/* f:dump() -> libseccomp's pseudo-filter-code text | nil, msg, errno */
static int l_dump(lua_State *L)
{
	struct filter *f = check_filter(L, 1);
	luaL_Buffer b;
	ssize_t size;
	char *p;
	int rc;

	lua_settop(L, 1);
	if (f->ctx == NULL) /* a program from the cache: no rules to render */
		return sbx_fail(L, "filter", "dump", EOPNOTSUPP);
	size = filter_export_fd(f, 1);
	if (size < 0) {
		int err = (int)-size;
		if (f->fd >= 0)
			close(f->fd);
		f->fd = -1;
		return sbx_fail(L, "filter", "dump", err);
	}
	/* may raise: f->fd belongs to f, and __gc closes it */
	p = luaL_buffinitsize(L, &b, (size_t)size);
	rc = filter_read_fd(f, p, (size_t)size);
	if (rc < 0)
		return sbx_fail(L, "filter", "dump", -rc);
	luaL_pushresultsize(&b, (size_t)size);
	return 1;
}

/* f:info().refusals: each notified refusal with its comparisons, in the
 * spec's form ({index, op, value[, mask]}). */
static void push_refusals(lua_State *L, const struct filter *f)
{
	static const char *const ops[] = {
	    "",	  "!=", "<", "<=",
	    "==", ">=", ">", "&=="}; /* enum scmp_compare */
	lua_createtable(L, (int)f->nerrnos, 0);
	for (size_t i = 0; i < f->nerrnos; i++) {
		const struct sbx_notify_errno *e = &f->errnos[i];
		lua_createtable(L, 0, 3);
		sbx_set_int(L, "nr", e->nr);
		sbx_set_int(L, "errno", e->err);
		lua_createtable(L, (int)e->ncmp, 0);
		for (unsigned k = 0; k < e->ncmp; k++) {
			const struct sbx_arg_cmp *c = &e->cmp[k];
			int masked = c->op == SCMP_CMP_MASKED_EQ;
			lua_createtable(L, masked ? 4 : 3, 0);
			lua_pushinteger(L, c->arg);
			lua_rawseti(L, -2, 1);
			lua_pushstring(L, c->op > 0 && c->op < 8 ? ops[c->op]
								 : "?");
			lua_rawseti(L, -2, 2);
			lua_pushinteger(L, (lua_Integer)(masked ? c->b : c->a));
			lua_rawseti(L, -2, 3);
			if (masked) {
				lua_pushinteger(L, (lua_Integer)c->a);
				lua_rawseti(L, -2, 4);
			}
			lua_rawseti(L, -2, (lua_Integer)k + 1);
		}
		lua_setfield(L, -2, "args");
		lua_rawseti(L, -2, (lua_Integer)i + 1);
	}
}

/* f:info() -> {insns = N, rules = N, notify = bool, locks = bool,
 * skipped = {names}, ...} */
static int l_info(lua_State *L)
{
	struct filter *f = check_filter(L, 1);
	lua_Integer n;

	lua_createtable(L, 0, 6);
	sbx_set_int(L, "insns", f->prog.len);
	sbx_set_int(L, "rules", (lua_Integer)f->nrules);
	sbx_set_bool(L, "notify", f->notify);
	sbx_set_bool(L, "exec_notified", f->exec_notified);
	sbx_set_bool(L, "locks", f->locks);
	/* {[nr] = errno}: the calls refused with an errno the supervisor
	 * also names ({errno = E, notify = true}) */
	lua_createtable(L, 0, (int)f->nerrnos);
	for (size_t i = f->nerrnos; i-- > 0;) {
		lua_pushinteger(L, f->errnos[i].err); /* the first one holds */
		lua_rawseti(L, -2, f->errnos[i].nr);
	}
	lua_setfield(L, -2, "errnos");
	push_refusals(L, f);
	lua_setfield(L, -2, "refusals");
	lua_getiuservalue(L, 1, UV_SKIPPED);
	n = (lua_Integer)lua_rawlen(L, -1);
	lua_createtable(L, (int)n, 0); /* a copy: the filter stays immutable */
	for (lua_Integer i = 1; i <= n; i++) {
		lua_rawgeti(L, -2, i);
		lua_rawseti(L, -2, i);
	}
	lua_setfield(L, -3, "skipped");
	lua_pop(L, 1);
	return 1;
}

/* Does the caller hold CAP_SYS_ADMIN in its user namespace? */
static int has_sys_admin(void)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof d);
	if (syscall(SYS_capget, &h, d) != 0)
		return 0;
	return (d[CAP_TO_INDEX(CAP_SYS_ADMIN)].effective &
		CAP_TO_MASK(CAP_SYS_ADMIN)) != 0;
}

/* f:load([flags]) -> true | nil, msg, errno; flags: {"tsync", "log", ...} */
static int l_load(lua_State *L)
{
	static const char *const names[] = {"tsync", "log", "spec_allow", NULL};
	static const unsigned long bits[] = {
	    SECCOMP_FILTER_FLAG_TSYNC | SECCOMP_FILTER_FLAG_TSYNC_ESRCH,
	    SECCOMP_FILTER_FLAG_LOG, SECCOMP_FILTER_FLAG_SPEC_ALLOW};
	struct filter *f = check_filter(L, 1);
	unsigned long flags = 0;
	lua_Integer n;

	if (!lua_isnoneornil(L, 2)) {
		luaL_checktype(L, 2, LUA_TTABLE);
		n = (lua_Integer)lua_rawlen(L, 2);
		lua_pushnil(L);
		while (lua_next(L, 2) != 0) {
			lua_pop(L, 1);
			if (!lua_isinteger(L, -1) || lua_tointeger(L, -1) < 1 ||
			    lua_tointeger(L, -1) > n)
				luaL_argerror(L, 2, "flags must be a list");
		}
		for (lua_Integer i = 1; i <= n; i++) {
			size_t k = 0;
			if (lua_rawgeti(L, 2, i) != LUA_TSTRING)
				luaL_argerror(
				    L, 2,
				    lua_pushfstring(L, "flag expected, got %s",
						    luaL_typename(L, -1)));
			while (names[k] != NULL &&
			       strcmp(names[k], lua_tostring(L, -1)) != 0)
				k++;
			if (names[k] == NULL)
				luaL_argerror(
				    L, 2,
				    lua_pushfstring(L, "invalid flag '%s'",
						    lua_tostring(L, -1)));
			flags |= bits[k];
			lua_pop(L, 1);
		}
	}
	/*
	 * Trust boundary: from here on the calling process is restricted for
	 * good, and so is every program it executes.  The kernel accepts a
	 * filter only under no_new_privs or from a holder of CAP_SYS_ADMIN;
	 * without that capability no_new_privs is set first, so that no
	 * set-user-ID program can run with the filter it did not expect.
	 */
	if (!has_sys_admin() && prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) != 0)
		return sbx_fail(L, "filter", "no_new_privs", errno);
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &f->prog) != 0)
		return sbx_fail(L, "filter", "load", errno);
	lua_pushboolean(L, 1);
	return 1;
}

/* f:close(), __gc, __close: idempotent */
static int l_close(lua_State *L)
{
	struct filter *f = luaL_checkudata(L, 1, FILTER_MT);
	filter_release(f);
	lua_pushnil(L);
	lua_setiuservalue(L, 1, UV_PROG);
	return 0;
}

static int l_tostring(lua_State *L)
{
	struct filter *f = luaL_checkudata(L, 1, FILTER_MT);
	if (f->ctx == NULL)
		lua_pushliteral(L, FILTER_MT " (closed)");
	else
		lua_pushfstring(L, FILTER_MT " (%d insns)", (int)f->prog.len);
	return 1;
}

/* core.syscall_name(n) -> name | nil (native ABI) */
static int l_syscall_name(lua_State *L)
{
	lua_Integer n = luaL_checkinteger(L, 1);
	char buf[64];
	char *name;

	luaL_argcheck(L, n >= 0 && n < 0x40000000, 1, "out of range");
	name = seccomp_syscall_resolve_num_arch(SCMP_ARCH_NATIVE, (int)n);
	if (name == NULL) {
		lua_pushnil(L);
		return 1;
	}
	/* copy out of malloc'ed memory before any call that can raise */
	snprintf(buf, sizeof buf, "%s", name);
	free(name);
	lua_pushstring(L, buf);
	return 1;
}

/* core.syscall_number(name) -> n | nil (native ABI) */
static int l_syscall_number(lua_State *L)
{
	const char *name = luaL_checkstring(L, 1);
	int nr = seccomp_syscall_resolve_name_arch(SCMP_ARCH_NATIVE, name);

	if (nr < 0)
		lua_pushnil(L);
	else
		lua_pushinteger(L, nr);
	return 1;
}

const struct sock_fprog *sbx_filter_prog(lua_State *L, int idx)
{
	struct filter *f = luaL_testudata(L, idx, FILTER_MT);

	if (f == NULL) {
		luaL_error(L, FILTER_MT " expected, got %s",
			   luaL_typename(L, idx));
		return NULL;
	}
	if (f->prog.filter == NULL) {
		luaL_error(L, "attempt to use a closed filter");
		return NULL;
	}
	return &f->prog;
}

void sbx_filter_notify(lua_State *L, int idx, struct sbx_notify_spec *s)
{
	struct filter *f = luaL_checkudata(L, idx, FILTER_MT);
	s->on = f->notify;
	s->exec_events = f->exec_notified;
	s->locks = f->locks;
	s->errnos = f->errnos;
	s->nerrnos = f->nerrnos;
}

void sbx_open_filter(lua_State *L)
{
	static const luaL_Reg methods[] = {
	    {"export", l_export}, {"export_refusals", l_export_refusals},
	    {"dump", l_dump},	  {"info", l_info},
	    {"load", l_load},	  {"close", l_close},
	    {NULL, NULL}};
	static const luaL_Reg funcs[] = {{"filter", l_filter},
					 {"filter_bpf", l_filter_bpf},
					 {"filter_abi", l_filter_abi},
					 {"syscall_name", l_syscall_name},
					 {"syscall_number", l_syscall_number},
					 {NULL, NULL}};

	sbx_new_closable(L, FILTER_MT, l_close, l_tostring, methods);
	luaL_setfuncs(L, funcs, 0);
}
