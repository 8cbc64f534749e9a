/* Gadget-level circuits for `cuzk circuit-info` and for tests that need a
 * Filecoin-shaped circuit with a valid witness (issue 5).
 *
 * Circuits and parameters (each parameter "key=value"; a parameter may also hold several
 * comma-separated pairs, e.g. "base=8,sub=8,top=2"):
 *   sha256        bytes=N (default 64): N·8 allocated message bits, SHA-256 gadget.
 *                 Counts include the N·8 bit constraints (bellperson's 44,874 for 64 bytes
 *                 is this total minus 512).
 *   poseidon      arity=N (default 2): N allocated numbers, legacy Poseidon circuit with the
 *                 MerkleTree tag (311 for arity 2).
 *   hash-md       n=N (default 71, 1..2^20): N allocated ones, Poseidon hash_md_circuit
 *                 (arity 36; 71 elements: 2,770 constraints as filecoin-hashers'
 *                 test_hash_md_circuit).
 *   por           hasher=sha256|poseidon (default poseidon), arity=2|4|8|16 or
 *                 base=B[,sub=S[,top=T]], leaves=N (default 64; N = B^levels·S·T),
 *                 root=public|private (default public): PoRCircuit as rust-fil-proofs'
 *                 por_circuit tests (e.g. Poseidon binary 64 leaves: 1,887 constraints,
 *                 3 inputs).
 *   create-label  layer=L (default 3), node=N (default 22): replica id and 37 parents as
 *                 allocated bits, layer and node constants, as create_label.rs test_create_label
 *                 (532,025 constraints).
 *   hash-leaf-bits  two allocated 256-bit vectors hashed with hash_leaf_bits_circuit (45,387).
 *
 * In value modes the witness is random but consistent (seeded): PoR paths hash up to the
 * root they claim, so CS_CHECK accepts it.
 * Errors: CUZK_E_UNSUPPORTED (unknown circuit or key), CUZK_E_INVALID_ARG (bad value, named
 * in the message), or the cs's synthesis error. Thread-safe for distinct cs.
 */
#ifndef CUZK_GADGETS_CIRCUITS_H
#define CUZK_GADGETS_CIRCUITS_H

#include "cs/cs.h"

cuzk_status gadgets_circuit_synthesize(cs_t *cs, const char *name, const char *const *params,
                                       size_t nparams, uint64_t seed, cuzk_error *err);

/* Shape-mode synthesis with density tracking; fills *out. */
cuzk_status gadgets_circuit_info(const char *name, const char *const *params, size_t nparams,
                                 cs_counts *out, cuzk_error *err);

#endif
