/* Fp12 = Fp6[w]/(w^2 - v); contracts in tower.h. Cyclotomic squaring: Granger and
 * Scott, "Faster squaring in the cyclotomic subgroup of sixth degree extensions"
 * (PKC 2010), in the Fp4-over-Fp2 arrangement used for BLS12 towers. */
#include "field/tower.h"

const fp12_t FP12_ONE = {{{{{0x760900000002fffdULL, 0xebf4000bc40c0002ULL, 0x5f48985753c758baULL,
                             0x77ce585370525745ULL, 0x5c071a97a256ec6dULL, 0x15f65ec3fa80e493ULL}},
                           {{0}}},
                          {{{0}}, {{0}}},
                          {{{0}}, {{0}}}},
                         {{{{0}}, {{0}}}, {{{0}}, {{0}}}, {{{0}}, {{0}}}}};

/* xi^((p^k-1)/6), k = 1..3 (tools/gen/field_constants.py), Montgomery form */
static const fp2_t FROB12_C1[4] = {
    {{{0}}, {{0}}},
    {{{0x07089552b319d465ULL, 0xc6695f92b50a8313ULL, 0x97e83cccd117228fULL, 0xa35baecab2dc29eeULL,
       0x1ce393ea5daace4dULL, 0x08f2220fb0fb66ebULL}},
     {{0xb2f66aad4ce5d646ULL, 0x5842a06bfc497cecULL, 0xcf4895d42599d394ULL, 0xc11b9cba40a8e8d0ULL,
       0x2e3813cbe5a0de89ULL, 0x110eefda88847fafULL}}},
    {{{0xecfb361b798dba3aULL, 0xc100ddb891865a2cULL, 0x0ec08ff1232bda8eULL, 0xd5c13cc6f1ca4721ULL,
       0x47222a47bf7b5c04ULL, 0x0110f184e51c5f59ULL}}, {{0}}},
    {{{0x3e2f585da55c9ad1ULL, 0x4294213d86c18183ULL, 0x382844c88b623732ULL, 0x92ad2afd19103e18ULL,
       0x1d794e4fac7cf0b9ULL, 0x0bd592fc7d825ec8ULL}},
     {{0x7bcfa7a25aa30fdaULL, 0xdc17dec12a927e7cULL, 0x2f088dd86b4ebef1ULL, 0xd1ca2087da74d4a7ULL,
       0x2da2596696cebc1dULL, 0x0e2b7eedbbfd87d2ULL}}},
};

