/* snarkjs Groth16 proving keys (.zkey): reader, validator and atomic writer.
 *
 * Source: snarkjs 0.7.6 src/zkey_utils.js (writeHeader, readHeaderGroth16, readZKey),
 * src/zkey_new.js (newZKey), ffjavascript/wasmcurves (point and field encodings).
 * Container: cs/iden3_bin.h, magic "zkey", version 1. Sections (all integers LE):
 *   1  header:         u32 protocol = 1 (Groth16)
 *   2  groth16 header: u32 n8q = 48, q (48 B), u32 n8r = 32, r (32 B), u32 nVars,
 *                      u32 nPublic (public signals, ONE excluded), u32 domainSize (2^k),
 *                      alpha1 (G1), beta1 (G1), beta2 (G2), gamma2 (G2), delta1 (G1), delta2 (G2)
 *   3  IC:             nPublic + 1 G1           [(beta A_i + alpha B_i + C_i)(tau) / gamma]
 *   4  coefficients:   u32 n, then n x (u32 matrix (0 = A, 1 = B), u32 constraint row,
 *                      u32 signal, 32-byte value); C is not stored (snarkjs sets c = a * b)
 *   5  A:              nVars G1                 [A_i(tau)]
 *   6  B1:             nVars G1                 [B_i(tau)]
 *   7  B2:             nVars G2                 [B_i(tau)]
 *   8  C:              nVars - nPublic - 1 G1   [(beta A_i + alpha B_i + C_i)(tau) / delta],
 *                      signals nPublic+1 .. nVars-1
 *   9  H:              domainSize G1            [L^{2n}_{2i+1}(tau) / delta]: the Lagrange
 *                      basis of the 2n-point domain at its odd points omega_2n^(2i+1)
 *                      (poly/h.h POLY_H_SNARKJS); no Z(tau) factor, scalars are AB - C there
 *   10 contributions:  64-byte circuit hash, u32 count, MPC contributions (kept as raw bytes)
 * Encodings:
 *   - Fq (G1/G2 coordinates): 48 bytes LE of the Montgomery form x * 2^384 mod q, which is
 *     exactly the fp_t limb layout (fp.h); must be < q. G2 coordinates are c0 then c1.
 *   - a point is x || y (96 B for G1, 192 B for G2); infinity is all zero bytes.
 *   - coefficient values: 32 bytes LE of the integer v * 2^512 mod r (v * R^2, R = 2^256:
 *     snarkjs's prover multiplies them in Montgomery form with the raw canonical witness, and
 *     the R factors cancel). In memory they are plain Montgomery fr_t v.
 *   - snarkjs's constraint rows include, after the r1cs's constraints, one row per public
 *     signal s (and ONE): A[nConstraints + s][s] = 1, so rows = nConstraints + nPublic + 1.
 *   - Roots of unity of the domain: ffjavascript's family, omega_2^32 = 5^((r-1)/2^32)
 *     (poly/roots.h POLY_ROOTS_SNARKJS), not bellperson's 7^((r-1)/2^32).
 */
#ifndef CUZK_GROTH16_ZKEY_H
#define CUZK_GROTH16_ZKEY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "curve/curve.h"
#include "field/fr.h"

#define ZKEY_N_SECTIONS 10

/* One entry of section 4: matrix 0 = A, 1 = B. */
typedef struct {
    uint32_t matrix, constraint, signal;
    fr_t value; /* Montgomery form of the coefficient v */
} zkey_coef;

/* A Groth16 proving key as snarkjs stores it. Array lengths:
 *   ic       n_public + 1          (index = public signal, 0 = ONE)
 *   coefs    n_coefs
 *   a, b1    n_vars                (index = signal; infinity where unused)
 *   b2       n_vars
 *   c        n_vars - n_public - 1 (c[j] belongs to signal n_public + 1 + j)
 *   h        domain_size
 *   contributions  contributions_len bytes (raw section 10, or NULL/0 when absent)
 * Points are affine in Montgomery form (curve.h; infinity = (0, 0)).
 * Ownership: every array is malloc'ed and owned by the struct (zkey_alloc / zkey_read_*);
 * zkey_free releases them. The struct is plain data: shareable read-only between threads.
 * `section_order` records the file's section order (the writer reproduces it, so a file
 * read and written again is byte-identical); zkey_alloc sets snarkjs's contribute order
 * 1..10. Memory: about 96 * (3 n_vars + domain_size) + 192 n_vars + 44 n_coefs bytes. */
