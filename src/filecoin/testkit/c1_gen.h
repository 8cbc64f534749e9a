/* PoRep commit phase 1: the vanilla proofs of a sealed sector (SealCommitPhase1Output) for
 * its registered seal proof (storage-proofs-porep stacked/vanilla
 * proof.rs prove_layers, params.rs Proof / ReplicaColumnProof, rust-filecoin-proofs-api
 * seal.rs).
 *
 * The generator reads the sector through an fc_porep_view, so the same code serves a fully
 * sealed sector (seal.h) and the sparse 32/64 GiB fixtures (fixtures.h). For challenge c of
 * partition k (derived with fc_porep_challenges for the proof's feature: interactive from
 * the seed, non-interactive from comm_r, synthetic from both), in derivation order:
 *   comm_d_proofs       tree D inclusion proof of leaf c
 *   comm_r_last_proof   tree R_last inclusion proof of leaf c
 *   c_x, drg[6], exp[8] the column (labels of layers 1..L) of c and of its graph parents with
 *                       their tree C inclusion proofs
 *   labeling[l - 1]     the 37 parent slots of label (l, c) taken from those columns (layer 1:
 *                       DRG layer-1 values repeated; layer l >= 2: 6 DRG values of layer l and
 *                       8 expander values of layer l - 1, repeated), layer_index l, node c
 *   encoding            a copy of labeling[L - 1]
 * The output's seed is the seed given (for every feature, as seal_commit_phase1 does).
 */
#ifndef CUZK_FILECOIN_TESTKIT_C1_GEN_H
#define CUZK_FILECOIN_TESTKIT_C1_GEN_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/seal/tree.h"
#include "filecoin/porep/vanilla.h"

/* Everything C1 reads from a sealed sector. column(ctx, node, rows) writes the L labels of
 * node (rows[0] = layer 1). The trees have the shapes of proof->shape (tree D binary SHA-256,
 * trees C and R_last Poseidon). */
typedef struct {
    const fc_seal_proof *proof;
    fc_tree tree_d, tree_c, tree_r;
    cuzk_status (*column)(const void *ctx, uint64_t node, uint8_t (*rows)[32], cuzk_error *err);
    const void *column_ctx;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32];
    uint8_t replica_id[32], comm_d[32], comm_c[32], comm_r_last[32], comm_r[32];
} fc_porep_view;

/* Build the C1 output of view v for `seed` into *out (has_sector set with the view's prover_id
 * and sector_id). Check it with fc_c1_validate (filecoin/porep/porep.h) before use. Cost per challenge: 17 inclusion proofs and 15 columns read from the view.
 * On error *out is freed. Errors: those of the view and of fc_porep_challenges, CUZK_E_NOMEM.
 * Thread-safety: reads v only. */
cuzk_status fc_c1_generate(const fc_porep_view *v, const uint8_t seed[32], fc_c1_output *out, cuzk_error *err);

#endif
