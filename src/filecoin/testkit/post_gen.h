/* PoSt vanilla proofs (FallbackPoStSectorProof) of one sector, WindowPoSt and WinningPoSt, every
 * API version (storage-proofs-post fallback/vanilla.rs,
 * filecoin-proofs api/post_util.rs generate_single_vanilla_proof).
 *
 * For challenge n = 0 .. p->vanilla_challenges - 1 (10 Window, 66 Winning) the challenged leaf
 * is fc_post_leaf_challenge(randomness, sector_id, fc_post_challenge_index(p, k, pos, n), N)
 * (the challenge index depends on the sector's partition k and position pos only for API 1.0
 * WindowPoSt; for WinningPoSt k and pos are ignored: always 0), and the proof holds one SectorProof with the tree
 * R_last inclusion proofs of those leaves in that order, comm_c and comm_r_last.
 */
#ifndef CUZK_FILECOIN_TESTKIT_POST_GEN_H
#define CUZK_FILECOIN_TESTKIT_POST_GEN_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/seal/tree.h"
#include "filecoin/post/vanilla.h"

/* What PoSt reads from a sealed (or SnapDeals-updated, or sparse) sector. */
typedef struct {
    uint64_t sector_id;
    fc_tree tree_r; /* tree R_last of the replica */
    uint8_t comm_c[32], comm_r_last[32], comm_r[32];
} fc_post_sector;

/* The FallbackPoStSectorProof of sector s for PoSt proof p (its size must be s's) into *out
 * (freed on error). randomness must be canonical (byte 31 <= 0x3f, as Curio masks it).
 * Errors: CUZK_E_INVALID_ARG (size mismatch), CUZK_E_FIELD_NONCANONICAL (randomness), those of
 * the tree view, CUZK_E_NOMEM. Thread-safety: reads s only. */
cuzk_status fc_post_generate(const fc_post_proof *p, const uint8_t randomness[32], uint32_t k, uint32_t sector_pos,
                             const fc_post_sector *s, fc_post_vanilla *out, cuzk_error *err);

#endif
