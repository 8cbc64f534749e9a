/* Groth16 over BLS12-381: proving key, verifying key, proof, the split prover and the
 * verifier. One prover core serves both parameter families; they differ only in the
 * H computation (poly/h.h):
 *   - bellperson/Filecoin `.params` (docs/formats.md#parameters-params): H query of m - 1
 *     points [tau^i Z(tau) / delta], density-filtered A / B queries;
 *   - snarkjs `.zkey`: H query of m points on the odd points of the 2m domain, full-length
 *     A / B queries with points at infinity (density "all").
 *
 * Proof (Groth, "On the Size of Pairing-based Non-interactive Arguments", EUROCRYPT 2016,
 * in bellperson's form, bellperson prover/native.rs), witness w = (inputs incl. ONE, aux):
 *   A = alpha_1 + sum_j w_j a_j + r delta_1
 *   B = beta_2 + sum_j w_j b2_j + s delta_2        (B1 the same in G1 with beta_1, b1_j, delta_1)
 *   C = sum_i h_i H_i + sum_aux w_j l_j + s A + r B1 - r s delta_1
 * Verification: e(A, B) = e(alpha_1, beta_2) e(sum_i x_i ic_i, gamma_2) e(C, delta_2).
 */
#ifndef CUZK_GROTH16_GROTH16_H
#define CUZK_GROTH16_GROTH16_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/release.h"
#include "common/status.h"
#include "cs/cs.h"
#include "curve/curve.h"
#include "curve/pairing.h"
#include "field/fr.h"
#include "poly/h.h"

/* Verifying key. `ic` has n_ic = number of public inputs + 1 (ic[0] belongs to ONE). */
typedef struct {
    g1_affine_t alpha_g1, beta_g1, delta_g1;
    g2_affine_t beta_g2, gamma_g2, delta_g2;
    g1_affine_t *ic;
    size_t n_ic;
} groth16_vk_t;

/* Proving key. Lengths:
 *   n_inputs (incl. ONE) + n_aux = number of variables;
 *   h: n_h = poly_h_len(h_form, m) with m = 2^log2_m the evaluation domain;
 *   l: n_aux (one per aux variable, full density);
 *   a: n_a = popcount of the A density (all variables for a .zkey, infinity where unused);
 *   b_g1, b_g2: n_b = popcount of the B density.
 * All arrays are caller/loader-owned; the prover only reads them (shareable between
 * threads). */
typedef struct {
    groth16_vk_t vk;
    size_t n_inputs, n_aux;
    unsigned log2_m;
    poly_h_form h_form;
    g1_affine_t *h, *l, *a, *b_g1;
    g2_affine_t *b_g2;
    size_t n_h, n_l, n_a, n_b;
} groth16_params_t;

/* One proof: affine points. */
typedef struct {
    g1_affine_t a, c;
    g2_affine_t b;
} groth16_proof_t;

#define GROTH16_PROOF_BYTES 192

/* One partition's synthesized assignment, handed to groth16_prove_start.
 *   a, b, c   evaluation vectors, each 2^log2_m fr_t (Montgomery), rows past the constraint
 *             count zero. Owned by the caller, who frees (or reuses) them; prove_start uses
 *             them as its scratch (H is computed in place), so their contents are undefined
 *             once prove_start has begun, and it never reads or writes them again after it
 *             called release_abc.
 *   w         the full witness, n_inputs + n_aux fr_t (Montgomery), inputs first (w[0] = 1);
 *             borrowed: read during prove_start only. NULL with groth16_prove_start_compact.
 *   a_density, b_density  bitmaps over all n_inputs + n_aux variables (bit i of word i/64,
 *             LSB first) saying which variables have a base in params->a / params->b_*;
 *             NULL means every variable (the .zkey layout). Borrowed, read during
 *             prove_start only.
 *   release_abc  optional (zero: none). prove_start calls it exactly once before it
 *             returns, as soon as it no longer touches a, b, c: after the H MSM on success
 *             (before the A, B_G1, L MSMs), at the failing check on error. The caller may
 *             free or recycle a/b/c from inside the call. */
typedef struct {
    fr_t *a, *b, *c;
    const fr_t *w;
    const uint64_t *a_density, *b_density;
    cuzk_release_cb release_abc;
} groth16_assignment_t;

/* A witness in compact form (cs/witness.h): the n_inputs input values (ONE first) and the
 * aux vector of n_aux values. Borrowed, read during prove_start only. */
typedef struct {
    const fr_t *inputs;
    const cs_witness *aux;
} groth16_compact_witness_t;

/* free() asg->a, b, c and set them to NULL (for callers whose a/b/c are malloc'ed); a
 * NULL asg or pointer is skipped. */
void groth16_assignment_free_abc(groth16_assignment_t *asg);

/* Opaque state between prove_start and prove_finish: holds A, the partial C, r, s and the
 * B-dense witness scalars (32 bytes each) for the B_G2 MSM. */
typedef struct groth16_pending groth16_pending_t;

/* Randomness: fills r and s uniformly in Fr from getrandom(2) (the OS CSPRNG).
 * Errors: CUZK_E_IO if the kernel RNG fails. */
