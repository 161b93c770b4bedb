/* SPDX-License-Identifier: MIT */
/*
 * hashes.c: MD5, SHA-1, SHA-256, ssdeep and TLSH in one pass (hashes.h).
 */
#include "hashes.h"

#include <fuzzy.h>
#include <string.h>

static void hex(const unsigned char *d, size_t n, char *out)
{
	static const char digits[] = "0123456789abcdef";
	for (size_t i = 0; i < n; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * n] = '\0';
}

void sbx_hashes_init(struct sbx_hashes *h)
{
	md5_init(&h->md5);
	sha1_init(&h->sha1);
	sha256_init(&h->sha256);
	h->fuzzy = fuzzy_new();
	h->tlsh = sbx_tlsh_new();
	h->n = 0;
}

void sbx_hashes_expect(struct sbx_hashes *h, uint64_t n)
{
	if (h->fuzzy && fuzzy_set_total_input_length(h->fuzzy, n) != 0) {
		fuzzy_free(h->fuzzy);
		h->fuzzy = NULL;
	}
}

void sbx_hashes_update(struct sbx_hashes *h, const void *p, size_t n)
{
	md5_update(&h->md5, n, p);
	sha1_update(&h->sha1, n, p);
	sha256_update(&h->sha256, n, p);
	if (h->fuzzy && fuzzy_update(h->fuzzy, p, n) != 0) {
		fuzzy_free(h->fuzzy);
		h->fuzzy = NULL;
	}
	if (h->tlsh)
		sbx_tlsh_update(h->tlsh, p, n);
	h->n += n;
}

void sbx_hashes_free(struct sbx_hashes *h)
{
	if (h->fuzzy)
		fuzzy_free(h->fuzzy);
	if (h->tlsh)
		sbx_tlsh_free(h->tlsh);
	h->fuzzy = NULL;
	h->tlsh = NULL;
}

void sbx_hashes_final(struct sbx_hashes *h, struct sbx_hash_hex *out)
{
	unsigned char d[SHA256_DIGEST_SIZE];
	char fz[FUZZY_MAX_RESULT];

	md5_digest(&h->md5, MD5_DIGEST_SIZE, d);
	hex(d, MD5_DIGEST_SIZE, out->md5);
	sha1_digest(&h->sha1, SHA1_DIGEST_SIZE, d);
	hex(d, SHA1_DIGEST_SIZE, out->sha1);
	sha256_digest(&h->sha256, SHA256_DIGEST_SIZE, d);
	hex(d, SHA256_DIGEST_SIZE, out->sha256);
	out->ssdeep[0] = '\0';
	if (h->fuzzy && fuzzy_digest(h->fuzzy, fz, 0) == 0 &&
	    strlen(fz) < sizeof out->ssdeep)
		memcpy(out->ssdeep, fz, strlen(fz) + 1);
	out->tlsh[0] = '\0';
	if (h->tlsh && h->n >= SBX_TLSH_MIN)
		sbx_tlsh_final(h->tlsh, out->tlsh);
	sbx_hashes_free(h);
}
