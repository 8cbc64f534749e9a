/* G1 of BLS12-381 (y^2 = x^3 + 4 over Fp) on the device.
 *
 * Point forms:
 *   g1_affine_t  (x, y), Montgomery form; infinity is (0, 0) -- the layout and convention of
 *                the CPU's g1_affine_t (src/curve/curve.h), 96 bytes, so base arrays upload
 *                unchanged.
 *   g1_xyzz_t    extended Jacobian (X, Y, ZZ, ZZZ) with x = X/ZZ, y = Y/ZZZ, ZZ^3 = ZZZ^2;
 *                infinity is ZZ = 0 (g1_xyzz_infinity sets X = Y = 1, ZZ = ZZZ = 0). 192 bytes.
 *   g1_jac_t     Jacobian (X, Y, Z) with x = X/Z^2, y = Y/Z^3; infinity Z = 0. The layout of
 *                the CPU's g1_jac_t, 144 bytes.
 *
 * Formulas (Explicit-Formulas Database, a = 0):
 *   XYZZ  add-2008-s, madd-2008-s, dbl-2008-s-1
 *         (hyperelliptic.org/EFD/g1p/auto-shortw-xyzz.html)
 *   Jacobian  add-2007-bl, madd-2007-bl, dbl-2009-l (auto-shortw-jacobian-0.html), as the
 *         CPU's src/curve/jacobian_impl.h.
 * Every addition is complete: an infinity operand returns the other, equal inputs double,
 * opposite inputs give infinity. No data-dependent branches beyond those cases.
 */
#ifndef CUZK_GPU_KERNELS_G1_H
#define CUZK_GPU_KERNELS_G1_H

typedef struct { fp_t x, y; } g1_affine_t;
typedef struct { fp_t x, y, zz, zzz; } g1_xyzz_t;
typedef struct { fp_t x, y, z; } g1_jac_t;

DEVICE bool g1_affine_is_infinity(g1_affine_t p)
{
    return fp_is_zero(p.x) && fp_is_zero(p.y);
}

DEVICE g1_affine_t g1_affine_infinity(void)
{
    g1_affine_t r;
    r.x = fp_zero();
    r.y = fp_zero();
    return r;
}

DEVICE g1_affine_t g1_affine_neg(g1_affine_t p)
{
    p.y = fp_neg(p.y); /* (0, 0) maps to itself */
    return p;
}

/* ---------------------------------------------------------------- XYZZ */

DEVICE g1_xyzz_t g1_xyzz_infinity(void)
{
    g1_xyzz_t r;
    r.x = fp_one();
    r.y = fp_one();
    r.zz = fp_zero();
    r.zzz = fp_zero();
    return r;
}

DEVICE bool g1_xyzz_is_infinity(g1_xyzz_t p)
{
    return fp_is_zero(p.zz);
}

DEVICE g1_xyzz_t g1_xyzz_from_affine(g1_affine_t p)
{
    if (g1_affine_is_infinity(p))
        return g1_xyzz_infinity();
    g1_xyzz_t r;
    r.x = p.x;
    r.y = p.y;
    r.zz = fp_one();
    r.zzz = fp_one();
    return r;
}

DEVICE g1_xyzz_t g1_xyzz_neg(g1_xyzz_t p)
{
    p.y = fp_neg(p.y);
    return p;
}

/* One inversion: 1/Z = ZZ/ZZZ, so 1/ZZZ and 1/ZZ = (ZZ/ZZZ)^2 follow from ZZZ^-1. */
DEVICE g1_affine_t g1_xyzz_to_affine(g1_xyzz_t p)
{
    if (g1_xyzz_is_infinity(p))
        return g1_affine_infinity();
    fp_t izzz = fp_inv(p.zzz);
    fp_t iz = fp_mul(izzz, p.zz);
    fp_t izz = fp_sqr(iz);
    g1_affine_t r;
    r.x = fp_mul(p.x, izz);
    r.y = fp_mul(p.y, izzz);
    return r;
}

/* dbl-2008-s-1: U = 2Y, V = U^2, W = U V, S = X V, M = 3 X^2 */
DEVICE g1_xyzz_t g1_xyzz_dbl(g1_xyzz_t p)
{
    if (g1_xyzz_is_infinity(p))
        return p;
    fp_t u = fp_dbl(p.y);
    fp_t v = fp_sqr(u);
    fp_t w = fp_mul(u, v);
    fp_t s = fp_mul(p.x, v);
    fp_t x2 = fp_sqr(p.x);
    fp_t m = fp_add(fp_dbl(x2), x2);
    g1_xyzz_t r;
    r.x = fp_sub(fp_sqr(m), fp_dbl(s));
    r.y = fp_sub(fp_mul(m, fp_sub(s, r.x)), fp_mul(w, p.y));
    r.zz = fp_mul(v, p.zz);
    r.zzz = fp_mul(w, p.zzz);
    return r;
}

