/* Poseidon Merkle-Damgard hash in circuit (filecoin-hashers src/poseidon.rs
 * `hash_md_circuit`): arity POSEIDON_MD_ARITY (36) with the MerkleTree tag.
 * Native counterpart: poseidon_hash_md (poseidon.h).
 *
 * acc = elements[0]; for each chunk c = 0, 1, ... of up to 35 further elements: when the
 * chunk is short, allocate 35 − len zero numbers ("padding", 1 aux each, no constraint, as
 * the reference: they are not constrained to zero), then acc = legacy Poseidon_36(acc,
 * chunk..., padding...) in namespace "hash md c". Cost: ceil((n − 1) / 35) × 1,385
 * constraints (71 elements: 2,770) and as many aux plus the padding.
 */
#ifndef CUZK_GADGETS_POSEIDON_MD_H
#define CUZK_GADGETS_POSEIDON_MD_H

#include "gadgets/poseidon.h"

/* elements: n allocated numbers. Returns the hash; for n == 1 returns elements[0] with no
 * constraint (as the reference; the native hash rejects n < 2). n == 0 records
 * CUZK_E_INVALID_ARG in the cs and returns {CS_ONE, 0}; other errors (CUZK_E_NOMEM) go to the
 * cs's sticky status. Not thread-safe on the same cs. */
anum poseidon_hash_md_circuit(cs_t *cs, const anum *elements, size_t n);

#endif
