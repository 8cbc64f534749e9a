/* Optimal ate pairing; contracts and sources in pairing.h.
 *
 * Line derivation (M-type twist, untwist (x', y') -> (x'/w^2, y'/w^3)): the tangent or
 * chord through T' with twist slope l' evaluated at P = (xP, yP), times w^3 (an Fp4
 * factor that the final exponentiation removes), is
 *     (l' x_T' - y_T') + (-l' xP) v + (yP) v w,
 * i.e. a sparse Fp12 element with Fp2 coefficients in slots 0, 1 and 4. With T' in
 * projective coordinates every coefficient is scaled by a common Fp2 denominator, which
 * the final exponentiation also removes. We store (c0, cx, cy) with the line equal to
 * c0 + (cx * xP) v + (cy * yP) v w. The twist point T is kept in homogeneous projective
 * coordinates (x = X/Z, y = Y/Z) in a g2_jac_t's fields.
 */
#include "curve/pairing.h"

#include <string.h>

#define BLS_X_ABS 0xd201000000010000ULL

/* 3 b' = 12 (u + 1), the twist's b' = 4 (u + 1) times 3: r = 3 b' a */
static void mul_by_3b(fp2_t *r, const fp2_t *a)
{
    fp2_t t;
    fp2_mul_by_nonresidue(&t, a); /* (u + 1) a */
    fp2_dbl(&t, &t);
    fp2_dbl(&t, &t);              /* 4 (u + 1) a */
    fp2_add(r, &t, &t);
    fp2_add(r, r, &t);            /* 12 (u + 1) a */
}

/* T = 2T in homogeneous projective coordinates (x = X/Z, y = Y/Z) and the tangent line at
 * T, Aranha, Karabina, Longa, Gebotys, Lopez, "Faster explicit formulas for computing
 * pairings over ordinary curves" (EUROCRYPT 2011) §4 (3M + 6S in Fp2): with B = Y^2,
 * C = Z^2, E = 3 b' C, F = 3 E, H = (Y + Z)^2 - B - C = 2 Y Z:
 *   X3 = X Y (B - F) / 2,  Y3 = ((B + F) / 2)^2 - 3 E^2,  Z3 = B H;
 * the line (affine form above times 2 Y Z^2 / Z, then reduced with the curve equation
 * X^3 = Y^2 Z - b' Z^3) is c0 = B - E, cx = -3 X^2, cy = H. */
static void doubling_step(g2_jac_t *t, fp2_t *c0, fp2_t *cx, fp2_t *cy)
{
    fp2_t a, b, c, e, f, h, x2, s;
    fp2_mul(&a, &t->x, &t->y);
    fp_half(&a.c0, &a.c0);
    fp_half(&a.c1, &a.c1);        /* A = X Y / 2 */
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &t->z);
    mul_by_3b(&e, &c);
    fp2_add(&f, &e, &e);
    fp2_add(&f, &f, &e);          /* F = 3 E */
    fp2_add(&h, &t->y, &t->z);
    fp2_sqr(&h, &h);
    fp2_sub(&h, &h, &b);
    fp2_sub(&h, &h, &c);          /* H = 2 Y Z */
    fp2_sqr(&x2, &t->x);

    /* line */
    fp2_sub(c0, &b, &e);
    fp2_add(cx, &x2, &x2);
    fp2_add(cx, cx, &x2);
    fp2_neg(cx, cx);
    *cy = h;

    /* new point */
    fp2_sub(&s, &b, &f);
    fp2_mul(&t->x, &a, &s);       /* X3 */
    fp2_add(&s, &b, &f);
    fp_half(&s.c0, &s.c0);
    fp_half(&s.c1, &s.c1);
    fp2_sqr(&s, &s);
    fp2_sqr(&e, &e);
    fp2_sub(&s, &s, &e);
    fp2_sub(&s, &s, &e);
    fp2_sub(&t->y, &s, &e);       /* Y3 = ((B + F) / 2)^2 - 3 E^2 */
    fp2_mul(&t->z, &b, &h);       /* Z3 = B H */
}

/* T = T + Q (Q affine) in homogeneous projective coordinates and the chord through T and
 * Q (Aranha et al. 2011 §4): theta = Y - yQ Z, lambda = X - xQ Z, C = theta^2,
 * D = lambda^2, E = lambda D, F = Z C, G = X D, H = E + F - 2 G:
 *   X3 = lambda H,  Y3 = theta (G - H) - Y E,  Z3 = Z E;
 * the line (affine form above times lambda) is c0 = theta xQ - lambda yQ, cx = -theta,
 * cy = lambda. */
