/* SnapDeals challenges (storage-proofs-update vanilla.rs, challenges.rs):
 *
 *   phi = Poseidon_2^Custom(1)(comm_d_new, comm_r_old), rho(high) =
 *   Poseidon_2^Custom(1)(phi, high), challenges from Poseidon digests of comm_r_new.
 *
 * The Poseidon hashes come from gadgets/poseidon.h. All functions are pure and thread-safe.
 */
#ifndef CUZK_FILECOIN_SNAP_CHALLENGES_H
#define CUZK_FILECOIN_SNAP_CHALLENGES_H

#include <stdint.h>

#include "common/status.h"
#include "field/fr.h"
#include "filecoin/core/registry.h"

/* SnapDeals. comm values are 32-byte LE field elements. Errors: CUZK_E_FIELD_NONCANONICAL
 * naming the input, CUZK_E_NOMEM (first use of the Poseidon constants). */
cuzk_status fc_snap_phi(const uint8_t comm_d_new[32], const uint8_t comm_r_old[32], fr_t *phi, cuzk_error *err);
/* rho(high) = Poseidon_2^Custom(1)(phi, high). Cannot fail once fc_snap_phi (or any other
 * function here) has succeeded, since the arity-2 Poseidon constants are then prepared; if
 * they cannot be prepared (out of memory) rho is set to zero. */
void fc_snap_rho(const fr_t *phi, uint64_t high, fr_t *rho);
/* The challenges of partition k (< u->partitions): u->challenges node indices, each in
 * partition k's node range (storage-proofs-update challenges.rs). Poseidon variant:
 * fc_snap_poseidon_challenges gives all u->poseidon_challenges of the single partition
 * (Challenges::new_poseidon). Errors:
 * CUZK_E_FIELD_NONCANONICAL (comm_r_new), CUZK_E_INVALID_ARG, CUZK_E_NOMEM. */
cuzk_status fc_snap_challenges(const fc_snap_proof *u, const uint8_t comm_r_new[32], uint32_t k, uint64_t *out,
                               cuzk_error *err);
cuzk_status fc_snap_poseidon_challenges(const fc_snap_proof *u, const uint8_t comm_r_new[32], uint64_t *out,
                                        cuzk_error *err);

#endif
