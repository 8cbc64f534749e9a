/* Located decoding of uncompressed G1/G2 points (ZCash format, docs/formats.md#point-encodings)
 * for the bellperson file readers; contract in bp_internal.h. */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "groth16/bp_internal.h"

#define FLAG_COMPRESSED 0x80u
#define FLAG_INFINITY 0x40u
#define FLAG_SORT 0x20u

static cuzk_status fail_at(cuzk_error *err, cuzk_status st, const bp_loc *loc, uint64_t index, uint64_t off,
                           const char *fmt, ...) __attribute__((format(printf, 6, 7)));

static cuzk_status fail_at(cuzk_error *err, cuzk_status st, const bp_loc *loc, uint64_t index, uint64_t off,
                           const char *fmt, ...)
{
    char what[256], idx[40] = "";
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(what, sizeof what, fmt, ap);
    va_end(ap);
    if (loc->indexed)
        snprintf(idx, sizeof idx, " point %llu", (unsigned long long)index);
    return cuzk_fail(err, st, "%s: section %s%s at offset %llu: %s", loc->file, loc->field, idx,
                     (unsigned long long)off, what);
}

/* Flag byte checks; the point at infinity is rejected (also when well-formed). */
static cuzk_status header(const uint8_t *in, size_t len, uint64_t off, const bp_loc *loc, uint64_t index, cuzk_error *err)
{
    uint8_t f = in[0];
    if (f & (FLAG_COMPRESSED | FLAG_SORT))
        return fail_at(err, CUZK_E_POINT_FLAGS, loc, index, off,
                       "flag byte 0x%02x has the compression or sort bit set in an uncompressed point", f);
    if (!(f & FLAG_INFINITY))
        return CUZK_OK;
    for (size_t i = 0; i < len; i++) {
        uint8_t v = i ? in[i] : (uint8_t)(in[0] & ~FLAG_INFINITY);
        if (v)
            return fail_at(err, CUZK_E_POINT_INFINITY, loc, index, off,
                           "infinity flag set but byte %zu (offset %llu) is 0x%02x", i,
                           (unsigned long long)(off + i), in[i]);
    }
    return fail_at(err, CUZK_E_POINT_INFINITY, loc, index, off,
                   "the point at infinity is not allowed (bellperson rejects it in every section)");
}

static cuzk_status coord(fp_t *r, const uint8_t *in, bool clear, uint64_t off, const char *name, const bp_loc *loc,
                         uint64_t index, cuzk_error *err)
{
    uint8_t b[FP_BYTES];
    memcpy(b, in, FP_BYTES);
    if (clear)
        b[0] &= 0x1f;
    if (fp_from_bytes_be(r, b) != CUZK_OK)
        return fail_at(err, CUZK_E_POINT_COORDINATE, loc, index, off, "coordinate %s (offset %llu) is >= p", name,
                       (unsigned long long)off);
    return CUZK_OK;
}

cuzk_status bp_get_g1(g1_affine_t *r, const uint8_t *in, uint64_t off, unsigned check,
                      const bp_loc *loc, uint64_t index, cuzk_error *err)
{
    cuzk_status st = header(in, BP_G1_BYTES, off, loc, index, err);
    if (st)
        return st;
    g1_affine_t p;
    if ((st = coord(&p.x, in, true, off, "x", loc, index, err)) ||
        (st = coord(&p.y, in + FP_BYTES, false, off + FP_BYTES, "y", loc, index, err)))
        return st;
    if (g1_affine_is_infinity(&p) || (check && !g1_affine_is_on_curve(&p)))
        return fail_at(err, CUZK_E_POINT_NOT_ON_CURVE, loc, index, off, "(x, y) is not on the G1 curve");
    if ((check & BP_CHECK_POINTS) && !g1_affine_in_subgroup(&p))
        return fail_at(err, CUZK_E_POINT_NOT_IN_SUBGROUP, loc, index, off, "not in the G1 subgroup");
    *r = p;
    return CUZK_OK;
}

cuzk_status bp_get_g2(g2_affine_t *r, const uint8_t *in, uint64_t off, unsigned check,
                      const bp_loc *loc, uint64_t index, cuzk_error *err)
{
    cuzk_status st = header(in, BP_G2_BYTES, off, loc, index, err);
    if (st)
        return st;
    g2_affine_t p;
    if ((st = coord(&p.x.c1, in, true, off, "x.c1", loc, index, err)) ||
        (st = coord(&p.x.c0, in + FP_BYTES, false, off + FP_BYTES, "x.c0", loc, index, err)) ||
        (st = coord(&p.y.c1, in + 2 * FP_BYTES, false, off + 2 * FP_BYTES, "y.c1", loc, index, err)) ||
        (st = coord(&p.y.c0, in + 3 * FP_BYTES, false, off + 3 * FP_BYTES, "y.c0", loc, index, err)))
        return st;
    if (g2_affine_is_infinity(&p) || (check && !g2_affine_is_on_curve(&p)))
        return fail_at(err, CUZK_E_POINT_NOT_ON_CURVE, loc, index, off, "(x, y) is not on the G2 curve");
    if ((check & BP_CHECK_POINTS) && !g2_affine_in_subgroup(&p))
        return fail_at(err, CUZK_E_POINT_NOT_IN_SUBGROUP, loc, index, off, "not in the G2 subgroup");
    *r = p;
    return CUZK_OK;
}
