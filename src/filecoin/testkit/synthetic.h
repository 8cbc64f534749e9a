/* Structurally valid vanilla proofs filled with pseudo-random canonical values: every count,
 * tree shape, variant tag and index range is what the registered proof prescribes, but no
 * hash relation holds (paths do not recompute their roots). For format round-trip tests,
 * fuzzing seeds and parser benchmarks (a 32 GiB-shaped C1 without sealing 32 GiB), never
 * for proving. Values come from splitmix64 seeded with `seed`, top byte & 0x3f (so < r).
 *
 * Ownership: the outputs own their memory (free with fc_c1_free / fc_post_vanilla_free /
 * fc_snap_partition_free). Thread-safety: functions touch only their arguments. Errors:
 * CUZK_E_NOMEM, CUZK_E_INVALID_ARG (NULL proof type).
 */
#ifndef CUZK_FILECOIN_TESTKIT_SYNTHETIC_H
#define CUZK_FILECOIN_TESTKIT_SYNTHETIC_H

#include "filecoin/porep/vanilla.h"
#include "filecoin/post/vanilla.h"
#include "filecoin/snap/vanilla.h"

/* A C1 output of `proof`'s shape: partitions x challenges proofs, `layers` rows per column,
 * 37 parents per labeling proof, layer_index 1..layers, node/index fields set to random
 * nodes below the sector's node count (the Merkle index bits agree with them), the encoding
 * proof a copy of the last labeling proof. has_sector is set with a random prover_id. */
cuzk_status fc_c1_synthetic(fc_c1_output *out, const fc_seal_proof *proof, uint64_t seed, cuzk_error *err);

/* A FallbackPoStSectorProof for `shape` with one SectorProof of `challenges` tree R
 * inclusion proofs. */
cuzk_status fc_post_synthetic(fc_post_vanilla *out, const fc_sector_shape *shape, unsigned challenges,
                              uint64_t seed, cuzk_error *err);

/* A PartitionProof of `up` (apex leaves and challenges as the registry gives; the Poseidon
 * variant with poseidon_challenges and tree-R-shaped tree D proofs). */
cuzk_status fc_snap_synthetic(fc_snap_partition_proof *out, const fc_snap_proof *up, bool poseidon,
                              uint64_t seed, cuzk_error *err);

#endif
