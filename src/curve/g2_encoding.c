/* G2 ZCash encodings: 96-byte compressed (x.c1 || x.c0 with flags) and 192-byte
 * uncompressed (x.c1 || x.c0 || y.c1 || y.c0), big-endian, imaginary part first; see
 * curve.h and docs/formats.md#point-encodings.
 */
#include <string.h>

#include "curve/curve.h"
#include "curve/curve_internal.h"

void g2_to_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *p)
{
    if (g2_affine_is_infinity(p)) {
        memset(out, 0, G2_COMPRESSED_BYTES);
        out[0] = CURVE_FLAG_COMPRESSED | CURVE_FLAG_INFINITY;
        return;
    }
    fp_to_bytes_be(out, &p->x.c1);
    fp_to_bytes_be(out + FP_BYTES, &p->x.c0);
    out[0] |= CURVE_FLAG_COMPRESSED;
    if (fp2_is_lexicographically_largest(&p->y))
        out[0] |= CURVE_FLAG_SORT;
}

void g2_to_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *p)
{
    if (g2_affine_is_infinity(p)) {
        memset(out, 0, G2_UNCOMPRESSED_BYTES);
        out[0] = CURVE_FLAG_INFINITY;
        return;
    }
    fp_to_bytes_be(out, &p->x.c1);
    fp_to_bytes_be(out + FP_BYTES, &p->x.c0);
    fp_to_bytes_be(out + 2 * FP_BYTES, &p->y.c1);
    fp_to_bytes_be(out + 3 * FP_BYTES, &p->y.c0);
}

cuzk_status g2_from_bytes_err(g2_affine_t *r, const uint8_t *in, size_t len,
                              bool check_subgroup, cuzk_error *err)
{
    curve_header h;
    cuzk_status s = curve_decode_header(&h, in, len, G2_COMPRESSED_BYTES, "G2", err);
    if (s != CUZK_OK)
        return s;
    if (h.infinity) {
        g2_affine_set_infinity(r);
        return CUZK_OK;
    }
    g2_affine_t p;
    if ((s = curve_decode_fp(&p.x.c1, in, true, "G2", "x.c1", err)) != CUZK_OK ||
        (s = curve_decode_fp(&p.x.c0, in + FP_BYTES, false, "G2", "x.c0", err)) != CUZK_OK)
        return s;
    if (h.compressed) {
        fp2_t rhs;
        fp2_sqr(&rhs, &p.x);
        fp2_mul(&rhs, &rhs, &p.x);
        fp2_add(&rhs, &rhs, &CURVE_G2_B);
        if (!fp2_sqrt(&p.y, &rhs))
            return cuzk_fail(err, CUZK_E_POINT_NOT_ON_CURVE,
                             "G2 compressed encoding: x^3 + 4(u + 1) is not a square for this x");
        if (fp2_is_lexicographically_largest(&p.y) != h.sort)
            fp2_neg(&p.y, &p.y);
    } else {
        if ((s = curve_decode_fp(&p.y.c1, in + 2 * FP_BYTES, false, "G2", "y.c1", err)) != CUZK_OK ||
            (s = curve_decode_fp(&p.y.c0, in + 3 * FP_BYTES, false, "G2", "y.c0", err)) != CUZK_OK)
            return s;
        /* (0, 0) is the in-memory infinity but not a curve point without the flag */
        if (g2_affine_is_infinity(&p) || !g2_affine_is_on_curve(&p))
            return cuzk_fail(err, CUZK_E_POINT_NOT_ON_CURVE,
                             "G2 uncompressed encoding: (x, y) is not on y^2 = x^3 + 4(u + 1)");
    }
    if (check_subgroup && !g2_affine_in_subgroup(&p))
        return cuzk_fail(err, CUZK_E_POINT_NOT_IN_SUBGROUP,
                         "G2 encoding: point is on the curve but not in the order-r subgroup");
    *r = p;
    return CUZK_OK;
}

cuzk_status g2_from_bytes(g2_affine_t *r, const uint8_t *in, size_t len, bool check_subgroup)
{
    return g2_from_bytes_err(r, in, len, check_subgroup, NULL);
}
