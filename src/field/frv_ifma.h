/* 8-lane Fr arithmetic with AVX-512 IFMA (internal to the field layer and the NTT's
 * butterfly kernel poly/ntt_ifma.c). Include only from translation units compiled with the
 * AVX-512 IFMA flags (CUZK_IFMA_FLAGS), call only when cuzk_cpu_use_ifma() (field/cpu.h).
 *
 * Representation: frv_t holds 8 independent Fr elements, one per 64-bit lane, in radix
 * 2^52: element = sum_k l[k] 2^(52k), k < 5 (260 bits), limbs normalised (< 2^52). Values
 * are the integers of fr_t (Montgomery form a R mod r, R = 2^256), unreduced up to the
 * bounds stated per function.
 *
 * Multiplication (frv_mul_r260) is Montgomery multiplication with R' = 2^260 (5 rounds of
 * 52 bits, vpmadd52luq/vpmadd52huq, whose 52-bit split matches the radix): it returns
 * a b / 2^260 mod r. With a = x R and b = 16 w R mod r (a constant such as an NTT twiddle
 * pre-multiplied by 16), a b / 2^260 = x w R^2 2^4 / 2^260 = (x w) R, the fr_t Montgomery
 * product, bit-identical after full reduction. Bounds: for a < 4r, b < r the result is
 * < a b / R' + r < 1.12 r (r / R' = 0.0283). Sources as fpv_ifma.h (Gueron, Krasnov,
 * ARITH 2016; Koc, Acar, Kaliski 1996).
 */
#ifndef CUZK_FIELD_FRV_IFMA_H
#define CUZK_FIELD_FRV_IFMA_H

#if !defined(__AVX512IFMA__) || !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "field/frv_ifma.h needs the AVX-512 IFMA compiler flags (CUZK_IFMA_FLAGS)"
#endif

#include <immintrin.h>
#include <stdint.h>

#include "field/fr.h"

#define FRV_LANES 8
#define FRV_LIMBS 5
#define FRV_MASK52 0xfffffffffffffULL
#if defined(__clang__)
#define FRV_UNROLL _Pragma("clang loop unroll(full)")
#else
#define FRV_UNROLL _Pragma("GCC unroll 16")
#endif

typedef struct {
    __m512i l[FRV_LIMBS];
} frv_t;

/* Radix-2^52 limbs of r and 2r, and -r^-1 mod 2^52 (tools/gen/field_constants.py). */
static const uint64_t FRV_R[FRV_LIMBS] = {0xfffff00000001ULL, 0x02fffe5bfefffULL, 0x9a1d80553bda4ULL,
                                          0x7d483339d8080ULL, 0x073eda753299dULL};
static const uint64_t FRV_2R[FRV_LIMBS] = {0xffffe00000002ULL, 0x05fffcb7fdfffULL, 0x343b00aa77b48ULL,
                                           0xfa906673b0101ULL, 0x0e7db4ea6533aULL};
#define FRV_RINV52 0xffffeffffffffULL

static inline __m512i frv_bcast(uint64_t x) { return _mm512_set1_epi64((long long)x); }

/* r = a b / 2^260 mod r (see above); a, b normalised; r normalised, may alias. */
static inline void frv_mul_r260(frv_t *r, const frv_t *a, const frv_t *b)
{
    const __m512i mask = frv_bcast(FRV_MASK52), zero = _mm512_setzero_si512();
    __m512i t[2 * FRV_LIMBS];
    FRV_UNROLL for (int k = 0; k < 2 * FRV_LIMBS; k++) t[k] = zero;
    FRV_UNROLL for (int i = 0; i < FRV_LIMBS; i++) {
        FRV_UNROLL for (int j = 0; j < FRV_LIMBS; j++) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], a->l[j], b->l[i]);
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], a->l[j], b->l[i]);
        }
        __m512i m = _mm512_and_si512(_mm512_madd52lo_epu64(zero, t[i], frv_bcast(FRV_RINV52)), mask);
        FRV_UNROLL for (int j = 0; j < FRV_LIMBS; j++) {
            t[i + j] = _mm512_madd52lo_epu64(t[i + j], m, frv_bcast(FRV_R[j]));
            t[i + j + 1] = _mm512_madd52hi_epu64(t[i + j + 1], m, frv_bcast(FRV_R[j]));
        }
        t[i + 1] = _mm512_add_epi64(t[i + 1], _mm512_srli_epi64(t[i], 52));
    }
    __m512i c = zero;
    FRV_UNROLL for (int k = 0; k < FRV_LIMBS; k++) {
        __m512i v = _mm512_add_epi64(t[FRV_LIMBS + k], c);
        r->l[k] = _mm512_and_si512(v, mask);
        c = _mm512_srli_epi64(v, 52);
    }
}

/* r = a + b, normalised */
static inline void frv_add(frv_t *r, const frv_t *a, const frv_t *b)
{
    const __m512i mask = frv_bcast(FRV_MASK52);
    __m512i c = _mm512_setzero_si512();
    FRV_UNROLL for (int i = 0; i < FRV_LIMBS; i++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(a->l[i], b->l[i]), c);
        r->l[i] = _mm512_and_si512(v, mask);
        c = _mm512_srli_epi64(v, 52);
    }
}

