/* Merkle inclusion proofs as rust-fil-proofs stores them (storage-proofs-core
 * merkle/proof.rs `MerkleProof<H, Base, Sub, Top>`;
 * docs/formats.md#merkleproof): the in-memory form shared by every vanilla-proof reader and
 * writer (C1 JSON / bincode, PoSt and SnapDeals bincode), by the sealers that produce them
 * and by the circuits that consume them.
 *
 * A proof has `nlevels` path elements from the leaf level upward: the base levels (arity
 * base_arity each), then optionally one sub level and one top level. Level l has arity[l]
 * (2 for tree D, 8 for tree R/C base and sub levels, 2 for a 64 GiB top level),
 * index[l] in [0, arity[l]) (the running node's position among its siblings) and
 * arity[l] - 1 sibling hashes stored consecutively in `sib`, in left-to-right order with the
 * running node's own position removed. The variant (Single / Sub / Top, bincode tags 0 / 1
 * / 2) is `kind`: Single has only base levels; Sub has one sub level; Top has a sub and a
 * top level. All 32-byte values are stored as read (little-endian field encodings; tree D
 * digests are already truncated to 254 bits).
 *
 * Ownership: `sib` is malloc'ed and owned by the proof; fc_merkle_proof_free releases it.
 * Thread-safety: none needed (plain data); the functions touch only their arguments.
 */
#ifndef CUZK_FILECOIN_CORE_MERKLE_PROOF_H
#define CUZK_FILECOIN_CORE_MERKLE_PROOF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"
#include "gadgets/merkle.h"

#define FC_MERKLE_MAX_LEVELS 40

typedef enum { FC_MP_SINGLE = 0, FC_MP_SUB = 1, FC_MP_TOP = 2 } fc_merkle_kind;

typedef struct {
    uint8_t kind;        /* fc_merkle_kind */
    uint8_t nlevels;     /* base levels + (kind >= SUB) + (kind == TOP) */
    uint8_t arity[FC_MERKLE_MAX_LEVELS];
    uint8_t index[FC_MERKLE_MAX_LEVELS];
    uint8_t root[32];
    uint8_t leaf[32];
    uint8_t (*sib)[32];  /* sum over levels of (arity - 1) siblings; owned */
} fc_merkle_proof;

/* The tree shapes of a sector (docs/formats.md#merkleproof): tree D is SHA-256, arity 2,
 * log2_nodes levels, always Single; tree R_last and tree C are Poseidon with base arity 8 over
 * base_levels levels, then the sector's sub and top levels (Single / Sub / Top). */
merkle_shape fc_tree_d_shape(const fc_sector_shape *s);
merkle_shape fc_tree_r_shape(const fc_sector_shape *s);

/* Total siblings = sum of (arity[l] - 1). */
size_t fc_merkle_proof_siblings(const fc_merkle_proof *p);
/* The challenged leaf index: sum of index[l] * product of the arities below l. */
uint64_t fc_merkle_proof_node(const fc_merkle_proof *p);
/* Base levels (nlevels minus the sub and top levels). */
unsigned fc_merkle_proof_base_levels(const fc_merkle_proof *p);

/* Allocate an empty proof of the given shape: kind from sub/top arity, nlevels, arities set,
 * indices, root, leaf and siblings zeroed (sib calloc'ed). base_arity/base_levels/sub/top as
 * in merkle_shape (sub 0 = absent, top requires sub). Errors: CUZK_E_INVALID_ARG (shape),
 * CUZK_E_NOMEM. */
cuzk_status fc_merkle_proof_alloc(fc_merkle_proof *p, unsigned base_arity, unsigned base_levels,
                                  unsigned sub_arity, unsigned top_arity, cuzk_error *err);
/* Deep copy. Errors: CUZK_E_NOMEM. */
cuzk_status fc_merkle_proof_copy(fc_merkle_proof *dst, const fc_merkle_proof *src, cuzk_error *err);
void fc_merkle_proof_free(fc_merkle_proof *p);

/* Whether the proof has the given shape (kind, level count and every arity). */
bool fc_merkle_proof_has_shape(const fc_merkle_proof *p, unsigned base_arity, unsigned base_levels,
                               unsigned sub_arity, unsigned top_arity);

/* Recompute the root from leaf, siblings and indices with `hasher` (SHA-256 pairs with the
 * 254-bit truncation for tree D, Poseidon_arity with the MerkleTree tag for trees R/C) and
 * compare it with p->root. `what` names the proof in messages (e.g. "partition 0
 * challenge 3 comm_d_proofs"). Errors: CUZK_E_VERIFY_FAILED ("<what>: path hashes to X, root
 * is Y" with the level where it was computed), CUZK_E_FIELD_NONCANONICAL (a Poseidon input
 * >= r: level and sibling named). */
cuzk_status fc_merkle_proof_verify(const fc_merkle_proof *p, merkle_hasher hasher, const char *what,
                                   cuzk_error *err);

/* Witness form for the PoR gadget (gadgets/merkle.h merkle_path_values): index[] as
 * unsigned, siblings and leaf/root as Montgomery Fr. `idx` must hold nlevels entries and
 * `sib` fc_merkle_proof_siblings(p) entries. Errors: CUZK_E_FIELD_NONCANONICAL naming the
 * value ("leaf", "root", "sibling i of level l") prefixed with `what`. */
cuzk_status fc_merkle_proof_to_fr(const fc_merkle_proof *p, const char *what, unsigned *idx, fr_t *sib,
                                  fr_t *leaf, fr_t *root, cuzk_error *err);

#endif