/* The tail every addition formula here shares: X3 = r^2 - a - 2 b, Y3 = r (b - X3) - c
 * (add/madd-2008-s: a = PPP, b = Q, c = S1 PPP; add/madd-2007-bl: a = J, b = V, c = 2 S1 J). */
DEVICE g1_affine_t g1_add_tail_(fp_t rr, fp_t a, fp_t b, fp_t c)
{
    g1_affine_t r;
    r.x = fp_sub(fp_sub(fp_sqr(rr), a), fp_dbl(b));
    r.y = fp_sub(fp_mul(rr, fp_sub(b, r.x)), c);
    return r;
}

/* add-2008-s */
DEVICE g1_xyzz_t g1_xyzz_add(g1_xyzz_t p, g1_xyzz_t q)
{
    if (g1_xyzz_is_infinity(p))
        return q;
    if (g1_xyzz_is_infinity(q))
        return p;
    fp_t u1 = fp_mul(p.x, q.zz);
    fp_t u2 = fp_mul(q.x, p.zz);
    fp_t s1 = fp_mul(p.y, q.zzz);
    fp_t s2 = fp_mul(q.y, p.zzz);
    fp_t pp_ = fp_sub(u2, u1);
    fp_t rr = fp_sub(s2, s1);
    if (fp_is_zero(pp_)) {
        if (fp_is_zero(rr))
            return g1_xyzz_dbl(p);
        return g1_xyzz_infinity();
    }
    fp_t pp = fp_sqr(pp_);
    fp_t ppp = fp_mul(pp_, pp);
    fp_t qq = fp_mul(u1, pp);
    g1_affine_t xy = g1_add_tail_(rr, ppp, qq, fp_mul(s1, ppp));
    g1_xyzz_t r;
    r.x = xy.x;
    r.y = xy.y;
    r.zz = fp_mul(fp_mul(p.zz, q.zz), pp);
    r.zzz = fp_mul(fp_mul(p.zzz, q.zzz), ppp);
    return r;
}

/* madd-2008-s: p + q with q affine */
DEVICE g1_xyzz_t g1_xyzz_add_affine(g1_xyzz_t p, g1_affine_t q)
{
    if (g1_affine_is_infinity(q))
        return p;
    if (g1_xyzz_is_infinity(p))
        return g1_xyzz_from_affine(q);
    fp_t u2 = fp_mul(q.x, p.zz);
    fp_t s2 = fp_mul(q.y, p.zzz);
    fp_t pp_ = fp_sub(u2, p.x);
    fp_t rr = fp_sub(s2, p.y);
    if (fp_is_zero(pp_)) {
        if (fp_is_zero(rr))
            return g1_xyzz_dbl(p); /* p = q: rare, so no separate mdbl formula */
        return g1_xyzz_infinity();
    }
    fp_t pp = fp_sqr(pp_);
    fp_t ppp = fp_mul(pp_, pp);
    fp_t qq = fp_mul(p.x, pp);
    g1_affine_t xy = g1_add_tail_(rr, ppp, qq, fp_mul(p.y, ppp));
    g1_xyzz_t r;
    r.x = xy.x;
    r.y = xy.y;
    r.zz = fp_mul(p.zz, pp);
    r.zzz = fp_mul(p.zzz, ppp);
    return r;
}

/* ---------------------------------------------------------------- Jacobian */

DEVICE g1_jac_t g1_jac_infinity(void)
{
    g1_jac_t r;
    r.x = fp_one();
    r.y = fp_one();
    r.z = fp_zero();
    return r;
}

DEVICE bool g1_jac_is_infinity(g1_jac_t p)
{
    return fp_is_zero(p.z);
}

DEVICE g1_jac_t g1_jac_from_affine(g1_affine_t p)
{
    if (g1_affine_is_infinity(p))
        return g1_jac_infinity();
    g1_jac_t r;
    r.x = p.x;
    r.y = p.y;
    r.z = fp_one();
    return r;
}

DEVICE g1_affine_t g1_jac_to_affine(g1_jac_t p)
{
    if (g1_jac_is_infinity(p))
        return g1_affine_infinity();
    fp_t zi = fp_inv(p.z);
    fp_t zi2 = fp_sqr(zi);
    g1_affine_t r;
    r.x = fp_mul(p.x, zi2);
    r.y = fp_mul(fp_mul(p.y, zi2), zi);
    return r;
}

