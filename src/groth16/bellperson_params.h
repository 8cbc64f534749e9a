/* bellperson / Filecoin parameter files: `.vk` (verifying key) and `.params` (proving key),
 * reader (mmap, lazy) and atomic writer, and the concatenated-proof reader.
 *
 * Format (docs/formats.md#parameters-params; bellperson src/groth16/{verifying_key.rs,
 * params.rs, mapped_params.rs}). Counts are u32 big-endian; points are ZCash uncompressed
 * (G1 96 bytes x || y, G2 192 bytes x.c1 || x.c0 || y.c1 || y.c0, coordinates big-endian,
 * flag bits in the top three bits of byte 0: 0x40 = infinity, 0x80 / 0x20 must be clear).
 *
 *   .vk      alpha_g1 (G1) @0, beta_g1 (G1) @96, beta_g2 (G2) @192, gamma_g2 (G2) @384,
 *            delta_g1 (G1) @576, delta_g2 (G2) @672, u32 n_ic @864, ic[n_ic] (G1) @868.
 *            Size exactly 868 + 96 n_ic.
 *   .params  the .vk bytes, then five sections, each u32 count then count points:
 *            h (G1, m - 1 points), l (G1, one per aux variable), a (G1, A-dense variables),
 *            b_g1 (G1, B-dense variables), b_g2 (G2, same variables as b_g1). No padding,
 *            nothing after b_g2.
 *
 * Validation levels:
 *   structural (always, O(1) pages touched for .params): every count fits in the file,
 *     the file ends exactly after b_g2, n_ic >= 1, h + 1 is a power of two (h = m - 1,
 *     m the evaluation domain) with m >= n_ic, n_a >= n_ic (every input is A-dense through
 *     its appended `input * 0 = 0` row), n_a <= n_ic + n_l and n_b <= n_ic + n_l; the .vk
 *     part (a few KiB .. 2.5 MiB) is decoded: flags, coordinates < p.
 *   points (BP_CHECK_POINTS): every point decoded is also checked on its curve and in its
 *     prime-order subgroup. For a 47 GiB .params that takes minutes (threads help).
 *   circuit (bp_params_check_circuit): counts against a synthesised circuit: n_ic = inputs,
 *     n_l = aux, m = smallest 2^k >= constraints + inputs, n_a = inputs + A-dense aux,
 *     n_b = B-dense inputs + B-dense aux.
 * Points of the h/l/a/b sections are decoded only when asked for (bp_params_decode_* for a
 * range, bp_params_load for everything); without BP_CHECK_POINTS decoding checks flags and
 * coordinates only (bellperson's "unchecked" mapped read). The point at infinity is rejected
 * everywhere (as bellperson's reader does: l and ic never hold it, a/b have it filtered
 * out), and so is (0, 0) without the infinity flag (the in-memory infinity).
 *
 * Every rejection is a cuzk_status with a message naming the file kind ("vk", "params",
 * "proof"), the section (vk, h, l, a, b_g1, b_g2) or field, the point index and the byte
 * offset in the file.
 * Thread-safety: a bp_params_t is immutable after bp_params_open*; decode/load calls on the
 * same handle may run concurrently. Writers touch only their output file.
 */
#ifndef CUZK_GROTH16_BELLPERSON_PARAMS_H
#define CUZK_GROTH16_BELLPERSON_PARAMS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "cs/cs.h"
#include "groth16/groth16.h"

#define BP_G1_BYTES 96u
#define BP_G2_BYTES 192u
#define BP_VK_FIXED_BYTES 864u /* six vk points */
#define BP_VK_IC_OFFSET 868u   /* after the u32 n_ic */

/* Flags of bp_vk_read_* / bp_params_open*. */
#define BP_CHECK_POINTS 1u   /* on-curve and subgroup check of every point decoded */
#define BP_CHECK_ON_CURVE 2u /* on-curve check only (cheap: a few field products a point; catches
                                corrupted coordinates, not points off the subgroup) */

/* The five point sections of a .params after its vk. */
typedef enum { BP_SEC_H = 0, BP_SEC_L, BP_SEC_A, BP_SEC_B_G1, BP_SEC_B_G2, BP_SEC_COUNT } bp_section;

/* Where a section lies in the file: the u32 count at count_offset, `count` points of
 * point_bytes (96 or 192) each from offset = count_offset + 4. */
typedef struct {
    uint64_t count_offset, offset, count;
    uint32_t point_bytes;
} bp_section_layout;

/* An opened .params: the (decoded) verifying key and the section layout over a read-only
 * buffer (a private mmap of the file, or caller memory for bp_params_open_mem, which must
 * outlive the handle). vk.ic is malloc'ed and owned by the handle. */
typedef struct {
    const uint8_t *buf;
    uint64_t len;
    bool mapped; /* buf is an mmap owned by the handle */
    unsigned flags;
    groth16_vk_t vk;
    unsigned log2_m; /* domain m = h.count + 1 */
    bp_section_layout sec[BP_SEC_COUNT];
} bp_params_t;

/* Name of a section for messages ("h", "l", "a", "b_g1", "b_g2"). */
const char *bp_section_name(bp_section s);

/* ---- .vk ---- */

/* Parse a .vk held in memory (buf[0..len), not retained). On success *vk owns a malloc'ed
 * ic array (free with bp_vk_free). Errors: CUZK_E_FORMAT (file shorter than 868 bytes,
 * n_ic = 0, size != 868 + 96 n_ic: message gives offsets), CUZK_E_POINT_* (field, index,
 * offset), CUZK_E_NOMEM. On error *vk is zeroed. */