static void addition_step(g2_jac_t *t, const g2_affine_t *q, fp2_t *c0, fp2_t *cx, fp2_t *cy)
{
    fp2_t theta, lambda, c, d, e, f, g, h, s;
    fp2_mul(&theta, &q->y, &t->z);
    fp2_sub(&theta, &t->y, &theta);
    fp2_mul(&lambda, &q->x, &t->z);
    fp2_sub(&lambda, &t->x, &lambda);
    fp2_sqr(&c, &theta);
    fp2_sqr(&d, &lambda);
    fp2_mul(&e, &lambda, &d);
    fp2_mul(&f, &t->z, &c);
    fp2_mul(&g, &t->x, &d);
    fp2_add(&h, &e, &f);
    fp2_sub(&h, &h, &g);
    fp2_sub(&h, &h, &g);

    /* line */
    fp2_mul(c0, &theta, &q->x);
    fp2_mul(&s, &lambda, &q->y);
    fp2_sub(c0, c0, &s);
    fp2_neg(cx, &theta);
    *cy = lambda;

    /* new point */
    fp2_mul(&t->x, &lambda, &h);
    fp2_sub(&s, &g, &h);
    fp2_mul(&s, &theta, &s);
    fp2_mul(&g, &t->y, &e);
    fp2_sub(&t->y, &s, &g);
    fp2_mul(&t->z, &t->z, &e);
}

/* Divide every line by its cy (Montgomery's trick: one Fp2 inversion for the 68), so
 * that the Miller loop's yP-scaled line has the coefficient 1 in slot 4. Left as it is
 * when a cy is 0 (not for points of order r: T = kQ with 0 < k < r is never at
 * infinity, never 2-torsion and never +-Q in the addition steps). */
static void normalize_lines(g2_prepared_t *out)
{
    fp2_t pre[PAIRING_LINES], acc = FP2_ONE, inv, t;
    for (size_t k = 0; k < PAIRING_LINES; k++) {
        pre[k] = acc;
        fp2_mul(&acc, &acc, &out->cy[k]);
    }
    if (fp2_is_zero(&acc))
        return;
    fp2_inv(&inv, &acc);
    for (size_t k = PAIRING_LINES; k-- > 0;) {
        fp2_mul(&t, &inv, &pre[k]);             /* 1 / cy_k */
        fp2_mul(&inv, &inv, &out->cy[k]);       /* 1 / (cy_0 ... cy_{k-1}) */
        fp2_mul(&out->c0[k], &out->c0[k], &t);
        fp2_mul(&out->cx[k], &out->cx[k], &t);
        out->cy[k] = FP2_ONE;
    }
    out->normalized = true;
}

void pairing_prepare_g2_once(g2_prepared_t *out, const g2_affine_t *q)
{
    memset(out, 0, sizeof *out);
    out->infinity = fp2_is_zero(&q->x) && fp2_is_zero(&q->y);
    if (out->infinity)
        return;
    g2_jac_t t = {q->x, q->y, FP2_ONE};
    size_t k = 0;
    for (int bit = 62; bit >= 0; bit--) {
        doubling_step(&t, &out->c0[k], &out->cx[k], &out->cy[k]);
        k++;
        if ((BLS_X_ABS >> bit) & 1) {
            addition_step(&t, q, &out->c0[k], &out->cx[k], &out->cy[k]);
            k++;
        }
    }
}

void pairing_prepare_g2(g2_prepared_t *out, const g2_affine_t *q)
{
    pairing_prepare_g2_once(out, q);
    if (!out->infinity)
        normalize_lines(out);
}

/* Pairs per shared loop: the per-pair scalars live on the stack; more pairs run as several
 * loops whose values are multiplied. */
#define LOOP_PAIRS 16

/* The G1 side of one pair: for a normalised prepared point the line is scaled by 1/yP,
 * so o0 = c0 / yP, o1 = cx xP / yP and o4 = 1 (sx = xP / yP, sy = 1 / yP); otherwise
 * o0 = c0, o1 = cx xP, o4 = cy yP (sx = xP, sy = yP). */
typedef struct {
    const g2_prepared_t *q;
    fp_t sx, sy;
    bool unit;
} loop_pair_t;

/* acc *= line k of pair e; `fresh` when acc is still 1 (then acc becomes the line) */
static void apply_line(fp12_t *acc, bool *fresh, const loop_pair_t *e, size_t k)
{
    fp2_t o0, o1, o4;
    fp2_mul_fp(&o1, &e->q->cx[k], &e->sx);
    if (e->unit) {
        fp2_mul_fp(&o0, &e->q->c0[k], &e->sy);
        o4 = FP2_ONE;
    } else {
        o0 = e->q->c0[k];
        fp2_mul_fp(&o4, &e->q->cy[k], &e->sy);
    }
    if (*fresh) {
        *acc = (fp12_t){{o0, o1, FP2_ZERO}, {FP2_ZERO, o4, FP2_ZERO}};
        *fresh = false;
    } else if (e->unit) {
        fp12_mul_by_014_unit(acc, acc, &o0, &o1);
    } else {
        fp12_mul_by_014(acc, acc, &o0, &o1, &o4);
    }
}

