/* Diagnostics for a snarkjs .zkey whose proofs do not verify: is the key made for this
 * circuit, and is it consistent with itself? Used by `cuzk prove` to say whether the
 * witness or the key is at fault.
 *
 * What a .zkey lets one check (snarkjs 0.7.6 src/zkey_new.js, src/zkey_utils.js; zkey.h):
 *   - section 4 holds the A and B coefficients only; C is not stored (the prover sets
 *     c = a * b), so a witness cannot be checked against the key alone: that needs the
 *     circuit's .r1cs (r1cs_check_witness);
 *   - B1[i] = B_i(tau) G1 and B2[i] = B_i(tau) G2 come from the same Lagrange basis of the
 *     powers of tau, beta1/beta2 and delta1/delta2 are the same scalars in G1 and G2, so
 *     e(B1[i], G2) = e(G1, B2[i]), e(beta1, G2) = e(G1, beta2), e(delta1, G2) = e(G1, delta2)
 *     hold for every correct key (a wrong Lagrange point of the ptau, or a swapped or
 *     edited point, breaks the first for every signal whose B uses it). The A, C, IC and H
 *     points have no such partner: a wrong one is found only because a proof made with a
 *     satisfying witness does not verify.
 * Thread-safety: read-only on their inputs; reentrant.
 */
#ifndef CUZK_GROTH16_ZKEY_CHECK_H
#define CUZK_GROTH16_ZKEY_CHECK_H

#include "cs/r1cs.h"
#include "groth16/zkey.h"

/* Whether zkey z was made for circuit r: the same wire and public-signal counts, a domain
 * that holds the constraints plus snarkjs's input rows, and the same A and B matrices
 * (section 4 against the .r1cs rows, plus the rows A[n_constraints + s][s] = 1), compared
 * through one random linear combination of the signals (x_i = rho^i for a random rho from
 * getrandom(2); a mismatch escapes with probability below n_vars / r). `r1cs_name` names
 * the circuit in messages. Errors: CUZK_E_INVALID_ARG "the zkey was made for another
 * circuit than <r1cs_name>: ..." naming the count or the first row whose A or B differs;
 * CUZK_E_IO (getrandom), CUZK_E_NOMEM. */
cuzk_status zkey_check_r1cs(const zkey_t *z, const r1cs_t *r, const char *r1cs_name, cuzk_error *err);

/* The pairing checks above that need no secret: e(beta1, G2) = e(G1, beta2),
 * e(delta1, G2) = e(G1, delta2), and e(sum rho^i B1[i], G2) = e(G1, sum rho^i B2[i]) for
 * a random rho (one G1 and one G2 MSM of n_vars points on `threads` threads, >= 1).
 * Errors: CUZK_E_VERIFY_FAILED "the proving key is inconsistent: ..." naming the pair
 * that disagrees; CUZK_E_IO (getrandom), CUZK_E_NOMEM and MSM errors. */
cuzk_status zkey_check_points(const zkey_t *z, unsigned threads, cuzk_error *err);

#endif
