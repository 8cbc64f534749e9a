/* G1 and G2 of BLS12-381: point types, group law, checks and encodings.
 *
 *   G1: y^2 = x^3 + 4            over Fp
 *   G2: y^2 = x^3 + 4(u + 1)     over Fp2 (M-type sextic twist)
 *
 * Affine points store (x, y) in Montgomery form; the point at infinity is x = y = 0
 * (never on the curve since b != 0), so affine arrays are dense 96/192-byte records for
 * the MSM. Jacobian points (X, Y, Z) represent (X/Z^2, Y/Z^3); Z = 0 is infinity.
 *
 * All group-law functions allow aliasing, never fail and are thread-safe. Formulas:
 * add-2007-bl, madd-2007-bl, dbl-2009-l (a = 0) from the Explicit-Formulas Database
 * (hyperelliptic.org/EFD/g1p/auto-shortw-jacobian-0.html). Subgroup checks: Bowe,
 * "Faster subgroup checks for BLS12-381" (ePrint 2019/814) for G1 (endomorphism) and
 * psi(Q) == [x]Q for G2 (Scott, ePrint 2021/1130).
 *
 * Encodings: ZCash BLS12-381 format as used by bellperson/blst (reference
 * docs/formats.md#point-encodings): big-endian coordinates, G2 as c1 || c0, flag bits in the
 * top three bits of byte 0 (0x80 compressed, 0x40 infinity, 0x20 sort = y is the
 * lexicographically larger root).
 */
#ifndef CUZK_CURVE_CURVE_H
#define CUZK_CURVE_CURVE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "field/fp.h"
#include "field/fr.h"
#include "field/tower.h"

typedef struct { fp_t x, y; } g1_affine_t;
typedef struct { fp_t x, y, z; } g1_jac_t;
typedef struct { fp2_t x, y; } g2_affine_t;
typedef struct { fp2_t x, y, z; } g2_jac_t;

#define G1_COMPRESSED_BYTES 48
#define G1_UNCOMPRESSED_BYTES 96
#define G2_COMPRESSED_BYTES 96
#define G2_UNCOMPRESSED_BYTES 192

/* ---- G1 ---- */
/* The standard generator (BLS12-381 specification, draft-irtf-cfrg-pairing-friendly-curves
 * section 4.2.1). */
void g1_generator(g1_affine_t *r);
void g1_affine_set_infinity(g1_affine_t *r);
bool g1_affine_is_infinity(const g1_affine_t *p);
void g1_jac_set_infinity(g1_jac_t *r);
bool g1_jac_is_infinity(const g1_jac_t *p);
void g1_jac_from_affine(g1_jac_t *r, const g1_affine_t *p);
/* One field inversion; infinity (Z = 0) gives (0, 0). */
void g1_affine_from_jac(g1_affine_t *r, const g1_jac_t *p);
/* out[i] = affine(in[i]) for i < n with one field inversion in all (Montgomery's trick;
 * infinities are skipped and give (0, 0)); no allocation, out[].x serves as scratch.
 * n = 0 is allowed; in and out must not overlap. */
void g1_batch_to_affine(g1_affine_t *out, const g1_jac_t *in, size_t n);
/* r = a + b, complete: handles a == b (doubles), a == -b and infinity operands. */
void g1_add(g1_jac_t *r, const g1_jac_t *a, const g1_jac_t *b);
/* r = a + b with b affine (Z = 1), complete like g1_add. */
void g1_add_mixed(g1_jac_t *r, const g1_jac_t *a, const g1_affine_t *b);
void g1_dbl(g1_jac_t *r, const g1_jac_t *a);
void g1_jac_neg(g1_jac_t *r, const g1_jac_t *a);
void g1_affine_neg(g1_affine_t *r, const g1_affine_t *a);
/* Equality of the represented points (any Z; all infinities are equal). */
bool g1_jac_eq(const g1_jac_t *a, const g1_jac_t *b);
bool g1_affine_eq(const g1_affine_t *a, const g1_affine_t *b);
/* r = [k]p with k any non-negative integer of `nlimbs` little-endian 64-bit limbs (not
 * reduced mod r, so it is exact also outside the subgroup; nlimbs = 0 or k = 0 gives
 * infinity). Fixed 4-bit window, not constant time. */
