/* 8-lane Fp arithmetic with AVX-512 IFMA (internal to the field layer and the kernels that
 * batch independent Fp operations: msm/msm_ifma.c, tests/field). Include only from
 * translation units compiled with the AVX-512 IFMA flags (CUZK_IFMA_FLAGS in CMake), and
 * call only when cuzk_cpu_use_ifma() (field/cpu.h) says the CPU has them.
 *
 * Representation: fpv_t holds 8 independent Fp elements, one per 64-bit lane, in radix
 * 2^48: element = sum_k l[k] 2^(48k), k < 8 (384 bits, exactly the 6 x 64-bit limbs of
 * fp_t re-cut, so loading and storing is a transposition and shifts, no multiplication).
 * Values are in the Montgomery form of fp_t (a R mod p, R = 2^384), so results are
 * bit-identical to the scalar back ends once fully reduced. Invariant of every function
 * here unless stated: limbs "normalised" (< 2^48), value < 2p ("lazy": not always < p).
 *
 * Multiplication (fpv_mul): interleaved (CIOS) Montgomery multiplication with one 48-bit
 * word per round, 8 rounds; vpmadd52luq/vpmadd52huq multiply 52-bit operands and split
 * the 104-bit product at bit 52, so one operand is pre-shifted left by 4: for a < 2^52,
 * b < 2^48, lo52(a (b << 4)) = (a b mod 2^48) << 4 and hi52(a (b << 4)) = a b >> 48, the
 * low and high 48-bit halves of a b (the low half kept scaled by 16 in separate column
 * accumulators). Product columns stay below 2^64 without carries (at most 32 terms of
 * < 2^52 each). Bounds: for inputs a, b < 2p the result is < a b / R + p < 2p, because
 * 4p < R (p / R = 0.1016), so no final subtraction is needed. Sources: Gueron, Krasnov,
 * "Accelerating big integer arithmetic using Intel IFMA extensions" (ARITH 2016); Drucker,
 * Gueron, "Fast modular squaring with AVX512IFMA" (ePrint 2018/335) for the radix and
 * carry handling; Koc, Acar, Kaliski (IEEE Micro 1996) for CIOS.
 *
 * Additions and subtractions propagate carries through the 8 limbs (a serial chain of
 * shifts, 3 operations a limb) and take the multiple of p to add or subtract as an
 * argument, so the caller tracks value bounds; fpv_csub is the conditional subtraction
 * used to bring values back below 2p or p.
 */
#ifndef CUZK_FIELD_FPV_IFMA_H
#define CUZK_FIELD_FPV_IFMA_H

#if !defined(__AVX512IFMA__) || !defined(__AVX512F__) || !defined(__AVX512VL__)
#error "field/fpv_ifma.h needs the AVX-512 IFMA compiler flags (CUZK_IFMA_FLAGS)"
#endif

#include <immintrin.h>
#include <stdint.h>

#include "field/fp.h"

#define FPV_LANES 8
#define FPV_LIMBS 8
#define FPV_MASK48 0xffffffffffffULL
#if defined(__clang__)
#define FPV_UNROLL _Pragma("clang loop unroll(full)")
#else
#define FPV_UNROLL _Pragma("GCC unroll 16")
#endif

typedef struct {
    __m512i l[FPV_LIMBS];
} fpv_t;

/* Radix-2^48 limbs of p, 2p, 4p (normalised) and -p^-1 mod 2^48, as printed by
 * tools/gen/field_constants.py. */
static const uint64_t FPV_P[FPV_LIMBS] = {0xffffffffaaabULL, 0xb153ffffb9feULL, 0xf6241eabfffeULL,
                                          0x6730d2a0f6b0ULL, 0x4b84f38512bfULL, 0x434bacd76477ULL,
                                          0xe69a4b1ba7b6ULL, 0x1a0111ea397fULL};
static const uint64_t FPV_2P[FPV_LIMBS] = {0xffffffff5556ULL, 0x62a7ffff73fdULL, 0xec483d57fffdULL,
                                           0xce61a541ed61ULL, 0x9709e70a257eULL, 0x869759aec8eeULL,
                                           0xcd3496374f6cULL, 0x340223d472ffULL};
static const uint64_t FPV_4P[FPV_LIMBS] = {0xfffffffeaaacULL, 0xc54ffffee7fbULL, 0xd8907aaffffaULL,
                                           0x9cc34a83dac3ULL, 0x2e13ce144afdULL, 0x0d2eb35d91ddULL,
                                           0x9a692c6e9ed9ULL, 0x680447a8e5ffULL};
#define FPV_PINV48 0xfffcfffcfffdULL

static inline __m512i fpv_bcast(uint64_t x) { return _mm512_set1_epi64((long long)x); }

/* r = the same constant (8 radix-2^48 limbs) in every lane */
static inline void fpv_const(fpv_t *r, const uint64_t k[FPV_LIMBS])
{
    FPV_UNROLL for (int i = 0; i < FPV_LIMBS; i++) r->l[i] = fpv_bcast(k[i]);
}

