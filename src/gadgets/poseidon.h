/* Poseidon over Fr as neptune 11 computes it for Filecoin (neptune src/poseidon.rs): width t =
 * arity + 1, x^5 S-box, 8 full rounds, RP partial rounds (standard strength), Grain-LFSR round
 * constants, Cauchy MDS matrix, neptune's compressed constants and sparse matrices, and the
 * legacy circuit `neptune::circuit::poseidon_hash` (3a + 28t + 4RP + 1 constraints).
 *
 * Supported arities: 2, 4, 8, 11, 16, 24, 36 (RP 55, 56, 57, 57, 59, 59, 60 from neptune's
 * round_numbers.rs for 128-bit security). Constants are computed on first use of an arity
 * and cached for the process (thread-safe; never freed).
 */
#ifndef CUZK_GADGETS_POSEIDON_H
#define CUZK_GADGETS_POSEIDON_H

#include "gadgets/num.h"

typedef struct {
    unsigned arity, t, rf, rp;
    fr_t *rc;         /* t * (rf + rp) textbook round constants, round-major */
    fr_t *m, *minv;   /* t*t, row-major */
    fr_t *compressed; /* rf * t + rp compressed round constants (preprocessing.rs) */
    fr_t *pre_sparse; /* t*t, row-major */
    fr_t *w_hat;      /* rp rows of t: column 0 of sparse matrix i (in use order) */
    fr_t *v_rest;     /* rp rows of t - 1: row 0 of sparse matrix i without entry 0 */
    /* The legacy circuit's partial rounds as fixed linear combinations. Entering them, the
     * state is t allocated variables y_0..y_{t-1} (the last S-boxes of the first half);
     * partial round r allocates x_r (its S-box output). Over the basis [y_0..y_{t-1},
     * x_0, x_1, ...], the coefficients are constants of the arity:
     *   partial_lc   row r (t + r entries, rows back to back): state element 0 entering
     *                partial round r (pre_sparse applied to y, then r sparse rounds);
     *   partial_out  t rows of t + rp entries: the state after the last sparse round.
     * A zero entry is a variable absent from the LC. */
    fr_t *partial_lc, *partial_out;
} poseidon_constants;

/* Constants for `arity` (computed once). Errors: CUZK_E_UNSUPPORTED for other arities,
 * CUZK_E_NOMEM. *out stays valid for the life of the process. */
cuzk_status poseidon_get_constants(unsigned arity, const poseidon_constants **out,
                                   cuzk_error *err);

/* The number of partial rounds for a supported arity, 0 otherwise. */
unsigned poseidon_partial_rounds(unsigned arity);

/* Domain tags (neptune hash_type.rs): MerkleTree 2^arity − 1; Custom(id) = id · 2^40. */
void poseidon_tag_merkle(unsigned arity, fr_t *tag);
void poseidon_tag_custom(unsigned id, fr_t *tag);

/* Native hash with the optimised schedule: out = state[1] after the permutation of
 * [tag, preimage[0..arity)]. Errors as poseidon_get_constants. */
cuzk_status poseidon_hash(unsigned arity, const fr_t *tag, const fr_t *preimage, fr_t *out,
                          cuzk_error *err);
/* The same hash by the textbook round schedule (for cross-checking; slower). */
cuzk_status poseidon_hash_textbook(unsigned arity, const fr_t *tag, const fr_t *preimage,
                                   fr_t *out, cuzk_error *err);

/* Poseidon Merkle-Damgard hash (filecoin-hashers poseidon.rs `hash_md`): arity
 * POSEIDON_MD_ARITY with the MerkleTree tag 2^36 − 1; acc = in[0], then for each chunk of up
 * to 35 further elements acc = Poseidon_36(acc, chunk...). A shorter last chunk is padded with
 * zeros (neptune's `reset` zeroes the state and MerkleTree hashes apply no other padding), the
 * same values the circuit (poseidon_md.h) allocates. in: n field elements, n >= 2 (the
 * reference asserts more than one); out: the hash. Errors: CUZK_E_INVALID_ARG for n < 2,
 * CUZK_E_NOMEM. Thread-safe. */
#define POSEIDON_MD_ARITY 36
cuzk_status poseidon_hash_md(const fr_t *in, size_t n, fr_t *out, cuzk_error *err);

/* Legacy circuit over `arity` allocated numbers with the given tag; returns the hash as an
 * allocated number. Unsupported arity records CUZK_E_UNSUPPORTED in the cs. */
anum poseidon_circuit(cs_t *cs, unsigned arity, const fr_t *tag, const anum *preimage);

#endif
