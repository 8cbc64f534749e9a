/* FallbackPoSt partition circuit (WinningPoSt and WindowPoSt), its public inputs and the
 * assembly of one partition from what Curio sends.
 *
 * Sources: storage-proofs-post src/fallback/{circuit.rs, compound.rs, vanilla.rs},
 * filecoin-proofs src/api/{post_util.rs, winning_post.rs, window_post.rs}
 * (storage-proofs-post fallback/{circuit,compound,vanilla}.rs; counts docs/circuits.md;
 * Curio's request docs/engine.md#inputs-per-proof-kind).
 *
 * Circuit: sector_count sector sub-circuits in order; per sector comm_r_last, comm_c,
 * comm_r allocated, comm_r inputized, Poseidon_2(comm_c, comm_r_last) with `comm_r · ONE =
 * h`, then per challenge a PoR (leaf allocated, index bits packed into one public input,
 * root = the comm_r_last variable, private). Public inputs per sector: comm_r, then the
 * challenge_count leaf indices. Counts: 32 GiB WindowPoSt 125,279,217 constraints / 25,840
 * inputs; WinningPoSt 370,590 / 133; the fallback_circuit.rs test circuit (tree 8-0-0, 64 leaves,
 * 5 challenges, 3 sectors) 16,869 / 19.
 *
 * Circuits are written once against cs_t, so every cs mode works. Thread-safety: the
 * functions touch only their arguments (one cs per thread).
 */
#ifndef CUZK_FILECOIN_POST_POST_H
#define CUZK_FILECOIN_POST_POST_H

#include <stdbool.h>
#include <stdint.h>

#include "cs/cs.h"
#include "field/fr.h"
#include "filecoin/core/registry.h"
#include "filecoin/post/vanilla.h"
#include "gadgets/merkle.h"

/* Shape of one partition circuit. */
typedef struct {
    merkle_shape tree;        /* tree R: Poseidon, base arity 8 (test shapes: any PoR shape) */
    uint32_t sector_count;    /* circuit sectors: 66 winning, 2 / 2349 / 2300 window */
    uint32_t challenge_count; /* challenges per circuit sector: 1 winning, 10 window */
} fc_post_shape;

/* The circuit shape of a registered PoSt proof. */
void fc_post_shape_of(const fc_post_proof *p, fc_post_shape *out);

/* Witness of one circuit sector (Montgomery Fr). For challenge c: leaf[c], the path's
 * per-level positions index[c·L .. c·L + L) (L = merkle_shape_levels) and siblings
 * sib[c·S .. c·S + S) (S = merkle_shape_siblings), leaf level first. */
typedef struct {
    fr_t comm_r, comm_c, comm_r_last;
    const fr_t *leaf;
    const unsigned *index;
    const fr_t *sib;
} fc_post_sector_witness;

/* Synthesize the partition circuit. In value modes circuit sector i takes
 * sectors[min(i, nsectors − 1)] (so a partition with fewer sectors is padded by repeating
 * the last one, as compound.rs does); in CS_SHAPE / CS_RECORD sectors is ignored.
 * Errors: CUZK_E_INVALID_ARG (no witness in a value mode, bad shape), CUZK_E_NOMEM, copied
 * from the cs's sticky status into err. */
cuzk_status fc_post_synthesize(cs_t *cs, const fc_post_shape *s, const fc_post_sector_witness *sectors,
                               uint32_t nsectors, cuzk_error *err);

/* ---- public inputs (compound.rs generate_public_inputs) ---- */

/* A sector as the verifier knows it (from the chain, or from the request). */
typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
} fc_post_public_sector;

/* Public inputs of one partition circuit, ONE excluded: sector_count · (1 + challenge_count)
 * (WindowPoSt 32 GiB 25,839; WinningPoSt 132). */
size_t fc_post_public_input_count(const fc_post_proof *p);

/* The public inputs of partition k computed from public data only: per circuit sector i,
 * comm_r, then for n = 0 .. challenge_count − 1 the challenged leaf
 * fc_post_leaf_challenge(randomness, sector_id, fc_post_challenge_index(p, k, i, n), nodes).
 *   WindowPoSt:  `sectors` are the partition's sectors in proving order (1 .. sector_count of
 *                them); circuit sector i is sectors[i], and past the last one the last
 *                sector's inputs are repeated (compound.rs pads by duplication).
 *   WinningPoSt: exactly one sector; every one of the 66 circuit sectors is that sector with
 *                challenge_index i (winning_post.rs verifies with the sector repeated 66
 *                times); k must be 0.
 * out must hold fc_post_public_input_count(p) values. Errors: CUZK_E_FIELD_NONCANONICAL
 * (randomness or a comm_r is not a canonical Fr, named), CUZK_E_INVALID_ARG (sector count,
 * winning k). */
cuzk_status fc_post_public_inputs(const fc_post_proof *p, const uint8_t randomness[32], uint32_t k,
                                  const fc_post_public_sector *sectors, uint32_t nsectors, fr_t *out, cuzk_error *err);