/* Radix-2^48 limbs of a 6 x 64-bit value (scalar; for constants). */
static inline void fpv_from_fp(uint64_t out[FPV_LIMBS], const fp_t *a)
{
    for (int k = 0; k < FPV_LIMBS; k++) {
        int bit = 48 * k, w = bit / 64, s = bit % 64;
        uint64_t v = a->l[w] >> s;
        if (s > 16)
            v |= a->l[w + 1] << (64 - s);
        out[k] = v & FPV_MASK48;
    }
}

/* r = a b / R mod p (see the header comment): a limbs < 2^52, b normalised; a, b < 2p
 * gives r < 2p, normalised. r may alias a or b. */
static inline void fpv_mul(fpv_t *r, const fpv_t *a, const fpv_t *b)
{
    const __m512i mask = fpv_bcast(FPV_MASK48), zero = _mm512_setzero_si512();
    __m512i lo[2 * FPV_LIMBS], hi[2 * FPV_LIMBS];
    FPV_UNROLL for (int k = 0; k < 2 * FPV_LIMBS; k++) lo[k] = hi[k] = zero;
    FPV_UNROLL for (int i = 0; i < FPV_LIMBS; i++) {
        __m512i bi = _mm512_slli_epi64(b->l[i], 4);
        FPV_UNROLL for (int j = 0; j < FPV_LIMBS; j++) {
            lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], a->l[j], bi);
            hi[i + j + 1] = _mm512_madd52hi_epu64(hi[i + j + 1], a->l[j], bi);
        }
        /* column i is complete: m = col_i * (-p^-1) mod 2^48 makes it divisible by 2^48 */
        __m512i col = _mm512_add_epi64(_mm512_srli_epi64(lo[i], 4), hi[i]);
        __m512i m = _mm512_and_si512(_mm512_madd52lo_epu64(zero, col, fpv_bcast(FPV_PINV48)), mask);
        FPV_UNROLL for (int j = 0; j < FPV_LIMBS; j++) {
            __m512i pj = fpv_bcast(FPV_P[j] << 4);
            lo[i + j] = _mm512_madd52lo_epu64(lo[i + j], m, pj);
            hi[i + j + 1] = _mm512_madd52hi_epu64(hi[i + j + 1], m, pj);
        }
        col = _mm512_add_epi64(_mm512_srli_epi64(lo[i], 4), hi[i]);
        hi[i + 1] = _mm512_add_epi64(hi[i + 1], _mm512_srli_epi64(col, 48));
    }
    __m512i c = zero;
    FPV_UNROLL for (int k = 0; k < FPV_LIMBS; k++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(_mm512_srli_epi64(lo[FPV_LIMBS + k], 4),
                                                      hi[FPV_LIMBS + k]), c);
        r->l[k] = _mm512_and_si512(v, mask);
        c = _mm512_srli_epi64(v, 48);
    }
}

/* r = a + b, normalised (value a + b; no reduction). */
static inline void fpv_add(fpv_t *r, const fpv_t *a, const fpv_t *b)
{
    const __m512i mask = fpv_bcast(FPV_MASK48);
    __m512i c = _mm512_setzero_si512();
    FPV_UNROLL for (int i = 0; i < FPV_LIMBS; i++) {
        __m512i v = _mm512_add_epi64(_mm512_add_epi64(a->l[i], b->l[i]), c);
        r->l[i] = _mm512_and_si512(v, mask);
        c = _mm512_srli_epi64(v, 48);
    }
}

/* r = a - b + k for a constant multiple k of p with k >= b (so r >= 0), normalised. */
static inline void fpv_sub_k(fpv_t *r, const fpv_t *a, const fpv_t *b, const uint64_t k[FPV_LIMBS])
{
    const __m512i mask = fpv_bcast(FPV_MASK48);
    __m512i c = _mm512_setzero_si512();
    FPV_UNROLL for (int i = 0; i < FPV_LIMBS; i++) {
        __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], b->l[i]), _mm512_add_epi64(fpv_bcast(k[i]), c));
        r->l[i] = _mm512_and_si512(v, mask);
        c = _mm512_srai_epi64(v, 48);
    }
}

/* r = a - k if a >= k else a, per lane (a normalised, k a normalised constant). */
static inline void fpv_csub(fpv_t *r, const fpv_t *a, const uint64_t k[FPV_LIMBS])
{
    const __m512i mask = fpv_bcast(FPV_MASK48);
    __m512i c = _mm512_setzero_si512(), d[FPV_LIMBS];
    FPV_UNROLL for (int i = 0; i < FPV_LIMBS; i++) {
        __m512i v = _mm512_add_epi64(_mm512_sub_epi64(a->l[i], fpv_bcast(k[i])), c);
        d[i] = _mm512_and_si512(v, mask);
        c = _mm512_srai_epi64(v, 48);
    }
    __mmask8 ge = _mm512_cmpeq_epi64_mask(c, _mm512_setzero_si512());
    FPV_UNROLL for (int i = 0; i < FPV_LIMBS; i++) r->l[i] = _mm512_mask_blend_epi64(ge, a->l[i], d[i]);
}

