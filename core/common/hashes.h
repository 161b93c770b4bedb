/* SPDX-License-Identifier: MIT */
/*
 * hashes.h: the hashes analysts search by, of one stream of bytes, in one
 * pass: MD5, SHA-1 and SHA-256 (nettle), ssdeep (libfuzzy: context
 * triggered piecewise hashes) and TLSH (libtlsh, through tlsh.cc: its API
 * is C++).  Digests, not parsers: each reads the bytes as numbers and
 * keeps a fixed state, so the supervisor computes them as it reads a
 * file (a parser of a file's format runs in the inspection worker only:
 * inspect.h).
 */
#ifndef SBX_HASHES_H
#define SBX_HASHES_H

#include <stddef.h>
#include <stdint.h>

#include <nettle/md5.h>
#include <nettle/sha1.h>
#include <nettle/sha2.h>

/* hex digits and the NUL */
#define SBX_MD5_HEX 33
#define SBX_SHA1_HEX 41
/* ssdeep's longest digest (libfuzzy's FUZZY_MAX_RESULT) and the NUL */
#define SBX_SSDEEP_MAX 149
/* TLSH: 70 hex digits and the NUL; "" below SBX_TLSH_MIN bytes (libtlsh's
 * MIN_DATA_LENGTH) or for bytes too uniform to give one */
#define SBX_TLSH_HEX 71
#define SBX_TLSH_MIN 256

struct sbx_hashes {
	struct md5_ctx md5;
	struct sha1_ctx sha1;
	struct sha256_ctx sha256;
	struct fuzzy_state *fuzzy; /* NULL: no memory for it (ssdeep "") */
	void *tlsh;		   /* NULL: no memory for it (tlsh "") */
	uint64_t n;
};

struct sbx_hash_hex {
	char md5[SBX_MD5_HEX];
	char sha1[SBX_SHA1_HEX];
	char sha256[65];
	char ssdeep[SBX_SSDEEP_MAX];
	char tlsh[SBX_TLSH_HEX];
};

void sbx_hashes_init(struct sbx_hashes *h);
void sbx_hashes_update(struct sbx_hashes *h, const void *p, size_t n);
/* says, before any update, that n bytes in all will follow: ssdeep then
 * skips the block sizes a hash of n bytes cannot use (the same digest in
 * less CPU); an update past n, or fewer in all, leaves ssdeep "" */
void sbx_hashes_expect(struct sbx_hashes *h, uint64_t n);
/* every digest into out; h is spent (its memory freed) */
void sbx_hashes_final(struct sbx_hashes *h, struct sbx_hash_hex *out);
/* frees h's memory without a digest (an abandoned read) */
void sbx_hashes_free(struct sbx_hashes *h);

/* tlsh.cc: TLSH through libtlsh's C++ class; never throws */
void *sbx_tlsh_new(void);
void sbx_tlsh_update(void *t, const void *p, size_t n);
/* the hash in hex (upper case, as libtlsh writes it) into out, or "" */
void sbx_tlsh_final(void *t, char out[SBX_TLSH_HEX]);
void sbx_tlsh_free(void *t);

#endif
