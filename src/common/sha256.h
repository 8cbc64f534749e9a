/* SHA-256 (FIPS 180-4) through libcrypto's EVP interface, in one place for the layers that
 * need a digest: the PCE file fingerprint (cs), the parameter cache's vk digest (groth16) and
 * the OpenCL program cache key (gpu). Every build links libcrypto (the GPU-only build too; see
 * the root CMakeLists.txt and tests/gpu/device-debs.sh for a GPU image without its headers).
 *
 * A context is owned by one thread at a time; separate contexts are independent. */
#ifndef CUZK_COMMON_SHA256_H
#define CUZK_COMMON_SHA256_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    void *evp;   /* EVP_MD_CTX, NULL when its allocation failed */
    bool failed; /* a libcrypto call failed; final reports it */
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

/* FIPS 180-4 constants: the round constants K (section 4.2.2) and the initial hash value
 * (5.3.3), for the SHA-256 circuit (gadgets/sha256.c), which computes the compression in R1CS. */
extern const uint32_t cuzk_sha256_k[64];
extern const uint32_t cuzk_sha256_h0[8];

#endif
