/* SnapDeals vanilla proofs: PartitionProof bincode, one per partition, and the Poseidon
 * variant (docs/formats.md#snapdeals-partitionproof). Reading rules, ownership and
 * thread-safety: filecoin/core/vanilla.h.
 */
#ifndef CUZK_FILECOIN_SNAP_VANILLA_H
#define CUZK_FILECOIN_SNAP_VANILLA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/vanilla.h"

typedef struct {
    fc_merkle_proof r_old; /* tree R_old, sector shape */
    fc_merkle_proof d_new; /* tree D_new: SHA-256 binary (Poseidon variant: sector shape) */
    fc_merkle_proof r_new; /* tree R_new, sector shape */
} fc_snap_challenge_proof;

/* PartitionProof (storage-proofs-update vanilla.rs; poseidon/vanilla.rs without apex). */
typedef struct {
    bool poseidon;               /* the EmptySectorUpdate-Poseidon form (no apex leaves) */
    uint8_t comm_c[32];
    uint32_t napex;
    uint8_t (*apex)[32];         /* owned */
    uint32_t nchallenges;
    fc_snap_challenge_proof *challenges; /* owned */
} fc_snap_partition_proof;

void fc_snap_partition_free(fc_snap_partition_proof *p);
/* Parse one PartitionProof for sector shape `shape`; poseidon selects the variant. The
 * counts are those of the size's RegisteredUpdateProof (registry.h): apex_leaves apex leaves
 * and `challenges` challenge proofs (Poseidon: no apex leaves, poseidon_challenges). Tree
 * R_old / R_new proofs have the tree R shape, tree D_new proofs are Single binary of
 * log2 N levels (Poseidon variant: the tree R shape). Trailing bytes are refused. Errors as
 * fc_post_vanilla_read. Sizes (docs/formats.md#snapdeals-partitionproof): 15,064 bytes for 2
 * KiB, 561,768 for 32 GiB. */
cuzk_status fc_snap_partition_read(fc_snap_partition_proof *out, const fc_sector_shape *shape, bool poseidon,
                                   const uint8_t *buf, size_t len, cuzk_error *err);
cuzk_status fc_snap_partition_write(const fc_snap_partition_proof *p, uint8_t **out, size_t *len,
                                    cuzk_error *err);

#endif
