/* SPDX-License-Identifier: MIT */
/*
 * module.c: luaopen_sbx_core, the one exported symbol.  Each area of the
 * core registers its functions into the module table.
 */
#include "sbx.h"
#include "stamp.h"

int luaopen_sbx_core(lua_State *L)
{
	sbx_stamp_init();
	sbx_stamp(SBX_T_CORE);
	lua_newtable(L);
	sbx_open_util(L);
	sbx_open_ns(L);
	sbx_open_mount(L);
	sbx_open_caps(L);
	sbx_open_limit(L);
	sbx_open_filter(L);
	sbx_open_landlock(L);
	sbx_open_fs(L);
	sbx_open_json(L);
	sbx_open_file(L);
	sbx_open_walk(L);
	sbx_open_cgroup(L);
	sbx_open_sample(L);
	sbx_open_spec(L);
	sbx_open_box(L);
	sbx_open_chunk(L);
	sbx_open_magic(L);
	sbx_open_sink(L);
	sbx_open_worker(L);
	return 1;
}
