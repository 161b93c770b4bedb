/* SPDX-License-Identifier: MIT */
/*
 * sbx.h: the internal interface shared by the Lua-facing files of sbx.core.
 *
 * The Lua-facing files (spec.c, mount.c, ns.c, caps.c, limit.c, filter.c,
 * landlock.c, ...) validate a spec and compile it into a struct sbx_plan
 * (plan.h) before any clone.  child.c runs the plan between clone and
 * execve with raw system calls only; the supervisor (super.h) runs the event
 * loop in the sbxlua process over struct sbx_job (job.h).  This header includes
 * both, and declares what the Lua-facing files share.
 */
#ifndef SBX_H
#define SBX_H

#include <lauxlib.h>
#include <linux/filter.h>
#include <lua.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/resource.h>
#include <sys/types.h>
#include <termios.h>

/* the file VERSION, passed by make (-DSBX_VERSION) */
#ifndef SBX_VERSION
#error "SBX_VERSION is not defined: build with make (it passes VERSION)"
#endif

#include "plan.h"

#include "job.h"
#include "notify.h"

/* ---- file.c: host files held by descriptor ---- */
#define SBX_FILE "sbx.file"
/* An input opened once by the supervisor (a checked regular file, or the
 * caller's own stdin as a stream); its name is user value 1. */
struct sbx_file {
	int fd;	    /* -1 once closed */
	int stream; /* read in sequence (the caller's stdin), not from 0 */
};

/* ---- spec.c, box.c: the sbx.box object ---- */
#define SBX_BOX "sbx.box"
/* A compiled spec (spec.c), run by box.c. */
struct sbx_box {
	struct sbx_plan plan;
	struct sbx_io io;
	const struct sbx_file *in_file; /* stdin, an sbx.file kept alive by
					   the anchor; dup'ed at each run */
	int closed;
	int has_filter;
	struct sbx_notify_spec nspec; /* the explain channel's table */
	int rule; /* index in the anchor of the spec's rule; 0: none */
};

struct stat;
/* fs.c: pushes { type, mode, uid, gid, size } */
SBX_LOCAL void sbx_push_stat(lua_State *L, const struct stat *st);
/* fs.c: sets mode (the permission bits), uid and gid of the table on top */
SBX_LOCAL void sbx_set_owner(lua_State *L, const struct stat *st);
struct sbx_hash_hex;
/* a digest set's fields into the table on top (core/api/fs.c) */
SBX_LOCAL void sbx_push_hashes(lua_State *L, const struct sbx_hash_hex *h);

/* ---- shared helpers (util.c) ---- */
SBX_LOCAL int sbx_fail(lua_State *L, const char *what, const char *operand,
		       int err);
SBX_LOCAL const char *sbx_errno_name(int err);
SBX_LOCAL const char *sbx_signal_name(int sig);
SBX_LOCAL const char *sbx_stage_name(int stage);
SBX_LOCAL void sbx_check_keys(lua_State *L, int idx, int arg,
			      const char *const *keys);
SBX_LOCAL int sbx_opt_bool(lua_State *L, int idx, const char *k, int def);
SBX_LOCAL lua_Integer sbx_opt_int(lua_State *L, int idx, const char *k,
				  lua_Integer def, lua_Integer min,
				  lua_Integer max);
SBX_LOCAL const char *sbx_opt_str(lua_State *L, int idx, const char *k,
				  const char *def);
/* t[k] = v for the table on top; set_text: only a string not empty */
SBX_LOCAL void sbx_set_int(lua_State *L, const char *k, lua_Integer v);
SBX_LOCAL void sbx_set_num(lua_State *L, const char *k, lua_Number v);
SBX_LOCAL void sbx_set_bool(lua_State *L, const char *k, int v);
SBX_LOCAL void sbx_set_str(lua_State *L, const char *k, const char *v);
SBX_LOCAL void sbx_set_text(lua_State *L, const char *k, const char *s);
SBX_LOCAL lua_Integer sbx_check_list(lua_State *L, lua_Integer max,
				     const char *msg);
SBX_LOCAL void *sbx_anchor(lua_State *L, int anchor, size_t size);
SBX_LOCAL const char *sbx_anchor_str(lua_State *L, int anchor, int idx);
SBX_LOCAL void sbx_anchor_value(lua_State *L, int anchor, int idx);
SBX_LOCAL void sbx_new_class(lua_State *L, const char *name,
			     const luaL_Reg *meta, const luaL_Reg *methods);
SBX_LOCAL void sbx_new_closable(lua_State *L, const char *name,
				lua_CFunction close, lua_CFunction tostring,
				const luaL_Reg *methods);

/* ---- per-area registration ---- */
SBX_LOCAL void sbx_open_util(lua_State *L);
SBX_LOCAL void sbx_open_ns(lua_State *L);
SBX_LOCAL void sbx_open_mount(lua_State *L);
SBX_LOCAL void sbx_open_caps(lua_State *L);
SBX_LOCAL void sbx_open_limit(lua_State *L);
SBX_LOCAL void sbx_open_filter(lua_State *L);
SBX_LOCAL void sbx_open_landlock(lua_State *L);
SBX_LOCAL void sbx_open_spec(lua_State *L);
SBX_LOCAL void sbx_open_box(lua_State *L);
SBX_LOCAL void sbx_open_fs(lua_State *L);
SBX_LOCAL void sbx_open_json(lua_State *L);
SBX_LOCAL void sbx_open_file(lua_State *L);
SBX_LOCAL void sbx_open_walk(lua_State *L);
SBX_LOCAL void sbx_open_chunk(lua_State *L);
SBX_LOCAL void sbx_open_cgroup(lua_State *L);
SBX_LOCAL void sbx_open_sample(lua_State *L);
SBX_LOCAL void sbx_open_worker(lua_State *L);

