/* Fr: the 255-bit scalar field of BLS12-381 (the prime-order subgroup order r).
 *
 *   r = 0x73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001
 *
 * Representation: fr_t holds 4 little-endian 64-bit limbs of a*R mod r (Montgomery form,
 * R = 2^256), always fully reduced. Same conventions as fp.h: pointer arguments, any
 * aliasing allowed, no failure, thread-safe, x86_64/portable back ends.
 *
 * Two-adicity: r - 1 = 2^32 * t with t odd; the multiplicative generator g = 7 (as in
 * bellperson / ff) gives the 2^32-th root of unity omega_32 = g^t. snarkjs uses another
 * generator of the same subgroup (5^t): see poly/roots.h.
 */
#ifndef CUZK_FIELD_FR_H
#define CUZK_FIELD_FR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "field/mont.h"

#define FR_LIMBS 4
#define FR_BYTES 32
#define FR_TWO_ADICITY 32

typedef struct { uint64_t l[FR_LIMBS]; } fr_t;

extern const fr_t FR_ZERO;
extern const fr_t FR_ONE;
extern const uint64_t FR_MODULUS[FR_LIMBS]; /* r, canonical limbs */

/* r as an initialiser (FR_MODULUS, and a header-local copy for the inline operations, as
 * in fp.h). */
#define FR_MODULUS_INIT                                                                      \
    {0xffffffff00000001ULL, 0x53bda402fffe5bfeULL, 0x3339d80809a1d805ULL, 0x73eda753299d7d48ULL}
static const uint64_t fr_modulus_inline_[FR_LIMBS] = FR_MODULUS_INIT;

/* Addition-like operations are inline (they sit in the MSM and curve inner loops). */
static inline void fr_add(fr_t *r, const fr_t *a, const fr_t *b)
{
    mont_add(r->l, a->l, b->l, fr_modulus_inline_, FR_LIMBS);
}
static inline void fr_sub(fr_t *r, const fr_t *a, const fr_t *b)
{
    mont_sub(r->l, a->l, b->l, fr_modulus_inline_, FR_LIMBS);
}
static inline void fr_neg(fr_t *r, const fr_t *a)
{
    static const uint64_t zero[FR_LIMBS] = {0};
    mont_sub(r->l, zero, a->l, fr_modulus_inline_, FR_LIMBS);
}
static inline void fr_dbl(fr_t *r, const fr_t *a)
{
    mont_add(r->l, a->l, a->l, fr_modulus_inline_, FR_LIMBS);
}
void fr_mul(fr_t *r, const fr_t *a, const fr_t *b);
void fr_sqr(fr_t *r, const fr_t *a);
/* r = a^-1; the inverse of 0 is defined as 0. Bernstein-Yang divsteps (field/safegcd.h,
 * variable time); Fermat's a^(r-2) in the portable build. */
void fr_inv(fr_t *r, const fr_t *a);
/* Montgomery batch inversion: out[i] = in[i]^-1 for i < n (zeros map to zero), using one
 * field inversion. `scratch` must hold n elements; in and out may alias. */
void fr_batch_inv(fr_t *out, const fr_t *in, fr_t *scratch, size_t n);
void fr_pow(fr_t *r, const fr_t *a, const uint64_t *e, size_t nlimbs);
void fr_pow_u64(fr_t *r, const fr_t *a, uint64_t e);
int fr_legendre(const fr_t *a);
/* Square root (Tonelli-Shanks); returns false and leaves r untouched for non-squares. */
bool fr_sqrt(fr_t *r, const fr_t *a);

bool fr_is_zero(const fr_t *a);
bool fr_is_one(const fr_t *a);
bool fr_eq(const fr_t *a, const fr_t *b);
void fr_from_u64(fr_t *r, uint64_t v);

/* Montgomery form <-> canonical little-endian limbs. */
cuzk_status fr_from_limbs(fr_t *r, const uint64_t in[FR_LIMBS]);
void fr_to_limbs(uint64_t out[FR_LIMBS], const fr_t *a);
/* Reduce an arbitrary 256-bit integer mod r (never fails). */
void fr_from_limbs_reduce(fr_t *r, const uint64_t in[FR_LIMBS]);

/* 32-byte canonical encodings; decoders reject values >= r (CUZK_E_FIELD_NONCANONICAL). */
cuzk_status fr_from_bytes_be(fr_t *r, const uint8_t in[FR_BYTES]);
cuzk_status fr_from_bytes_le(fr_t *r, const uint8_t in[FR_BYTES]);
void fr_to_bytes_be(uint8_t out[FR_BYTES], const fr_t *a);
void fr_to_bytes_le(uint8_t out[FR_BYTES], const fr_t *a);

/* The multiplicative generator g = 7 and a primitive 2^k-th root of unity for
 * 0 <= k <= 32 (omega_32 squared 32-k times). Returns CUZK_E_INVALID_ARG for k > 32. */
void fr_generator(fr_t *g);
cuzk_status fr_root_of_unity(fr_t *w, unsigned log2_n);

#endif
