/* Fp: the 381-bit base field of BLS12-381.
 *
 *   p = 0x1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab
 *
 * Representation: fp_t holds 6 little-endian 64-bit limbs of a*R mod p (Montgomery form,
 * R = 2^384), always fully reduced (< p). All arithmetic functions take pointers, allow
 * any aliasing between outputs and inputs, never fail, and are thread-safe (no shared
 * state). Multiplication has no data-dependent branches except the final conditional
 * subtraction (not constant time: the prover handles no long-term secrets in Fp).
 *
 * Builds (CUZK_FIELD_BACKEND): "x86_64" chooses at run time between plain C, mulx/adcx/adox
 * assembly (BMI2+ADX) and AVX-512 IFMA batch kernels (field/cpu.h, CUZK_CPU); "portable"
 * is plain C with 32-bit partial products only. All give bit-identical results.
 *
 * Algorithms: Montgomery multiplication, CIOS variant without the extra carry word
 * (valid since p < 2^383 / 2): Koc, Acar, Kaliski, "Analyzing and comparing Montgomery
 * multiplication algorithms", IEEE Micro 1996; square root for p = 3 mod 4 as a^((p+1)/4).
 */
#ifndef CUZK_FIELD_FP_H
#define CUZK_FIELD_FP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "field/mont.h"

#define FP_LIMBS 6
#define FP_BYTES 48

typedef struct { uint64_t l[FP_LIMBS]; } fp_t;

extern const fp_t FP_ZERO;    /* 0 */
extern const fp_t FP_ONE;     /* 1 (that is, R mod p) */
extern const uint64_t FP_MODULUS[FP_LIMBS]; /* p, canonical limbs */

/* p as an initialiser: FP_MODULUS is defined from it, and the inline operations below use
 * a header-local copy so that the compiler folds the limbs into immediates. */
#define FP_MODULUS_INIT                                                                      \
    {0xb9feffffffffaaabULL, 0x1eabfffeb153ffffULL, 0x6730d2a0f6b0f624ULL,                    \
     0x64774b84f38512bfULL, 0x4b1ba7b6434bacd7ULL, 0x1a0111ea397fe69aULL}
static const uint64_t fp_modulus_inline_[FP_LIMBS] = FP_MODULUS_INIT;
/* -p^-1 mod 2^64, the Montgomery reduction constant. */
#define FP_MINV 0x89f3fffcfffcfffdULL

/* Addition-like operations are inline (they sit in the MSM and curve inner loops). */
static inline void fp_add(fp_t *r, const fp_t *a, const fp_t *b)
{
    mont_add(r->l, a->l, b->l, fp_modulus_inline_, FP_LIMBS);
}
static inline void fp_sub(fp_t *r, const fp_t *a, const fp_t *b)
{
    mont_sub(r->l, a->l, b->l, fp_modulus_inline_, FP_LIMBS);
}
static inline void fp_neg(fp_t *r, const fp_t *a)
{
    static const uint64_t zero[FP_LIMBS] = {0};
    mont_sub(r->l, zero, a->l, fp_modulus_inline_, FP_LIMBS);
}
static inline void fp_dbl(fp_t *r, const fp_t *a)
{
    mont_add(r->l, a->l, a->l, fp_modulus_inline_, FP_LIMBS);
}
void fp_mul(fp_t *r, const fp_t *a, const fp_t *b);
void fp_sqr(fp_t *r, const fp_t *a);
/* r = a * 2^-1 */
void fp_half(fp_t *r, const fp_t *a);
/* r = a^-1; the inverse of 0 is defined as 0. Bernstein-Yang divsteps (field/safegcd.h,
 * variable time); Fermat's a^(p-2) in the portable build. */
void fp_inv(fp_t *r, const fp_t *a);
/* r = a^e, e given as `nlimbs` little-endian 64-bit limbs (canonical integer). */
void fp_pow(fp_t *r, const fp_t *a, const uint64_t *e, size_t nlimbs);
/* Square root. Returns true and sets r (either root) if a is a square, else false
 * and leaves r untouched. */
bool fp_sqrt(fp_t *r, const fp_t *a);
/* Legendre symbol: 0 for a == 0, 1 for a non-zero square, -1 otherwise. */
int fp_legendre(const fp_t *a);

bool fp_is_zero(const fp_t *a);
bool fp_is_one(const fp_t *a);
bool fp_eq(const fp_t *a, const fp_t *b);
/* True iff the canonical value of a is > (p-1)/2 (the ZCash "sort"/sign bit). */
bool fp_is_lexicographically_largest(const fp_t *a);
void fp_from_u64(fp_t *r, uint64_t v);

/* Conversions between Montgomery form and canonical little-endian limbs. `fp_from_limbs`
 * returns CUZK_E_FIELD_NONCANONICAL (r untouched) when the integer is >= p. */
cuzk_status fp_from_limbs(fp_t *r, const uint64_t in[FP_LIMBS]);
void fp_to_limbs(uint64_t out[FP_LIMBS], const fp_t *a);

/* 48-byte canonical encodings, big-endian (ZCash/bellperson) and little-endian
 * (iden3/snarkjs). Decoders reject integers >= p with CUZK_E_FIELD_NONCANONICAL. */
cuzk_status fp_from_bytes_be(fp_t *r, const uint8_t in[FP_BYTES]);
cuzk_status fp_from_bytes_le(fp_t *r, const uint8_t in[FP_BYTES]);
void fp_to_bytes_be(uint8_t out[FP_BYTES], const fp_t *a);
void fp_to_bytes_le(uint8_t out[FP_BYTES], const fp_t *a);

/* Name of the compiled build flavour: "x86_64" (run-time choice, field/cpu.h) or
 * "portable"; cuzk_cpu_name(cuzk_cpu_active()) names the back end in use. */
const char *fp_backend_name(void);

#endif
