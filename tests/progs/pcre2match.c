/* SPDX-License-Identifier: MIT */
/* pcre2match: PCRE2's answer for tests/sigma_spec.lua's differential test
 * of sbxlua's Sigma regex engine (lua/sbx/_sigma_regex.lua).  Reads lines
 * "FLAGS REGEX SUBJECT" on stdin, REGEX and SUBJECT in hexadecimal (so
 * that any byte fits; "-" is empty), FLAGS letters of "ims" or "-"; writes one
 * line per input line: "1" (a match somewhere in SUBJECT), "0" (none), or "E
 * <PCRE2's message>" when the expression does not compile.  UTF-8 mode, and
 * invalid UTF-8 in a subject is never a match of a character (as sbxlua reads
 * bytes that start no character). */
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* hexadecimal text to bytes, in place: the length, or -1 */
static long unhex(char *s)
{
	size_t n = strlen(s), i;
	if (!strcmp(s, "-"))
		return 0;
	if (n % 2)
		return -1;
	for (i = 0; i < n / 2; i++) {
		unsigned int b;
		if (sscanf(s + 2 * i, "%2x", &b) != 1)
			return -1;
		s[i] = (char)b;
	}
	return (long)(n / 2);
}

static uint32_t options_of(const char *flags)
{
	uint32_t o = PCRE2_UTF | PCRE2_MATCH_INVALID_UTF;
	if (strchr(flags, 'i'))
		o |= PCRE2_CASELESS;
	if (strchr(flags, 'm'))
		o |= PCRE2_MULTILINE;
	if (strchr(flags, 's'))
		o |= PCRE2_DOTALL;
	return o;
}

/* one line: its answer on stdout; -1 for a malformed line */
static int one(char *flags, char *re, char *subject)
{
	long nr = unhex(re), ns = unhex(subject);
	int err, rc;
	PCRE2_SIZE off;
	pcre2_code *code;
	pcre2_match_data *md;
	if (nr < 0 || ns < 0)
		return -1;
	code = pcre2_compile((PCRE2_SPTR)re, (PCRE2_SIZE)nr, options_of(flags),
			     &err, &off, NULL);
	if (!code) {
		PCRE2_UCHAR msg[256];
		pcre2_get_error_message(err, msg, sizeof msg);
		printf("E %s\n", (char *)msg);
		return 0;
	}
	md = pcre2_match_data_create_from_pattern(code, NULL);
	if (!md) {
		pcre2_code_free(code);
		return -1;
	}
	rc = pcre2_match(code, (PCRE2_SPTR)subject, (PCRE2_SIZE)ns, 0, 0, md,
			 NULL);
	printf("%s\n", rc >= 0			   ? "1"
		       : rc == PCRE2_ERROR_NOMATCH ? "0"
						   : "E match error");
	pcre2_match_data_free(md);
	pcre2_code_free(code);
	return 0;
}

int main(void)
{
	static char line[1 << 16];
	while (fgets(line, sizeof line, stdin)) {
		char *save = NULL, *flags = strtok_r(line, " \n", &save);
		char *re = strtok_r(NULL, " \n", &save),
		     *subject = strtok_r(NULL, " \n", &save);
		if (!flags || !re || !subject)
			return 2;
		if (one(flags, re, subject) < 0)
			return 2;
	}
	return fflush(stdout) ? 1 : 0;
}