cuzk_status groth16_random_rs(fr_t *r, fr_t *s, cuzk_error *err);

/* prove_start: the H computation (NTTs) and the A, B_G1, L, H MSMs of one proof, using
 * `threads` threads (>= 1) (bellperson src/groth16/prover.rs, create_proof_batch_priority
 * up to the B_G2 MSM). Overwrites asg->a/b/c (scratch) and calls asg->release_abc once they
 * are done with (see groth16_assignment_t); never frees them. On success *out is a new
 * pending handle owned by the caller (finish or free it). `params` must stay alive until the pending is finished/freed.
 * Errors: CUZK_E_INVALID_ARG (NULL pointers, delta at infinity, density popcounts that do
 * not match params), CUZK_E_NOMEM, and any error of poly_h_compute / msm_*.
 * Thread-safety: concurrent calls on distinct assignments are safe. */
cuzk_status groth16_prove_start(const groth16_params_t *params, const groth16_assignment_t *asg, const fr_t *r,
                                const fr_t *s, unsigned threads, groth16_pending_t **out, cuzk_error *err);

/* prove_start with the witness in compact form (asg->w is ignored): the MSMs read its
 * bitmaps and big values directly (msm_*_witness_sparse), so no per-variable scalar array
 * is built (the plain path's 32 bytes a variable, twice), and the pending handle keeps the
 * sparse form (3 bits a variable and the big values) instead of the B-dense scalars.
 * The proof is the same as groth16_prove_start's on the expanded witness for the same r, s.
 * Errors as groth16_prove_start, and CUZK_E_INVALID_ARG for an aux vector whose length is
 * not n_aux. */
cuzk_status groth16_prove_start_compact(const groth16_params_t *params, const groth16_assignment_t *asg,
                                        const groth16_compact_witness_t *cw, const fr_t *r, const fr_t *s,
                                        unsigned threads, groth16_pending_t **out, cuzk_error *err);

/* ---- The hook for provers that run the G1 MSMs elsewhere (a GPU backend) ----
 * They compute H and the four G1 query sums themselves and hand the sums to
 * groth16_pending_from_g1, which does exactly the assembly groth16_prove_start does after its
 * MSMs (bellperson src/groth16/prover.rs, create_proof_batch_priority: A, B1 and C from the
 * sums with r, s), so the proof is byte-identical to groth16_prove_start's for the same r, s. */

/* The four G1 query sums of one proof, before randomisation:
 *   h = sum_i h_i H_i, l = sum_aux w_j l_j, a = sum_j w_j a_j, b_g1 = sum_j w_j b1_j. */
typedef struct {
    g1_jac_t h, l, a, b_g1;
} groth16_g1_sums_t;

/* The witness as the canonical scalars (fr_to_limbs: 4 x 64-bit little-endian limbs, 32 bytes)
 * the query MSMs take:
 *   w   n_inputs + n_aux scalars, inputs first; the L query reads w + 4 * n_inputs (n_aux);
 *   wa  the n_a scalars of the A-density variables, in variable order (NULL unless asked for:
 *       an MSM that selects them from w by the density, e.g. on a GPU, needs no copy);
 *   wb  the n_b scalars of the B-density variables (the B_G1 MSM and, through
 *       groth16_pending_from_g1, the B_G2 MSM of prove_finish).
 * malloc'ed, owned by the struct (groth16_query_scalars_free). */
typedef struct {
    uint64_t *w, *wa, *wb;
} groth16_query_scalars_t;

/* Fill *out (wa only when with_a) from asg->w, or from the compact witness cw when cw != NULL
 * (asg->w ignored), and asg's densities, after the checks of groth16_prove_start (popcounts
 * against the key).
 * Does not touch asg->a/b/c. Errors: CUZK_E_INVALID_ARG (NULL, a density or witness length that
 * does not match params), CUZK_E_NOMEM. On error *out holds nothing to free. */
cuzk_status groth16_query_scalars(const groth16_params_t *params, const groth16_assignment_t *asg,
                                  const groth16_compact_witness_t *cw, bool with_a, groth16_query_scalars_t *out,
                                  cuzk_error *err);
void groth16_query_scalars_free(groth16_query_scalars_t *qs); /* NULL is a no-op; zeroes it */

/* A pending handle for groth16_prove_finish from the G1 sums, r, s and the B-dense scalars wb
 * (groth16_query_scalars_t.wb: n_b x 4 limbs; ownership moves here, freed with the handle, also
 * on error). `params` must stay alive until the handle is finished or freed.
 * Errors: CUZK_E_INVALID_ARG (NULL), CUZK_E_NOMEM. */
cuzk_status groth16_pending_from_g1(const groth16_params_t *params, const groth16_g1_sums_t *sums, const fr_t *r,
                                    const fr_t *s, uint64_t *wb, groth16_pending_t **out, cuzk_error *err);

/* prove_finish: the B_G2 MSM and the assembly. Consumes and frees `pending` (also on
 * error). Errors: CUZK_E_NOMEM, msm errors. */
