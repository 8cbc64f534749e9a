/* PoSt challenges (storage-proofs-post fallback/utils.rs, vanilla.rs):
 *
 *   leaf = u64_le(SHA-256(randomness || u64_le(sector_id) || u64_le(challenge_index))[0..8])
 *   mod N, challenge_index = sector_index * C + n (API 1.0/1.1) or n (API 1.2); winning
 *   sector selection.
 *
 * SHA-256 from libcrypto. All functions are pure and thread-safe.
 */
#ifndef CUZK_FILECOIN_POST_CHALLENGES_H
#define CUZK_FILECOIN_POST_CHALLENGES_H

#include <stdint.h>

#include "filecoin/core/registry.h"

/* PoSt: challenge_index of challenge n of the sector at position `sector_pos` in partition
 * k (sector_index = k * sector_count + sector_pos) for the proof's API version, and the
 * challenged leaf (in [0, nodes); nodes must be >= 1, 0 gives UINT64_MAX). randomness is
 * hashed as given; the reference requires it to be a canonical Fr, which callers check. */
uint64_t fc_post_challenge_index(const fc_post_proof *p, uint32_t k, uint32_t sector_pos, uint32_t n);
uint64_t fc_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                uint64_t nodes);
/* WinningPoSt sector selection: index of challenged sector n among sector_set_len sectors
 * (sector_set_len >= 1; 0 gives UINT64_MAX) (fallback/utils.rs generate_sector_challenge). */
uint64_t fc_winning_sector_index(const uint8_t prover_id[32], const uint8_t randomness[32], uint64_t n,
                                 uint64_t sector_set_len);

#endif
