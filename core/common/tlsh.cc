// SPDX-License-Identifier: MIT
// tlsh.cc: TLSH for hashes.c through libtlsh, whose API is a C++ class.
// Nothing here throws out: an allocation that fails gives no hash.
#include <cstring>
#include <new>

#include <tlsh.h>

extern "C" {
#include "hashes.h"
}

static_assert(MIN_DATA_LENGTH == SBX_TLSH_MIN, "hashes.h's TLSH minimum is libtlsh's");

void *sbx_tlsh_new(void)
{
	try {
		return new Tlsh();
	} catch (...) {
		return nullptr;
	}
}

void sbx_tlsh_update(void *t, const void *p, size_t n)
{
	const unsigned char *b = static_cast<const unsigned char *>(p);
	try {
		// its length is an unsigned int: large updates in pieces
		while (n > 0) {
			unsigned int k = n > (1u << 30) ? 1u << 30 : (unsigned int)n;
			static_cast<Tlsh *>(t)->update(b, k);
			b += k;
			n -= k;
		}
	} catch (...) {
	}
}

void sbx_tlsh_final(void *t, char out[SBX_TLSH_HEX])
{
	char buf[TLSH_STRING_BUFFER_LEN];
	out[0] = '\0';
	try {
		Tlsh *h = static_cast<Tlsh *>(t);
		h->final();
		const char *s = h->getHash(buf, sizeof buf);
		if (s && std::strlen(s) < SBX_TLSH_HEX)
			std::strcpy(out, s);
	} catch (...) {
	}
}

void sbx_tlsh_free(void *t)
{
	delete static_cast<Tlsh *>(t);
}
