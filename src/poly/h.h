/* The Groth16 H computation: the scalars the prover multiplies with the parameter file's H
 * query, from the evaluation vectors a, b, c of one witness. One core, two output forms.
 *
 * Input: a, b, c, each m = 2^log2_m fr_t (Montgomery form; 32*m bytes each, caller-owned), row i
 * holding A.w, B.w, C.w of constraint row i, i.e. the values at omega^i of the polynomials A, B,
 * C of degree < m; rows past the constraint count zero-padded by the caller. omega is the
 * primitive m-th root of the form's family (poly/roots.h).
 *
 * POLY_H_BELLPERSON (bellperson prover/native.rs + domain.rs; omega from POLY_ROOTS_FF): for
 * each of a, b, c: inverse NTT (with m^-1), then coset NTT with g = 7 (coefficient i times
 * g^i, NTT) -- the values on g*<omega>. Then
 *   t_i = (a_i b_i - c_i) / (g^m - 1)      (Z(X) = X^m - 1 is the constant g^m - 1 on the coset)
 * and an inverse coset NTT (inverse NTT, coefficient i times g^-i) gives the coefficients
 * h_0 .. h_{m-1} of H = (AB - C) / Z. Output: h_0 .. h_{m-2} in a[0 .. m-2] (m - 1 scalars,
 * against params.h[0 .. m-2]); h_{m-1} is zero for a satisfying witness and left in a[m-1].
 *
 * POLY_H_SNARKJS (snarkjs src/groth16_prove.js, groth16Prove; omega from POLY_ROOTS_SNARKJS,
 * ffjavascript's roots): for each of a, b, c: Fr.ifft (inverse NTT with m^-1), then
 * Fr.batchApplyKey(buff, 1, inc) (coefficient i times inc^i) with inc = Fr.w[power+1], the
 * primitive 2m-th root omega_2m (Fr.shift only when power == Fr.s = 32, beyond our 2^28), then
 * Fr.fft -- the values of A, B, C at the odd points omega_2m^(2i+1) of the 2m domain. Then
 * joinABC: h_i = a_i b_i - c_i, no division: the .zkey's H query (section 9) is built on those
 * odd points and absorbs 1/Z, whose value there is the constant omega_2m^m - 1 = -2.
 * Output: h_0 .. h_{m-1} in a[0 .. m-1] (m scalars, against the zkey's m H points), Montgomery
 * form here (snarkjs converts from Montgomery before its multiexp; so must the caller).
 * (snarkjs's own buildABC sets c_i = a_i b_i on the domain, equal to C.w for a satisfying witness.)
 *
 * Both: b and c are overwritten (scratch). Memory: in place over the caller's a, b, c; besides
 * them at most about 1 MiB of root tables and the threads' stacks. Threads: `threads` >= 1 as in
 * ntt.h; bit-identical output for every thread count. Errors (err may be NULL):
 * CUZK_E_INVALID_ARG for a NULL buffer, log2_m > 28, threads == 0 or an unknown form;
 * CUZK_E_NOMEM if root tables cannot be allocated (then a, b, c hold unspecified values);
 * CUZK_E_CANCELLED once the calling thread's bound cancel flag (common/cancel.h) is set,
 * checked between the butterfly stages of each NTT (a, b, c then unspecified).
 * Thread-safety: concurrent calls on distinct buffers are safe.
 */
#ifndef CUZK_POLY_H_H
#define CUZK_POLY_H_H

#include <stddef.h>

#include "common/status.h"
#include "field/fr.h"

typedef enum {
    POLY_H_BELLPERSON = 0, /* bellperson .params: coefficients of (AB - C)/Z, m - 1 of them */
    POLY_H_SNARKJS = 1,    /* snarkjs .zkey: AB - C at the odd points of the 2m domain, m of them */
} poly_h_form;

/* Number of H scalars the form produces for domain size m (m - 1 or m; 0 for an unknown form). */
size_t poly_h_len(poly_h_form form, size_t m);

/* Compute H in place as described above; the result is a[0 .. poly_h_len(form, m)). */
cuzk_status poly_h_compute(fr_t *a, fr_t *b, fr_t *c, unsigned log2_m, poly_h_form form, unsigned threads,
                           cuzk_error *err);

#endif
