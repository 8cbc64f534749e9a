/* Roots of unity of Fr for the radix-2 NTT, in the two conventions cuzk must interoperate with.
 *
 * Fr's multiplicative group has order r - 1 = 2^32 * t, t odd, so it has a cyclic subgroup of
 * order 2^32. Implementations choose *different generators* of that subgroup, and because an
 * evaluation vector is "row i holds the value at omega^i", the choice decides which row sits at
 * which point. Two families are needed:
 *
 *   POLY_ROOTS_FF      omega_32 = 7^t. bellperson / ff / blstrs (and so every Filecoin .params
 *                      file): 7 is ff's MULTIPLICATIVE_GENERATOR, ROOT_OF_UNITY = 7^t
 *                      (blstrs src/scalar.rs ROOT_OF_UNITY; fr.h fr_root_of_unity).
 *   POLY_ROOTS_SNARKJS omega_32 = 5^t. snarkjs through ffjavascript / wasmcurves: the root is
 *                      nqr^t with nqr the smallest quadratic non-residue >= 2, which is 5 for
 *                      BLS12-381's r (2, 3, 4 are residues) -- ffjavascript src/wasm_field1.js
 *                      constructor (this.nqr, this.w[s]) and wasmcurves src/build_fft.js (nr,
 *                      ROOTs). Every .zkey (its Lagrange-basis points) is built on this domain.
 *
 * In both families the primitive 2^k-th root is omega_32 squared 32 - k times.
 * Thread-safety: pure functions.
 */
#ifndef CUZK_POLY_ROOTS_H
#define CUZK_POLY_ROOTS_H

#include "common/status.h"
#include "field/fr.h"

/* Largest NTT size supported by the poly layer: 2^POLY_MAX_LOG2 elements (8 GiB of Fr). */
#define POLY_MAX_LOG2 28

typedef enum {
    POLY_ROOTS_FF = 0,      /* omega_32 = 7^((r-1)/2^32): bellperson, ff, blstrs */
    POLY_ROOTS_SNARKJS = 1, /* omega_32 = 5^((r-1)/2^32): snarkjs, ffjavascript, wasmcurves */
} poly_roots;

/* w = the primitive 2^log2_n-th root of unity of family `roots` (Montgomery form).
 * log2_n <= 32 (FR_TWO_ADICITY). Errors: CUZK_E_INVALID_ARG for log2_n > 32, an unknown family
 * or w == NULL. */
cuzk_status poly_root_of_unity(fr_t *w, unsigned log2_n, poly_roots roots);

#endif