void g1_mul(g1_jac_t *r, const g1_jac_t *p, const uint64_t *k, size_t nlimbs);
void g1_mul_fr(g1_jac_t *r, const g1_jac_t *p, const fr_t *k);
bool g1_affine_is_on_curve(const g1_affine_t *p);   /* infinity counts as on the curve */
/* True iff p is in the order-r subgroup: phi(p) == -[x^2]p with phi(x, y) = (beta*x, y)
 * (ePrint 2021/1130 section 6, proved in 2022/352); two 64-bit multiplications. Assumes
 * p is on the curve (the answer is meaningless otherwise); infinity gives true. */
bool g1_affine_in_subgroup(const g1_affine_t *p);

/* Encoders write exactly 48/96 bytes; infinity is 0xc0 / 0x40 followed by zeros. The
 * compressed form sets 0x20 iff y > (p-1)/2. */
void g1_to_compressed(uint8_t out[G1_COMPRESSED_BYTES], const g1_affine_t *p);
void g1_to_uncompressed(uint8_t out[G1_UNCOMPRESSED_BYTES], const g1_affine_t *p);
/* Decode a 48-byte compressed or 96-byte uncompressed encoding (told apart by `len`).
 * Errors (r untouched): POINT_LENGTH, POINT_FLAGS, POINT_INFINITY, POINT_COORDINATE,
 * POINT_NOT_ON_CURVE, and POINT_NOT_IN_SUBGROUP when `check_subgroup` is true. */
cuzk_status g1_from_bytes(g1_affine_t *r, const uint8_t *in, size_t len, bool check_subgroup);
/* As g1_from_bytes, and on failure also records the code and a message naming the
 * failing field (flag byte, offset of a stray byte, coordinate) in `err` (may be NULL). */
cuzk_status g1_from_bytes_err(g1_affine_t *r, const uint8_t *in, size_t len,
                              bool check_subgroup, cuzk_error *err);

/* ---- G2 ---- (same contracts as G1; coordinates in Fp2, encodings c1 before c0, the
 * compressed sort bit taken from y.c1, or from y.c0 when y.c1 = 0). The subgroup check is
 * psi(Q) == [x]Q with psi the untwist-Frobenius-twist endomorphism (ePrint 2021/1130
 * section 4, proved in 2022/352): one 64-bit multiplication. */
void g2_generator(g2_affine_t *r);
void g2_affine_set_infinity(g2_affine_t *r);
bool g2_affine_is_infinity(const g2_affine_t *p);
void g2_jac_set_infinity(g2_jac_t *r);
bool g2_jac_is_infinity(const g2_jac_t *p);
void g2_jac_from_affine(g2_jac_t *r, const g2_affine_t *p);
void g2_affine_from_jac(g2_affine_t *r, const g2_jac_t *p);
void g2_batch_to_affine(g2_affine_t *out, const g2_jac_t *in, size_t n);
void g2_add(g2_jac_t *r, const g2_jac_t *a, const g2_jac_t *b);
void g2_add_mixed(g2_jac_t *r, const g2_jac_t *a, const g2_affine_t *b);
void g2_dbl(g2_jac_t *r, const g2_jac_t *a);
void g2_jac_neg(g2_jac_t *r, const g2_jac_t *a);
void g2_affine_neg(g2_affine_t *r, const g2_affine_t *a);
bool g2_jac_eq(const g2_jac_t *a, const g2_jac_t *b);
bool g2_affine_eq(const g2_affine_t *a, const g2_affine_t *b);
void g2_mul(g2_jac_t *r, const g2_jac_t *p, const uint64_t *k, size_t nlimbs);
void g2_mul_fr(g2_jac_t *r, const g2_jac_t *p, const fr_t *k);
bool g2_affine_is_on_curve(const g2_affine_t *p);
bool g2_affine_in_subgroup(const g2_affine_t *p);
void g2_to_compressed(uint8_t out[G2_COMPRESSED_BYTES], const g2_affine_t *p);
void g2_to_uncompressed(uint8_t out[G2_UNCOMPRESSED_BYTES], const g2_affine_t *p);
cuzk_status g2_from_bytes(g2_affine_t *r, const uint8_t *in, size_t len, bool check_subgroup);
cuzk_status g2_from_bytes_err(g2_affine_t *r, const uint8_t *in, size_t len,
                              bool check_subgroup, cuzk_error *err);

#endif
