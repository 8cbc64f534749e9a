/* Batch-affine G1 addition (the building block of the boolean sums and bucket
 * accumulation): many independent affine additions P_k + Q_k share one field inversion by
 * Montgomery's simultaneous-inversion trick (P. L. Montgomery, "Speeding the Pollard and
 * elliptic curve methods of factorization", Math. Comp. 48, 1987, section 10.3.1).
 *
 * Per addition: g1_affine_add_den(P, Q) gives the denominator d (x_Q - x_P, or 2 y_P when
 * P = Q) and the case; the caller multiplies the d's into prefix products, inverts the total
 * once, walks back to get each 1/d, and g1_affine_add_with_inv(P, Q, case, 1/d) finishes the
 * sum with 3 multiplications (lambda, lambda^2, lambda (x_P - x_3)). The special cases
 * (an operand at infinity, P = -Q) use d = 1, so they never zero the product.
 * G1 has no point of order 2 (its order is odd), so y_P != 0 whenever P = Q is finite.
 */
#ifndef CUZK_GPU_KERNELS_G1_BATCH_H
#define CUZK_GPU_KERNELS_G1_BATCH_H

#define G1_ADD_GENERAL 0u   /* x_P != x_Q: d = x_Q - x_P */
#define G1_ADD_DOUBLE 1u    /* P = Q finite: d = 2 y_P */
#define G1_ADD_TAKE_Q 2u    /* P is infinity: the sum is Q; d = 1 */
#define G1_ADD_TAKE_P 3u    /* Q is infinity: the sum is P; d = 1 */
#define G1_ADD_INFINITY 4u  /* P = -Q: the sum is infinity; d = 1 */

typedef struct { fp_t d; u32 kind; } g1_add_den_t;

DEVICE g1_add_den_t g1_affine_add_den(g1_affine_t p, g1_affine_t q)
{
    g1_add_den_t r;
    r.d = fp_one();
    if (g1_affine_is_infinity(p)) {
        r.kind = G1_ADD_TAKE_Q;
    } else if (g1_affine_is_infinity(q)) {
        r.kind = G1_ADD_TAKE_P;
    } else if (!fp_eq(p.x, q.x)) {
        r.kind = G1_ADD_GENERAL;
        r.d = fp_sub(q.x, p.x);
    } else if (fp_eq(p.y, q.y)) {
        r.kind = G1_ADD_DOUBLE;
        r.d = fp_dbl(p.y);
    } else {
        r.kind = G1_ADD_INFINITY;
    }
    return r;
}

/* P + Q given kind and dinv = 1/d from g1_affine_add_den(P, Q) */
DEVICE g1_affine_t g1_affine_add_with_inv(g1_affine_t p, g1_affine_t q, u32 kind, fp_t dinv)
{
    if (kind == G1_ADD_TAKE_Q)
        return q;
    if (kind == G1_ADD_TAKE_P)
        return p;
    if (kind == G1_ADD_INFINITY)
        return g1_affine_infinity();
    fp_t num;
    if (kind == G1_ADD_DOUBLE) {
        fp_t x2 = fp_sqr(p.x);
        num = fp_add(fp_dbl(x2), x2); /* 3 x^2 */
    } else {
        num = fp_sub(q.y, p.y);
    }
    fp_t lambda = fp_mul(num, dinv);
    g1_affine_t r;
    r.x = fp_sub(fp_sub(fp_sqr(lambda), p.x), q.x);
    r.y = fp_sub(fp_mul(lambda, fp_sub(p.x, r.x)), p.y);
    return r;
}

/* out[k] = in[2k] + in[2k+1] for the pairs k in [lo, hi), with one inversion; scratch[k]
 * (k in [lo, hi)) receives the prefix products. in and out must not overlap. */
DEVICE void g1_affine_add_pairs_range(GLOBAL const g1_affine_t *in, GLOBAL g1_affine_t *out,
                                      GLOBAL fp_t *scratch, u32 lo, u32 hi)
{
    fp_t acc = fp_one();
    for (u32 k = lo; k < hi; k++) {
        g1_add_den_t den = g1_affine_add_den(in[2 * k], in[2 * k + 1]);
        scratch[k] = acc;
        acc = fp_mul(acc, den.d);
    }
    fp_t inv = fp_inv(acc);
    for (u32 k = hi; k-- > lo;) {
        g1_affine_t p = in[2 * k], q = in[2 * k + 1];
        g1_add_den_t den = g1_affine_add_den(p, q);
        fp_t dinv = fp_mul(inv, scratch[k]);
        inv = fp_mul(inv, den.d);
        out[k] = g1_affine_add_with_inv(p, q, den.kind, dinv);
    }
}

/* One level of a pairwise sum: out[k] = in[2k] + in[2k+1] for k < n_in / 2, each work-item
 * taking `per_item` consecutive pairs; for odd n_in, out[n_in / 2] = in[n_in - 1]. scratch
 * holds n_in / 2 elements. Launch ceil((n_in / 2) / per_item) work-items (or more). */
KERNEL void g1_affine_add_pairs(GLOBAL const g1_affine_t *in, GLOBAL g1_affine_t *out, GLOBAL fp_t *scratch,
                                u32 n_in, u32 per_item)
{
    u32 npairs = n_in / 2;
    u64 lo64 = (u64)GID * per_item;
    if (GID == 0 && (n_in & 1))
        out[npairs] = in[n_in - 1];
    if (lo64 >= npairs)
        return;
    u32 lo = (u32)lo64;
    u32 hi = npairs - lo < per_item ? npairs : lo + per_item;
    g1_affine_add_pairs_range(in, out, scratch, lo, hi);
}

#endif
