/* EmptySectorUpdate (SnapDeals) partition circuits, both variants, with their shapes,
 * public inputs and the assembly of a partition from Curio's request.
 *
 *   EmptySectorUpdate          storage-proofs-update src/circuit.rs, gadgets.rs,
 *                              constants.rs: tree D_new is the
 *                              SHA-256 binary tree; P partitions, each proving Ch challenges
 *                              below its A apex leaves.
 *   EmptySectorUpdate-Poseidon src/poseidon/circuit.rs (and poseidon/vanilla.rs):
 *                              one partition of Ch·P challenges, tree D_new a
 *                              Poseidon tree of tree-R shape, no apex tree.
 *
 * Public inputs (4, after ONE): k_and_h_select = k | h_select << pb (Poseidon variant:
 * h_select), comm_r_old, comm_d_new, comm_r_new. Counts: docs/circuits.md (2 KiB 1,705,039,
 * 32 GiB 81,049,499; Poseidon 32 GiB 22,305,906).
 *
 * Circuits are written once against cs_t, so every cs mode works: CS_SHAPE / CS_RECORD take
 * no values (pub and witness NULL), CS_WITNESS / CS_CHECK need both.
 * Thread-safety: the functions touch only their arguments (one cs per thread).
 */
#ifndef CUZK_FILECOIN_SNAP_SNAP_H
#define CUZK_FILECOIN_SNAP_SNAP_H

#include <stdbool.h>
#include <stdint.h>

#include "cs/cs.h"
#include "filecoin/core/registry.h"
#include "filecoin/snap/vanilla.h"
#include "gadgets/merkle.h"

#define FC_SNAP_HS 6

/* Parameters of one sector size (storage-proofs-update constants.rs). For the Poseidon variant
 * partitions = 1, partition_bits = 0, challenges = Ch·P, no apex leaves. */
typedef struct {
    bool poseidon;
    uint64_t nodes;
    unsigned challenge_bits;          /* cb = log2 nodes */
    unsigned partitions;              /* P: 1 (<= 8 KiB), 2 (<= 32 KiB), 4 (<= 16 MiB), else 16 */
    unsigned partition_bits;          /* pb = log2 P */
    unsigned challenges;              /* per partition: 10 (<= 16 MiB) or 86 */
    unsigned apex_leaves, apex_bits;  /* A = 8 (<= 8 KiB) or 128, ab = log2 A */
    unsigned hs[FC_SNAP_HS];          /* [1;6] (<= 32 KiB), else [7..12] */
    unsigned h;                       /* h_default = hs[3] */
    unsigned h_select;                /* 2^(first index of h in hs): 1 (<= 32 KiB), else 8 */
    merkle_shape tree_r;              /* Poseidon, arity 8 base (also tree D_new of the variant) */
} fc_snap_shape;

/* Shape for a sector of `nodes` 32-byte nodes: the sizes storage-proofs-update allows
 * (2^5 .. 2^10 test sizes, 2^18, 2^19, 2^24, 2^30, 2^31), tree R shape from
 * validate_tree_r_shape. Errors: CUZK_E_UNSUPPORTED naming the node count. */
cuzk_status fc_snap_shape_for_nodes(uint64_t nodes, bool poseidon, fc_snap_shape *out, cuzk_error *err);

/* The public side of one partition: k (< partitions; 0 for the Poseidon variant) and the
 * three commitments as field elements. */
typedef struct {
    uint32_t k;
    fr_t comm_r_old, comm_d_new, comm_r_new;
} fc_snap_public;

/* The 4 public inputs of partition pub->k (ONE excluded), in order (compound.rs /
 * circuit.rs PublicInputs::to_vec). Uses h_default. Errors: CUZK_E_INVALID_ARG (k). */
cuzk_status fc_snap_public_inputs(const fc_snap_shape *s, const fc_snap_public *pub, fr_t out[4], cuzk_error *err);

/* Witness of one challenge (values, Montgomery form). */
typedef struct {
    fr_t leaf_r_old, leaf_d_new;
    const fr_t *sib_r_old; /* merkle_shape_siblings(tree_r) values, leaf level first */
    const fr_t *sib_r_new; /* same for tree R_new */
    /* tree D_new: the cb − pb − ab siblings below the apex leaf (SHA variant), or the
     * merkle_shape_siblings(tree_r) siblings of the Poseidon tree D_new (Poseidon variant). */
    const fr_t *sib_d;
} fc_snap_challenge_witness;

