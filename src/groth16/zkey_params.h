/* Bridges between snarkjs .zkey keys (zkey.h) and the prover core (groth16.h).
 *
 * A .zkey carries full-length A/B queries (infinity for unused signals), the snarkjs H
 * form over the 5^t roots, and the QAP coefficients of A and B (section 4) from which
 * the prover evaluates a = A.w and b = B.w on the domain and sets c = a * b (snarkjs
 * src/groth16_prove.js buildABC; equal to C.w for a satisfying witness). */
#ifndef CUZK_GROTH16_ZKEY_PARAMS_H
#define CUZK_GROTH16_ZKEY_PARAMS_H

#include "groth16/groth16.h"
#include "groth16/zkey.h"

/* View a zkey as prover parameters. The arrays are BORROWED from z (do not call
 * groth16_params_free on the result; z must outlive it). Never fails for a zkey that
 * zkey_read_* accepted. */
void groth16_params_from_zkey(groth16_params_t *out, const zkey_t *z);

/* Evaluate the zkey's coefficients on witness w (z->n_vars Montgomery fr_t): a, b, c
 * each z->domain_size fr_t, caller-owned, fully overwritten. */
void groth16_zkey_abc(const zkey_t *z, const fr_t *w, fr_t *a, fr_t *b, fr_t *c);

/* Build a snarkjs-compatible zkey from parameters made by groth16_setup(POLY_H_SNARKJS)
 * for `circ` (its A and B matrices become section 4, plus snarkjs's input rows
 * A[n_constraints + s][s] = 1). *out is allocated with zkey_alloc (free with zkey_free).
 * Errors: CUZK_E_INVALID_ARG (a key not in the snarkjs form, sizes over 2^32),
 * CUZK_E_NOMEM. */
cuzk_status groth16_zkey_from_setup(zkey_t *out, const groth16_params_t *pk, const groth16_circuit_t *circ,
                                    cuzk_error *err);

#endif