/* r = lanes of b where `m` is set, of a elsewhere */
static inline void fpv_blend(fpv_t *r, __mmask8 m, const fpv_t *a, const fpv_t *b)
{
    FPV_UNROLL for (int i = 0; i < FPV_LIMBS; i++) r->l[i] = _mm512_mask_blend_epi64(m, a->l[i], b->l[i]);
}

/* 8 x 8 transposition of 64-bit words: out[k] lane i = in[i] lane k (out may not alias in). */
static inline void fpv_transpose8(__m512i out[8], const __m512i in[8])
{
    const __m512i even = _mm512_set_epi64(13, 12, 5, 4, 9, 8, 1, 0);
    const __m512i odd = _mm512_set_epi64(15, 14, 7, 6, 11, 10, 3, 2);
    __m512i a[4], b[4], c[8];
    FPV_UNROLL for (int i = 0; i < 4; i++) {
        a[i] = _mm512_unpacklo_epi64(in[2 * i], in[2 * i + 1]); /* words 0 2 4 6 of rows 2i, 2i+1 */
        b[i] = _mm512_unpackhi_epi64(in[2 * i], in[2 * i + 1]); /* words 1 3 5 7 */
    }
    FPV_UNROLL for (int h = 0; h < 2; h++) {
        c[4 * h + 0] = _mm512_permutex2var_epi64(a[2 * h], even, a[2 * h + 1]); /* words 0 | 4 */
        c[4 * h + 2] = _mm512_permutex2var_epi64(a[2 * h], odd, a[2 * h + 1]);  /* words 2 | 6 */
        c[4 * h + 1] = _mm512_permutex2var_epi64(b[2 * h], even, b[2 * h + 1]); /* words 1 | 5 */
        c[4 * h + 3] = _mm512_permutex2var_epi64(b[2 * h], odd, b[2 * h + 1]);  /* words 3 | 7 */
    }
    FPV_UNROLL for (int k = 0; k < 4; k++) {
        out[k] = _mm512_shuffle_i64x2(c[k], c[4 + k], 0x44);
        out[k + 4] = _mm512_shuffle_i64x2(c[k], c[4 + k], 0xee);
    }
}

/* r lane i = *src[i] (8 fp_t, any alignment; fully reduced or not: the value is kept). */
static inline void fpv_load(fpv_t *r, const fp_t *const src[FPV_LANES])
{
    __m512i row[8], q[8];
    FPV_UNROLL for (int i = 0; i < 8; i++) row[i] = _mm512_maskz_loadu_epi64(0x3f, src[i]->l);
    fpv_transpose8(q, row);
    const __m512i m = fpv_bcast(FPV_MASK48);
    r->l[0] = _mm512_and_si512(q[0], m);
    r->l[1] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(q[0], 48), _mm512_slli_epi64(q[1], 16)), m);
    r->l[2] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(q[1], 32), _mm512_slli_epi64(q[2], 32)), m);
    r->l[3] = _mm512_srli_epi64(q[2], 16);
    r->l[4] = _mm512_and_si512(q[3], m);
    r->l[5] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(q[3], 48), _mm512_slli_epi64(q[4], 16)), m);
    r->l[6] = _mm512_and_si512(_mm512_or_si512(_mm512_srli_epi64(q[4], 32), _mm512_slli_epi64(q[5], 32)), m);
    r->l[7] = _mm512_srli_epi64(q[5], 16);
}

/* *dst[i] = lane i of a for the lanes set in `lanes` (a normalised and < 2^384: pass
 * fully reduced values to keep fp_t's invariant). */
static inline void fpv_store(fp_t *const dst[FPV_LANES], const fpv_t *a, __mmask8 lanes)
{
    __m512i q[8], row[8];
    q[0] = _mm512_or_si512(a->l[0], _mm512_slli_epi64(a->l[1], 48));
    q[1] = _mm512_or_si512(_mm512_srli_epi64(a->l[1], 16), _mm512_slli_epi64(a->l[2], 32));
    q[2] = _mm512_or_si512(_mm512_srli_epi64(a->l[2], 32), _mm512_slli_epi64(a->l[3], 16));
    q[3] = _mm512_or_si512(a->l[4], _mm512_slli_epi64(a->l[5], 48));
    q[4] = _mm512_or_si512(_mm512_srli_epi64(a->l[5], 16), _mm512_slli_epi64(a->l[6], 32));
    q[5] = _mm512_or_si512(_mm512_srli_epi64(a->l[6], 32), _mm512_slli_epi64(a->l[7], 16));
    q[6] = q[7] = _mm512_setzero_si512();
    fpv_transpose8(row, q);
    FPV_UNROLL for (int i = 0; i < 8; i++) if (lanes >> i & 1) _mm512_mask_storeu_epi64(dst[i]->l, 0x3f, row[i]);
}

#endif
