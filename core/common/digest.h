/* SPDX-License-Identifier: MIT */
/*
 * digest.h: SHA-256 for sbxlua (core.sha256, the written files' hashes),
 * on nettle: its x86-64 build takes the SHA extensions where the
 * processor has them (about 5.6x libmd's rate on this host kind:
 * docs/performance.md).
 */
#ifndef SBX_DIGEST_H
#define SBX_DIGEST_H

#include <stddef.h>

#include <nettle/sha2.h>

/* 64 lowercase hex digits and the NUL */
#define SBX_SHA256_HEX 65

struct sbx_sha256 {
	struct sha256_ctx ctx;
};

void sbx_sha256_init(struct sbx_sha256 *h);
void sbx_sha256_update(struct sbx_sha256 *h, const void *p, size_t n);
/* the digest in hex into out; h is spent */
void sbx_sha256_hex(struct sbx_sha256 *h, char out[SBX_SHA256_HEX]);
/* the digest of p[0..n) in hex into out */
void sbx_sha256_data(const void *p, size_t n, char out[SBX_SHA256_HEX]);

#endif
