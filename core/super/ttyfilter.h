/* SPDX-License-Identifier: MIT */
/*
 * ttyfilter.h: a streaming filter of what a box writes to the caller's
 * terminal (ttyfilter.c).
 */
#ifndef SBX_TTYFILTER_H
#define SBX_TTYFILTER_H

#include <stddef.h>

/* bytes of one control sequence held until its final byte: a longer one
 * is dropped whole */
#define SBX_TTYF_SEQ 128

struct sbx_ttyf {
	unsigned char state;  /* where the parser is (ttyfilter.c) */
	unsigned char utf8;   /* continuation bytes still expected */
	unsigned char c1;     /* the C1 control a sequence began with, or 0 */
	unsigned char n;      /* bytes held in seq */
	unsigned short modes; /* DEC modes the output left set (ttyfilter.c) */
	unsigned char seq[SBX_TTYF_SEQ];
};

void sbx_ttyf_init(struct sbx_ttyf *f);
/* Filters n bytes of in into out, which has room for n + SBX_TTYF_SEQ + 2
 * bytes (a held sequence is written out with the byte that ends it);
 * returns the bytes written.  in and out do not overlap. */
size_t sbx_ttyf_run(struct sbx_ttyf *f, const char *in, size_t n, char *out);
/* At the end of the stream: what is held and harmless (a lone 0xc2) goes
 * to out, then a reset of each DEC mode the stream left set that would
 * outlast it (mouse and focus reports, bracketed paste, the alternate
 * screen, a hidden cursor, application cursor keys); a sequence left
 * unfinished is dropped.  out has room for SBX_TTYF_END bytes. */
#define SBX_TTYF_END 160
size_t sbx_ttyf_end(struct sbx_ttyf *f, char *out);

#endif
