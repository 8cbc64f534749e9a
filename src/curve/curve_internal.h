/* Private to src/curve: hardcoded curve constants and shared encoding helpers.
 *
 * Every constant is in Montgomery form (fp.h) and is printed, with the properties it
 * must satisfy asserted, by tools/gen/curve_constants.py (see that file for the
 * derivation of beta and the psi coefficients).
 */
#ifndef CUZK_CURVE_CURVE_INTERNAL_H
#define CUZK_CURVE_CURVE_INTERNAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "field/fp.h"
#include "field/tower.h"

extern const fp_t CURVE_G1_B;        /* 4 */
extern const fp_t CURVE_G1_GEN_X, CURVE_G1_GEN_Y;
extern const fp2_t CURVE_G2_B;       /* 4(u + 1) */
extern const fp2_t CURVE_G2_GEN_X, CURVE_G2_GEN_Y;
/* Cube root of unity with phi(x, y) = (beta*x, y) acting as [-x^2] on G1. */
extern const fp_t CURVE_G1_BETA;
/* psi(x, y) = (PSI_CX * conj(x), PSI_CY * conj(y)) on E'(Fp2), acting as [x] on G2. */
extern const fp2_t CURVE_G2_PSI_CX, CURVE_G2_PSI_CY;
/* |x| for the BLS12-381 parameter x = -0xd201000000010000. */
#define CURVE_BLS_X_ABS 0xd201000000010000ULL

/* Flag bits of byte 0 of the ZCash encodings. */
#define CURVE_FLAG_COMPRESSED 0x80
#define CURVE_FLAG_INFINITY 0x40
#define CURVE_FLAG_SORT 0x20
#define CURVE_FLAG_MASK 0xe0

/* Result of the group-independent part of decoding. */
typedef struct {
    bool compressed;
    bool infinity;   /* a valid encoding of the point at infinity */
    bool sort;
} curve_header;

/* Validate the length and flag bits of an encoding whose compressed form has
 * `compressed_len` bytes (the uncompressed form has twice that); `group` ("G1"/"G2")
 * names the group in the message. Returns POINT_LENGTH, POINT_FLAGS or POINT_INFINITY
 * (see g1_from_bytes in curve.h) or CUZK_OK with `h` filled. */
cuzk_status curve_decode_header(curve_header *h, const uint8_t *in, size_t len,
                                size_t compressed_len, const char *group, cuzk_error *err);

/* Parse the big-endian Fp element at in[0..47] with the flag bits of its first byte
 * cleared when `clear_flags`; POINT_COORDINATE (message names `group` and `what`) if
 * the integer is >= p. */
cuzk_status curve_decode_fp(fp_t *r, const uint8_t *in, bool clear_flags, const char *group,
                            const char *what, cuzk_error *err);

#endif
