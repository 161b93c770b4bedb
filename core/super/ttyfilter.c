/* SPDX-License-Identifier: MIT */
/*
 * ttyfilter.c: what a box writes to the caller's terminal, with every
 * control that acts beyond the screen taken out.
 *
 * Trust boundary: the box's output is hostile, the caller's terminal is not
 * the box's.  A terminal does more than draw: an OSC 52 string writes the
 * caller's clipboard; OSC, DCS, APC, PM and SOS strings set or query titles,
 * colours, fonts, hyperlinks, terminal settings (DECRQSS) and images; and a
 * query (DA, DSR/CPR, DECRQM, XTVERSION, a title report, ENQ's answerback,
 * DECID...) makes the terminal type its answer into its own input, which is
 * the box's stdin while the box runs and the caller's shell after it.  So
 * every string is dropped whole, and a control sequence passes only when it
 * is on the list below of those that draw (text, UTF-8, SGR colours, cursor
 * movement, erasing, scrolling, screen modes).  What the terminal receives
 * is only what this parser emitted from its own ground state, so a sequence
 * it drops can leave nothing behind for the terminal to finish.
 *
 * A streaming parser (ECMA-48 / DEC STD 070 shape): a sequence may be split
 * across any number of reads.  A control sequence is held (at most
 * SBX_TTYF_SEQ bytes) until its final byte decides it; C0 controls inside a
 * sequence are passed at once, as a terminal executes them at once.  C1
 * controls count in both forms: raw (0x80-0x9f outside a UTF-8 sequence)
 * and UTF-8 encoded (0xc2 0x80-0x9f), which xterm and VTE obey in UTF-8.
 */
#include "ttyfilter.h"

#include <stdio.h>
#include <string.h>

enum {
	GROUND,
	GROUND_C2, /* a 0xc2 held: it may begin an encoded C1 control */
	ESC,	   /* ESC (and intermediates) held in seq */
	CSI,	   /* a control sequence held in seq */
	CSI_DROP,  /* a control sequence dropped: until its final byte */
	STR,	   /* a string dropped: until ST, BEL, CAN or SUB */
	STR_ESC,   /* ESC in a string: ST if a backslash follows */
	STR_C2,	   /* 0xc2 in a string: ST if 0x9c follows */
};

#define X_ESC 0x1b
#define X_CAN 0x18
#define X_SUB 0x1a
#define X_BEL 0x07
#define X_ENQ 0x05

void sbx_ttyf_init(struct sbx_ttyf *f)
{
	memset(f, 0, sizeof *f);
}

static int in(const char *set, unsigned char c)
{
	return c && strchr(set, c) != NULL;
}

/* The parameters of the held sequence s (n bytes after its introducer)
 * are plain numbers; none is any of bad (terminated by -1). */
static int params_without(const unsigned char *s, size_t n, const int *bad)
{
	long v = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i == n || s[i] == ';') {
			for (const int *b = bad; *b >= 0; b++)
				if (v == *b)
					return 0;
			v = 0;
		} else if (s[i] >= '0' && s[i] <= '9') {
			if (v < 100000)
				v = v * 10 + (s[i] - '0');
		} else {
			return 0; /* ':' or a private marker inside */
		}
	}
	return 1;
}

/*
 * DEC private modes that outlast the program on the caller's terminal and
 * act on what the caller does next: the terminal would type mouse and focus
 * reports and paste brackets into the caller's shell, stay on the alternate
 * screen, keep the cursor hidden, send application cursor keys.  Their
 * state as the output left it is kept; the end of the stream resets each.
 * The cursor's mode is kept inverted: hidden is what needs a reset.
 */
static const unsigned short lasting[] = {1,    25,   47,   1000, 1001,
					 1002, 1003, 1004, 1005, 1006,
					 1015, 1016, 1047, 1049, 2004};
#define NLASTING (sizeof lasting / sizeof lasting[0])

static void track_modes(struct sbx_ttyf *f, const unsigned char *p, size_t n,
			int set)
{
	long v = 0;
	for (size_t i = 0; i <= n; i++) {
		if (i < n && p[i] != ';') {
			if (v < 100000)
				v = v * 10 + (p[i] - '0');
			continue;
		}
		for (size_t k = 0; k < NLASTING; k++)
			if (v == lasting[k]) {
				if (set != (v == 25))
					f->modes |= (unsigned short)(1u << k);
				else
					f->modes &= (unsigned short)~(1u << k);
			}
		v = 0;
	}
}

/*
 * Whether a complete control sequence draws (pass) or acts beyond the
 * screen or makes the terminal answer (drop).  s is the held sequence with
 * its introducer (intro bytes) and without its final byte.
 */
