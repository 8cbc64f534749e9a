/* Private to the bellperson format files (bp_point.c, vk_io.c, params_read.c,
 * params_write.c, bp_proofs.c): point decoding with located error messages and big-endian
 * u32 helpers. Format: bellperson_params.h. */
#ifndef CUZK_GROTH16_BP_INTERNAL_H
#define CUZK_GROTH16_BP_INTERNAL_H

#include "groth16/bellperson_params.h"

/* Where a point lies, for messages: "<file>: <field>[ point <index>] at offset <off>". */
typedef struct {
    const char *file;  /* "vk", "params" */
    const char *field; /* "alpha_g1", "ic", "h", ... */
    bool indexed;      /* print " point <index>" */
} bp_loc;

/* Decode the uncompressed point at in (96 / 192 bytes) located at file offset `off`.
 * Always checks the flag bits (compressed and sort clear; infinity with all other bits
 * zero) and that coordinates are < p; (0, 0) without the infinity flag is rejected as not
 * on the curve. `check`: BP_CHECK_POINTS adds the on-curve and subgroup checks,
 * BP_CHECK_ON_CURVE the on-curve check only, 0 neither. The point at infinity is
 * rejected (bellperson's reader rejects it in every vk and params section). Errors: CUZK_E_POINT_FLAGS / _INFINITY / _COORDINATE / _NOT_ON_CURVE /
 * _NOT_IN_SUBGROUP with the location in the message. */
cuzk_status bp_get_g1(g1_affine_t *r, const uint8_t *in, uint64_t off, unsigned check,
                      const bp_loc *loc, uint64_t index, cuzk_error *err);
cuzk_status bp_get_g2(g2_affine_t *r, const uint8_t *in, uint64_t off, unsigned check,
                      const bp_loc *loc, uint64_t index, cuzk_error *err);

static inline uint32_t bp_be32(const uint8_t *b)
{
    return (uint32_t)b[0] << 24 | (uint32_t)b[1] << 16 | (uint32_t)b[2] << 8 | b[3];
}

static inline void bp_put_be32(uint8_t *b, uint32_t v)
{
    b[0] = (uint8_t)(v >> 24), b[1] = (uint8_t)(v >> 16), b[2] = (uint8_t)(v >> 8), b[3] = (uint8_t)v;
}

/* Decode the six fixed vk points and the ic array of a vk that starts at buf[0] (the
 * caller checked that 868 + 96 n_ic bytes are present). ic is malloc'ed into vk->ic. */
cuzk_status bp_vk_decode(groth16_vk_t *vk, const uint8_t *buf, uint32_t n_ic, bool check, const char *file,
                         cuzk_error *err);

#endif