/* Witness of one partition. */
typedef struct {
    fr_t comm_c, root_r_old, root_r_new;
    const fr_t *apex;           /* A apex leaves (SHA variant; NULL for Poseidon) */
    const fr_t *partition_path; /* the pb top tree-D siblings, leaf side first (SHA variant) */
    const fc_snap_challenge_witness *challenges; /* s->challenges entries */
} fc_snap_witness;

/* Synthesize the partition circuit of the shape's variant. pub and w are read only in value
 * modes (then both are required). Errors: the cs's sticky status (CUZK_E_INVALID_ARG for
 * missing values or an out-of-range k, CUZK_E_NOMEM), copied into err. */
cuzk_status fc_snap_synthesize(cs_t *cs, const fc_snap_shape *s, const fc_snap_public *pub,
                               const fc_snap_witness *w, cuzk_error *err);

/* ---- a SnapDeals request assembled from what Curio sends (docs/engine.md#inputs-per-proof-kind;
 * storage-proofs-update vanilla.rs verify) ---- */

/* All partitions of one update proof, validated and in witness form. Owns all its memory. */
typedef struct {
    const fc_snap_proof *proof;
    fc_snap_shape shape;
    fc_snap_public pub;        /* the commitments (pub.k is set per partition by the users) */
    uint32_t npartitions;      /* shape.partitions */
    fc_snap_witness *witness;  /* one per partition, pointing into the arrays below */
    fc_snap_challenge_witness *challenges;
    fr_t *values;
} fc_snap_request;

/* Assemble and validate every partition of an update proof from the parsed PartitionProofs
 * (vanilla_proofs in partition order k = 0 .. P − 1; fc_snap_partition_read with
 * u->shape and `poseidon`). comm_r_old, comm_d_new, comm_r_new are the request's raw 32-byte
 * commitments. Checks, each refusal naming partition, challenge, field and expected versus
 * actual value: every commitment canonical; exactly P partition proofs of the variant, each
 * with A apex leaves (SHA variant) and Ch challenge proofs; comm_c and every value canonical;
 * the challenges re-derived from comm_r_new and k (fc_snap_challenges /
 * fc_snap_poseidon_challenges) equal to the leaf index of all three proofs of each
 * challenge; every proof of its tree's shape with a path hashing to its root; roots: tree
 * R_old / R_new of challenge 0 for every challenge, comm_d_new for tree D_new;
 * Poseidon_2(comm_c, root_r_old) = comm_r_old and Poseidon_2(comm_c, root_r_new) =
 * comm_r_new; leaf_r_new = leaf_r_old + leaf_d_new · rho(c >> (cb − h)); SHA variant: the
 * tree-D node at the apex row equal to the apex leaf the challenge selects, the top pb path
 * siblings equal to challenge 0's (the partition path), and the apex tree root hashed up
 * the partition path equal to comm_d_new.
 * Errors: CUZK_E_FIELD_NONCANONICAL, CUZK_E_FORMAT (counts, shapes, variant),
 * CUZK_E_VERIFY_FAILED, CUZK_E_INVALID_ARG (partition count), CUZK_E_NOMEM. On error *out is
 * zeroed. The partition proofs are only read. */
cuzk_status fc_snap_request_assemble(fc_snap_request *out, const fc_snap_proof *u, bool poseidon,
                                     const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                     const uint8_t comm_r_new[32], const fc_snap_partition_proof *parts, uint32_t n,
                                     cuzk_error *err);
/* The same from the raw bincode blobs of SubmitProofRequest.vanilla_proofs (a parse error is
 * prefixed with "vanilla_proofs[k]"). */
cuzk_status fc_snap_request_from_bytes(fc_snap_request *out, const fc_snap_proof *u, bool poseidon,
                                       const uint8_t comm_r_old[32], const uint8_t comm_d_new[32],
                                       const uint8_t comm_r_new[32], const uint8_t *const *blobs, const size_t *lens,
                                       uint32_t n, cuzk_error *err);
void fc_snap_request_free(fc_snap_request *r);

/* Synthesize partition k (any cs mode) / its 4 public inputs (fc_snap_public_inputs from the
 * request's commitments and k). Both only read r, so the partitions of one request may be
 * synthesized on several threads at once (one cs each). Errors: CUZK_E_INVALID_ARG
 * (k >= partitions), synthesis errors. */
cuzk_status fc_snap_request_synthesize(cs_t *cs, const fc_snap_request *r, uint32_t k, cuzk_error *err);
cuzk_status fc_snap_request_public_inputs(const fc_snap_request *r, uint32_t k, fr_t out[4], cuzk_error *err);

#endif
