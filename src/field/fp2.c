/* Fp2 = Fp[u]/(u^2+1); contracts in tower.h. Multiplication and squaring on the adx and
 * ifma back ends: one assembly routine each (fp_wide_adx.S: Karatsuba at double width,
 * one Montgomery reduction per coefficient). */
#include "field/tower.h"

#include "field/cpu.h"

#ifndef CUZK_FIELD_PORTABLE
void cuzk_fp2_mul_adx(fp2_t *r, const fp2_t *a, const fp2_t *b);
void cuzk_fp2_sqr_adx(fp2_t *r, const fp2_t *a);
#define FP2_ADX 1
#endif

const fp2_t FP2_ZERO = {{{0}}, {{0}}};
const fp2_t FP2_ONE = {{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, 0x77ce585370525745ULL,
                         0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                       {{0}}};

void fp2_frobenius(fp2_t *r, const fp2_t *a)
{
    fp2_conj(r, a);
}

void fp2_mul(fp2_t *r, const fp2_t *a, const fp2_t *b)
{
    /* Karatsuba: (a0 b0 - a1 b1) + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) u */
#ifdef FP2_ADX
    if (cuzk_cpu_use_adx()) {
        cuzk_fp2_mul_adx(r, a, b);
        return;
    }
#endif
    fp_t t0, t1, s0, s1;
    fp_mul(&t0, &a->c0, &b->c0);
    fp_mul(&t1, &a->c1, &b->c1);
    fp_add(&s0, &a->c0, &a->c1);
    fp_add(&s1, &b->c0, &b->c1);
    fp_mul(&s0, &s0, &s1);
    fp_sub(&s0, &s0, &t0);
    fp_sub(&r->c1, &s0, &t1);
    fp_sub(&r->c0, &t0, &t1);
}

void fp2_sqr(fp2_t *r, const fp2_t *a)
{
    /* (a0 + a1)(a0 - a1) + 2 a0 a1 u */
#ifdef FP2_ADX
    if (cuzk_cpu_use_adx()) {
        cuzk_fp2_sqr_adx(r, a);
        return;
    }
#endif
    fp_t s, d, m;
    fp_add(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    fp_mul(&m, &a->c0, &a->c1);
    fp_mul(&r->c0, &s, &d);
    fp_dbl(&r->c1, &m);
}

void fp2_mul_fp(fp2_t *r, const fp2_t *a, const fp_t *b)
{
    fp_mul(&r->c0, &a->c0, b);
    fp_mul(&r->c1, &a->c1, b);
}

void fp2_mul_by_nonresidue(fp2_t *r, const fp2_t *a)
{
    /* (a0 + a1 u)(1 + u) = (a0 - a1) + (a0 + a1) u */
    fp_t t;
    fp_sub(&t, &a->c0, &a->c1);
    fp_add(&r->c1, &a->c0, &a->c1);
    r->c0 = t;
}

void fp2_inv(fp2_t *r, const fp2_t *a)
{
    /* conj(a) / (a0^2 + a1^2) */
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    fp_inv(&n, &n);
    fp_mul(&r->c0, &a->c0, &n);
    fp_mul(&t, &a->c1, &n);
    fp_neg(&r->c1, &t);
}

void fp2_pow(fp2_t *r, const fp2_t *a, const uint64_t *e, size_t nlimbs)
{
    fp2_t acc = FP2_ONE, base = *a;
    for (size_t i = nlimbs; i-- > 0;)
        for (int bit = 63; bit >= 0; bit--) {
            fp2_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1)
                fp2_mul(&acc, &acc, &base);
        }
    *r = acc;
}

bool fp2_is_zero(const fp2_t *a)
{
    return fp_is_zero(&a->c0) && fp_is_zero(&a->c1);
}

bool fp2_eq(const fp2_t *a, const fp2_t *b)
{
    return fp_eq(&a->c0, &b->c0) && fp_eq(&a->c1, &b->c1);
}

int fp2_legendre(const fp2_t *a)
{
    /* a is a square in Fp2 iff its norm is a square in Fp. */
    fp_t n, t;
    fp_sqr(&n, &a->c0);
    fp_sqr(&t, &a->c1);
    fp_add(&n, &n, &t);
    return fp_legendre(&n);
}

bool fp2_is_lexicographically_largest(const fp2_t *a)
{
    if (!fp_is_zero(&a->c1))
        return fp_is_lexicographically_largest(&a->c1);
    return fp_is_lexicographically_largest(&a->c0);
}

bool fp2_sqrt(fp2_t *r, const fp2_t *a)
{
    /* Adj and Rodriguez-Henriquez, "Square root computation over even extension fields",
     * IEEE TC 2014, Algorithm 9 (p = 3 mod 4). The candidate is verified by squaring. */
    if (fp2_is_zero(a)) {
        *r = FP2_ZERO;
        return true;
    }
    /* e1 = (p - 3) / 4, e2 = (p - 1) / 2 */
    uint64_t e1[FP_LIMBS], e2[FP_LIMBS];
    for (size_t i = 0; i < FP_LIMBS; i++)
        e1[i] = e2[i] = FP_MODULUS[i];
    e1[0] -= 3;
    e2[0] -= 1;
    for (size_t i = 0; i < FP_LIMBS; i++) {
        e1[i] = (e1[i] >> 2) | (i + 1 < FP_LIMBS ? e1[i + 1] << 62 : 0);
        e2[i] = (e2[i] >> 1) | (i + 1 < FP_LIMBS ? e2[i + 1] << 63 : 0);
    }
    fp2_t a1, alpha, x0, cand, check, minus_one;
    fp2_pow(&a1, a, e1, FP_LIMBS);
    fp2_mul(&x0, &a1, a);       /* a^((p+1)/4) */
    fp2_mul(&alpha, &a1, &x0);  /* a^((p-1)/2) */
    fp2_neg(&minus_one, &FP2_ONE);
    if (fp2_eq(&alpha, &minus_one)) {
        /* multiply by u: (c0 + c1 u) u = -c1 + c0 u */
        fp_neg(&cand.c0, &x0.c1);
        cand.c1 = x0.c0;
    } else {
        fp2_t b;
        fp2_add(&b, &alpha, &FP2_ONE);
        fp2_pow(&b, &b, e2, FP_LIMBS);
        fp2_mul(&cand, &b, &x0);
    }
    fp2_sqr(&check, &cand);
    if (!fp2_eq(&check, a))
        return false;
    *r = cand;
    return true;
}
