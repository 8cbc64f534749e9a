/* Group-independent parts of decoding the ZCash BLS12-381 point encodings (reference
 * docs/formats.md#point-encodings; the format of zkcrypto/bls12_381, bellperson and blst):
 * length, the three flag bits of byte 0, and big-endian coordinates.
 */
#include "curve/curve_internal.h"

cuzk_status curve_decode_header(curve_header *h, const uint8_t *in, size_t len,
                                size_t compressed_len, const char *group, cuzk_error *err)
{
    if (len != compressed_len && len != 2 * compressed_len)
        return cuzk_fail(err, CUZK_E_POINT_LENGTH,
                         "%s encoding: length %zu, expected %zu (compressed) or %zu (uncompressed)",
                         group, len, compressed_len, 2 * compressed_len);
    uint8_t flags = in[0] & CURVE_FLAG_MASK;
    bool compressed = (flags & CURVE_FLAG_COMPRESSED) != 0;
    bool infinity = (flags & CURVE_FLAG_INFINITY) != 0;
    bool sort = (flags & CURVE_FLAG_SORT) != 0;
    if (compressed != (len == compressed_len))
        return cuzk_fail(err, CUZK_E_POINT_FLAGS,
                         "%s encoding: byte 0 = 0x%02x: compression flag %s but length is %zu",
                         group, in[0], compressed ? "set" : "clear", len);
    if (sort && !compressed)
        return cuzk_fail(err, CUZK_E_POINT_FLAGS,
                         "%s encoding: byte 0 = 0x%02x: sort flag set in an uncompressed encoding",
                         group, in[0]);
    if (sort && infinity)
        return cuzk_fail(err, CUZK_E_POINT_FLAGS,
                         "%s encoding: byte 0 = 0x%02x: sort flag set on the point at infinity",
                         group, in[0]);
    if (infinity) {
        for (size_t i = 0; i < len; i++) {
            uint8_t v = i == 0 ? (uint8_t)(in[0] & ~CURVE_FLAG_MASK) : in[i];
            if (v != 0)
                return cuzk_fail(err, CUZK_E_POINT_INFINITY,
                                 "%s encoding: infinity flag set but byte %zu is 0x%02x", group,
                                 i, in[i]);
        }
    }
    h->compressed = compressed;
    h->infinity = infinity;
    h->sort = sort;
    return CUZK_OK;
}

cuzk_status curve_decode_fp(fp_t *r, const uint8_t *in, bool clear_flags, const char *group,
                            const char *what, cuzk_error *err)
{
    uint8_t buf[FP_BYTES];
    for (size_t i = 0; i < FP_BYTES; i++)
        buf[i] = in[i];
    if (clear_flags)
        buf[0] &= (uint8_t)~CURVE_FLAG_MASK;
    if (fp_from_bytes_be(r, buf) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_POINT_COORDINATE, "%s encoding: coordinate %s is >= p",
                         group, what);
    return CUZK_OK;
}