void fp12_mul(fp12_t *r, const fp12_t *a, const fp12_t *b)
{
    /* (a0 + a1 w)(b0 + b1 w) = a0 b0 + a1 b1 v + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w */
    fp6_t t0, t1, s, t;
    fp6_mul(&t0, &a->c0, &b->c0);
    fp6_mul(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&t, &b->c0, &b->c1);
    fp6_mul(&s, &s, &t);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

void fp12_sqr(fp12_t *r, const fp12_t *a)
{
    /* complex squaring: c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2t, t = a0 a1 */
    fp6_t t, s, u;
    fp6_mul(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_nonresidue(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mul(&s, &s, &u);
    fp6_sub(&s, &s, &t);
    fp6_mul_by_nonresidue(&u, &t);
    fp6_sub(&r->c0, &s, &u);
    fp6_add(&r->c1, &t, &t);
}

void fp12_inv(fp12_t *r, const fp12_t *a)
{
    /* (a0 - a1 w) / (a0^2 - v a1^2) */
    fp6_t t0, t1;
    fp6_sqr(&t0, &a->c0);
    fp6_sqr(&t1, &a->c1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_sub(&t0, &t0, &t1);
    fp6_inv(&t0, &t0);
    fp6_mul(&r->c0, &a->c0, &t0);
    fp6_mul(&t1, &a->c1, &t0);
    fp6_neg(&r->c1, &t1);
}

void fp12_conj(fp12_t *r, const fp12_t *a)
{
    r->c0 = a->c0;
    fp6_neg(&r->c1, &a->c1);
}

void fp12_frobenius(fp12_t *r, const fp12_t *a, unsigned k)
{
    fp6_t c1;
    fp6_frobenius(&r->c0, &a->c0, k);
    fp6_frobenius(&c1, &a->c1, k);
    fp2_mul(&r->c1.c0, &c1.c0, &FROB12_C1[k]);
    fp2_mul(&r->c1.c1, &c1.c1, &FROB12_C1[k]);
    fp2_mul(&r->c1.c2, &c1.c2, &FROB12_C1[k]);
}

void fp12_mul_by_014(fp12_t *r, const fp12_t *a, const fp2_t *o0, const fp2_t *o1, const fp2_t *o4)
{
    /* b = (o0 + o1 v) + (o4 v) w */
    fp6_t t0, t1, s;
    fp2_t o14;
    fp6_mul_by_01(&t0, &a->c0, o0, o1);
    fp6_mul_by_1(&t1, &a->c1, o4);
    fp2_add(&o14, o1, o4);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_01(&s, &s, o0, &o14);
    fp6_sub(&s, &s, &t0);
    fp6_sub(&r->c1, &s, &t1);
    fp6_mul_by_nonresidue(&t1, &t1);
    fp6_add(&r->c0, &t0, &t1);
}

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): returns (a^2 + xi b^2, 2ab). */
static void fp4_sqr(fp2_t *c0, fp2_t *c1, const fp2_t *a, const fp2_t *b)
{
    fp2_t t0, t1, t2;
    fp2_sqr(&t0, a);
    fp2_sqr(&t1, b);
    fp2_mul_by_nonresidue(&t2, &t1);
    fp2_add(c0, &t2, &t0);
    fp2_add(&t2, a, b);
    fp2_sqr(&t2, &t2);
    fp2_sub(&t2, &t2, &t0);
    fp2_sub(c1, &t2, &t1);
}

/* out = 3 t - 2 z  (sign = -1)  or  3 t + 2 z  (sign = +1) */
static void gs_combine(fp2_t *out, const fp2_t *t, const fp2_t *z, int sign)
{
    fp2_t s;
    if (sign < 0)
        fp2_sub(&s, t, z);
    else
        fp2_add(&s, t, z);
    fp2_dbl(&s, &s);
    fp2_add(out, &s, t);
}

void fp12_cyclotomic_sqr(fp12_t *r, const fp12_t *a)
{
    const fp2_t *z0 = &a->c0.c0, *z4 = &a->c0.c1, *z3 = &a->c0.c2;
    const fp2_t *z2 = &a->c1.c0, *z1 = &a->c1.c1, *z5 = &a->c1.c2;
    fp2_t t0, t1, t2, t3, t4, t5, t6;
    fp4_sqr(&t0, &t1, z0, z1);
    fp4_sqr(&t2, &t3, z2, z3);
    fp4_sqr(&t4, &t5, z4, z5);
    fp2_mul_by_nonresidue(&t6, &t5);
    fp12_t o;
    /* (z0, z1)' = 3 A^2 - 2 conj(A); (z4, z5)' = 3 B^2 - 2 conj(C); (z2, z3)' = 3 s C^2 + 2 conj(B); with A = (z0, z1),
     * B = (z2, z3), C = (z4, z5) the Fp4 coefficients of w^0, w^1, w^2. */
    gs_combine(&o.c0.c0, &t0, z0, -1);
    gs_combine(&o.c1.c1, &t1, z1, +1);
    gs_combine(&o.c0.c1, &t2, z4, -1);
    gs_combine(&o.c1.c2, &t3, z5, +1);
    gs_combine(&o.c1.c0, &t6, z2, +1);
    gs_combine(&o.c0.c2, &t4, z3, -1);
    *r = o;
}

void fp12_pow(fp12_t *r, const fp12_t *a, const uint64_t *e, size_t nlimbs)
{
    fp12_t acc = FP12_ONE, base = *a;
    for (size_t i = nlimbs; i-- > 0;)
        for (int bit = 63; bit >= 0; bit--) {
            fp12_sqr(&acc, &acc);
            if ((e[i] >> bit) & 1)
                fp12_mul(&acc, &acc, &base);
        }
    *r = acc;
}

bool fp12_eq(const fp12_t *a, const fp12_t *b)
{
    return fp6_eq(&a->c0, &b->c0) && fp6_eq(&a->c1, &b->c1);
}

bool fp12_is_one(const fp12_t *a)
{
    return fp12_eq(a, &FP12_ONE);
}
