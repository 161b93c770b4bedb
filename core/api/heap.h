/* SPDX-License-Identifier: MIT */
/*
 * heap.h: the Lua state's allocator (heap.c), whose memory no box's clone
 * inherits.
 */
#ifndef SBX_HEAP_H
#define SBX_HEAP_H

#include <lua.h>

/* The allocator for lua_newstate (its ud is unused: NULL). */
lua_Alloc sbx_heap_alloc(void);

#endif
