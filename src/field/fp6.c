/* Fp6 = Fp2[v]/(v^3 - (u+1)); contracts in tower.h and wide.h. Multiplication and squaring:
 * Chung-Hasan / Karatsuba forms from Devegili, O hEigeartaigh, Scott, Dahab,
 * "Multiplication and Squaring on Pairing-Friendly Fields" (ePrint 2006/471), with the
 * Fp2 products at double width and one reduction per coefficient (lazy reduction, Aranha
 * et al., EUROCRYPT 2011; field/wide.h). */
#include "field/tower.h"
#include "field/wide.h"

#define FP_ONE_MONT {{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL, \
                      0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}}
const fp6_t FP6_ZERO = {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};
const fp6_t FP6_ONE = {{FP_ONE_MONT, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}};

/* Frobenius constants (tools/gen/field_constants.py): c1 by xi^((p^k-1)/3), c2 by
 * xi^(2(p^k-1)/3), k = 1..3, Montgomery form. */
static const fp2_t FROB6_C1[4] = {
    {{{0}}, {{0}}},
    {{{0}}, {{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
              0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}},
    {{{0x30f1361b798a64e8ULL, 0xf3b8ddab7ece5a2aULL, 0x16a8ca3ac61577f7ULL, 0xc26a2ff874fd029bULL,
       0x3636b76660701c6eULL, 0x051ba4ab241b6160ULL}}, {{0}}},
    {{{0}}, FP_ONE_MONT},
};
static const fp2_t FROB6_C2[4] = {
    {{{0}}, {{0}}},
    {{{0x890dc9e4867545c3ULL, 0x2af322533285a5d5ULL, 0x50880866309b7e2cULL, 0xa20d1b8c7e881024ULL,
       0x14e4f04fe2db9068ULL, 0x14e56d3f1564853aULL}}, {{0}}},
    {{{0xcd03c9e48671f071ULL, 0x5dab22461fcda5d2ULL, 0x587042afd3851b95ULL, 0x8eb60ebe01bacb9eULL,
       0x03f97d6e83d050d2ULL, 0x18f0206554638741ULL}}, {{0}}},
    {{{0x43f5fffffffcaaaeULL, 0x32b7fff2ed47fffdULL, 0x07e83a49a2e99d69ULL, 0xeca8f3318332bb7aULL,
       0xef148d1ea0f4c069ULL, 0x040ab3263eff0206ULL}}, {{0}}},
};

void fp6_mulw(fp6w_t *r, const fp6_t *a, const fp6_t *b)
{
    fp2w_t v0, v1, v2, s;
    fp2_t x, y;
    fp2_mulw(&v0, &a->c0, &b->c0);
    fp2_mulw(&v1, &a->c1, &b->c1);
    fp2_mulw(&v2, &a->c2, &b->c2);
    /* c0 = v0 + xi((a1 + a2)(b1 + b2) - v1 - v2) */
    fp2_add(&x, &a->c1, &a->c2);
    fp2_add(&y, &b->c1, &b->c2);
    fp2_mulw(&s, &x, &y);
    fp2w_sub(&s, &s, &v1);
    fp2w_sub(&s, &s, &v2);
    fp2w_mul_by_nonresidue(&s, &s);
    fp2w_add(&r->c0, &s, &v0);
    /* c1 = (a0 + a1)(b0 + b1) - v0 - v1 + xi v2 */
    fp2_add(&x, &a->c0, &a->c1);
    fp2_add(&y, &b->c0, &b->c1);
    fp2_mulw(&s, &x, &y);
    fp2w_sub(&s, &s, &v0);
    fp2w_sub(&s, &s, &v1);
    fp2w_mul_by_nonresidue(&r->c1, &v2);
    fp2w_add(&r->c1, &r->c1, &s);
    /* c2 = (a0 + a2)(b0 + b2) - v0 - v2 + v1 */
    fp2_add(&x, &a->c0, &a->c2);
    fp2_add(&y, &b->c0, &b->c2);
    fp2_mulw(&s, &x, &y);
    fp2w_sub(&s, &s, &v0);
    fp2w_sub(&s, &s, &v2);
    fp2w_add(&r->c2, &s, &v1);
}

void fp6_mul(fp6_t *r, const fp6_t *a, const fp6_t *b)
{
    fp6w_t t;
    fp6_mulw(&t, a, b);
    fp6w_redc(r, &t);
}

void fp6_sqrw(fp6w_t *r, const fp6_t *a)
{
    /* CH-SQR2 at double width: s0 = a0^2, m01 = 2 a0 a1, m12 = 2 a1 a2, s2 = a2^2;
     * c2 = (a0 + a1 + a2)^2 - s0 - s2 - m01 - m12 = a1^2 + 2 a0 a2,
     * c0 = s0 + xi m12, c1 = m01 + xi s2. */
    fp2w_t s0, m01, m12, s2;
    fp2_t t;
    fp2_sqrw(&s0, &a->c0);
    fp2_dbl(&t, &a->c1);
    fp2_mulw(&m01, &a->c0, &t);
    fp2_mulw(&m12, &t, &a->c2);
    fp2_sqrw(&s2, &a->c2);
    fp2_add(&t, &a->c0, &a->c1);
    fp2_add(&t, &t, &a->c2);
    fp2_sqrw(&r->c2, &t);
    fp2w_sub(&r->c2, &r->c2, &s0);
    fp2w_sub(&r->c2, &r->c2, &s2);
    fp2w_sub(&r->c2, &r->c2, &m01);
    fp2w_sub(&r->c2, &r->c2, &m12);
    fp2w_mul_by_nonresidue(&r->c0, &m12);
    fp2w_add(&r->c0, &r->c0, &s0);
    fp2w_mul_by_nonresidue(&r->c1, &s2);
    fp2w_add(&r->c1, &r->c1, &m01);
}

void fp6_sqr(fp6_t *r, const fp6_t *a)
{
    fp6w_t t;
    fp6_sqrw(&t, a);
    fp6w_redc(r, &t);
}

void fp6_inv(fp6_t *r, const fp6_t *a)
{
    fp2_t t0, t1, t2, s, n;
    /* t0 = a0^2 - xi a1 a2; t1 = xi a2^2 - a0 a1; t2 = a1^2 - a0 a2 */
    fp2_sqr(&t0, &a->c0);
    fp2_mul(&s, &a->c1, &a->c2);
    fp2_mul_by_nonresidue(&s, &s);
    fp2_sub(&t0, &t0, &s);
    fp2_sqr(&t1, &a->c2);
    fp2_mul_by_nonresidue(&t1, &t1);
    fp2_mul(&s, &a->c0, &a->c1);
    fp2_sub(&t1, &t1, &s);
    fp2_sqr(&t2, &a->c1);
    fp2_mul(&s, &a->c0, &a->c2);
    fp2_sub(&t2, &t2, &s);
    /* n = a0 t0 + xi (a2 t1 + a1 t2) */
    fp2_mul(&n, &a->c2, &t1);
    fp2_mul(&s, &a->c1, &t2);
    fp2_add(&n, &n, &s);
    fp2_mul_by_nonresidue(&n, &n);
    fp2_mul(&s, &a->c0, &t0);
    fp2_add(&n, &n, &s);
    fp2_inv(&n, &n);
    fp2_mul(&r->c0, &t0, &n);
    fp2_mul(&r->c1, &t1, &n);
    fp2_mul(&r->c2, &t2, &n);
}

void fp6_mul_by_nonresidue(fp6_t *r, const fp6_t *a)
{
    /* (a0 + a1 v + a2 v^2) v = xi a2 + a0 v + a1 v^2 */
    fp2_t t;
    fp2_mul_by_nonresidue(&t, &a->c2);
    r->c2 = a->c1;
    r->c1 = a->c0;
    r->c0 = t;
}

void fp6_mul_by_01w(fp6w_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1)
{
    /* c0 = a0 b0 + xi a2 b1, c1 = (a0 + a1)(b0 + b1) - a0 b0 - a1 b1, c2 = a2 b0 + a1 b1 */
    fp2w_t v0, v1, s;
    fp2_t x, y;
    fp2_mulw(&v0, &a->c0, b0);
    fp2_mulw(&v1, &a->c1, b1);
    fp2_mulw(&s, &a->c2, b1);
    fp2w_mul_by_nonresidue(&s, &s);
    fp2w_add(&r->c0, &s, &v0);
    fp2_add(&x, &a->c0, &a->c1);
    fp2_add(&y, b0, b1);
    fp2_mulw(&s, &x, &y);
    fp2w_sub(&s, &s, &v0);
    fp2w_sub(&r->c1, &s, &v1);
    fp2_mulw(&s, &a->c2, b0);
    fp2w_add(&r->c2, &s, &v1);
}

void fp6_mul_by_01(fp6_t *r, const fp6_t *a, const fp2_t *b0, const fp2_t *b1)
{
    fp6w_t t;
    fp6_mul_by_01w(&t, a, b0, b1);
    fp6w_redc(r, &t);
}

void fp6_mul_by_1w(fp6w_t *r, const fp6_t *a, const fp2_t *b1)
{
    /* (a0 + a1 v + a2 v^2) b1 v = xi a2 b1 + a0 b1 v + a1 b1 v^2 */
    fp2w_t t;
    fp2_mulw(&t, &a->c2, b1);
    fp2w_mul_by_nonresidue(&r->c0, &t);
    fp2_mulw(&r->c1, &a->c0, b1);
    fp2_mulw(&r->c2, &a->c1, b1);
}

void fp6_mul_by_1(fp6_t *r, const fp6_t *a, const fp2_t *b1)
{
    fp6w_t t;
    fp6_mul_by_1w(&t, a, b1);
    fp6w_redc(r, &t);
}

void fp6_frobenius(fp6_t *r, const fp6_t *a, unsigned k)
{
    fp2_t c0 = a->c0, c1 = a->c1, c2 = a->c2;
    if (k & 1) {
        fp2_conj(&c0, &c0);
        fp2_conj(&c1, &c1);
        fp2_conj(&c2, &c2);
    }
    fp2_mul(&r->c1, &c1, &FROB6_C1[k]);
    fp2_mul(&r->c2, &c2, &FROB6_C2[k]);
    r->c0 = c0;
}

bool fp6_is_zero(const fp6_t *a)
{
    return fp2_is_zero(&a->c0) && fp2_is_zero(&a->c1) && fp2_is_zero(&a->c2);
}

bool fp6_eq(const fp6_t *a, const fp6_t *b)
{
    return fp2_eq(&a->c0, &b->c0) && fp2_eq(&a->c1, &b->c1) && fp2_eq(&a->c2, &b->c2);
}