typedef struct {
    uint32_t n_vars, n_public, domain_size;
    g1_affine_t alpha1, beta1, delta1;
    g2_affine_t beta2, gamma2, delta2;
    g1_affine_t *ic;
    uint32_t n_coefs;
    zkey_coef *coefs;
    g1_affine_t *a, *b1, *c, *h;
    g2_affine_t *b2;
    uint8_t *contributions;
    size_t contributions_len;
    uint32_t section_order[ZKEY_N_SECTIONS];
    uint32_t n_sections; /* entries used in section_order (9 when there is no section 10) */
} zkey_t;

/* Validation flags. */
/* Also check that every point is in its prime-order subgroup. Costs a scalar
 * multiplication per point (about 0.1 ms for G1, more for G2), so it runs on all online
 * CPUs; reported only once every point passed the on-curve check. */
#define ZKEY_CHECK_SUBGROUP 1u

/* Parse and validate a .zkey held in memory (not retained). Every coordinate must be < q,
 * every point on its curve (infinity allowed except for alpha1, beta1/2, gamma2, delta1/2),
 * and in the subgroup when flags has ZKEY_CHECK_SUBGROUP; coefficients need matrix <= 1,
 * constraint < domainSize, signal < nVars, value < r. Errors (message names section,
 * field/index and byte offset):
 *   CUZK_E_FORMAT             truncated/empty file, bad magic, missing/duplicate/unknown
 *                             section, section size not matching the header counts,
 *                             domainSize not a power of two, bad coefficient indices
 *   CUZK_E_UNSUPPORTED        version != 1, protocol != Groth16, curve other than BLS12-381
 *   CUZK_E_POINT_COORDINATE   a coordinate >= q
 *   CUZK_E_POINT_NOT_ON_CURVE, CUZK_E_POINT_NOT_IN_SUBGROUP, CUZK_E_POINT_INFINITY
 *   CUZK_E_FIELD_NONCANONICAL a coefficient >= r
 *   CUZK_E_NOMEM
 * On error *out is zeroed (nothing to free). */
cuzk_status zkey_read_mem(zkey_t *out, const uint8_t *buf, size_t len, unsigned flags,
                          cuzk_error *err);

/* zkey_read_mem on a file (mapped read-only); messages prefixed with the path.
 * Additional error: CUZK_E_IO. */
cuzk_status zkey_read_file(zkey_t *out, const char *path, unsigned flags, cuzk_error *err);

/* Allocate the arrays of an empty key of the given shape (points at infinity, coefficients
 * zeroed, contributions = 64 zero bytes of circuit hash and 0 contributions), section order
 * 1..10. For setup code that fills in the values and calls zkey_write_file.
 * Errors: CUZK_E_INVALID_ARG (n_vars < n_public + 1, domain_size not a power of two),
 * CUZK_E_NOMEM. */
cuzk_status zkey_alloc(zkey_t *out, uint32_t n_vars, uint32_t n_public, uint32_t domain_size,
                       uint32_t n_coefs, cuzk_error *err);

void zkey_free(zkey_t *z);

/* Size in bytes of the file zkey_write_file would produce. */
uint64_t zkey_file_size(const zkey_t *z);

/* Write z to `path` atomically: into a temporary file in the same directory, fsync, then
 * rename over `path` (readers see the old file or the complete new one, never a partial
 * one). The file gets the replaced file's permissions, or 0666 minus the umask. Points are written as stored (not validated). Errors: CUZK_E_INVALID_ARG (a
 * section_order that is not a permutation of the present sections), CUZK_E_IO (message has
 * the path and strerror; the temporary file is removed). */
cuzk_status zkey_write_file(const zkey_t *z, const char *path, cuzk_error *err);

#endif