/* ---- one partition assembled from Curio's request (docs/engine.md#inputs-per-proof-kind) ---- */

/* Everything needed to synthesize and to verify one partition. Owns all its memory. */
typedef struct {
    const fc_post_proof *proof;
    fc_post_shape shape;
    uint32_t k;                            /* partition index (0 for WinningPoSt) */
    uint8_t randomness[32], prover_id[32]; /* prover_id: carried, unused by the circuit */
    uint32_t npublic;                      /* supplied sectors, in the order given */
    fc_post_public_sector *public_sectors;
    uint32_t nsectors;                     /* distinct circuit sectors (before padding) */
    fc_post_sector_witness *sectors;       /* point into the arrays below */
    fr_t *leaf, *sib;
    unsigned *index;
    bool public_only;                      /* fc_post_partition_public_from_bytes: verify only */
} fc_post_partition;

/* Assemble and validate partition k from the parsed per-sector vanilla proofs (one
 * FallbackPoStSectorProof per sector, fc_post_vanilla_read with p->shape).
 *
 * Partition rule (filecoin-proofs post_util.rs single_partition_vanilla_proofs): the supplied
 * proofs are the sectors of partition k, in proving order, 1 .. sector_count of them; for API
 * 1.0 / 1.1 (ids 0-9) the challenge of sector position j, challenge n is derived with
 * sector_index = k · sector_count + j (exactly as the chain verifier sees partition k of a
 * multi-partition WindowPoSt); for API 1.2 (ids 10-14) k does not enter the challenges. Curio
 * always sends k = 0 with at most sector_count sectors, which the rule covers.
 * WindowPoSt: each proof holds exactly one SectorProof of challenge_count (10) inclusion
 * proofs; circuit sector j is proof j, padded to sector_count by repeating the last one.
 * WinningPoSt: exactly one proof with one SectorProof of 66 inclusion proofs, unrolled into
 * the 66 circuit sectors (circuit sector i = inclusion proof i, challenge_index i); k is
 * ignored (the circuit is partition 0).
 *
 * Checks, each refusal naming the proof position, sector id, challenge and the expected
 * versus actual value: randomness canonical; counts as above; every inclusion proof of the
 * tree R shape, its leaf index equal to the challenge derived from randomness, sector id and
 * the rule above, its root equal to comm_r_last, its path hashing to that root; every value
 * canonical; Poseidon_2(comm_c, comm_r_last) = comm_r.
 * Errors: CUZK_E_FIELD_NONCANONICAL, CUZK_E_FORMAT (counts, shapes), CUZK_E_VERIFY_FAILED
 * (challenge, root, comm_r), CUZK_E_INVALID_ARG (no proofs, too many), CUZK_E_NOMEM. On error
 * *out is zeroed. The vanilla proofs are only read (the caller may free them afterwards). */
cuzk_status fc_post_partition_assemble(fc_post_partition *out, const fc_post_proof *p, const uint8_t randomness[32],
                                       uint64_t miner_id, uint32_t k, const fc_post_vanilla *proofs, uint32_t n,
                                       cuzk_error *err);
/* The same from the raw bincode blobs of SubmitProofRequest.vanilla_proofs (each parsed
 * with fc_post_vanilla_read for p->shape; a parse error is prefixed with
 * "vanilla_proofs[i]"). */
cuzk_status fc_post_partition_from_bytes(fc_post_partition *out, const fc_post_proof *p, const uint8_t randomness[32],
                                         uint64_t miner_id, uint32_t k, const uint8_t *const *blobs,
                                         const size_t *lens, uint32_t n, cuzk_error *err);
/* The same for verification only (cuzk verify-post, a verify-only job): the public side
 * (randomness, k, the sectors' ids and comm_r) from the vanilla proofs, each checked as above
 * but for its leaf indices, which are not compared with the challenges of randomness and k:
 * whether the proof holds for that randomness and partition is the Groth16 verification's
 * verdict (a proof made for other randomness does not verify), not a malformed input. The
 * partition cannot be synthesized (fc_post_partition_synthesize refuses it). */
cuzk_status fc_post_partition_public_from_bytes(fc_post_partition *out, const fc_post_proof *p,
                                                const uint8_t randomness[32], uint64_t miner_id, uint32_t k,
                                                const uint8_t *const *blobs, const size_t *lens, uint32_t n,
                                                cuzk_error *err);
void fc_post_partition_free(fc_post_partition *part);

/* Synthesize the partition's circuit (any cs mode) / compute its public inputs (from its
 * public sectors, randomness and k: fc_post_public_inputs). Both only read part (safe from
 * several threads at once). Errors as those functions. */
cuzk_status fc_post_partition_synthesize(cs_t *cs, const fc_post_partition *part, cuzk_error *err);
cuzk_status fc_post_partition_public_inputs(const fc_post_partition *part, fr_t *out, cuzk_error *err);

#endif