static int csi_passes(struct sbx_ttyf *f, const unsigned char *s, size_t n,
		      size_t intro, unsigned char final)
{
	static const int ansi_bad[] = {2, 3, 12, -1}; /* KAM, CRM, SRM */
	static const int dec_bad[] = {2, -1};	      /* DECANM: VT52 mode */
	const unsigned char *p = s + intro;
	size_t np = 0, ni;
	unsigned char prefix = 0;

	n -= intro;
	if (n && in("<=>?", p[0])) {
		prefix = p[0];
		p++;
		n--;
	}
	while (np < n && p[np] >= 0x30 && p[np] <= 0x3f)
		np++;
	ni = n - np; /* intermediates, 0x20-0x2f */
	for (size_t i = 0; i < np; i++)
		if (in("<=>?", p[i]))
			return 0;
	if (ni == 0 && prefix == 0) {
		/* SGR; cursor movement; erase, insert, delete; scroll
		 * (SD with one parameter: five start mouse tracking); tabs;
		 * margins; cursor save and restore */
		if (in("@ABCDEFGHIJKLMPSXZ`abdefgjkmrsu", final))
			return 1;
		if (final == 'T')
			return memchr(p, ';', np) == NULL;
		/* ANSI modes: not the keyboard lock, not local echo */
		if (final == 'h' || final == 'l')
			return params_without(p, np, ansi_bad);
		return 0; /* DA, DSR/CPR, window ops and reports, MC, ... */
	}
	if (ni == 0 && prefix == '?') {
		/* DEC modes (not VT52 mode: its escapes are not ECMA-48),
		 * selective erase, mode save and restore */
		if (!in("hlJKrs", final) || !params_without(p, np, dec_bad))
			return 0;
		if (final == 'h' || final == 'l')
			track_modes(f, p, np, final == 'h');
		return 1;
	}
	if (ni == 1 && prefix == 0 && p[np] == ' ')
		return in("q@A", final); /* cursor style, scroll left, right */
	if (ni == 1 && prefix == 0 && p[np] == '"')
		return final == 'q'; /* DECSCA */
	return 0;
}

/* An escape sequence (not CSI, not a string) whose final byte is b. */
static int esc_passes(const unsigned char *s, size_t n, unsigned char b)
{
	if (n == 1)
		/* cursor save/restore, keypad modes, index, next line, tab
		 * set, reverse index, full reset, back and forward index,
		 * guarded area.  Not the single and locking shifts to G2 and G3
		 * (SS2, SS3, LS2, LS3, LS1R-LS3R): a program could leave text
		 * drawn as lines through them, and the reset before sbxlua's
		 * report (sbx.report.TTY_RESET) cannot designate G2 and G3
		 * back, which not every terminal has (the Linux console prints
		 * the final byte).  SO and SI, G1 and G0, pass. */
		return in("78=>DEHMVWc69F", b);
	if (n == 2 && in("()*+-./", s[1]))
		return 1; /* character set designation */
	if (n == 2 && s[1] == '#')
		return in("34568", b); /* double size lines, DECALN */
	return 0; /* DECID, C1 mode, UTF-8 mode switch, ... */
}

/* Where the filtered bytes go: out, w bytes written so far. */
struct ttyout {
	char *p;
	size_t w;
};

static void emit(struct ttyout *o, unsigned char c)
{
	o->p[o->w++] = (char)c;
}

/* The held sequence, then its final byte c. */
static void emit_held(struct ttyout *o, const struct sbx_ttyf *f,
		      unsigned char c)
{
	memcpy(o->p + o->w, f->seq, f->n);
	o->w += f->n;
	emit(o, c);
}

/* What a state's handler did with its byte: NEXT is done with it, AGAIN
 * has the byte read again in the state the handler left. */
enum { NEXT, AGAIN };

static void begin_esc(struct sbx_ttyf *f)
{
	f->seq[0] = X_ESC;
	f->n = 1;
	f->c1 = 0;
	f->state = ESC;
}

/* A C1 control c, held in seq: an 8-bit CSI begins a sequence, string
 * openers a string; every other C1 control is dropped. */
static void begin_c1(struct sbx_ttyf *f, unsigned char c)
{
	f->c1 = c;
	if (c == 0x9b)
		f->state = CSI;
	else if (c == 0x90 || c == 0x98 || c == 0x9d || c == 0x9e || c == 0x9f)
		f->state = STR;
	else
		f->state = GROUND;
}

static int on_ground(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	if (f->utf8 && c >= 0x80 && c <= 0xbf) {
		f->utf8--;
		emit(o, c);
		return NEXT;
	}
	f->utf8 = 0;
	if (c == X_ESC) {
		begin_esc(f);
	} else if (c == X_ENQ) {
		/* answerback: the terminal types a message */
	} else if (c < 0x80) {
		emit(o, c);
	} else if (c == 0xc2) {
		f->state = GROUND_C2;
	} else if (c <= 0x9f) {
		f->seq[0] = c; /* a raw C1 control */
		f->n = 1;
		begin_c1(f, c);
	} else {
		/* a lead byte says how many continue it */
		f->utf8 = c >= 0xf0 && c <= 0xf7   ? 3
			  : c >= 0xe0 && c <= 0xef ? 2
			  : c >= 0xc0 && c <= 0xdf ? 1
						   : 0;
		emit(o, c);
	}
	return NEXT;
}

