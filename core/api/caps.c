/* SPDX-License-Identifier: MIT */
/*
 * caps.c: capabilities, read through libcap.  The box empties all five sets
 * in child.c with raw calls; here Lua can read the caller's sets, and the
 * plan learns the highest capability the running kernel knows.
 */
#include "sbx.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/capability.h>

/* The highest capability number of the running kernel (libcap asks it). */
int sbx_last_cap(void)
{
	int n = (int)cap_max_bits();
	return n > 0 ? n - 1 : CAP_LAST_CAP;
}

/** core.caps() -> "=ep ..." text of the caller's capability sets, or
 * nil, msg, errno. */
static int l_caps(lua_State *L)
{
	cap_t c = cap_get_proc();
	char *text;
	int e;
	if (!c) {
		e = errno;
		return sbx_fail(L, "cap_get_proc", NULL, e);
	}
	text = cap_to_text(c, NULL);
	e = errno;
	cap_free(c);
	if (!text)
		return sbx_fail(L, "cap_to_text", NULL, e);
	/* copy before pushing: a push may raise and leak libcap's buffer */
	{
		char buf[1024];
		snprintf(buf, sizeof buf, "%s", text);
		cap_free(text);
		lua_pushstring(L, buf);
	}
	return 1;
}

/** core.last_cap() -> highest capability number of the kernel. */
static int l_last_cap(lua_State *L)
{
	lua_pushinteger(L, sbx_last_cap());
	return 1;
}

void sbx_open_caps(lua_State *L)
{
	static const luaL_Reg f[] = {
	    {"caps", l_caps}, {"last_cap", l_last_cap}, {NULL, NULL}};
	luaL_setfuncs(L, f, 0);
}
