/* Fixed-base scalar multiplication for setup (internal to groth16/).
 *
 * Table: for window w < 32 and digit d < 256, [d * 2^(8w)] G as affine points (8192
 * points: 768 KiB for G1, 1.5 MiB for G2). [k] G is then 32 mixed additions. Results are
 * written as affine through one batch inversion. Threads split the scalar list.
 * Errors: CUZK_E_NOMEM.
 */
#ifndef CUZK_GROTH16_FIXED_BASE_H
#define CUZK_GROTH16_FIXED_BASE_H

#include "common/status.h"
#include "curve/curve.h"

/* out[i] = [k[i]] G for i < n (k Montgomery fr_t). */
cuzk_status fixed_base_g1(g1_affine_t *out, const g1_affine_t *g, const fr_t *k, size_t n, unsigned threads);
cuzk_status fixed_base_g2(g2_affine_t *out, const g2_affine_t *g, const fr_t *k, size_t n, unsigned threads);

#endif