static int on_ground_c2(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	f->state = GROUND;
	if (c >= 0x80 && c <= 0x9f) {
		f->seq[0] = 0xc2;
		f->seq[1] = c;
		f->n = 2;
		begin_c1(f, c);
		return NEXT;
	}
	emit(o, 0xc2);
	if (c >= 0xa0 && c <= 0xbf) {
		emit(o, c);
		return NEXT;
	}
	return AGAIN; /* this byte again, in the ground */
}

/* A byte of a control sequence's parameters, intermediates or final. */
static void on_csi_byte(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	if (c >= 0x40) {
		/* ESC [ or 0xc2 0x9b; a raw 0x9b */
		size_t intro = f->c1 && f->seq[0] != 0xc2 ? 1 : 2;
		if (csi_passes(f, f->seq, f->n, intro, c))
			emit_held(o, f, c);
		f->state = GROUND;
	} else if (f->n >= SBX_TTYF_SEQ - 1 ||
		   (c >= 0x30 && f->seq[f->n - 1] >= 0x20 &&
		    f->seq[f->n - 1] <= 0x2f)) {
		/* too long, or a parameter after an intermediate:
		 * malformed */
		f->state = CSI_DROP;
	} else {
		f->seq[f->n++] = c;
	}
}

/* A byte after ESC: intermediates, then a final byte. */
static void on_esc_byte(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	if (c <= 0x2f) {
		if (f->n >= 4)
			f->state = CSI_DROP;
		else
			f->seq[f->n++] = c;
		return;
	}
	f->state = GROUND;
	if (f->n == 1 && c == '[') {
		f->seq[f->n++] = c;
		f->state = CSI;
	} else if (f->n == 1 && in("]PX^_k", c)) {
		/* OSC, DCS, SOS, PM, APC; screen's title */
		f->state = STR;
	} else if (esc_passes(f->seq, f->n, c)) {
		emit_held(o, f, c);
	}
}

/* ESC, CSI and CSI_DROP: what every sequence does with controls, then
 * each state's own bytes. */
static int on_sequence(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	if (c == X_ESC) {
		begin_esc(f);
		return NEXT;
	}
	if (c == X_CAN || c == X_SUB) {
		f->state = GROUND; /* the sequence is cancelled */
		return NEXT;
	}
	if (c < 0x20) {
		if (c != X_ENQ)
			emit(o, c); /* executed at once */
		return NEXT;
	}
	if (c == 0x7f)
		return NEXT; /* ignored inside a sequence */
	if (c >= 0x80) {
		f->state = GROUND; /* aborted: this byte again */
		return AGAIN;
	}
	if (f->state == CSI_DROP) {
		if (c >= 0x40)
			f->state = GROUND;
	} else if (f->state == CSI) {
		on_csi_byte(f, c, o);
	} else {
		on_esc_byte(f, c, o);
	}
	return NEXT;
}

static int on_string(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	(void)o; /* this state emits nothing */
	if (c == X_BEL || c == X_CAN || c == X_SUB || c == 0x9c)
		f->state = GROUND;
	else if (c == X_ESC)
		f->state = STR_ESC;
	else if (c == 0xc2)
		f->state = STR_C2;
	return NEXT;
}

static int on_string_esc(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	(void)o; /* this state emits nothing */
	if (c == '\\') {
		f->state = GROUND;
		return NEXT;
	}
	/* another escape begins: the string ends */
	begin_esc(f);
	return AGAIN;
}

static int on_string_c2(struct sbx_ttyf *f, unsigned char c, struct ttyout *o)
{
	(void)o; /* this state emits nothing */
	f->state = STR;
	if (c == 0x9c) {
		f->state = GROUND;
		return NEXT;
	}
	return AGAIN;
}

/* One handler per state, indexed by it. */
static int (*const on_state[])(struct sbx_ttyf *, unsigned char,
			       struct ttyout *) = {
    [GROUND] = on_ground,      [GROUND_C2] = on_ground_c2, [ESC] = on_sequence,
    [CSI] = on_sequence,       [CSI_DROP] = on_sequence,   [STR] = on_string,
    [STR_ESC] = on_string_esc, [STR_C2] = on_string_c2,
};

size_t sbx_ttyf_run(struct sbx_ttyf *f, const char *inp, size_t n, char *out)
{
	const unsigned char *b = (const unsigned char *)inp;
	struct ttyout o = {out, 0};

	for (size_t i = 0; i < n;)
		if (on_state[f->state](f, b[i], &o) == NEXT)
			i++;
	return o.w;
}

size_t sbx_ttyf_end(struct sbx_ttyf *f, char *out)
{
	size_t w = 0;
	if (f->state == GROUND_C2)
		out[w++] = (char)0xc2;
	/* the alternate screen is left first: the others apply to the
	 * screen the caller's shell is on */
	for (size_t k = NLASTING; k-- > 0;)
		if (f->modes & (1u << k))
			w += (size_t)snprintf(out + w, 12, "\x1b[?%u%c",
					      lasting[k],
					      lasting[k] == 25 ? 'h' : 'l');
	sbx_ttyf_init(f);
	return w;
}
