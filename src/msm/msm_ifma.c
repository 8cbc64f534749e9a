/* The batch-affine bucket additions of the MSM (msm_bucket.inc, flush) on 8 lanes with
 * AVX-512 IFMA (field/fpv_ifma.h). Compiled with CUZK_IFMA_FLAGS; called only when
 * cuzk_cpu_use_ifma(). Same formulas, same fully reduced results as the scalar flush:
 *
 *   den_j = x2 - x1 (2 y1 when doubling), one inversion for the batch by Montgomery's
 *   trick, lambda = (y2 - y1) / den (3 x1^2 / den when doubling; (y2 + y1) / den = -lambda
 *   for a negated point), x3 = lambda^2 - x1 - x2, y3 = lambda (x1 - x3) - y1 (for a
 *   negated point lambda (x3 - x1) - y1).
 *
 * Entry j of the batch goes to lane j mod 8, step j / 8: the prefix products of Montgomery's
 * trick run as 8 independent chains side by side (the "several independent batches" of
 * one vector), and the 8 lane products are inverted together with one scalar inversion.
 * Lanes past the batch's end compute on the constant 1 and store nothing.
 * Value bounds (fpv_ifma.h): loaded coordinates are < p; den, the numerators and x1 - x3
 * are formed below 2p, products stay below 2p, and x3, y3 (below 4p) are fully reduced
 * by conditional subtractions of 2p and p before they are stored.
 */
#include <stdlib.h>
#include <string.h>

#include "field/fpv_ifma.h"
#include "field/tower.h"
#include "msm/msm_internal.h"

size_t msm_ifma_scratch_bytes(size_t cap)
{
    /* the prefix products: one fpv_t (G1) or two (G2) per step, plus alignment slack */
    return ((cap + FPV_LANES - 1) / FPV_LANES + 1) * 2 * sizeof(fpv_t) + 64;
}

static void *align64(void *p) { return (void *)(((uintptr_t)p + 63) & ~(uintptr_t)63); }

/* Lanes of step s that hold entries (bit l for entry 8s + l < m). */
static inline __mmask8 live_lanes(size_t s, size_t m)
{
    size_t left = m - FPV_LANES * s;
    return left >= FPV_LANES ? 0xff : (__mmask8)((1u << left) - 1);
}

/* ------------------------------------------------------------------------------- G1 */

typedef struct {
    const fp_t *x1[FPV_LANES], *y1[FPV_LANES], *x2[FPV_LANES], *y2[FPV_LANES];
    fp_t *ox[FPV_LANES], *oy[FPV_LANES];
    __mmask8 live, neg, dbl;
} g1_step_t;

/* Pointers of step s; dead lanes point at FP_ONE (never stored). */
static void g1_step(g1_step_t *st, const msm_entry_t *batch, size_t m, size_t s, g1_affine_t *bucket)
{
    st->live = live_lanes(s, m);
    st->neg = st->dbl = 0;
    for (int l = 0; l < FPV_LANES; l++) {
        if (!(st->live >> l & 1)) {
            st->x1[l] = st->y1[l] = st->x2[l] = st->y2[l] = &FP_ONE;
            st->ox[l] = st->oy[l] = NULL;
            continue;
        }
        const msm_entry_t *e = &batch[FPV_LANES * s + (size_t)l];
        const g1_affine_t *p = e->p;
        g1_affine_t *q = &bucket[e->b];
        st->x1[l] = &q->x, st->y1[l] = &q->y, st->x2[l] = &p->x, st->y2[l] = &p->y;
        st->ox[l] = &q->x, st->oy[l] = &q->y;
        st->neg |= (__mmask8)(e->neg << l);
        st->dbl |= (__mmask8)(e->dbl << l);
    }
}

/* den = x2 - x1 + p, or 2 y1 in doubling lanes, 1 in dead lanes (all < 2p) */
static inline void g1_den(fpv_t *den, const g1_step_t *st, const fpv_t *x1, const fpv_t *x2,
                          const fpv_t *one)
{
    fpv_sub_k(den, x2, x1, FPV_P);
    if (st->dbl) {
        fpv_t y1, d;
        fpv_load(&y1, st->y1);
        fpv_add(&d, &y1, &y1);
        fpv_blend(den, st->dbl, den, &d);
    }
    if (st->live != 0xff)
        fpv_blend(den, st->live, one, den);
}

/* 8 inverses of the lanes of v (all non-zero for valid inputs; 0 maps to 0) with one
 * scalar inversion: Montgomery's trick over the lanes. */
