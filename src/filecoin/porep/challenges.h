/* PoRep identifiers and challenges (storage-proofs-porep stacked/vanilla/{challenges,params}.rs):
 *
 *   replica_id     SHA-256(prover_id || u64_be(sector_id) || ticket || comm_d || porep_id),
 *                  byte 31 &= 0x3f
 *   challenges     interactive: SHA-256(replica_id || seed || u32_le(j)); non-interactive:
 *                  SHA-256("filecoin.io|PoRep|1|NonInteractive|1" || replica_id || comm_r ||
 *                  u32_le(j)); synthetic: ChaCha20 streams keyed by BLAKE2b-256 MACs
 *                  (generation over replica_id || comm_r, selection over replica_id || seed);
 *                  challenge = (x mod (N - 1)) + 1 for a 256-bit LE x (fc_to_challenge,
 *                  filecoin/core/challenges.h), j = C k + i
 *
 * Hashes come from libcrypto (SHA-256; keyed BLAKE2b-256 as EVP_MAC "BLAKE2BMAC" with size
 * 32; ChaCha20 as EVP "ChaCha20", RFC 8439 with nonce "synth-porep\0" and a 32-bit block
 * counter from 0, given to libcrypto as its 16-byte IV = u32_le(counter) || nonce). All
 * functions are pure and thread-safe.
 */
#ifndef CUZK_FILECOIN_POREP_CHALLENGES_H
#define CUZK_FILECOIN_POREP_CHALLENGES_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"

/* replica_id (storage-proofs-porep stacked/vanilla/params.rs generate_replica_id). Never fails. */
void fc_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                   const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32]);

/* The C = p->challenges_per_partition challenges of partition k (< p->partitions), in
 * derivation order, for the proof's feature (interactive uses seed; non-interactive
 * uses comm_r; synthetic uses both). nodes = p->shape->nodes. out: C node indices in
 * [1, nodes). Errors: CUZK_E_INVALID_ARG (k out of range), CUZK_E_FIELD_NONCANONICAL
 * (synthetic: replica_id or comm_r >= q; the reference reads both as Fr),
 * CUZK_E_INTERNAL (libcrypto failure). */
cuzk_status fc_porep_challenges(const fc_seal_proof *p, const uint8_t replica_id[32], const uint8_t seed[32],
                                const uint8_t comm_r[32], uint32_t k, uint64_t *out, cuzk_error *err);

/* The same rules for an arbitrary node count / challenge count (tests, test-size graphs).
 * j = C * k + i must fit in u32. seed (interactive, synthetic) and comm_r (non-interactive,
 * synthetic) may be NULL where the feature does not read them. Errors: as above, and
 * CUZK_E_INVALID_ARG for nodes outside [3, 2^32], C = 0, a missing input or j >= 2^32. */
cuzk_status fc_porep_challenges_custom(fc_porep_feature feature, uint64_t nodes, unsigned challenges_per_partition,
                                       const uint8_t replica_id[32], const uint8_t seed[32],
                                       const uint8_t comm_r[32], uint32_t k, uint64_t *out, cuzk_error *err);

/* Synthetic PoRep: number of synthetic challenges min(N, 2^18), and synthetic challenge n
 * (< fc_synthetic_count(nodes)) from the generation stream, without a seed: the 32
 * keystream bytes [32n, 32n + 32) read LE, mapped into [1, nodes). Errors:
 * CUZK_E_INVALID_ARG (nodes outside [3, 2^32], n out of range), CUZK_E_FIELD_NONCANONICAL
 * (replica_id, comm_r), CUZK_E_INTERNAL (libcrypto). */
uint64_t fc_synthetic_count(uint64_t nodes);
cuzk_status fc_synthetic_challenge(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                   uint64_t n, uint64_t *out, cuzk_error *err);
/* Synthetic challenges first .. first + count - 1 in one keystream pass (what a sealer
 * proves at pre-commit: first 0, count fc_synthetic_count). Errors as
 * fc_synthetic_challenge (first + count must not exceed fc_synthetic_count(nodes)). */
cuzk_status fc_synthetic_challenges(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                    uint64_t first, uint64_t count, uint64_t *out, cuzk_error *err);
/* Synthetic selection: the indexes (< num_synth) into the synthetic challenges of the C
 * challenges of partition k: u32 LE words at selection-keystream byte offsets 4 (C k + i)
 * mod num_synth (challenges.rs gen_partition_synth_indexes). The porep challenge i is
 * synthetic challenge indexes[i]. num_synth is fc_synthetic_count(nodes) in production.
 * Errors: CUZK_E_INVALID_ARG (num_synth outside [1, 2^32], C = 0, C k + C > 2^32),
 * CUZK_E_FIELD_NONCANONICAL (replica_id), CUZK_E_INTERNAL (libcrypto). */
cuzk_status fc_synthetic_select(uint64_t num_synth, unsigned challenges_per_partition, const uint8_t replica_id[32],
                                const uint8_t seed[32], uint32_t k, uint64_t *indexes, cuzk_error *err);

#endif
