/* Merkle hashing and inclusion proofs in circuit (filecoin-hashers sha256.rs / poseidon.rs,
 * storage-proofs-core gadgets/por.rs; filecoin-hashers sha256.rs hash2_circuit).
 *
 * SHA-256 node hashes (tree D): every input number goes through to_bits_le, is padded with
 * one Constant(false) and byte-reversed (its 32-byte LE form in message bit order); the
 * digest is byte-reversed, its first 254 bits packed (= digest read LE with the top two bits
 * cleared). Poseidon node hashes use the legacy circuit with the MerkleTree tag.
 * Errors go to the cs's sticky status. Not thread-safe on the same cs.
 */
#ifndef CUZK_GADGETS_MERKLE_H
#define CUZK_GADGETS_MERKLE_H

#include "gadgets/num.h"

typedef enum { MERKLE_SHA256 = 0, MERKLE_POSEIDON } merkle_hasher;

/* hash_leaf_bits_circuit: sha256(left ‖ right bits) packed as above (sha + 1 constraint). */
anum merkle_sha256_hash_bits(cs_t *cs, const gbool *left, size_t nleft, const gbool *right,
                             size_t nright);
/* hash_multi_leaf_circuit for `n` numbers (n·256 + sha + 1 constraints for SHA-256;
 * the legacy Poseidon circuit of arity n otherwise). */
anum merkle_hash_nodes(cs_t *cs, merkle_hasher h, const anum *nodes, unsigned n);

/* Native node hash of n 32-byte LE field elements, written as 32 LE bytes: SHA-256 of the
 * concatenation with digest[31] &= 0x3f, or Poseidon_n with the MerkleTree tag. Errors:
 * CUZK_E_UNSUPPORTED (Poseidon arity), CUZK_E_FIELD_NONCANONICAL (Poseidon input). */
cuzk_status merkle_hash_native(merkle_hasher h, const uint8_t (*nodes)[32], unsigned n,
                               uint8_t out[32], cuzk_error *err);

/* Tree shape: base_levels levels of base_arity, then an optional sub level (sub_arity > 0)
 * and an optional top level (top_arity > 0, requires sub_arity > 0). Arities are powers of
 * two in 2..16. */
typedef struct {
    merkle_hasher hasher;
    unsigned base_arity, base_levels, sub_arity, top_arity;
} merkle_shape;

/* Number of levels and of leaves of a shape; 0 leaves for an invalid shape. A shape with no
 * base level and no sub/top level is valid: one leaf, which is its own root. */
unsigned merkle_shape_levels(const merkle_shape *s);
uint64_t merkle_shape_leaves(const merkle_shape *s);
/* Index bits (Σ log2 arity) and siblings (Σ (arity − 1)) of a path, over all levels. */
unsigned merkle_shape_index_bits(const merkle_shape *s);
unsigned merkle_shape_siblings(const merkle_shape *s);

/* Inclusion proof witness: for level l (leaf side first), index[l] ∈ [0, arity_l) is the
 * position of the running node among its siblings and siblings holds arity_l − 1 values per
 * level, concatenated. NULL pointers in modes without values. */
typedef struct {
    const fr_t *leaf;
    const unsigned *index;
    const fr_t *siblings;
    const fr_t *root;
} merkle_path_values;

/* PoRCircuit::synthesize: leaf (allocated from v->leaf unless leaf_var != NULL), per level
 * index bits, siblings, insert, hash; pack_into_inputs(index bits) → 1 input (the leaf
 * index); root allocated (unless root_var != NULL); `computed · ONE = root`; if !private,
 * inputize(root). Invalid shapes record CUZK_E_INVALID_ARG. */
void merkle_por_circuit(cs_t *cs, const merkle_shape *s, const merkle_path_values *v,
                        const anum *leaf_var, const anum *root_var, bool private_root);

/* por_no_challenge_input (storage-proofs-core gadgets/por.rs), used by SnapDeals: the
 * caller passes the already allocated challenge bits (LSB first: base levels, then sub, then
 * top; nbits must equal merkle_shape_index_bits) and siblings (merkle_shape_siblings of
 * them, level by level), the leaf and the root. Per level insert + hash, then
 * `computed · ONE = root`. Allocates nothing itself and adds no public input. Bits of an
 * arity-8 level must be allocated, non-negated (insert's rule). A wrong bit count or shape
 * records CUZK_E_INVALID_ARG. */
void merkle_por_no_challenge_input(cs_t *cs, const merkle_shape *s, const gbool *bits, size_t nbits,
                                   const anum *leaf, const anum *siblings, const anum *root);

#endif
