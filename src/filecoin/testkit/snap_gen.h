/* SnapDeals (EmptySectorUpdate): encoding new data into a sealed CC sector and the vanilla
 * PartitionProof of every partition (storage-proofs-update vanilla.rs
 * encode_into / prove_inner / PartitionProof, challenges.rs; filecoin-proofs api/update.rs).
 *
 * Encoding: tree D_new over the Fr32-padded new data -> comm_d_new; phi = Pc(comm_d_new,
 * comm_r_old); new(v) = old(v) + data(v) * rho(v >> bits_shr) with rho(high) = Pc(phi, high)
 * (bits_shr = log2 N - h, h = the update proof's h_default); tree R_new over the new replica
 * -> root_r_new; comm_r_new = P_2(comm_c, root_r_new) (comm_c unchanged).
 *
 * Partition k: its A apex leaves are nodes k A .. k A + A - 1 of tree D_new's row
 * log2 N - log2 P - log2 A; for each of its challenges c (fc_snap_challenges over comm_r_new)
 * the inclusion proofs of leaf c in tree R_old, tree D_new and tree R_new.
 */
#ifndef CUZK_FILECOIN_TESTKIT_SNAP_GEN_H
#define CUZK_FILECOIN_TESTKIT_SNAP_GEN_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/seal/tree.h"
#include "filecoin/snap/vanilla.h"
#include "filecoin/testkit/post_gen.h"
#include "filecoin/testkit/seal.h"

/* What the partition proofs read: the three trees (tree R shapes and a binary SHA-256 tree
 * D_new) and the commitments. */
typedef struct {
    const fc_snap_proof *proof;
    fc_tree tree_r_old, tree_d_new, tree_r_new;
    uint8_t comm_c[32], comm_r_old[32], comm_d_new[32], comm_r_new[32];
} fc_snap_view;

/* PartitionProof k (< v->proof->partitions) into *out (freed on error). Errors: those of
 * the views and of fc_snap_challenges, CUZK_E_INVALID_ARG (k), CUZK_E_NOMEM. */
cuzk_status fc_snap_partition_generate(const fc_snap_view *v, uint32_t k, fc_snap_partition_proof *out,
                                       cuzk_error *err);

/* Self-check of PartitionProof k against the public commitments (vanilla.rs verify,
 * docs/fixtures.md#self-checks; what the reference vanilla verifier and the circuit enforce):
 * counts of the update proof; comm_r_old = P_2(comm_c, root of the first proof_r_old),
 * comm_r_new likewise with proof_r_new; per challenge re-derived from comm_r_new and k: the
 * three paths have the tree shapes, that node as index and valid paths to root_r_old /
 * comm_d_new / root_r_new; leaf_r_new = leaf_r_old + leaf_d_new * rho(c >> bits_shr) with phi
 * from comm_d_new and comm_r_old; the tree D path meets apex leaf (c >> ab_h) - k A and the
 * apex tree built from the A apex leaves. Errors: CUZK_E_VERIFY_FAILED naming partition,
 * challenge and field; CUZK_E_FIELD_NONCANONICAL; CUZK_E_NOMEM. */
cuzk_status fc_snap_partition_check(const fc_snap_proof *u, uint32_t k, const uint8_t comm_r_old[32],
                                    const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
                                    const fc_snap_partition_proof *pp, cuzk_error *err);

/* A sealed sector with new data encoded into it. */
typedef struct {
    const fc_snap_proof *proof;
    const fc_sector *old;        /* borrowed: the sealed sector (sector key) */
    fc_full_tree tree_d_new;     /* leaves: the new unsealed data */
    fc_full_tree tree_r_new;     /* leaves: the new replica */
    uint8_t comm_d_new[32], root_r_new[32], comm_r_new[32];
} fc_snap_sector;

/* Encode new data (data[0..data_len) or the file data_path, unpadded, Fr32-padded from node
 * 0, the rest zero) into sealed sector old with update proof u (same sector size). State in
 * memory (dir NULL) or temporary files in dir, like fc_seal; `threads` threads; memory about
 * 3.3 * N * 32 bytes in memory mode. On error *out is freed. Errors: CUZK_E_INVALID_ARG (size
 * mismatch, data too long), CUZK_E_IO, CUZK_E_NOMEM. */
cuzk_status fc_snap_encode(fc_snap_sector *out, const fc_sector *old, const fc_snap_proof *u, const uint8_t *data,
                           uint64_t data_len, const char *data_path, const char *dir, unsigned threads,
                           cuzk_error *err);
/* Release the new trees (not s->old). A freed or zeroed value is accepted. */
void fc_snap_sector_free(fc_snap_sector *s);
/* Views (valid while s and s->old live): the partition-proof view, and the PoSt view of the
 * updated sector (tree R_new, comm_c, comm_r_new). */
void fc_snap_sector_view(const fc_snap_sector *s, fc_snap_view *v);
void fc_snap_sector_post_view(const fc_snap_sector *s, fc_post_sector *v);

#endif
