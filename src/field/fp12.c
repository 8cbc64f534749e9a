/* Fp12 = Fp6[w]/(w^2 - v); contracts in tower.h. Products and squarings at double width
 * with one reduction per coefficient (lazy reduction, field/wide.h). Cyclotomic squaring:
 * Granger and Scott, "Faster squaring in the cyclotomic subgroup of sixth degree
 * extensions" (PKC 2010), in the Fp4-over-Fp2 arrangement used for BLS12 towers;
 * compressed squaring: Karabina (below). */
#include "field/tower.h"
#include "field/wide.h"

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
    /* (a0 + a1 w)(b0 + b1 w) = a0 b0 + a1 b1 v + ((a0 + a1)(b0 + b1) - a0 b0 - a1 b1) w,
     * products at double width, 12 reductions */
    fp6w_t t0, t1, x;
    fp6_t s, t;
    fp6_mulw(&t0, &a->c0, &b->c0);
    fp6_mulw(&t1, &a->c1, &b->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_add(&t, &b->c0, &b->c1);
    fp6_mulw(&x, &s, &t);
    fp6w_sub(&x, &x, &t0);
    fp6w_sub(&x, &x, &t1);
    fp6w_redc(&r->c1, &x);
    fp6w_add_mul_by_v(&x, &t0, &t1);
    fp6w_redc(&r->c0, &x);
}

