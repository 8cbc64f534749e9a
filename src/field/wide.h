/* Double-width Fp and Fp2 values for lazy reduction in the extension tower and the pairing.
 *
 * A product of two Montgomery-form elements a R, b R (R = 2^384) is the 768-bit integer
 * a b R^2; sums and differences of such products can be formed at full width and reduced
 * once (Montgomery reduction, fp_redc) instead of reducing every product: Aranha,
 * Karabina, Longa, Gebotys, Lopez, "Faster explicit formulas for computing pairings over
 * ordinary curves" (EUROCRYPT 2011) §3, and Scott, "Implementing cryptographic pairings"
 * (Pairing 2007) before it. The same representation as blst's vec768.
 *
 * fpw_t holds 12 little-endian limbs of an integer t in [0, p 2^384); it stands for the
 * element t R^-2 mod p, i.e. fp_redc(t) in Montgomery form. fpw_add / fpw_sub keep the
 * range by working modulo p 2^384 (a multiple of p, so the element is unchanged). A sum
 * of k products of fully reduced elements is below k p^2, and p 2^384 > 9 p^2.
 *
 * Conventions as in fp.h (pointers, no failure, thread-safe) except where noted: a wide
 * output must not overlap a narrow input. Back ends: mulx/adcx/adox assembly
 * (fp_wide_adx.S) on the adx and ifma back ends, the C of field/mont.h on the portable
 * one (field/cpu.h); results are identical.
 */
#ifndef CUZK_FIELD_WIDE_H
#define CUZK_FIELD_WIDE_H

#include "field/tower.h"

#define FPW_LIMBS 12

typedef struct { uint64_t l[FPW_LIMBS]; } fpw_t;
typedef struct { fpw_t c0, c1; } fp2w_t;

/* r = a b (768-bit product). a and b may be any 6-limb integers (e.g. unreduced sums below
 * 2p); fp_redc needs the result below p 2^384, which holds when a b < 9 p^2. */
void fp_mulw(fpw_t *r, const fp_t *a, const fp_t *b);

/* r = t 2^-384 mod p, fully reduced (Montgomery reduction); t must be below p 2^384. */
void fp_redc(fp_t *r, const fpw_t *t);

/* r = a + b mod p 2^384; a, b in [0, p 2^384). */
LIMB_INLINE void fpw_add(fpw_t *r, const fpw_t *a, const fpw_t *b)
{
    uint64_t s[FPW_LIMBS], c = 0;
    for (size_t i = 0; i < FPW_LIMBS; i++)
        s[i] = adc64(a->l[i], b->l[i], c, &c);
    /* the sum is below 2 p 2^384 < 2^768: reduce its high half below p */
    mont_reduce_once(s + FP_LIMBS, s + FP_LIMBS, fp_modulus_inline_, FP_LIMBS);
    for (size_t i = 0; i < FPW_LIMBS; i++)
        r->l[i] = s[i];
}

/* r = a - b mod p 2^384; a, b in [0, p 2^384). */
LIMB_INLINE void fpw_sub(fpw_t *r, const fpw_t *a, const fpw_t *b)
{
    uint64_t d[FPW_LIMBS], br = 0, c = 0;
    for (size_t i = 0; i < FPW_LIMBS; i++)
        d[i] = sbb64(a->l[i], b->l[i], br, &br);
    uint64_t mask = 0 - br;
    for (size_t i = 0; i < FP_LIMBS; i++)
        d[FP_LIMBS + i] = adc64(d[FP_LIMBS + i], fp_modulus_inline_[i] & mask, c, &c);
    for (size_t i = 0; i < FPW_LIMBS; i++)
        r->l[i] = d[i];
}

/* Fp2 at double width: c0 + c1 u with wide coefficients. */

/* r = a b without reduction (Karatsuba, 3 wide Fp products); a, b fully reduced. */
void fp2_mulw(fp2w_t *r, const fp2_t *a, const fp2_t *b);
/* r = a^2 without reduction ((a0 + a1)(a0 - a1), 2 a0 a1); a fully reduced. */
void fp2_sqrw(fp2w_t *r, const fp2_t *a);

static inline void fp2w_redc(fp2_t *r, const fp2w_t *a)
{
    fp_redc(&r->c0, &a->c0);
    fp_redc(&r->c1, &a->c1);
}

static inline void fp2w_add(fp2w_t *r, const fp2w_t *a, const fp2w_t *b)
{
    fpw_add(&r->c0, &a->c0, &b->c0);
    fpw_add(&r->c1, &a->c1, &b->c1);
}

static inline void fp2w_sub(fp2w_t *r, const fp2w_t *a, const fp2w_t *b)
{
    fpw_sub(&r->c0, &a->c0, &b->c0);
    fpw_sub(&r->c1, &a->c1, &b->c1);
}

/* r = a (u + 1) = (a0 - a1) + (a0 + a1) u, the Fp6 non-residue */
static inline void fp2w_mul_by_nonresidue(fp2w_t *r, const fp2w_t *a)
{
    fpw_t t;
    fpw_sub(&t, &a->c0, &a->c1);
    fpw_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

/* Fp6 at double width (coefficients as in tower.h). The reduced operations of fp6.c are
 * these followed by fp6w_redc, so the Fp6 vectors test them. */
typedef struct { fp2w_t c0, c1, c2; } fp6w_t;

/* r = a b unreduced (Karatsuba over Fp2: 6 fp2_mulw; Devegili et al., ePrint 2006/471) */
void fp6_mulw(fp6w_t *r, const fp6_t *a, const fp6_t *b);
/* r = a^2 unreduced (CH-SQR2 over Fp2: 3 fp2_sqrw and 2 fp2_mulw) */
void fp6_sqrw(fp6w_t *r, const fp6_t *a);
/* r = a (b0 + b1 v) unreduced (5 fp2_mulw), and r = a (b1 v) (3 fp2_mulw) */
void fp6_mul_by_01w(fp6w_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1);
void fp6_mul_by_1w(fp6w_t *r, const fp6_t *a, const fp2_t *b1);

static inline void fp6w_redc(fp6_t *r, const fp6w_t *a)
{
    fp2w_redc(&r->c0, &a->c0);
    fp2w_redc(&r->c1, &a->c1);
    fp2w_redc(&r->c2, &a->c2);
}

static inline void fp6w_add(fp6w_t *r, const fp6w_t *a, const fp6w_t *b)
{
    fp2w_add(&r->c0, &a->c0, &b->c0);
    fp2w_add(&r->c1, &a->c1, &b->c1);
    fp2w_add(&r->c2, &a->c2, &b->c2);
}

static inline void fp6w_sub(fp6w_t *r, const fp6w_t *a, const fp6w_t *b)
{
    fp2w_sub(&r->c0, &a->c0, &b->c0);
    fp2w_sub(&r->c1, &a->c1, &b->c1);
    fp2w_sub(&r->c2, &a->c2, &b->c2);
}

/* r = a + b v (b's product by v = (xi b2, b0, b1)): the "a0 b0 + v a1 b1" of Fp12 products;
 * r may alias a, not b. */
static inline void fp6w_add_mul_by_v(fp6w_t *r, const fp6w_t *a, const fp6w_t *b)
{
    fp2w_t t;
    fp2w_mul_by_nonresidue(&t, &b->c2);
    fp2w_add(&r->c2, &a->c2, &b->c1);
    fp2w_add(&r->c1, &a->c1, &b->c0);
    fp2w_add(&r->c0, &a->c0, &t);
}

#endif
