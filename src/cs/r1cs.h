/* Reader for circom's .r1cs files (iden3 r1cs binary format, version 1).
 *
 * Source: github.com/iden3/r1csfile doc/r1cs_bin_format.md. Container: iden3_bin.h, magic
 * "r1cs". Sections (little-endian):
 *   1 header:      u32 n8 (field size in bytes), prime (n8 bytes), u32 nWires,
 *                  u32 nPubOut, u32 nPubIn, u32 nPrvIn, u64 nLabels, u32 nConstraints
 *   2 constraints: nConstraints times the linear combinations A, B, C, each
 *                  u32 nTerms, then nTerms x (u32 wireId, coefficient: n8 bytes canonical LE)
 *   3 wire map:    nWires x u64 label id (optional here)
 *   4, 5:          custom gates (circom PLONK extension): rejected as unsupported
 * Other section types are ignored. Wire 0 is the constant ONE, then nPubOut public outputs,
 * nPubIn public inputs, nPrvIn private inputs, then internal wires.
 *
 * Only BLS12-381's scalar field is accepted: n8 must be 32 and the prime must equal r
 * (fr.h); anything else (e.g. circom's default BN254) is CUZK_E_UNSUPPORTED with the prime
 * named in the message.
 */
#ifndef CUZK_CS_R1CS_H
#define CUZK_CS_R1CS_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "cs/cs.h"
#include "field/fr.h"

/* A parsed .r1cs. Matrices a, b, c are CSR (cs.h): rows = n_constraints (row i is
 * constraint i of the file; no extra input rows), cols = n_wires, columns sorted ascending
 * and unique within a row (repeated wires in a file's linear combination are summed), values
 * Montgomery Fr, zero coefficients dropped. `wire_to_label` has n_wires entries or is NULL
 * when the file has no section 3. Everything is malloc'ed and owned by the struct; free
 * with r1cs_free. Read-only use from several threads is safe. */
typedef struct {
    uint32_t n_wires;
    uint32_t n_pub_out, n_pub_in, n_prv_in; /* public = n_pub_out + n_pub_in, after ONE */
    uint64_t n_labels;
    uint32_t n_constraints;
    cs_csr a, b, c;
    uint64_t *wire_to_label;
} r1cs_t;

/* Parse an .r1cs held in memory (buf, len bytes; not retained).
 * Errors (message names section, constraint/term and byte offset):
 *   CUZK_E_FORMAT        empty/truncated file, bad magic, section sizes that do not match
 *                        their contents, a wire id >= nWires, inconsistent counts
 *   CUZK_E_UNSUPPORTED   version != 1, field size != 32, prime != BLS12-381 r, custom gates
 *   CUZK_E_FIELD_NONCANONICAL  a coefficient >= r
 *   CUZK_E_NOMEM
 * On error *out is left zeroed (nothing to free). */
cuzk_status r1cs_read_mem(r1cs_t *out, const uint8_t *buf, size_t len, cuzk_error *err);

/* r1cs_read_mem on a file (mapped read-only); messages are prefixed with the path.
 * Additional error: CUZK_E_IO. */
cuzk_status r1cs_read_file(r1cs_t *out, const char *path, cuzk_error *err);

/* Check a witness against the circuit: (A_i . w) * (B_i . w) == C_i . w for every
 * constraint i, in file order. w: n_w Montgomery fr_t, ONE first (as in .wtns files);
 * n_w must equal n_wires. SpMV on `threads` threads (0 = all CPUs, cs/spmv.h); memory
 * 3 * n_constraints fr_t. Returns CUZK_OK when every constraint holds. Errors:
 * CUZK_E_INVALID_ARG with *first_bad = the first failing constraint and the message "the
 * witness does not satisfy the circuit: constraint i of n fails (A.w * B.w != C.w)", or
 * with *first_bad = UINT32_MAX for a wire-count mismatch; CUZK_E_NOMEM. Read-only on r
 * and w; thread-safe. Source: the R1CS definition (iden3 r1csfile format, snarkjs
 * src/wtns_check.js does the same check). */
cuzk_status r1cs_check_witness(const r1cs_t *r, const fr_t *w, uint64_t n_w, unsigned threads, uint32_t *first_bad,
                               cuzk_error *err);

/* Release everything owned by r (safe on a zeroed struct). */
void r1cs_free(r1cs_t *r);

/* Number of public signals (outputs then inputs), not counting ONE. */
static inline uint32_t r1cs_n_public(const r1cs_t *r) { return r->n_pub_out + r->n_pub_in; }

#endif