/* (X, Y, Z) -> (X, Y, Z^2, Z^3) */
DEVICE g1_xyzz_t g1_xyzz_from_jac(g1_jac_t p)
{
    if (g1_jac_is_infinity(p))
        return g1_xyzz_infinity();
    g1_xyzz_t r;
    r.x = p.x;
    r.y = p.y;
    r.zz = fp_sqr(p.z);
    r.zzz = fp_mul(r.zz, p.z);
    return r;
}

/* (X, Y, ZZ, ZZZ) -> (X ZZ, Y ZZZ, ZZ): x = X ZZ / ZZ^2, y = Y ZZZ / ZZ^3 since ZZ^3 = ZZZ^2 */
DEVICE g1_jac_t g1_jac_from_xyzz(g1_xyzz_t p)
{
    if (g1_xyzz_is_infinity(p))
        return g1_jac_infinity();
    g1_jac_t r;
    r.x = fp_mul(p.x, p.zz);
    r.y = fp_mul(p.y, p.zzz);
    r.z = p.zz;
    return r;
}

/* dbl-2009-l */
DEVICE g1_jac_t g1_jac_dbl(g1_jac_t p)
{
    if (g1_jac_is_infinity(p))
        return g1_jac_infinity();
    fp_t a = fp_sqr(p.x);
    fp_t b = fp_sqr(p.y);
    fp_t c = fp_sqr(b);
    fp_t d = fp_dbl(fp_sub(fp_sub(fp_sqr(fp_add(p.x, b)), a), c));
    fp_t e = fp_add(fp_dbl(a), a);
    fp_t f = fp_sqr(e);
    g1_jac_t r;
    r.z = fp_dbl(fp_mul(p.y, p.z));
    r.x = fp_sub(f, fp_dbl(d));
    fp_t c8 = fp_dbl(fp_dbl(fp_dbl(c)));
    r.y = fp_sub(fp_mul(e, fp_sub(d, r.x)), c8);
    return r;
}

/* add-2007-bl */
DEVICE g1_jac_t g1_jac_add(g1_jac_t p, g1_jac_t q)
{
    if (g1_jac_is_infinity(p))
        return q;
    if (g1_jac_is_infinity(q))
        return p;
    fp_t z1z1 = fp_sqr(p.z);
    fp_t z2z2 = fp_sqr(q.z);
    fp_t u1 = fp_mul(p.x, z2z2);
    fp_t u2 = fp_mul(q.x, z1z1);
    fp_t s1 = fp_mul(fp_mul(p.y, q.z), z2z2);
    fp_t s2 = fp_mul(fp_mul(q.y, p.z), z1z1);
    fp_t h = fp_sub(u2, u1);
    fp_t rr = fp_sub(s2, s1);
    if (fp_is_zero(h)) {
        if (fp_is_zero(rr))
            return g1_jac_dbl(p);
        return g1_jac_infinity();
    }
    rr = fp_dbl(rr);
    fp_t i = fp_sqr(fp_dbl(h));
    fp_t j = fp_mul(h, i);
    fp_t v = fp_mul(u1, i);
    g1_affine_t xy = g1_add_tail_(rr, j, v, fp_dbl(fp_mul(s1, j)));
    g1_jac_t r;
    r.x = xy.x;
    r.y = xy.y;
    r.z = fp_mul(fp_sub(fp_sub(fp_sqr(fp_add(p.z, q.z)), z1z1), z2z2), h);
    return r;
}

/* madd-2007-bl: p + q with q affine */
DEVICE g1_jac_t g1_jac_add_affine(g1_jac_t p, g1_affine_t q)
{
    if (g1_affine_is_infinity(q))
        return p;
    if (g1_jac_is_infinity(p))
        return g1_jac_from_affine(q);
    fp_t z1z1 = fp_sqr(p.z);
    fp_t u2 = fp_mul(q.x, z1z1);
    fp_t s2 = fp_mul(fp_mul(q.y, p.z), z1z1);
    fp_t h = fp_sub(u2, p.x);
    fp_t rr = fp_sub(s2, p.y);
    if (fp_is_zero(h)) {
        if (fp_is_zero(rr))
            return g1_jac_dbl(p);
        return g1_jac_infinity();
    }
    rr = fp_dbl(rr);
    fp_t hh = fp_sqr(h);
    fp_t i = fp_dbl(fp_dbl(hh));
    fp_t j = fp_mul(h, i);
    fp_t v = fp_mul(p.x, i);
    g1_affine_t xy = g1_add_tail_(rr, j, v, fp_dbl(fp_mul(p.y, j)));
    g1_jac_t r;
    r.x = xy.x;
    r.y = xy.y;
    r.z = fp_sub(fp_sub(fp_sqr(fp_add(p.z, h)), z1z1), hh);
    return r;
}

#endif
