/* G1 ZCash encodings: 48-byte compressed (x with flags) and 96-byte uncompressed
 * (x || y), big-endian; see curve.h and docs/formats.md#point-encodings.
 */
#include <string.h>

#include "curve/curve.h"
#include "curve/curve_internal.h"

void g1_to_compressed(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *p)
{
    if (g1_affine_is_infinity(p)) {
        memset(out, 0, G1_COMPRESSED_BYTES);
        out[0] = CURVE_FLAG_COMPRESSED | CURVE_FLAG_INFINITY;
        return;
    }
    fp_to_bytes_be(out, &p->x);
    out[0] |= CURVE_FLAG_COMPRESSED;
    if (fp_is_lexicographically_largest(&p->y))
        out[0] |= CURVE_FLAG_SORT;
}

void g1_to_uncompressed(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *p)
{
    if (g1_affine_is_infinity(p)) {
        memset(out, 0, G1_UNCOMPRESSED_BYTES);
        out[0] = CURVE_FLAG_INFINITY;
        return;
    }
    fp_to_bytes_be(out, &p->x);
    fp_to_bytes_be(out + FP_BYTES, &p->y);
}

cuzk_status g1_from_bytes_err(g1_affine_t *r, const uint8_t *in, size_t len,
                              bool check_subgroup, cuzk_error *err)
{
    curve_header h;
    cuzk_status s = curve_decode_header(&h, in, len, G1_COMPRESSED_BYTES, "G1", err);
    if (s != CUZK_OK)
        return s;
    g1_affine_t p;
    if (h.infinity) {
        g1_affine_set_infinity(r);
        return CUZK_OK;
    }
    if ((s = curve_decode_fp(&p.x, in, true, "G1", "x", err)) != CUZK_OK)
        return s;
    if (h.compressed) {
        fp_t rhs;
        fp_sqr(&rhs, &p.x);
        fp_mul(&rhs, &rhs, &p.x);
        fp_add(&rhs, &rhs, &CURVE_G1_B);
        if (!fp_sqrt(&p.y, &rhs))
            return cuzk_fail(err, CUZK_E_POINT_NOT_ON_CURVE,
                             "G1 compressed encoding: x^3 + 4 is not a square for this x");
        if (fp_is_lexicographically_largest(&p.y) != h.sort)
            fp_neg(&p.y, &p.y);
    } else {
        if ((s = curve_decode_fp(&p.y, in + FP_BYTES, false, "G1", "y", err)) != CUZK_OK)
            return s;
        /* (0, 0) is the in-memory infinity but not a curve point without the flag */
        if (g1_affine_is_infinity(&p) || !g1_affine_is_on_curve(&p))
            return cuzk_fail(err, CUZK_E_POINT_NOT_ON_CURVE,
                             "G1 uncompressed encoding: (x, y) is not on y^2 = x^3 + 4");
    }
    if (check_subgroup && !g1_affine_in_subgroup(&p))
        return cuzk_fail(err, CUZK_E_POINT_NOT_IN_SUBGROUP,
                         "G1 encoding: point is on the curve but not in the order-r subgroup");
    *r = p;
    return CUZK_OK;
}

cuzk_status g1_from_bytes(g1_affine_t *r, const uint8_t *in, size_t len, bool check_subgroup)
{
    return g1_from_bytes_err(r, in, len, check_subgroup, NULL);
}
