/* Bernstein-Yang modular inversion; contract and sources in safegcd.h. */
#include "field/safegcd.h"

#include <string.h>

typedef __int128 i128;

#define S62_LIMBS 7 /* 434 bits: a 381-bit modulus plus sign and growth headroom */
#define MASK62 ((UINT64_C(1) << 62) - 1)

/* A signed integer sum_k v[k] 2^(62k): v[0..5] in [0, 2^62), v[6] signed. */
typedef struct {
    int64_t v[S62_LIMBS];
} s62_t;

static void s62_from_limbs(s62_t *r, const uint64_t *a, size_t n)
{
    for (int k = 0; k < S62_LIMBS; k++) {
        unsigned bit = 62u * (unsigned)k, w = bit / 64, s = bit % 64;
        uint64_t v = w < n ? a[w] >> s : 0;
        if (s > 2 && w + 1 < n)
            v |= a[w + 1] << (64 - s);
        r->v[k] = (int64_t)(v & MASK62);
    }
}

/* r = a for 0 <= a < 2^(64n) */
static void s62_to_limbs(uint64_t *r, const s62_t *a, size_t n)
{
    memset(r, 0, n * sizeof *r);
    for (int k = 0; k < S62_LIMBS; k++) {
        unsigned bit = 62u * (unsigned)k, w = bit / 64, s = bit % 64;
        uint64_t v = (uint64_t)a->v[k];
        if (w < n)
            r[w] |= v << s;
        if (s > 2 && w + 1 < n)
            r[w + 1] |= v >> (64 - s);
    }
}

static int s62_is_neg(const s62_t *a) { return a->v[S62_LIMBS - 1] < 0; }

static int s62_is_zero(const s62_t *a)
{
    int64_t any = 0;
    for (int k = 0; k < S62_LIMBS; k++)
        any |= a->v[k];
    return any == 0;
}

/* a >= b (both in this representation) */
static int s62_ge(const s62_t *a, const s62_t *b)
{
    for (int k = S62_LIMBS - 1; k >= 0; k--)
        if (a->v[k] != b->v[k])
            return a->v[k] > b->v[k];
    return 1;
}

/* a += k b */
static void s62_addmul(s62_t *a, const s62_t *b, int64_t k)
{
    i128 c = 0;
    for (int i = 0; i < S62_LIMBS - 1; i++) {
        c += (i128)a->v[i] + (i128)k * b->v[i];
        a->v[i] = (int64_t)((uint64_t)c & MASK62);
        c >>= 62;
    }
    a->v[S62_LIMBS - 1] = (int64_t)(c + (i128)a->v[S62_LIMBS - 1] + (i128)k * b->v[S62_LIMBS - 1]);
}

/* 62 divsteps on the low 64 bits of f (odd) and g. Returns the new delta and the matrix
 * t = (u, v, q, r) with 2^62 f' = u f + v g, 2^62 g' = q f + r g. Invariant of the loop,
 * after k steps: 2^k (f_k, g_k) = (u f + v g, q f + r g); |u| + |v|, |q| + |r| <= 2^k. */
static int64_t divsteps62(int64_t delta, uint64_t f, uint64_t g, int64_t t[4])
{
    uint64_t u = 1, v = 0, q = 0, r = 1;
    int left = 62;
    for (;;) {
        /* g even: (delta, f, g) -> (1 + delta, f, g / 2), as many times as g has zeros */
        int z = __builtin_ctzll(g | (UINT64_C(1) << left));
        g >>= z;
        u <<= z;
        v <<= z;
        delta += z;
        left -= z;
        if (left == 0)
            break;
        if (delta > 0) { /* (1 - delta, g, (g - f) / 2) */
            uint64_t tf = f, tu = u, tv = v;
            f = g;
            g = (g - tf) >> 1;
            u = q << 1;
            v = r << 1;
            q -= tu;
            r -= tv;
            delta = 1 - delta;
        } else {         /* (1 + delta, f, (g + f) / 2) */
            g = (g + f) >> 1;
            q += u;
            r += v;
            u <<= 1;
            v <<= 1;
            delta = 1 + delta;
        }
        left--;
    }
    t[0] = (int64_t)u, t[1] = (int64_t)v, t[2] = (int64_t)q, t[3] = (int64_t)r;
    return delta;
}