void fp12_sqr(fp12_t *r, const fp12_t *a)
{
    /* complex squaring: c0 = (a0 + a1)(a0 + v a1) - t - v t, c1 = 2t, t = a0 a1 */
    fp6w_t t, x;
    fp6_t s, u;
    fp2w_t v;
    fp6_mulw(&t, &a->c0, &a->c1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_nonresidue(&u, &a->c1);
    fp6_add(&u, &u, &a->c0);
    fp6_mulw(&x, &s, &u);
    fp6w_sub(&x, &x, &t);
    fp2w_mul_by_nonresidue(&v, &t.c2); /* v t = (xi t2, t0, t1) */
    fp2w_sub(&x.c0, &x.c0, &v);
    fp2w_sub(&x.c1, &x.c1, &t.c0);
    fp2w_sub(&x.c2, &x.c2, &t.c1);
    fp6w_redc(&r->c0, &x);
    fp6w_redc(&r->c1, &t);
    fp6_add(&r->c1, &r->c1, &r->c1);
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
    /* b = (o0 + o1 v) + (o4 v) w: t0 = a0 b0, t1 = a1 b1, c1 = (a0 + a1)(b0 + b1) - t0 - t1,
     * c0 = t0 + v t1, at double width (13 Fp2 products, 12 reductions) */
    fp6w_t t0, t1, x;
    fp6_t s;
    fp2_t o14;
    fp6_mul_by_01w(&t0, &a->c0, o0, o1);
    fp6_mul_by_1w(&t1, &a->c1, o4);
    fp2_add(&o14, o1, o4);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_01w(&x, &s, o0, &o14);
    fp6w_sub(&x, &x, &t0);
    fp6w_sub(&x, &x, &t1);
    fp6w_redc(&r->c1, &x);
    fp6w_add_mul_by_v(&x, &t0, &t1);
    fp6w_redc(&r->c0, &x);
}

void fp12_mul_by_014_unit(fp12_t *r, const fp12_t *a, const fp2_t *o0, const fp2_t *o1)
{
    /* b0 = o0 + o1 v, b1 = v: t0 = a0 b0 (5 products), a1 b1 = v a1 (a shift),
     * c1 = (a0 + a1)(o0 + (o1 + 1) v) - t0 - v a1, c0 = t0 + v (v a1); the shifted terms are
     * added after the reduction (redc(t + X 2^384) = redc(t) + X). */
    fp6w_t t0, x;
    fp6_t s, va1, vva1, c0, c1;
    fp2_t o11 = *o1;
    fp_add(&o11.c0, &o11.c0, &FP_ONE);
    fp6_mul_by_01w(&t0, &a->c0, o0, o1);
    fp6_add(&s, &a->c0, &a->c1);
    fp6_mul_by_01w(&x, &s, o0, &o11);
    fp6w_sub(&x, &x, &t0);
    fp6w_redc(&c1, &x);
    fp6_mul_by_nonresidue(&va1, &a->c1);
    fp6_sub(&r->c1, &c1, &va1);
    fp6_mul_by_nonresidue(&vva1, &va1);
    fp6w_redc(&c0, &t0);
    fp6_add(&r->c0, &c0, &vva1);
}

/* (a + b s)^2 in Fp4 = Fp2[s]/(s^2 - xi): returns (a^2 + xi b^2, 2ab) with
 * 2ab = (a + b)^2 - a^2 - b^2, squares at double width (3 fp2_sqrw, 4 reductions). */
static void fp4_sqr(fp2_t *c0, fp2_t *c1, const fp2_t *a, const fp2_t *b)
{
    fp2w_t t0, t1, t2;
    fp2_t s;
    fp2_sqrw(&t0, a);
    fp2_sqrw(&t1, b);
    fp2_add(&s, a, b);
    fp2w_mul_by_nonresidue(&t2, &t1);
    fp2w_add(&t2, &t2, &t0);
    fp2w_redc(c0, &t2);
    fp2_sqrw(&t2, &s);
    fp2w_sub(&t2, &t2, &t0);
    fp2w_sub(&t2, &t2, &t1);
    fp2w_redc(c1, &t2);
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

/* Karabina's compressed representation of a cyclotomic element: the four Fp2 coefficients
 * z2 = c1.c0, z3 = c0.c2, z4 = c0.c1, z5 = c1.c2 (the Granger-Scott squaring above maps
 * them among themselves; z0 = c0.c0 and z1 = c1.c1 follow from them). Karabina, "Squaring
 * in cyclotomic subgroups", Math. Comp. 82 (2013); formulas as in Aranha, Karabina, Longa,
 * Gebotys, Lopez (EUROCRYPT 2011) §5.2, in this tower's coefficient order. */
typedef struct { fp2_t z2, z3, z4, z5; } fp12_cmp_t;

/* r = a^2 in compressed form: z2' = 2 z2 + 3 xi (2 z4 z5), z3' = 3 (z4^2 + xi z5^2) - 2 z3,
 * z4' = 3 (z2^2 + xi z3^2) - 2 z4, z5' = 2 z5 + 3 (2 z2 z3), with 2 z4 z5 = (z4 + z5)^2 -
 * z4^2 - z5^2 (and likewise z2 z3): 6 squarings at double width, 8 reductions, against 9
 * squarings and 12 reductions for the full Granger-Scott squaring. */
static void karabina_sqr(fp12_cmp_t *r, const fp12_cmp_t *a)
{
    fp2w_t s2, s3, s4, s5, s23, s45, x;
    fp2_t t, n2, n3, n4, n5;
    fp2_sqrw(&s4, &a->z4);
    fp2_sqrw(&s5, &a->z5);
    fp2_add(&t, &a->z4, &a->z5);
    fp2_sqrw(&s45, &t);
    fp2_sqrw(&s2, &a->z2);
    fp2_sqrw(&s3, &a->z3);
    fp2_add(&t, &a->z2, &a->z3);
    fp2_sqrw(&s23, &t);
    fp2w_sub(&x, &s45, &s4);
    fp2w_sub(&x, &x, &s5);
    fp2w_mul_by_nonresidue(&x, &x);
    fp2w_redc(&t, &x);
    gs_combine(&n2, &t, &a->z2, +1);
    fp2w_mul_by_nonresidue(&x, &s5);
    fp2w_add(&x, &x, &s4);
    fp2w_redc(&t, &x);
    gs_combine(&n3, &t, &a->z3, -1);
    fp2w_mul_by_nonresidue(&x, &s3);
    fp2w_add(&x, &x, &s2);
    fp2w_redc(&t, &x);
    gs_combine(&n4, &t, &a->z4, -1);
    fp2w_sub(&x, &s23, &s2);
    fp2w_sub(&x, &x, &s3);
    fp2w_redc(&t, &x);
    gs_combine(&n5, &t, &a->z5, +1);
    r->z2 = n2;
    r->z3 = n3;
    r->z4 = n4;
    r->z5 = n5;
}

/* Decompress n states at once (one Fp2 inversion, Montgomery's trick) and multiply them all
 * into acc (acc = their product times acc's value when have_acc, else their product); last
 * = the decompressed in[n - 1]. For z2 != 0: z1 = (xi z5^2 + 3 z4^2 - 2 z3) / (4 z2) and
 * z0 = xi (2 z1^2 + z2 z5 - 3 z3 z4) + 1. Every z2 must be non-zero (the caller checks);
 * num and tmp hold n scratch values each; n >= 1. */
static void karabina_decompress_mul(fp12_t *acc, bool have_acc, fp12_t *last, const fp12_cmp_t *in, fp2_t *num,
                                    fp2_t *tmp, size_t n)
{
    fp2_t prod = FP2_ONE, inv, t, u;
    for (size_t i = 0; i < n; i++) {
        fp2_sqr(&t, &in[i].z5);
        fp2_mul_by_nonresidue(&t, &t);
        fp2_sqr(&u, &in[i].z4);
        fp2_add(&t, &t, &u);
        fp2_add(&u, &u, &u);
        fp2_add(&t, &t, &u);
        fp2_sub(&t, &t, &in[i].z3);
        fp2_sub(&num[i], &t, &in[i].z3); /* xi z5^2 + 3 z4^2 - 2 z3 */
        tmp[i] = prod;                   /* prod_{j<i} den_j */
        fp2_dbl(&t, &in[i].z2);
        fp2_dbl(&t, &t);                 /* den_i = 4 z2 */
        fp2_mul(&prod, &prod, &t);
    }
    fp2_inv(&inv, &prod);
    for (size_t i = n; i-- > 0;) {
        fp12_t o;
        fp2_t z1;
        fp2_mul(&t, &inv, &tmp[i]);      /* 1 / den_i */
        fp2_dbl(&u, &in[i].z2);
        fp2_dbl(&u, &u);
        fp2_mul(&inv, &inv, &u);         /* 1 / prod_{j<i} den_j */
        fp2_mul(&z1, &num[i], &t);
        fp2_sqr(&t, &z1);
        fp2_dbl(&t, &t);
        fp2_mul(&u, &in[i].z2, &in[i].z5);
        fp2_add(&t, &t, &u);
        fp2_mul(&u, &in[i].z3, &in[i].z4);
        fp2_sub(&t, &t, &u);
        fp2_sub(&t, &t, &u);
        fp2_sub(&t, &t, &u);
        fp2_mul_by_nonresidue(&t, &t);
        fp2_add(&o.c0.c0, &t, &FP2_ONE);
        o.c0.c1 = in[i].z4;
        o.c0.c2 = in[i].z3;
        o.c1.c0 = in[i].z2;
        o.c1.c1 = z1;
        o.c1.c2 = in[i].z5;
        if (i == n - 1)
            *last = o;
        if (have_acc)
            fp12_mul(acc, acc, &o);
        else
            *acc = o;
        have_acc = true;
    }
}

/* Runs of at least this many squarings between set exponent bits go compressed. */
#define KARABINA_MIN_RUN 4

void fp12_cyclotomic_pow_u64(fp12_t *r, const fp12_t *a, uint64_t e)
{
    if (e == 0) {
        *r = FP12_ONE;
        return;
    }
    int top = 63 - __builtin_clzll(e);
    /* kc: the set bit where the compressed phase ends. Above it the gaps between set bits are
     * all shorter than KARABINA_MIN_RUN and go through Granger-Scott squarings. */
    int kc = top, prev = top;
    for (int k = top - 1; k >= 0; k--) {
        if (!((e >> k) & 1))
            continue;
        if (prev - k < KARABINA_MIN_RUN && kc == prev)
            kc = k;
        prev = k;
    }
    /* the compressed phase: squarings from bit 0 up to kc, states saved at set bits >= 1 */
    fp12_cmp_t st[64];
    fp2_t num[64], tmp[64];
    size_t ns = 0;
    bool ok = true;
    fp12_cmp_t c = {a->c1.c0, a->c0.c2, a->c0.c1, a->c1.c2};
    for (int k = 1; k <= kc; k++) {
        karabina_sqr(&c, &c);
        if ((e >> k) & 1) {
            if (fp2_is_zero(&c.z2))
                ok = false; /* the closed form needs z2 != 0 (for instance a = 1) */
            st[ns++] = c;
        }
    }
    if (!ok) { /* plain square-and-multiply */
        fp12_t acc = *a;
        for (int k = top - 1; k >= 0; k--) {
            fp12_cyclotomic_sqr(&acc, &acc);
            if ((e >> k) & 1)
                fp12_mul(&acc, &acc, a);
        }
        *r = acc;
        return;
    }
    /* acc = product of a^(2^k) over the set bits k <= kc; cur = a^(2^kc) */
    fp12_t acc = *a, cur = *a;
    if (ns > 0)
        karabina_decompress_mul(&acc, e & 1, &cur, st, num, tmp, ns);
    for (int k = kc + 1; k <= top; k++) {
        fp12_cyclotomic_sqr(&cur, &cur);
        if ((e >> k) & 1)
            fp12_mul(&acc, &acc, &cur);
    }
    *r = acc;
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