/* sample_lua.c: pushes a sample as the table core.sample returns */
SBX_LOCAL void sbx_push_sample(lua_State *L, const struct sbx_sample *s);

/* chunk.c: the compiled-chunk loader.  sbx_chunk_setup takes dir as the
 * directory of entries when it is fit to trust, makes package.searchers[2]
 * load through it, and pushes the table of the paths loaded compiled;
 * sbx_chunk_load loads the Lua file at path as luaL_loadfilex does, from
 * its entry when a sound one matches it. */
SBX_LOCAL void sbx_chunk_setup(lua_State *L, const char *dir);
SBX_LOCAL int sbx_chunk_load(lua_State *L, const char *path);

/* ns.c */
SBX_LOCAL uint64_t sbx_ns_flags(lua_State *L, int idx);
/* mount.c: parse spec.mounts (a list) into an anchored array in p; raises
 * on misuse; returns 0, or -errno with *bad = the host path that could not
 * be resolved */
SBX_LOCAL int sbx_mounts_parse(lua_State *L, int idx, int anchor,
			       struct sbx_plan *p, const char **bad);
/* mount.c: checks that a path inside the box is absolute and clean */
SBX_LOCAL const char *sbx_check_boxpath(lua_State *L, int idx,
					const char *what);
/* limit.c: parse spec.rlimits (a table name -> number) */
SBX_LOCAL void sbx_rlimits_parse(lua_State *L, int idx, struct sbx_plan *p);
/* limit.c: parse spec.sysctl (a table "user.NAME" or "kernel.shmmax"...
 * -> integer); *ipc: one of the IPC namespace's is named */
SBX_LOCAL void sbx_sysctls_parse(lua_State *L, int idx, int anchor,
				 struct sbx_plan *p, int *ipc);
/* caps.c */
SBX_LOCAL int sbx_last_cap(void);
/* filter.c: the compiled program of an sbx.filter at idx (raises) */
SBX_LOCAL const struct sock_fprog *sbx_filter_prog(lua_State *L, int idx);
/* filter.c: whether the filter at idx notifies, and its errno table */
SBX_LOCAL void sbx_filter_notify(lua_State *L, int idx,
				 struct sbx_notify_spec *s);
/* landlock.c: parse spec.landlock into p->landlock (raises) */
SBX_LOCAL void sbx_landlock_parse(lua_State *L, int idx, int anchor,
				  struct sbx_landlock *ll);

/* capture_lua.c: parse spec.capture into b (its keep directory made or taken:
 * -errno and *bad when it cannot be); the record into the result (the
 * supervisor's side: capture.h) */
SBX_LOCAL int sbx_capture_parse(lua_State *L, int idx, int anchor,
				struct sbx_box *b, const char **bad);
SBX_LOCAL void sbx_capture_push(lua_State *L, const struct sbx_capstate *cs);

/* magic_lua.c: sbx.core.filetype and sbx.core.inspect_worker (the
 * inspection worker, core/super/inspect.h) */
SBX_LOCAL void sbx_open_magic(lua_State *L);

/* event.c: pushes one event as a Lua table (the schema of lua-api.md);
 * a box's rule, the function at idx of L, as the explain channel's rule
 * (struct sbx_notify, with a struct sbx_lua_rule as its context) */
SBX_LOCAL void sbx_push_event(lua_State *L, const struct sbx_event *e);
/* event.c: the run's events (a list), its summaries of the events past their
 * budgets ({kind, answer, dir, count, first, last}) and the events lost
 * past the summaries ({kind = count}, "memory": not kept for memory). */
SBX_LOCAL void sbx_push_events(lua_State *L, const struct sbx_notify *n);
SBX_LOCAL void sbx_push_summaries(lua_State *L, const struct sbx_evlog *l);
SBX_LOCAL void sbx_push_lost(lua_State *L, const struct sbx_evlog *l);
/* The interpreters' scripts (script.c), a list of {pid, image, language,
 * source, sha256, size, cut, text, same}: a text seen before in the run
 * is "" and same the index of the entry that holds it; the relays still
 * open are ended first (the run is over). */
SBX_LOCAL void sbx_push_scripts(lua_State *L, struct sbx_scripts *c);
struct sbx_lua_rule {
	lua_State *L;
	int idx;
};
SBX_LOCAL int sbx_lua_rule(void *ctx, const struct sbx_event *e, char *error,
			   size_t size);

/* sink_lua.c: spec key `sink` of the table at 1 into p (raises on a bad
 * field); the result's `sink` list (and `sink_dropped`) into the table on
 * top of the stack */
SBX_LOCAL void sbx_sink_spec(lua_State *L, struct sbx_sink_plan *p, int anchor);
SBX_LOCAL void sbx_open_sink(lua_State *L);
SBX_LOCAL void sbx_sink_push(lua_State *L, const struct sbx_sink *s);

SBX_API int luaopen_sbx_core(lua_State *L);

#endif
