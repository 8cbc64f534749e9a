/* Fixed-base scalar multiplication for setup (internal to groth16/).
 *
 * A table holds [d * 2^(b w)] G as affine points for every window w and digit d < 2^b,
 * b = 16 bits (16 windows, 2^20 points: 96 MiB for G1, 192 MiB for G2) when the caller
 * expects at least 2^17 scalars, else b = 8 (32 windows, 8192 points). [k] G is then one
 * affine addition per non-zero digit, done for 1024 scalars at a time with one shared
 * inversion per window (batch-affine, Montgomery's trick); equal or opposite operands fall
 * back to complete Jacobian additions. Tables are built and scalars multiplied on
 * `threads` threads (1..64). A table is read-only after creation (shareable).
 * Errors: CUZK_E_NOMEM.
 */
#ifndef CUZK_GROTH16_FIXED_BASE_H
#define CUZK_GROTH16_FIXED_BASE_H

#include <stddef.h>

#include "common/status.h"
#include "curve/curve.h"

typedef struct fixed_base_g1_table fixed_base_g1_table;
typedef struct fixed_base_g2_table fixed_base_g2_table;

cuzk_status fixed_base_g1_new(fixed_base_g1_table **t, const g1_affine_t *g, size_t expected_n, unsigned threads);
cuzk_status fixed_base_g2_new(fixed_base_g2_table **t, const g2_affine_t *g, size_t expected_n, unsigned threads);
/* out[i] = [k[i]] G for i < n (k Montgomery fr_t). */
void fixed_base_g1_mul(const fixed_base_g1_table *t, g1_affine_t *out, const fr_t *k, size_t n, unsigned threads);
void fixed_base_g2_mul(const fixed_base_g2_table *t, g2_affine_t *out, const fr_t *k, size_t n, unsigned threads);
void fixed_base_g1_free(fixed_base_g1_table *t);
void fixed_base_g2_free(fixed_base_g2_table *t);

#endif