static void g1_invert_lanes(fpv_t *out, const fpv_t *v)
{
    fp_t lane[FPV_LANES], pre[FPV_LANES], inv[FPV_LANES], acc, t;
    fp_t *dst[FPV_LANES];
    const fp_t *src[FPV_LANES];
    fpv_t red;
    fpv_csub(&red, v, FPV_P);
    for (int l = 0; l < FPV_LANES; l++)
        dst[l] = &lane[l], src[l] = &inv[l];
    fpv_store(dst, &red, 0xff);
    acc = lane[0];
    for (int l = 1; l < FPV_LANES; l++) {
        pre[l] = acc;
        fp_mul(&acc, &acc, &lane[l]);
    }
    fp_inv(&acc, &acc);
    for (int l = FPV_LANES - 1; l > 0; l--) {
        fp_mul(&inv[l], &acc, &pre[l]);
        fp_mul(&t, &acc, &lane[l]);
        acc = t;
    }
    inv[0] = acc;
    fpv_load(out, src);
}

void msm_g1_flush_ifma(const msm_entry_t *batch, size_t m, g1_affine_t *bucket, void *scratch)
{
    fpv_t *pre = align64(scratch), one, acc, inv;
    uint64_t one48[FPV_LIMBS];
    fpv_from_fp(one48, &FP_ONE);
    fpv_const(&one, one48);
    const size_t steps = (m + FPV_LANES - 1) / FPV_LANES;
    g1_step_t st;
    fpv_t x1, x2, den;

    acc = one;
    for (size_t s = 0; s < steps; s++) {
        g1_step(&st, batch, m, s, bucket);
        fpv_load(&x1, st.x1);
        fpv_load(&x2, st.x2);
        g1_den(&den, &st, &x1, &x2, &one);
        pre[s] = acc;
        fpv_mul(&acc, &acc, &den);
    }
    g1_invert_lanes(&inv, &acc);
    for (size_t s = steps; s-- > 0;) {
        g1_step(&st, batch, m, s, bucket);
        fpv_t y1, y2, inv_s, num, t, lambda, x3, d, y3;
        fpv_load(&x1, st.x1);
        fpv_load(&x2, st.x2);
        fpv_load(&y1, st.y1);
        fpv_load(&y2, st.y2);
        g1_den(&den, &st, &x1, &x2, &one);
        fpv_mul(&inv_s, &inv, &pre[s]); /* 1 / den of this step's lanes */
        fpv_mul(&inv, &inv, &den);
        const __mmask8 neg = st.neg & (__mmask8)~st.dbl;
        fpv_sub_k(&num, &y2, &y1, FPV_P);
        if (neg) {
            fpv_add(&t, &y2, &y1);
            fpv_blend(&num, neg, &num, &t);
        }
        if (st.dbl) { /* 3 x1^2, reduced below 2p */
            fpv_t sq, s2;
            fpv_mul(&sq, &x1, &x1);
            fpv_add(&s2, &sq, &sq);
            fpv_csub(&s2, &s2, FPV_2P);
            fpv_add(&s2, &s2, &sq);
            fpv_csub(&s2, &s2, FPV_2P);
            fpv_blend(&num, st.dbl, &num, &s2);
        }
        fpv_mul(&lambda, &num, &inv_s);
        fpv_mul(&t, &lambda, &lambda);
        fpv_add(&d, &x1, &x2);
        fpv_sub_k(&x3, &t, &d, FPV_2P); /* < 2p + 2p: lambda^2 < 2p */
        fpv_csub(&x3, &x3, FPV_2P);
        fpv_csub(&x3, &x3, FPV_P);
        fpv_sub_k(&d, &x1, &x3, FPV_P);
        if (neg) {
            fpv_sub_k(&t, &x3, &x1, FPV_P);
            fpv_blend(&d, neg, &d, &t);
        }
        fpv_mul(&y3, &lambda, &d);
        fpv_sub_k(&y3, &y3, &y1, FPV_P); /* < 3p */
        fpv_csub(&y3, &y3, FPV_2P);
        fpv_csub(&y3, &y3, FPV_P);
        fpv_store(st.ox, &x3, st.live);
        fpv_store(st.oy, &y3, st.live);
    }
}

/* ------------------------------------------------------------------------------- G2 */

/* 8 lanes of Fp2 = Fp[u]/(u^2 + 1): both coordinates as fpv_t, each < 2p. */
typedef struct {
    fpv_t c0, c1;
} fp2v_t;

/* a < 4p -> a < 2p */
static inline void fpv_half_reduce(fpv_t *a) { fpv_csub(a, a, FPV_2P); }

/* r = a b (Karatsuba: a0 b0 - a1 b1, (a0 + a1)(b0 + b1) - a0 b0 - a1 b1), inputs and output
 * components < 2p. */
