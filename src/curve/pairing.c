/* Optimal ate pairing; contracts and sources in pairing.h.
 *
 * Line derivation (M-type twist, untwist (x', y') -> (x'/w^2, y'/w^3)): the tangent or
 * chord through T' with twist slope l' evaluated at P = (xP, yP), times w^3 (an Fp4
 * factor that the final exponentiation removes), is
 *     (l' x_T' - y_T') + (-l' xP) v + (yP) v w,
 * i.e. a sparse Fp12 element with Fp2 coefficients in slots 0, 1 and 4. With T' in
 * Jacobian coordinates every coefficient is scaled by a common Fp2 denominator, which
 * the final exponentiation also removes. We store (c0, cx, cy) with the line equal to
 * c0 + (cx * xP) v + (cy * yP) v w.
 */
#include "curve/pairing.h"

#include <string.h>

#define BLS_X_ABS 0xd201000000010000ULL

/* T = 2T (dbl-2009-l) and the tangent line at T:
 *   c0 = 3X^3 - 2Y^2, cx = -3X^2 Z^2, cy = Z3 Z^2 with Z3 = 2YZ. */
static void doubling_step(g2_jac_t *t, fp2_t *c0, fp2_t *cx, fp2_t *cy)
{
    fp2_t a, b, c, d, e, f, zz, s;
    fp2_sqr(&a, &t->x);
    fp2_sqr(&b, &t->y);
    fp2_sqr(&c, &b);
    fp2_add(&d, &t->x, &b);
    fp2_sqr(&d, &d);
    fp2_sub(&d, &d, &a);
    fp2_sub(&d, &d, &c);
    fp2_dbl(&d, &d);
    fp2_dbl(&e, &a);
    fp2_add(&e, &e, &a);
    fp2_sqr(&f, &e);
    fp2_sqr(&zz, &t->z);

    /* line, from the old X, Y, Z */
    fp2_mul(c0, &e, &t->x);
    fp2_dbl(&s, &b);
    fp2_sub(c0, c0, &s);
    fp2_mul(cx, &e, &zz);
    fp2_neg(cx, cx);

    /* new point */
    fp2_t x3, y3, z3;
    fp2_dbl(&s, &d);
    fp2_sub(&x3, &f, &s);
    fp2_sub(&y3, &d, &x3);
    fp2_mul(&y3, &y3, &e);
    fp2_dbl(&s, &c);
    fp2_dbl(&s, &s);
    fp2_dbl(&s, &s);
    fp2_sub(&y3, &y3, &s);
    fp2_mul(&z3, &t->y, &t->z);
    fp2_dbl(&z3, &z3);
    fp2_mul(cy, &z3, &zz);
    t->x = x3;
    t->y = y3;
    t->z = z3;
}

/* T = T + Q (madd-2007-bl, Q affine) and the chord through T and Q:
 *   with H = xQ Z^2 - X, R = 2(yQ Z^3 - Y), Z3 = 2 Z H:
 *   c0 = R xQ - yQ Z3, cx = -R, cy = Z3. */
static void addition_step(g2_jac_t *t, const g2_affine_t *q, fp2_t *c0, fp2_t *cx, fp2_t *cy)
{
    fp2_t z1z1, u2, s2, h, hh, i, j, r, v, s;
    fp2_sqr(&z1z1, &t->z);
    fp2_mul(&u2, &q->x, &z1z1);
    fp2_mul(&s2, &q->y, &t->z);
    fp2_mul(&s2, &s2, &z1z1);
    fp2_sub(&h, &u2, &t->x);
    fp2_sqr(&hh, &h);
    fp2_dbl(&i, &hh);
    fp2_dbl(&i, &i);
    fp2_mul(&j, &h, &i);
    fp2_sub(&r, &s2, &t->y);
    fp2_dbl(&r, &r);
    fp2_mul(&v, &t->x, &i);

    fp2_t x3, y3, z3;
    fp2_sqr(&x3, &r);
    fp2_sub(&x3, &x3, &j);
    fp2_dbl(&s, &v);
    fp2_sub(&x3, &x3, &s);
    fp2_sub(&y3, &v, &x3);
    fp2_mul(&y3, &y3, &r);
    fp2_mul(&s, &t->y, &j);
    fp2_dbl(&s, &s);
    fp2_sub(&y3, &y3, &s);
    fp2_add(&z3, &t->z, &h);
    fp2_sqr(&z3, &z3);
    fp2_sub(&z3, &z3, &z1z1);
    fp2_sub(&z3, &z3, &hh);

    fp2_mul(c0, &r, &q->x);
    fp2_mul(&s, &q->y, &z3);
    fp2_sub(c0, c0, &s);
    fp2_neg(cx, &r);
    *cy = z3;
    t->x = x3;
    t->y = y3;
    t->z = z3;
}

void pairing_prepare_g2(g2_prepared_t *out, const g2_affine_t *q)
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

static void apply_line(fp12_t *f, const g2_prepared_t *q, size_t k, const g1_affine_t *p)
{
    fp2_t o1, o4;
    fp2_mul_fp(&o1, &q->cx[k], &p->x);
    fp2_mul_fp(&o4, &q->cy[k], &p->y);
    fp12_mul_by_014(f, f, &q->c0[k], &o1, &o4);
}

void pairing_miller_loop(fp12_t *f, const g1_affine_t *p, const g2_prepared_t *const *q, size_t n)
{
    fp12_t acc = FP12_ONE;
    size_t k = 0;
    for (int bit = 62; bit >= 0; bit--) {
        if (bit != 62)
            fp12_sqr(&acc, &acc);
        int steps = 1 + (int)((BLS_X_ABS >> bit) & 1);
        for (int s = 0; s < steps; s++, k++)
            for (size_t i = 0; i < n; i++)
                if (!q[i]->infinity && !g1_affine_is_infinity(&p[i]))
                    apply_line(&acc, q[i], k, &p[i]);
    }
    fp12_conj(f, &acc); /* x < 0 */
}

/* r = a^|x| then conjugated: a^x for a in the cyclotomic subgroup. */
static void cyclotomic_exp_x(fp12_t *r, const fp12_t *a)
{
    fp12_t acc = *a;
    for (int bit = 62; bit >= 0; bit--) {
        fp12_cyclotomic_sqr(&acc, &acc);
        if ((BLS_X_ABS >> bit) & 1)
            fp12_mul(&acc, &acc, a);
    }
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
    pairing_prepare_g2(&prep, q);
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
