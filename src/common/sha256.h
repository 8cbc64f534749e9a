/* SHA-256 (FIPS 180-4) for the layers that need a digest but not the rest of libcrypto: the
 * PCE file fingerprint (cs), the parameter cache's vk digest (groth16) and the OpenCL program
 * cache key (gpu). Built with libcrypto when CMake found it (CUZK_HAVE_OPENSSL: its SHA-NI /
 * AVX2 code), else with the portable C of sha256.c, so that the GPU-only build (no OpenSSL
 * headers, see the root CMakeLists.txt) still has them; both give the same bytes (tests/sha256
 * checks each against the FIPS 180-2 example vectors and against each other).
 *
 * A context is owned by one thread at a time; separate contexts are independent. */
#ifndef CUZK_COMMON_SHA256_H
#define CUZK_COMMON_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    uint32_t h[8];      /* portable state */
    uint64_t nbytes;    /* bytes absorbed so far */
    uint8_t buf[64];    /* pending partial block (nbytes % 64 bytes) */
    void *evp;          /* libcrypto context when CUZK_HAVE_OPENSSL, else NULL */
    bool failed;        /* a libcrypto call failed; final reports it */
} cuzk_sha256_ctx;

/* Start a digest. Never fails by itself: a libcrypto failure (out of memory) is remembered
 * and reported by cuzk_sha256_final. */
void cuzk_sha256_init(cuzk_sha256_ctx *c);
/* Absorb n bytes at p (p may be NULL when n is 0). */
void cuzk_sha256_update(cuzk_sha256_ctx *c, const void *p, size_t n);
/* Write the 32-byte digest to out and release the context (always, also on failure).
 * Returns false only when libcrypto failed at some step (out is then unspecified). */
bool cuzk_sha256_final(cuzk_sha256_ctx *c, uint8_t out[32]);
/* One-shot digest of p[0..n); false as for cuzk_sha256_final. */
bool cuzk_sha256(const void *p, size_t n, uint8_t out[32]);

/* FIPS 180-4 constants: the round constants K (section 4.2.2) and the initial hash value (5.3.3);
 * also the SHA-256 circuit's (gadgets/sha256.c). */
extern const uint32_t cuzk_sha256_k[64];
extern const uint32_t cuzk_sha256_h0[8];

/* The portable implementation alone, whatever the build (for tests/sha256's cross-check). */
void cuzk_sha256_portable(const void *p, size_t n, uint8_t out[32]);
/* "libcrypto" or "portable": what cuzk_sha256_* use in this build. */
const char *cuzk_sha256_impl(void);

#endif