static inline void fp2v_mul(fp2v_t *r, const fp2v_t *a, const fp2v_t *b)
{
    fpv_t t0, t1, sa, sb, m;
    fpv_mul(&t0, &a->c0, &b->c0);
    fpv_mul(&t1, &a->c1, &b->c1);
    fpv_add(&sa, &a->c0, &a->c1);
    fpv_half_reduce(&sa);
    fpv_add(&sb, &b->c0, &b->c1);
    fpv_half_reduce(&sb);
    fpv_mul(&m, &sa, &sb);
    fpv_sub_k(&r->c0, &t0, &t1, FPV_2P); /* < 4p */
    fpv_half_reduce(&r->c0);
    fpv_add(&sa, &t0, &t1);             /* < 4p */
    fpv_sub_k(&r->c1, &m, &sa, FPV_4P); /* < 6p */
    fpv_csub(&r->c1, &r->c1, FPV_4P);
    fpv_half_reduce(&r->c1);
}

/* r = a^2 = (a0 + a1)(a0 - a1) + 2 a0 a1 u */
static inline void fp2v_sqr(fp2v_t *r, const fp2v_t *a)
{
    fpv_t s, d, m;
    fpv_add(&s, &a->c0, &a->c1);
    fpv_half_reduce(&s);
    fpv_sub_k(&d, &a->c0, &a->c1, FPV_2P);
    fpv_half_reduce(&d);
    fpv_mul(&m, &a->c0, &a->c1);
    fpv_mul(&r->c0, &s, &d);
    fpv_add(&r->c1, &m, &m);
    fpv_half_reduce(&r->c1);
}

static inline void fp2v_sub_k(fp2v_t *r, const fp2v_t *a, const fp2v_t *b, const uint64_t k[FPV_LIMBS])
{
    fpv_sub_k(&r->c0, &a->c0, &b->c0, k);
    fpv_sub_k(&r->c1, &a->c1, &b->c1, k);
}

static inline void fp2v_add(fp2v_t *r, const fp2v_t *a, const fp2v_t *b)
{
    fpv_add(&r->c0, &a->c0, &b->c0);
    fpv_add(&r->c1, &a->c1, &b->c1);
}

static inline void fp2v_csub(fp2v_t *r, const fp2v_t *a, const uint64_t k[FPV_LIMBS])
{
    fpv_csub(&r->c0, &a->c0, k);
    fpv_csub(&r->c1, &a->c1, k);
}

static inline void fp2v_blend(fp2v_t *r, __mmask8 m, const fp2v_t *a, const fp2v_t *b)
{
    fpv_blend(&r->c0, m, &a->c0, &b->c0);
    fpv_blend(&r->c1, m, &a->c1, &b->c1);
}

typedef struct {
    const fp2_t *x1[FPV_LANES], *y1[FPV_LANES], *x2[FPV_LANES], *y2[FPV_LANES];
    fp2_t *ox[FPV_LANES], *oy[FPV_LANES];
    __mmask8 live, neg, dbl;
} g2_step_t;

static void g2_step(g2_step_t *st, const msm_entry_t *batch, size_t m, size_t s, g2_affine_t *bucket)
{
    st->live = live_lanes(s, m);
    st->neg = st->dbl = 0;
    for (int l = 0; l < FPV_LANES; l++) {
        if (!(st->live >> l & 1)) {
            st->x1[l] = st->y1[l] = st->x2[l] = st->y2[l] = &FP2_ONE;
            st->ox[l] = st->oy[l] = NULL;
            continue;
        }
        const msm_entry_t *e = &batch[FPV_LANES * s + (size_t)l];
        const g2_affine_t *p = e->p;
        g2_affine_t *q = &bucket[e->b];
        st->x1[l] = &q->x, st->y1[l] = &q->y, st->x2[l] = &p->x, st->y2[l] = &p->y;
        st->ox[l] = &q->x, st->oy[l] = &q->y;
        st->neg |= (__mmask8)(e->neg << l);
        st->dbl |= (__mmask8)(e->dbl << l);
    }
}

static void fp2v_load(fp2v_t *r, const fp2_t *const src[FPV_LANES])
{
    const fp_t *c0[FPV_LANES], *c1[FPV_LANES];
    for (int l = 0; l < FPV_LANES; l++)
        c0[l] = &src[l]->c0, c1[l] = &src[l]->c1;
    fpv_load(&r->c0, c0);
    fpv_load(&r->c1, c1);
}

static void fp2v_store(fp2_t *const dst[FPV_LANES], const fp2v_t *a, __mmask8 lanes)
{
    fp_t *c0[FPV_LANES], *c1[FPV_LANES];
    for (int l = 0; l < FPV_LANES; l++) {
        c0[l] = dst[l] ? &dst[l]->c0 : NULL;
        c1[l] = dst[l] ? &dst[l]->c1 : NULL;
    }
    fpv_store(c0, &a->c0, lanes);
    fpv_store(c1, &a->c1, lanes);
}