/* r = a - b + k for a constant k >= b, normalised */
static inline void frv_sub_k(frv_t *r, const frv_t *a, const frv_t *b, const uint64_t k[FRV_LIMBS])
{
    const __m512i mask = frv_bcast(FRV_MASK52);
    __m512i c = _mm512_setzero_si512();
    FRV_UNROLL for (int i = 0; i < FRV_LIMBS; i++) {
        __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], b->l[i]), _mm512_add_epi64(frv_bcast(k[i]), c));
        r->l[i] = _mm512_and_si512(v, mask);
        c = _mm512_srai_epi64(v, 52);
    }
}

/* r = a - k if a >= k else a, per lane */
static inline void frv_csub(frv_t *r, const frv_t *a, const uint64_t k[FRV_LIMBS])
{
    const __m512i mask = frv_bcast(FRV_MASK52);
    __m512i c = _mm512_setzero_si512(), d[FRV_LIMBS];
    FRV_UNROLL for (int i = 0; i < FRV_LIMBS; i++) {
        __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], frv_bcast(k[i])), c);
        d[i] = _mm512_and_si512(v, mask);
        c = _mm512_srai_epi64(v, 52);
    }
    __mmask8 ge = _mm512_cmpeq_epi64_mask(c, _mm512_setzero_si512());
    FRV_UNROLL for (int i = 0; i < FRV_LIMBS; i++) r->l[i] = _mm512_mask_blend_epi64(ge, a->l[i], d[i]);
}

/* a < 3r -> a mod r */
static inline void frv_reduce3(frv_t *a)
{
    frv_csub(a, a, FRV_2R);
    frv_csub(a, a, FRV_R);
}

/* r lane e = src[e] for 8 consecutive fr_t (4 words each, two per zmm): word k of the 8
 * elements gathered by two permutes and a 256-bit merge, then re-cut into 52-bit limbs. */
static inline void frv_load(frv_t *r, const fr_t *src)
{
    const __m512i *p = (const __m512i *)(const void *)src;
    __m512i a = _mm512_loadu_si512(p), b = _mm512_loadu_si512(p + 1);
    __m512i c = _mm512_loadu_si512(p + 2), d = _mm512_loadu_si512(p + 3);
    __m512i q[4];
    FRV_UNROLL for (int k = 0; k < 4; k++) {
        __m512i idx = _mm512_add_epi64(_mm512_set_epi64(0, 0, 0, 0, 12, 8, 4, 0), _mm512_set1_epi64(k));
        __m512i ab = _mm512_permutex2var_epi64(a, idx, b); /* lanes 0..3: word k of elements 0..3 */
        __m512i cd = _mm512_permutex2var_epi64(c, idx, d); /* lanes 0..3: word k of elements 4..7 */
        q[k] = _mm512_shuffle_i64x2(ab, cd, 0x44);
    }
    const __m512i m = frv_bcast(FRV_MASK52);
    r->l[0] = _mm512_and_si512(q[0], m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(q[0], 52), _mm512_slli_epi64(q[1], 12)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(q[1], 40), _mm512_slli_epi64(q[2], 24)), m);
    r->l[3] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(q[2], 28), _mm512_slli_epi64(q[3], 36)), m);
    r->l[4] = _mm512_srli_epi64(q[3], 16);
}

/* dst[e] = lane e of a for 8 consecutive fr_t (a normalised, each lane < 2^256: pass fully
 * reduced values to keep fr_t's invariant). */
static inline void frv_store(fr_t *dst, const frv_t *a)
{
    __m512i q0 = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 52));
    __m512i q1 = _mm512_or_si512(_mm512_srli_epi64(a->l[1], 12), _mm512_slli_epi64(a->l[2], 40));
    __m512i q2 = _mm512_or_si512(_mm512_srli_epi64(a->l[2], 24), _mm512_slli_epi64(a->l[3], 28));
    __m512i q3 = _mm512_or_si512(_mm512_srli_epi64(a->l[3], 36), _mm512_slli_epi64(a->l[4], 16));
    const __m512i ilo = _mm512_set_epi64(11, 3, 10, 2, 9, 1, 8, 0), ihi = _mm512_set_epi64(15, 7, 14, 6, 13, 5, 12, 4);
    const __m512i jlo = _mm512_set_epi64(11, 10, 3, 2, 9, 8, 1, 0), jhi = _mm512_set_epi64(15, 14, 7, 6, 13, 12, 5, 4);
    __m512i u01l = _mm512_permutex2var_epi64(q0, ilo, q1), u23l = _mm512_permutex2var_epi64(q2, ilo, q3);
    __m512i u01h = _mm512_permutex2var_epi64(q0, ihi, q1), u23h = _mm512_permutex2var_epi64(q2, ihi, q3);
    __m512i *p = (__m512i *)(void *)dst;
    _mm512_storeu_si512(p, _mm512_permutex2var_epi64(u01l, jlo, u23l));     /* elements 0, 1 */
    _mm512_storeu_si512(p + 1, _mm512_permutex2var_epi64(u01l, jhi, u23l)); /* elements 2, 3 */
    _mm512_storeu_si512(p + 2, _mm512_permutex2var_epi64(u01h, jlo, u23h)); /* elements 4, 5 */
    _mm512_storeu_si512(p + 3, _mm512_permutex2var_epi64(u01h, jhi, u23h)); /* elements 6, 7 */
}

#endif
