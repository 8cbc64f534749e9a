/* Extension-field tower of BLS12-381 (the same tower as blst, zkcrypto/bls12_381 and
 * @noble/curves, so coefficients compare one to one):
 *
 *   Fp2  = Fp[u]  / (u^2 + 1)          element c0 + c1*u
 *   Fp6  = Fp2[v] / (v^3 - (u + 1))    element c0 + c1*v + c2*v^2
 *   Fp12 = Fp6[w] / (w^2 - v)          element c0 + c1*w
 *
 * Conventions as in fp.h: pointer arguments, any aliasing, no failure, thread-safe.
 * Frobenius maps use precomputed constants (tools/gen/field_constants.py).
 * Source of the tower and formulas: "Guide to Pairing-Based Cryptography" (Mrabet, Joye),
 * ch. 5; Beuchat et al., "High-speed software implementation of the optimal ate pairing
 * over Barreto-Naehrig curves" (Pairing 2010) for Fp6/Fp12 multiplication.
 */
#ifndef CUZK_FIELD_TOWER_H
#define CUZK_FIELD_TOWER_H

#include "field/fp.h"

typedef struct { fp_t c0, c1; } fp2_t;
typedef struct { fp2_t c0, c1, c2; } fp6_t;
typedef struct { fp6_t c0, c1; } fp12_t;

extern const fp2_t FP2_ZERO, FP2_ONE;

/* Additions are inline (they sit between the products of every tower operation). */
LIMB_INLINE void fp2_add(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_add(&r->c0, &a->c0, &b->c0);
    fp_add(&r->c1, &a->c1, &b->c1);
}
LIMB_INLINE void fp2_sub(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    fp_sub(&r->c0, &a->c0, &b->c0);
    fp_sub(&r->c1, &a->c1, &b->c1);
}
LIMB_INLINE void fp2_neg(fp2_t *r, const fp2_t *a)
{
    fp_neg(&r->c0, &a->c0);
    fp_neg(&r->c1, &a->c1);
}
LIMB_INLINE void fp2_dbl(fp2_t *r, const fp2_t *a)
{
    fp_dbl(&r->c0, &a->c0);
    fp_dbl(&r->c1, &a->c1);
}
LIMB_INLINE void fp2_conj(fp2_t *r, const fp2_t *a)
{
    r->c0 = a->c0;
    fp_neg(&r->c1, &a->c1);
}
void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b);
void fp2_sqr(fp2_t *r, const fp2_t *a);
void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b);
/* r = a * (u + 1), the Fp6 non-residue */
void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a);
void fp2_inv(fp2_t *r, const fp2_t *a);          /* inverse of 0 is 0 */
void fp2_pow(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t nlimbs);
/* Square root in Fp2; false (r untouched) for non-squares. */
bool fp2_sqrt(fp2_t *r, const fp2_t *a);
int fp2_legendre(const fp2_t *a);                 /* via the norm c0^2 + c1^2 */
void fp2_frobenius(fp2_t *r, const fp2_t *a);     /* a^p = conjugate */
bool fp2_is_zero(const fp2_t *a);
bool fp2_eq(const fp2_t *a, const fp2_t *b);
/* ZCash sort bit for an Fp2 y: if y.c1 != 0 then c1 > (p-1)/2 else c0 > (p-1)/2. */
bool fp2_is_lexicographically_largest(const fp2_t *a);

extern const fp6_t FP6_ZERO, FP6_ONE;
LIMB_INLINE void fp6_add(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_add(&r->c0, &a->c0, &b->c0);
    fp2_add(&r->c1, &a->c1, &b->c1);
    fp2_add(&r->c2, &a->c2, &b->c2);
}
LIMB_INLINE void fp6_sub(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2_sub(&r->c0, &a->c0, &b->c0);
    fp2_sub(&r->c1, &a->c1, &b->c1);
    fp2_sub(&r->c2, &a->c2, &b->c2);
}
LIMB_INLINE void fp6_neg(fp6_t *r, const fp6_t *a)
{
    fp2_neg(&r->c0, &a->c0);
    fp2_neg(&r->c1, &a->c1);
    fp2_neg(&r->c2, &a->c2);
}
void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b);
void fp6_sqr(fp6_t *r, const fp6_t *a);
void fp6_inv(fp6_t *r, const fp6_t *a);
/* r = a * v */
void fp6_mul_by_nonresidue(fp6_t *r, const fp6_t *a);
/* Sparse products used by line evaluation: b = b0 + b1*v, and b = b1*v. */
void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1);
void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1);
/* a^(p^k) for k = 1, 2, 3 */
void fp6_frobenius(fp6_t *r, const fp6_t *a, unsigned k);
bool fp6_is_zero(const fp6_t *a);
bool fp6_eq(const fp6_t *a, const fp6_t *b);

extern const fp12_t FP12_ONE;
void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b);
void fp12_sqr(fp12_t *r, const fp12_t *a);
void fp12_inv(fp12_t *r, const fp12_t *a);
void fp12_conj(fp12_t *r, const fp12_t *a);   /* a^(p^6): the inverse on the cyclotomic subgroup */
/* a^(p^k), k = 1, 2, 3 */
void fp12_frobenius(fp12_t *r, const fp12_t *a, unsigned k);
/* Sparse product with a line: b = (o0 + o1*v) + (o4*v)*w, i.e. the 6 Fp2 coefficients
 * (c0.c0, c0.c1, c0.c2, c1.c0, c1.c1, c1.c2) = (o0, o1, 0, 0, o4, 0) ("014", the M-type
 * twist lines of BLS12-381). */
void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *o0, const fp2_t *o1, const fp2_t *o4);
/* The same with o4 = 1: b = (o0 + o1*v) + v*w, the line of a normalised prepared point
 * scaled by 1/yP (curve/pairing.h): a*b1 = a1*v needs no product, so 10 Fp2 products
 * instead of 13. */
void fp12_mul_by_014_unit(fp12_t *r, const fp12_t *a, const fp2_t *o0, const fp2_t *o1);
/* Granger-Scott squaring, valid only for elements of the cyclotomic subgroup. */
void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a);
/* r = a^e for a in the cyclotomic subgroup (any a with a^(p^6 + 1) = 1: the output of the
 * final exponentiation's easy part, or of GT). Squarings run in Karabina's compressed form
 * (4 of the 6 Fp2 coefficients; Karabina, Math. Comp. 82, 2013) through runs of at least
 * 4 zero bits, the saved powers are decompressed with one shared Fp2 inversion
 * (Montgomery's trick), and the tail goes through Granger-Scott squarings; an element that
 * the compressed form cannot represent (a coefficient c1.c0 that becomes 0, e.g. a = 1)
 * falls back to plain square-and-multiply. Wrong results, no failure, for a outside the
 * subgroup. Uses about 24 KiB of stack. */
void fp12_cyclotomic_pow_u64(fp12_t *r, const fp12_t *a, uint64_t e);
void fp12_pow(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t nlimbs);
bool fp12_eq(const fp12_t *a, const fp12_t *b);
bool fp12_is_one(const fp12_t *a);

#endif