/* (f, g) = (u f + v g, q f + r g) / 2^62, exactly */
static void update_fg(s62_t *f, s62_t *g, const int64_t t[4])
{
    i128 cf = (i128)t[0] * f->v[0] + (i128)t[1] * g->v[0];
    i128 cg = (i128)t[2] * f->v[0] + (i128)t[3] * g->v[0];
    cf >>= 62;
    cg >>= 62;
    for (int k = 1; k < S62_LIMBS; k++) {
        cf += (i128)t[0] * f->v[k] + (i128)t[1] * g->v[k];
        cg += (i128)t[2] * f->v[k] + (i128)t[3] * g->v[k];
        f->v[k - 1] = (int64_t)((uint64_t)cf & MASK62);
        g->v[k - 1] = (int64_t)((uint64_t)cg & MASK62);
        cf >>= 62;
        cg >>= 62;
    }
    f->v[S62_LIMBS - 1] = (int64_t)cf;
    g->v[S62_LIMBS - 1] = (int64_t)cg;
}

/* (d, e) = (u d + v e, q d + r e) / 2^62 mod m, from and to [0, m): the added multiples
 * md m, me m (md, me < 2^62) make the low 62 bits zero; the quotients lie in (-m, 2m). */
static void update_de(s62_t *d, s62_t *e, const int64_t t[4], const s62_t *m, uint64_t minv62)
{
    i128 cd = (i128)t[0] * d->v[0] + (i128)t[1] * e->v[0];
    i128 ce = (i128)t[2] * d->v[0] + (i128)t[3] * e->v[0];
    uint64_t md = (0 - (uint64_t)cd * minv62) & MASK62, me = (0 - (uint64_t)ce * minv62) & MASK62;
    cd += (i128)md * m->v[0];
    ce += (i128)me * m->v[0];
    cd >>= 62;
    ce >>= 62;
    for (int k = 1; k < S62_LIMBS; k++) {
        cd += (i128)t[0] * d->v[k] + (i128)t[1] * e->v[k] + (i128)md * m->v[k];
        ce += (i128)t[2] * d->v[k] + (i128)t[3] * e->v[k] + (i128)me * m->v[k];
        d->v[k - 1] = (int64_t)((uint64_t)cd & MASK62);
        e->v[k - 1] = (int64_t)((uint64_t)ce & MASK62);
        cd >>= 62;
        ce >>= 62;
    }
    d->v[S62_LIMBS - 1] = (int64_t)cd;
    e->v[S62_LIMBS - 1] = (int64_t)ce;
    s62_t *de[2] = {d, e};
    for (int i = 0; i < 2; i++) {
        if (s62_is_neg(de[i]))
            s62_addmul(de[i], m, 1);
        else if (s62_ge(de[i], m))
            s62_addmul(de[i], m, -1);
    }
}

void field_inv_safegcd(uint64_t *out, const uint64_t *in, const uint64_t *modulus, size_t n)
{
    s62_t m, f, g, d = {{0}}, e = {{1}};
    s62_from_limbs(&m, modulus, n);
    s62_from_limbs(&g, in, n);
    f = m;
    uint64_t inv = 1; /* m^-1 mod 2^64 by Newton's iteration (each doubles the bits) */
    for (int i = 0; i < 6; i++)
        inv *= 2 - modulus[0] * inv;
    const uint64_t minv62 = inv & MASK62;
    int64_t delta = 1, t[4];
    while (!s62_is_zero(&g)) {
        uint64_t flo = (uint64_t)f.v[0] | (uint64_t)f.v[1] << 62;
        uint64_t glo = (uint64_t)g.v[0] | (uint64_t)g.v[1] << 62;
        delta = divsteps62(delta, flo, glo, t);
        update_fg(&f, &g, t);
        update_de(&d, &e, t, &m, minv62);
    }
    if (s62_is_neg(&f)) { /* f = -1: the inverse is -d */
        s62_t z = {{0}};
        s62_addmul(&z, &d, -1);
        if (s62_is_neg(&z))
            s62_addmul(&z, &m, 1);
        d = z;
    }
    s62_to_limbs(out, &d, n);
}