/* acc = prod over the m pairs of their line products (no conjugation) */
static void miller_loop_chunk(fp12_t *acc, const g1_affine_t *p, const g2_prepared_t *const *q, size_t m)
{
    loop_pair_t e[LOOP_PAIRS];
    fp_t pre[LOOP_PAIRS], prod = FP_ONE, inv;
    size_t n = 0, nu = 0;
    for (size_t i = 0; i < m; i++) {
        if (q[i]->infinity || g1_affine_is_infinity(&p[i]))
            continue;
        e[n].q = q[i];
        e[n].unit = q[i]->normalized && !fp_is_zero(&p[i].y);
        e[n].sx = p[i].x;
        e[n].sy = p[i].y;
        if (e[n].unit) { /* batch inversion of the yP (Montgomery's trick) */
            pre[n] = prod;
            fp_mul(&prod, &prod, &p[i].y);
            nu++;
        }
        n++;
    }
    if (nu > 0) {
        fp_inv(&inv, &prod);
        for (size_t i = n; i-- > 0;) {
            if (!e[i].unit)
                continue;
            fp_t yinv;
            fp_mul(&yinv, &inv, &pre[i]);
            fp_mul(&inv, &inv, &e[i].sy);
            e[i].sy = yinv;
            fp_mul(&e[i].sx, &e[i].sx, &yinv);
        }
    }
    bool fresh = true;
    *acc = FP12_ONE;
    size_t k = 0;
    for (int bit = 62; bit >= 0; bit--) {
        if (bit != 62 && !fresh)
            fp12_sqr(acc, acc);
        int steps = 1 + (int)((BLS_X_ABS >> bit) & 1);
        for (int s = 0; s < steps; s++, k++)
            for (size_t i = 0; i < n; i++)
                apply_line(acc, &fresh, &e[i], k);
    }
}

void pairing_miller_loop(fp12_t *f, const g1_affine_t *p, const g2_prepared_t *const *q, size_t n)
{
    fp12_t acc = FP12_ONE, part;
    for (size_t i = 0; i < n; i += LOOP_PAIRS) {
        size_t m = n - i < LOOP_PAIRS ? n - i : LOOP_PAIRS;
        miller_loop_chunk(&part, p + i, q + i, m);
        if (i == 0)
            acc = part;
        else
            fp12_mul(&acc, &acc, &part);
    }
    fp12_conj(f, &acc); /* x < 0 */
}

/* r = a^|x| then conjugated: a^x for a in the cyclotomic subgroup (compressed squarings,
 * fp12_cyclotomic_pow_u64). */
static void cyclotomic_exp_x(fp12_t *r, const fp12_t *a)
{
    fp12_t acc;
    fp12_cyclotomic_pow_u64(&acc, a, BLS_X_ABS);
    fp12_conj(r, &acc);
}

void pairing_final_exp(fp12_t *r, const fp12_t *f)
{
    fp12_t t0, t1, t2, t3, t4, t5, t6, t7, s, u;
    /* easy part: f^((p^6 - 1)(p^2 + 1)) */
    fp12_inv(&t0, f);
    fp12_conj(&s, f);
    fp12_mul(&t0, &s, &t0);
    fp12_frobenius(&t1, &t0, 2);
    fp12_mul(&t1, &t1, &t0);
    /* hard part */
    cyclotomic_exp_x(&t2, &t1);               /* t1^x */
    fp12_cyclotomic_sqr(&s, &t1);
    fp12_conj(&s, &s);
    fp12_mul(&t3, &s, &t2);                   /* t1^(x-2) */
    cyclotomic_exp_x(&t4, &t3);
    cyclotomic_exp_x(&t5, &t4);
    cyclotomic_exp_x(&t6, &t5);
    fp12_cyclotomic_sqr(&s, &t2);
    fp12_mul(&t6, &t6, &s);
    cyclotomic_exp_x(&t7, &t6);
    /* (t2 t5)^(p^2) (t4 t1)^(p^3) (t6 t1^-1)^p t7 t3^-1 t1 */
    fp12_mul(&s, &t2, &t5);
    fp12_frobenius(&u, &s, 2);
    fp12_mul(&s, &t4, &t1);
    fp12_frobenius(&s, &s, 3);
    fp12_mul(&u, &u, &s);
    fp12_conj(&s, &t1);
    fp12_mul(&s, &t6, &s);
    fp12_frobenius(&s, &s, 1);
    fp12_mul(&u, &u, &s);
    fp12_mul(&u, &u, &t7);
    fp12_conj(&s, &t3);
    fp12_mul(&u, &u, &s);
    fp12_mul(r, &u, &t1);
}

void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q)
{
    g2_prepared_t prep;
    fp12_t f;
    pairing_prepare_g2_once(&prep, q);
    const g2_prepared_t *qs[1] = {&prep};
    pairing_miller_loop(&f, p, qs, 1);
    pairing_final_exp(r, &f);
}

bool pairing_product_is_one(const g1_affine_t *p, const g2_prepared_t *const *q, size_t n)
{
    fp12_t f, r;
    pairing_miller_loop(&f, p, q, n);
    pairing_final_exp(&r, &f);
    return fp12_is_one(&r);
}
