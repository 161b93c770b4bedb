/* SPDX-License-Identifier: MIT */
/*
 * kept.h: the supervisor's large buffers, on the heap.
 *
 * A box's init is a clone of the supervisor: each page of its static data
 * and stack that the clone shares is left write-protected here, so the
 * supervisor's next write there costs a fault, box after box (about 11 us
 * each on this machine kind, docs/performance.md).  The C library's heap is
 * kept out of the clone (start.c heap_fork), so a buffer made there once
 * and kept takes no fault after its first use.
 */
#ifndef SBX_KEPT_H
#define SBX_KEPT_H

#include <stdlib.h>

/* The n-byte buffer kept in *slot (made at the first call, NULL before);
 * NULL when there is no memory for it.  One per call site: n never
 * changes for a slot. */
static inline void *sbx_kept(void **slot, size_t n)
{
	if (!*slot)
		*slot = malloc(n);
	return *slot;
}

#endif