static inline void g2_den(fp2v_t *den, const g2_step_t *st, const fp2v_t *x1, const fp2v_t *x2,
                          const fp2v_t *one)
{
    fp2v_sub_k(den, x2, x1, FPV_P);
    if (st->dbl) {
        fp2v_t y1, d;
        fp2v_load(&y1, st->y1);
        fp2v_add(&d, &y1, &y1);
        fp2v_blend(den, st->dbl, den, &d);
    }
    if (st->live != 0xff)
        fp2v_blend(den, st->live, one, den);
}

static void g2_invert_lanes(fp2v_t *out, const fp2v_t *v)
{
    fp2_t lane[FPV_LANES], pre[FPV_LANES], inv[FPV_LANES], acc, t;
    fp2_t *dst[FPV_LANES];
    const fp2_t *src[FPV_LANES];
    fp2v_t red;
    fp2v_csub(&red, v, FPV_P);
    for (int l = 0; l < FPV_LANES; l++)
        dst[l] = &lane[l], src[l] = &inv[l];
    fp2v_store(dst, &red, 0xff);
    acc = lane[0];
    for (int l = 1; l < FPV_LANES; l++) {
        pre[l] = acc;
        fp2_mul(&acc, &acc, &lane[l]);
    }
    fp2_inv(&acc, &acc);
    for (int l = FPV_LANES - 1; l > 0; l--) {
        fp2_mul(&inv[l], &acc, &pre[l]);
        fp2_mul(&t, &acc, &lane[l]);
        acc = t;
    }
    inv[0] = acc;
    fp2v_load(out, src);
}

void msm_g2_flush_ifma(const msm_entry_t *batch, size_t m, g2_affine_t *bucket, void *scratch)
{
    fp2v_t *pre = align64(scratch), one, acc, inv;
    uint64_t one48[FPV_LIMBS];
    fpv_from_fp(one48, &FP_ONE);
    fpv_const(&one.c0, one48);
    memset(&one.c1, 0, sizeof one.c1);
    const size_t steps = (m + FPV_LANES - 1) / FPV_LANES;
    g2_step_t st;
    fp2v_t x1, x2, den;

    acc = one;
    for (size_t s = 0; s < steps; s++) {
        g2_step(&st, batch, m, s, bucket);
        fp2v_load(&x1, st.x1);
        fp2v_load(&x2, st.x2);
        g2_den(&den, &st, &x1, &x2, &one);
        pre[s] = acc;
        fp2v_mul(&acc, &acc, &den);
    }
    g2_invert_lanes(&inv, &acc);
    for (size_t s = steps; s-- > 0;) {
        g2_step(&st, batch, m, s, bucket);
        fp2v_t y1, y2, inv_s, num, t, lambda, x3, d, y3;
        fp2v_load(&x1, st.x1);
        fp2v_load(&x2, st.x2);
        fp2v_load(&y1, st.y1);
        fp2v_load(&y2, st.y2);
        g2_den(&den, &st, &x1, &x2, &one);
        fp2v_mul(&inv_s, &inv, &pre[s]);
        fp2v_mul(&inv, &inv, &den);
        const __mmask8 neg = st.neg & (__mmask8)~st.dbl;
        fp2v_sub_k(&num, &y2, &y1, FPV_P);
        if (neg) {
            fp2v_add(&t, &y2, &y1);
            fp2v_blend(&num, neg, &num, &t);
        }
        if (st.dbl) { /* 3 x1^2, reduced below 2p */
            fp2v_t sq, s2;
            fp2v_sqr(&sq, &x1);
            fp2v_add(&s2, &sq, &sq);
            fp2v_csub(&s2, &s2, FPV_2P);
            fp2v_add(&s2, &s2, &sq);
            fp2v_csub(&s2, &s2, FPV_2P);
            fp2v_blend(&num, st.dbl, &num, &s2);
        }
        fp2v_mul(&lambda, &num, &inv_s);
        fp2v_sqr(&t, &lambda);
        fp2v_add(&d, &x1, &x2);
        fp2v_sub_k(&x3, &t, &d, FPV_2P);
        fp2v_csub(&x3, &x3, FPV_2P);
        fp2v_csub(&x3, &x3, FPV_P);
        fp2v_sub_k(&d, &x1, &x3, FPV_P);
        if (neg) {
            fp2v_sub_k(&t, &x3, &x1, FPV_P);
            fp2v_blend(&d, neg, &d, &t);
        }
        fp2v_mul(&y3, &lambda, &d);
        fp2v_sub_k(&y3, &y3, &y1, FPV_P);
        fp2v_csub(&y3, &y3, FPV_2P);
        fp2v_csub(&y3, &y3, FPV_P);
        fp2v_store(st.ox, &x3, st.live);
        fp2v_store(st.oy, &y3, st.live);
    }
}
