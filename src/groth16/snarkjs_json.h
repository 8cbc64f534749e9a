/* snarkjs JSON formats for BLS12-381 Groth16 (snarkjs 0.7.6: src/groth16_prove.js,
 * src/zkey_export_verificationkey.js, src/groth16_verify.js):
 *
 *   proof.json   {"pi_a": [x, y, "1"], "pi_b": [[x.c0, x.c1], [y.c0, y.c1], ["1", "0"]],
 *                 "pi_c": [x, y, "1"], "protocol": "groth16", "curve": "bls12381"}
 *   public.json  ["x1", "x2", ...]                     public signals in order
 *   vk.json      {"protocol": "groth16", "curve": "bls12381", "nPublic": n,
 *                 "vk_alpha_1": G1, "vk_beta_2": G2, "vk_gamma_2": G2, "vk_delta_2": G2,
 *                 "vk_alphabeta_12": e(alpha, beta) as [[[c,c],[c,c],[c,c]],[...]],
 *                 "IC": [G1, ...] (n + 1 points)}
 * All numbers are decimal strings of canonical integers; points are projective triples
 * with z = "1" (or "0" with x = "0", y = "1" for infinity; G2 z = ["1","0"]).
 *
 * Readers validate everything and name the file and the field in errors:
 * CUZK_E_FORMAT (malformed JSON, missing key, wrong shape, a number that is not a decimal
 * string), CUZK_E_FIELD_NONCANONICAL (>= p or >= r), CUZK_E_POINT_NOT_ON_CURVE,
 * CUZK_E_POINT_NOT_IN_SUBGROUP, CUZK_E_UNSUPPORTED (protocol other than groth16, curve
 * other than bls12381), CUZK_E_IO. Inputs may be regular files or pipes (bash's <(cmd));
 * a FIFO with no writer reads as empty (CUZK_E_FORMAT) instead of blocking; a file over
 * SNARKJS_JSON_MAX_BYTES is CUZK_E_FORMAT (common/file_io.h cuzk_file_read). Writers
 * replace the file atomically (temp + rename).
 */
#ifndef CUZK_GROTH16_SNARKJS_JSON_H
#define CUZK_GROTH16_SNARKJS_JSON_H

#include "groth16/groth16.h"

/* Largest JSON input read (256 MiB: a vk.json of about a million public inputs). */
#define SNARKJS_JSON_MAX_BYTES ((size_t)256 << 20)

cuzk_status snarkjs_write_proof(const char *path, const groth16_proof_t *proof, cuzk_error *err);
cuzk_status snarkjs_read_proof(const char *path, groth16_proof_t *proof, cuzk_error *err);

/* inputs: n Montgomery fr_t. */
cuzk_status snarkjs_write_public(const char *path, const fr_t *inputs, size_t n, cuzk_error *err);
/* Both files of one proof: written to temporary files first and renamed only when both
 * were written, so on an error neither destination changes (a failing second rename, which
 * needs the directory to vanish between the two calls, is the only exception). The two
 * paths must name different files (CUZK_E_INVALID_ARG). */
cuzk_status snarkjs_write_proof_and_public(const char *proof_path, const groth16_proof_t *proof,
                                           const char *public_path, const fr_t *inputs, size_t n, cuzk_error *err);
/* *inputs is malloc'ed (caller frees), *n its length. */
cuzk_status snarkjs_read_public(const char *path, fr_t **inputs, size_t *n, cuzk_error *err);

cuzk_status snarkjs_write_vk(const char *path, const groth16_vk_t *vk, cuzk_error *err);
/* vk->ic is malloc'ed (caller frees). */
cuzk_status snarkjs_read_vk(const char *path, groth16_vk_t *vk, cuzk_error *err);

#endif