cuzk_status bp_vk_read_mem(groth16_vk_t *vk, const uint8_t *buf, size_t len, unsigned flags, cuzk_error *err);

/* bp_vk_read_mem on a file; messages are prefixed with the path. Extra error: CUZK_E_IO. */
cuzk_status bp_vk_read_file(groth16_vk_t *vk, const char *path, unsigned flags, cuzk_error *err);

/* Free vk->ic (from bp_vk_read_*) and zero *vk. NULL is a no-op. */
void bp_vk_free(groth16_vk_t *vk);

/* Encoded size of a vk: 868 + 96 n_ic. */
uint64_t bp_vk_size(const groth16_vk_t *vk);

/* Encode vk into out[0 .. bp_vk_size(vk)). Points are written as stored. */
void bp_vk_encode(uint8_t *out, const groth16_vk_t *vk);

/* Write vk to `path` atomically (temporary file in the same directory, fsync, rename).
 * Errors: CUZK_E_INVALID_ARG (n_ic = 0 or > 2^32 - 1), CUZK_E_IO (path and strerror; the
 * temporary file is removed), CUZK_E_NOMEM. */
cuzk_status bp_vk_write_file(const groth16_vk_t *vk, const char *path, cuzk_error *err);

/* ---- .params ---- */

/* Structural validation of a .params in memory (buf must stay valid and unchanged while
 * the handle lives) and decoding of its vk; BP_CHECK_POINTS in `flags` applies to the vk
 * now and to every later decode, BP_CHECK_ON_CURVE to every later decode (the vk's points,
 * a few hundred at most, get the full check with either). Errors: CUZK_E_FORMAT (section, count offset, count,
 * file size), CUZK_E_POINT_* (vk field, offset), CUZK_E_NOMEM. On error *p is zeroed. */
cuzk_status bp_params_open_mem(bp_params_t *p, const uint8_t *buf, size_t len, unsigned flags,
                               cuzk_error *err);

/* bp_params_open_mem over a private read-only mmap of `path`; messages prefixed with the
 * path. Extra errors: CUZK_E_IO (open/fstat/mmap), CUZK_E_FORMAT (empty file). */
cuzk_status bp_params_open(bp_params_t *p, const char *path, unsigned flags, cuzk_error *err);

/* Unmap (if mapped) and free the vk; zeroes *p. NULL is a no-op. */
void bp_params_close(bp_params_t *p);

/* Decode points first .. first + n - 1 of section s (G1 sections into out_g1, b_g2 into
 * out_g2; the other pointer may be NULL) to affine Montgomery form (curve.h). Errors:
 * CUZK_E_INVALID_ARG (range past the section count, wrong output pointer for the section),
 * CUZK_E_POINT_* (section, index, offset). */
cuzk_status bp_params_decode(const bp_params_t *p, bp_section s, uint64_t first, uint64_t n, g1_affine_t *out_g1,
                             g2_affine_t *out_g2, cuzk_error *err);

/* bp_params_decode of a whole section into out (count points: g1_affine_t, or g2_affine_t
 * for b_g2) with up to `threads` threads (>= 1; at most 64 are used); the error of the
 * lowest failing chunk is reported. */
cuzk_status bp_params_decode_section(const bp_params_t *p, bp_section s, void *out, unsigned threads,
                                     cuzk_error *err);

/* Compare the counts with a circuit: c->inputs, c->aux, c->constraints and the density
 * counts (cs_counts from CS_RECORD, or CS_SHAPE with CS_TRACK_DENSITY). Errors:
 * CUZK_E_INVALID_ARG with both values and the section's count offset. */
cuzk_status bp_params_check_circuit(const bp_params_t *p, const cs_counts *c, cuzk_error *err);

/* Decode every section into a proving key in the bellperson H form (h_form =
 * POLY_H_BELLPERSON, n_inputs = n_ic, n_aux = n_l), using `threads` threads (0 = online
 * CPUs). *out owns malloc'ed copies of everything (vk.ic included; the handle may be closed
 * afterwards): free with groth16_params_free. Memory: 96 (h + l + a + b) + 192 b bytes.
 * Errors: those of bp_params_decode (the lowest failing index is reported), CUZK_E_NOMEM.
 * On error *out is zeroed. */
cuzk_status bp_params_load(const bp_params_t *p, unsigned threads, groth16_params_t *out, cuzk_error *err);

/* Encoded size of a bellperson-form proving key as .params. */
uint64_t bp_params_size(const groth16_params_t *pk);

/* Write pk (h_form POLY_H_BELLPERSON) to `path` atomically as .params. Errors:
 * CUZK_E_INVALID_ARG (snarkjs-form key, n_h != 2^log2_m - 1, n_l != n_aux, vk.n_ic !=
 * n_inputs, a count > 2^32 - 1), CUZK_E_IO, CUZK_E_NOMEM. */
cuzk_status bp_params_write_file(const groth16_params_t *pk, const char *path, cuzk_error *err);

/* ---- proofs ---- */

/* Decode a concatenation of 192-byte proofs (one per partition, in partition order;
 * docs/formats.md#groth16-proof-bytes). Every point is checked on its curve and in its subgroup.
 * On success *n = len / 192 proofs are written to out (capacity `cap`). Errors:
 * CUZK_E_FORMAT (len not a positive multiple of 192, more than cap proofs), CUZK_E_POINT_*
 * (message: proof index, element A/B/C, byte offset). */
cuzk_status bp_proofs_read(groth16_proof_t *out, size_t cap, size_t *n, const uint8_t *buf, size_t len,
                           cuzk_error *err);

#endif
