/* SPDX-License-Identifier: MIT */
/*
 * digest.c: SHA-256 in hex, on nettle (digest.h).
 */
#include "digest.h"

void sbx_sha256_init(struct sbx_sha256 *h)
{
	sha256_init(&h->ctx);
}

void sbx_sha256_update(struct sbx_sha256 *h, const void *p, size_t n)
{
	sha256_update(&h->ctx, n, p);
}

void sbx_sha256_hex(struct sbx_sha256 *h, char out[SBX_SHA256_HEX])
{
	static const char digits[] = "0123456789abcdef";
	unsigned char d[SHA256_DIGEST_SIZE];

	sha256_digest(&h->ctx, sizeof d, d);
	for (size_t i = 0; i < sizeof d; i++) {
		out[2 * i] = digits[d[i] >> 4];
		out[2 * i + 1] = digits[d[i] & 15];
	}
	out[2 * sizeof d] = '\0';
}

void sbx_sha256_data(const void *p, size_t n, char out[SBX_SHA256_HEX])
{
	struct sbx_sha256 h;

	sbx_sha256_init(&h);
	sbx_sha256_update(&h, p, n);
	sbx_sha256_hex(&h, out);
}
