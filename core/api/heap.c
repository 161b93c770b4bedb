/* SPDX-License-Identifier: MIT */
/*
 * heap.c: the interpreter's memory, kept out of the boxes.
 *
 * A box's init is a clone of the supervisor without CLONE_VM: the kernel
 * copies the supervisor's page tables into it and marks every private page
 * copy-on-write, so each page the supervisor writes while the box lives
 * (the Lua it runs for the other boxes of a batch, its garbage collector,
 * malloc's free lists) costs it a fault and a page copy.  Measured on a
 * 200-program batch: 313 faults a box, most of them the Lua heap's.  The
 * box needs nothing of that heap: what it reads is the plan, copied out of
 * it just before the clone (plancopy.c).
 *
 * So sbxlua's Lua state allocates from mappings marked MADV_DONTFORK,
 * which no clone inherits: size classes carved from 1 MiB slabs, each
 * class a free list, and blocks over 64 KiB a mapping of their own.  Freed
 * small blocks are reused, never unmapped.  Under AddressSanitizer the
 * state keeps the C library's allocator, whose errors ASan reports.
 */
#include "heap.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef __SANITIZE_ADDRESS__

#define SLAB ((size_t)1 << 20)
#define SMALL_MAX ((size_t)1 << 16) /* larger blocks: a mapping each */
#define NCLASS (32 + 7 * 4)	    /* 16..512 by 16, then 4 a doubling */
#define PAGE ((size_t)4096)

struct heap {
	void *free[NCLASS]; /* each class's free blocks, linked in place */
	char *next, *end;   /* the slab being carved */
};

static struct heap heap;

/* The class of an n-byte block (0 < n <= SMALL_MAX), and its size. */
static unsigned class_of(size_t n, size_t *size)
{
	unsigned b;
	size_t step, k;

	if (n <= 512) {
		*size = (n + 15) & ~(size_t)15;
		return (unsigned)(*size / 16 - 1);
	}
	b = 63u - (unsigned)__builtin_clzll((unsigned long long)(n - 1));
	step = (size_t)1 << (b - 2); /* 513..1024: 640, 768, 896, 1024 */
	k = (n - 1 - ((size_t)1 << b)) / step;
	*size = ((size_t)1 << b) + (k + 1) * step;
	return 32 + (b - 9) * 4 + (unsigned)k;
}

/* A mapping no clone inherits; NULL when there is none. */
static void *map_private(size_t n)
{
	void *p = mmap(NULL, n, PROT_READ | PROT_WRITE,
		       MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

	if (p == MAP_FAILED)
		return NULL;
	if (madvise(p, n, MADV_DONTFORK) != 0) {
		munmap(p, n);
		return NULL;
	}
	return p;
}

static void *small_alloc(size_t n)
{
	size_t size;
	unsigned c = class_of(n, &size);
	void *p = heap.free[c];

	if (p) {
		memcpy(&heap.free[c], p, sizeof(void *));
		return p;
	}
	if ((size_t)(heap.end - heap.next) < size) {
		/* the rest of the old slab is left unused (under 64 KiB) */
		char *s = map_private(SLAB);
		if (!s)
			return NULL;
		heap.next = s;
		heap.end = s + SLAB;
	}
	p = heap.next;
	heap.next += size;
	return p;
}

static void small_free(void *p, size_t n)
{
	size_t size;
	unsigned c = class_of(n, &size);

	memcpy(p, &heap.free[c], sizeof(void *));
	heap.free[c] = p;
}

static size_t pages(size_t n)
{
	return (n + PAGE - 1) & ~(PAGE - 1);
}

static void *alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	void *p;

	(void)ud;
	if (!ptr)
		osize = 0; /* Lua passes the kind of object then */
	if (nsize == 0) {
		if (ptr && osize > SMALL_MAX)
			munmap(ptr, pages(osize));
		else if (ptr)
			small_free(ptr, osize);
		return NULL;
	}
	if (ptr && osize > SMALL_MAX && nsize > SMALL_MAX) {
		/* the mapping moves with its MADV_DONTFORK */
		p = mremap(ptr, pages(osize), pages(nsize), MREMAP_MAYMOVE);
		return p == MAP_FAILED ? NULL : p;
	}
	if (ptr && osize <= SMALL_MAX && nsize <= SMALL_MAX) {
		size_t os, ns;
		if (class_of(osize, &os) == class_of(nsize, &ns))
			return ptr;
	}
	p = nsize > SMALL_MAX ? map_private(pages(nsize)) : small_alloc(nsize);
	if (!p || !ptr)
		return p;
	memcpy(p, ptr, osize < nsize ? osize : nsize);
	alloc(ud, ptr, osize, 0);
	return p;
}

lua_Alloc sbx_heap_alloc(void)
{
	return alloc;
}

#else /* the C library's allocator, whose errors ASan reports */

static void *libc_alloc(void *ud, void *ptr, size_t osize, size_t nsize)
{
	(void)ud;
	(void)osize;
	if (nsize == 0) {
		free(ptr);
		return NULL;
	}
	return realloc(ptr, nsize);
}

lua_Alloc sbx_heap_alloc(void)
{
	return libc_alloc;
}

#endif
