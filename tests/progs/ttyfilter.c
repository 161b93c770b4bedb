/* SPDX-License-Identifier: MIT */
/*
 * ttyfilter [--check]: core/super/ttyfilter.c on its own.  Filters stdin to
 * stdout in one piece; with --check, filters it again cut at every single
 * point and in pieces of every size from 1 to 64 bytes, and filters the
 * filtered output once more: prints "same" when every cut gave the bytes of
 * the one piece and the second pass changed nothing, else the first cut
 * that differed.
 */
#include "../../core/super/ttyfilter.c"

#include <stdio.h>
#include <stdlib.h>

static char input[1 << 16], whole[(1 << 16) + 256], cut[(1 << 17) + 256];

static size_t run(const char *s, size_t n, size_t at, size_t step, char *out)
{
	struct sbx_ttyf f;
	size_t w = 0;
	sbx_ttyf_init(&f);
	if (at) {
		w += sbx_ttyf_run(&f, s, at, out);
		w += sbx_ttyf_run(&f, s + at, n - at, out + w);
	} else {
		for (size_t i = 0; i < n; i += step)
			w += sbx_ttyf_run(&f, s + i,
					  n - i < step ? n - i : step, out + w);
	}
	return w + sbx_ttyf_end(&f, out + w);
}

int main(int argc, char **argv)
{
	size_t n = fread(input, 1, sizeof input, stdin);
	size_t w = run(input, n, 0, n ? n : 1, whole), c;
	if (argc < 2 || strcmp(argv[1], "--check") != 0) {
		fwrite(whole, 1, w, stdout);
		return 0;
	}
	for (size_t at = 1; at < n; at++) {
		c = run(input, n, at, 0, cut);
		if (c != w || memcmp(cut, whole, w) != 0) {
			printf("cut at %zu differs\n", at);
			return 1;
		}
	}
	for (size_t step = 1; step <= 64; step++) {
		c = run(input, n, 0, step, cut);
		if (c != w || memcmp(cut, whole, w) != 0) {
			printf("pieces of %zu differ\n", step);
			return 1;
		}
	}
	c = run(whole, w, 0, w ? w : 1, cut);
	if (c != w || memcmp(cut, whole, w) != 0) {
		printf("a second pass changed it\n");
		return 1;
	}
	printf("same\n");
	return 0;
}