cuzk_status groth16_prove_finish(groth16_pending_t *pending, unsigned threads, groth16_proof_t *proof,
                                 cuzk_error *err);

/* Release a pending handle without finishing it (e.g. on cancel). NULL is a no-op. */
void groth16_pending_free(groth16_pending_t *pending);

/* start then finish with r, s from groth16_random_rs (asg->release_abc is called once, also
 * when drawing r, s fails). */
cuzk_status groth16_prove(const groth16_params_t *params, const groth16_assignment_t *asg, unsigned threads,
                          groth16_proof_t *proof, cuzk_error *err);

/* A verifying key prepared for repeated verification: the Miller-loop value of the constant
 * pair (-alpha_1, beta_2), computed once (the final exponentiation is multiplicative, so
 * multiplying it into each proof's Miller product replaces one of the four pairs), and the
 * prepared gamma_2, delta_2 lines. Caller-owned plain data (~39 KiB), immutable after
 * preparation and shareable between threads. ic is borrowed from vk. */
typedef struct {
    const groth16_vk_t *vk;
    fp12_t miller_neg_alpha_beta;
    g2_prepared_t gamma_g2, delta_g2;
} groth16_pvk_t;

void groth16_prepare_vk(groth16_pvk_t *pvk, const groth16_vk_t *vk);

/* Verify one proof for public inputs x_1 .. x_n (n = vk->n_ic - 1, Montgomery fr_t).
 * The input combination ic_0 + sum x_i ic_i is one single-threaded MSM (msm_g1), then one
 * shared Miller loop over (A, B), (-IC, gamma_2), (-C, delta_2) times the prepared
 * (-alpha_1, beta_2) value, and one final exponentiation.
 * Returns CUZK_OK when valid, CUZK_E_VERIFY_FAILED when the pairing check fails,
 * CUZK_E_INVALID_ARG when n does not match the key (message names both counts),
 * CUZK_E_POINT_* when a proof point is not on the curve / not in its subgroup, CUZK_E_NOMEM. Thread-safe: concurrent calls may share one pvk. */
cuzk_status groth16_verify(const groth16_pvk_t *pvk, const fr_t *inputs, size_t n, const groth16_proof_t *proof,
                           cuzk_error *err);

/* The 192-byte bellperson proof encoding: A (G1 compressed, 48) || B (G2 compressed, 96)
 * || C (G1 compressed, 48) (docs/formats.md#groth16-proof-bytes). Decoding validates every point
 * (on curve and in the subgroup); errors name the element (A, B or C). */
void groth16_proof_to_bytes(uint8_t out[GROTH16_PROOF_BYTES], const groth16_proof_t *proof);
cuzk_status groth16_proof_from_bytes(groth16_proof_t *proof, const uint8_t in[GROTH16_PROOF_BYTES],
                                     cuzk_error *err);

/* ---- Setup for testing (circuit-specific parameters from random toxic waste) ----
 * NOT a trusted setup: whoever runs it knows the toxic waste and can forge proofs. */

/* The toxic waste tau, alpha, beta, gamma, delta (non-zero, Montgomery form). */
typedef struct {
    fr_t tau, alpha, beta, gamma, delta;
} groth16_toxic_t;

/* Draw the toxic waste from getrandom(2). Errors: CUZK_E_IO. */
cuzk_status groth16_toxic_random(groth16_toxic_t *t, cuzk_error *err);

/* The circuit handed to setup: CSR matrices whose columns are variables (inputs incl. ONE
 * first, then aux: n_inputs + n_aux columns) and whose first n_constraints rows are the
 * circuit's constraints (further rows, e.g. the input rows of cs record mode, are
 * ignored: setup appends the rows input_i * 0 = 0 itself, as bellperson and snarkjs do). */
typedef struct {
    const cs_csr *a, *b, *c;
    size_t n_constraints, n_inputs, n_aux;
} groth16_circuit_t;

/* Build a proving key in the given H form (POLY_H_BELLPERSON: density-filtered A/B
 * queries over the 7^t roots; POLY_H_SNARKJS: full-length queries over snarkjs's 5^t
 * roots). The domain is the smallest 2^k >= n_constraints + n_inputs (k <= 28).
 * Uses `threads` threads for the point multiplications. On success *out owns malloc'ed
 * arrays: free with groth16_params_free. Also returns the A/B density bitmaps the
 * prover must pass (bellperson form; NULL for the snarkjs form) when a_density/b_density
 * are non-NULL (caller frees them with free()).
 * Errors: CUZK_E_INVALID_ARG (sizes, a column >= n_inputs + n_aux, an aux variable that
 * appears in no constraint in the bellperson form, which has no l point), CUZK_E_NOMEM. */
cuzk_status groth16_setup(const groth16_circuit_t *circ, const groth16_toxic_t *tw, poly_h_form form,
                          unsigned threads, groth16_params_t *out, uint64_t **a_density, uint64_t **b_density,
                          cuzk_error *err);

/* Free every array of a proving key built by groth16_setup or a loader; zeroes *p. */
void groth16_params_free(groth16_params_t *p);

#endif
