/* Merkle trees of Filecoin sectors: shapes, node hashing, inclusion proofs from any node
 * source, and full trees stored row by row (storage-proofs-core
 * merkle/{builders,proof}.rs, merkletree merkle.rs).
 *
 * A tree is described as one mixed-arity tree with `nlevels` levels above the leaves: level l
 * (0 = the leaf row) has arity[l] children per parent. Tree D is binary SHA-256 with
 * log2 N levels (interior node = SHA-256(left ‖ right) with byte 31 &= 0x3f). Trees C and
 * R_last are Poseidon trees (MerkleTree tag) of the sector shape: base_levels levels of arity
 * 8 (the B base trees side by side: base tree b covers leaves [b N / B, (b + 1) N / B)), then
 * a sub level of arity 8 (B >= 8) and a top level of arity 2 (B = 16). Node (level, idx)
 * covers leaves [idx * span(level), (idx + 1) * span(level)) where span is the product of the
 * arities below it, so base/sub/top need no separate bookkeeping.
 *
 * Nodes are 32-byte little-endian field encodings. Thread-safety: shapes and views are
 * immutable; fc_tree_prove/fc_tree_root may run concurrently if the view's node function
 * allows it (every view in this folder does).
 */
#ifndef CUZK_FILECOIN_CORE_SEAL_TREE_H
#define CUZK_FILECOIN_CORE_SEAL_TREE_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/seal/store.h"
#include "gadgets/merkle.h"

/* A merkle_shape (gadgets/merkle.h; fc_tree_d_shape / fc_tree_r_shape give a sector's) with
 * its levels spelled out. */
typedef struct {
    merkle_shape m;
    unsigned nlevels;                    /* levels above the leaves */
    uint8_t arity[FC_MERKLE_MAX_LEVELS]; /* arity of level l (children per parent) */
    uint64_t leaves;
} fc_tree_shape;

/* Spell out m. Errors: CUZK_E_INVALID_ARG (m is not a valid merkle_shape or has more than
 * FC_MERKLE_MAX_LEVELS levels). */
cuzk_status fc_tree_shape_init(fc_tree_shape *s, const merkle_shape *m, cuzk_error *err);
/* Nodes in row `level` (leaves / product of the arities below). */
uint64_t fc_tree_row_nodes(const fc_tree_shape *s, unsigned level);
/* Leaves under one node of row `level`. */
uint64_t fc_tree_span(const fc_tree_shape *s, unsigned level);

/* Hash n children (32 bytes each) into their parent: SHA-256 of the concatenation with byte
 * 31 &= 0x3f, or Poseidon_n with the MerkleTree tag (n in 2, 4, 8, 11, ...). Errors:
 * CUZK_E_FIELD_NONCANONICAL naming the child (Poseidon only; `what` prefixes the message). */
cuzk_status fc_tree_hash(merkle_hasher h, const uint8_t (*children)[32], unsigned n, uint8_t out[32],
                         const char *what, cuzk_error *err);

/* The node at row `to` of a subtree whose nodes at row `from` (<= to <= nlevels) all equal
 * `node`: hash arity copies level by level. With from = 0 these are the default ladders of
 * docs/vectors.md#zero-commitments and
 * docs/vectors.md#poseidon-zero-ladders (Z_k for tree D with leaf 0, Y_k for trees C/R with
 * leaf 0; any other leaf value gives its own ladder). Errors: those of fc_tree_hash. */
cuzk_status fc_tree_uniform_node(const fc_tree_shape *s, const uint8_t node[32], unsigned from, unsigned to,
                                 uint8_t out[32], cuzk_error *err);

/* comm_r = P_2(comm_c, root of tree R_last) (storage-proofs-porep vanilla/proof.rs; SnapDeals
 * comm_r_old / comm_r_new likewise, storage-proofs-update vanilla.rs). Errors:
 * CUZK_E_FIELD_NONCANONICAL (an input >= r). */
cuzk_status fc_comm_r(const uint8_t comm_c[32], const uint8_t root_r[32], uint8_t out[32], cuzk_error *err);

/* A read-only view of a tree: node(ctx, level, idx) writes node idx of row level (level 0 =
 * leaves, level nlevels = the root row of one node). */
typedef cuzk_status (*fc_tree_node_fn)(const void *ctx, unsigned level, uint64_t idx, uint8_t out[32],
                                       cuzk_error *err);
typedef struct {
    fc_tree_shape shape;
    fc_tree_node_fn node;
    const void *ctx;
} fc_tree;

/* The root (node 0 of row nlevels). Errors: those of the view. */
cuzk_status fc_tree_root(const fc_tree *t, uint8_t root[32], cuzk_error *err);
/* Inclusion proof of leaf `leaf` in the form rust-fil-proofs stores
 * (docs/formats.md#merkleproof): arities and kind from the shape, per level the running node's
 * position and the arity - 1 siblings left to right without it, root and leaf. *out is
 * allocated with fc_merkle_proof_alloc (the caller frees it); on error it is left freed.
 * Errors: CUZK_E_INVALID_ARG (leaf >= leaves), CUZK_E_NOMEM, those of the view. */
cuzk_status fc_tree_prove(const fc_tree *t, uint64_t leaf, fc_merkle_proof *out, cuzk_error *err);

/* ---- full trees: every row stored ---- */

/* All rows of a tree, leaves first, in one store (row l at byte row_off[l]). Memory: 32 bytes
 * times the total node count (tree D 2N - 1 nodes, trees C/R about 8N/7). */
typedef struct {
    fc_tree_shape shape;
    uint64_t row_off[FC_MERKLE_MAX_LEVELS + 1];
    fc_store store;
} fc_full_tree;

/* Create an all-zero full tree in memory (dir NULL) or in a temporary file in dir. Errors:
 * those of fc_store_create. */
cuzk_status fc_full_tree_create(fc_full_tree *t, const fc_tree_shape *s, const char *dir, const char *what,
                                cuzk_error *err);
/* Release the store (freed or zeroed trees accepted). */
void fc_full_tree_free(fc_full_tree *t);
/* Write `count` leaves starting at leaf `first`. Errors: CUZK_E_INVALID_ARG (range), I/O. */
cuzk_status fc_full_tree_put_leaves(fc_full_tree *t, uint64_t first, uint64_t count, const uint8_t (*leaves)[32],
                                    cuzk_error *err);
/* Compute every row above the leaves, level by level, in work items of up to 4,096 parents
 * spread over `threads` threads; writes the root to root (may be NULL). Scratch memory: about
 * 1.2 MiB per thread. Errors: CUZK_E_FIELD_NONCANONICAL (a Poseidon child >= r: row and
 * index named), CUZK_E_NOMEM, I/O. */
cuzk_status fc_full_tree_build(fc_full_tree *t, unsigned threads, uint8_t root[32], cuzk_error *err);
/* The view over the stored rows (valid while t lives). */
fc_tree fc_full_tree_view(const fc_full_tree *t);

#endif
