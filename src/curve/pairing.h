/* Optimal ate pairing on BLS12-381 and the multi-pairing product check used by Groth16
 * verification.
 *
 * e: G1 x G2 -> GT (order-r subgroup of Fp12*). The Miller loop runs over |x| with
 * x = -0xd201000000010000 (the BLS parameter), doubling/addition steps in homogeneous
 * projective coordinates on the twist (Aranha, Karabina, Longa, Gebotys, Lopez, EUROCRYPT
 * 2011: 3M + 6S in Fp2 per doubling) with the lines evaluated in the sparse "014" form
 * (M-type twist) and multiplied in by a sparse product (fp12_mul_by_014, or
 * fp12_mul_by_014_unit for normalised lines); the first line is assigned rather than
 * multiplied into 1, and the result is conjugated because x < 0. The tower arithmetic
 * under it uses lazy reduction (field/wide.h). The final exponentiation raises to
 * (p^12 - 1)/r with the easy part (p^6 - 1)(p^2 + 1) and the hard part by the
 * x-addition chain of Hayashida, Hayasaka, Teruya, "Efficient final exponentiation via
 * cyclotomic structure for pairings over families of elliptic curves" (ePrint 2020/875),
 * which yields the same GT value as @noble/curves, blst and zkcrypto/bls12_381; its five
 * powers by x use Karabina's compressed squarings (fp12_cyclotomic_pow_u64).
 *
 * All functions are pure (no shared state), thread-safe, and never fail; points at
 * infinity contribute the factor 1.
 */
#ifndef CUZK_CURVE_PAIRING_H
#define CUZK_CURVE_PAIRING_H

#include <stdbool.h>
#include <stddef.h>

#include "curve/curve.h"
#include "field/tower.h"

/* Number of line functions in one Miller loop: 63 doublings + 5 additions. */
#define PAIRING_LINES 68

/* A G2 point prepared for repeated Miller loops (e.g. the verifying key's beta, gamma,
 * delta): the line coefficients (c0, cx, cy) of every step, the line at P being
 * c0 + (cx xP) v + (cy yP) v w, 68 * 3 * 96 bytes. `normalized`: every line was divided
 * by its cy at preparation (cy = 1; one Fp2 inversion for all, Montgomery's trick), so the
 * Miller loop scales it by 1/yP and multiplies by an element with 1 in slot 4
 * (fp12_mul_by_014_unit: 10 Fp2 products instead of 13); points of order r always
 * normalise. With `normalized` false the lines are used as stored (valid for normalised
 * lines too: the general path). A prepared infinity has `infinity` set and no lines.
 * Caller-owned plain data, immutable after preparation and shareable between threads. */
typedef struct {
    fp2_t c0[PAIRING_LINES], cx[PAIRING_LINES], cy[PAIRING_LINES];
    bool infinity;
    bool normalized;
} g2_prepared_t;

/* Prepare q (any affine point; infinity is x = y = 0), normalised. About as costly as one
 * Miller loop's line products: prepare once per key point. */
void pairing_prepare_g2(g2_prepared_t *out, const g2_affine_t *q);

/* Prepare q for a single Miller loop (a proof's B, a one-off check): the same lines left
 * as computed (`normalized` false). Normalising costs 5 Fp2 products a line and one Fp2
 * inversion and saves 3 Fp2 products a line in every loop, so it pays only for a point
 * used in more than one loop. Same arguments and results as pairing_prepare_g2. */
void pairing_prepare_g2_once(g2_prepared_t *out, const g2_affine_t *q);

/* f = prod_i f_{x, Q_i}(P_i) (no final exponentiation), over n pairs: p is an array of n
 * points, q an array of n pointers to prepared points. One shared loop (one Fp12 squaring
 * a step for all pairs) per 16 pairs. f is defined up to factors in proper subfields
 * (line scalings by Fp2 and Fp elements), which the final exponentiation removes: only
 * pairing_final_exp(f) is canonical. */
void pairing_miller_loop(fp12_t *f, const g1_affine_t *p, const g2_prepared_t *const *q, size_t n);

/* r = f^((p^12 - 1) / r_order); f must be non-zero (any Miller loop output is). */
void pairing_final_exp(fp12_t *r, const fp12_t *f);

/* r = e(p, q). */
void pairing(fp12_t *r, const g1_affine_t *p, const g2_affine_t *q);

/* true iff prod_{i<n} e(p[i], q[i]) == 1, with one shared Miller loop and one final
 * exponentiation. */
bool pairing_product_is_one(const g1_affine_t *p, const g2_prepared_t *const *q, size_t n);

#endif
