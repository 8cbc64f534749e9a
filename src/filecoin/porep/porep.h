/* The StackedDrg PoRep partition circuit, its public inputs and the semantic validation of
 * a C1 output (SealCommitPhase1Output) before any synthesis.
 *
 * Sources: storage-proofs-porep
 * stacked/circuit/{proof.rs, params.rs, create_label.rs, column.rs, column_proof.rs,
 * hash.rs}, storage-proofs-core gadgets/por.rs, StackedCompound::generate_public_inputs),
 * stacked/vanilla/{challenges,graph}.rs (challenges and graph parents),
 * docs/formats.md#c1-output-json (C1 consistency), docs/circuits.md (counts).
 *
 * Circuit of partition k (allocation and constraint order exactly as the reference):
 *   replica_id (aux, inputized, to_bits_le -> reverse_bit_numbering, shared by every label),
 *   comm_d (aux, inputized), comm_r (aux, inputized), comm_r_last, comm_c (aux),
 *   comm_r = Poseidon_2(comm_c, comm_r_last); then per challenge i = 0 .. C-1:
 *   data_leaf; PoR tree D (SHA-256 binary, depth log2 nodes, private root comm_d);
 *   6 DRG then 8 expander parent columns (L rows each, Poseidon_L column hash, PoR tree C
 *   to comm_c); challenge UInt64 packed into one input; labels of layers 1 .. L
 *   (create_label over the 37 parent slots); encoded = label_L + data_leaf; PoR tree R
 *   to comm_r_last; column hash of the labels and PoR tree C to comm_c.
 *   Public inputs (ONE excluded): replica_id, comm_d, comm_r, then per challenge c:
 *   c, the 6 DRG parents, the 8 expander parents, c, c, c: 3 + 18 C values.
 *
 * Thread-safety: every function touches only its arguments (a cs is single-threaded);
 * distinct calls may run concurrently on distinct cs. The C1 is read, never modified.
 */
#ifndef CUZK_FILECOIN_POREP_POREP_H
#define CUZK_FILECOIN_POREP_POREP_H

#include <stddef.h>
#include <stdint.h>

#include "cs/cs.h"
#include "filecoin/core/registry.h"
#include "filecoin/porep/vanilla.h"
#include "gadgets/merkle.h"

/* Public inputs of one challenge and of the partition header (replica_id, comm_d, comm_r). */
#define FC_POREP_INPUTS_PER_CHALLENGE 18u
#define FC_POREP_HEADER_INPUTS 3u
/* Upper bound on challenges per partition accepted by the circuit (production uses 2 and
 * 18, the reference caps it at 18; custom test circuits may use up to this many). */
#define FC_POREP_MAX_CHALLENGES 1024u

/* Shape of a StackedDrg partition circuit. Tree D is the SHA-256 binary tree of depth
 * log2(nodes); trees R and C share `tree_rc` (Poseidon; leaves must equal nodes). layers is
 * 2 or 11 (the reference's column hash exists only for those: Poseidon_2 / Poseidon_11). */
typedef struct {
    uint64_t nodes;       /* power of two, 2 .. 2^32 */
    unsigned layers;      /* 2 or 11 */
    unsigned challenges;  /* per partition, 1 .. FC_POREP_MAX_CHALLENGES */
    merkle_shape tree_rc; /* hasher MERKLE_POSEIDON */
} fc_porep_circuit_params;

/* The circuit of a registered seal proof: nodes, layers and tree shape of its sector,
 * challenges_per_partition. Every proof id of one sector size gives the same circuit. */
void fc_porep_circuit_params_of(const fc_seal_proof *p, fc_porep_circuit_params *out);

/* Check a (possibly custom) shape. Errors: CUZK_E_INVALID_ARG naming the bad field. */
cuzk_status fc_porep_circuit_params_check(const fc_porep_circuit_params *cp, cuzk_error *err);

/* Number of public inputs without ONE: 3 + 18 * challenges. */
size_t fc_porep_public_input_count(const fc_porep_circuit_params *cp);

/* Parent columns per challenge: 6 DRG, then 8 expander. */
#define FC_POREP_PARENTS (FC_DRG_PARENTS + FC_EXP_PARENTS)

/* Whether partition `partition` of `c1` has the shape of circuit `cp` (what synthesis needs
 * to read its values safely): the C1's challenges per partition equal cp's, the partition
 * exists, every tree D path is binary of depth log2 nodes, every tree R / tree C path has
 * cp's tree shape, every column has `layers` rows, and labeling_proofs is not empty.
 * Errors: CUZK_E_INVALID_ARG naming the field by its C1 JSON path. */
cuzk_status fc_porep_c1_check_shape(const fc_porep_circuit_params *cp, const fc_c1_output *c1, uint32_t partition,
                                    cuzk_error *err);

/* Synthesize partition `partition` of the circuit `cp` into `cs` (any mode). In the value
 * modes (CS_WITNESS, CS_CHECK, CS_PROVE) the witness comes from `c1` as
 * StackedCompound::circuit takes it:
 * partition k uses c1->proofs[k * C .. k * C + C); comm_r_last and comm_c are the roots of
 * that partition's first comm_r_last_proof and c_x inclusion proof; the challenge is
 * labeling_proofs[0].node; the other labeling / encoding data and the tree C / tree R leaf
 * values are not read (the circuit recomputes them). In CS_SHAPE and CS_RECORD `c1` may be
 * NULL (it is ignored). The C1 must have the circuit's shape (fc_porep_c1_check_shape, run
 * here); its semantic consistency is not checked here — an inconsistent C1 synthesizes
 * into an unsatisfied circuit (CS_CHECK names the first failing constraint by the
 * reference's namespaces, e.g. "challenge_1/drg_parent_3_inclusion/equal").
 * Cost: no heap allocation per constraint (one context per call; the gadgets' per-hash
 * buffers); values are converted from the C1 as they are allocated.
 * Errors: CUZK_E_INVALID_ARG (params, partition out of range, c1 missing or of another
 * shape), CUZK_E_FIELD_NONCANONICAL (a value >= r, named by its C1 path), CUZK_E_NOMEM, and
 * the cs's sticky error, whose message is copied into err. */
cuzk_status fc_porep_synthesize(cs_t *cs, const fc_porep_circuit_params *cp, const fc_c1_output *c1,
                                uint32_t partition, cuzk_error *err);

/* The public inputs of partition `partition` (StackedCompound::generate_public_inputs), ONE
 * excluded, derived only from the C1's replica_id, comm_d, comm_r and seed, the registered
 * proof's graph (graph.h) and its challenge rule (challenges.h: interactive from seed,
 * non-interactive from comm_r, synthetic from both) — never from the vanilla proofs. out must
 * hold cap >= 3 + 18 C values (Montgomery Fr); *n receives the count.
 * Errors: CUZK_E_INVALID_ARG (no registered proof, partition out of range, cap too small),
 * CUZK_E_FIELD_NONCANONICAL (replica_id / comm_d / comm_r >= r), challenge derivation
 * errors. */
cuzk_status fc_porep_public_inputs(const fc_c1_output *c1, uint32_t partition, fr_t *out, size_t cap, size_t *n,
                                   cuzk_error *err);

/* The challenged nodes of partition `partition` (out_challenges: C values, derivation order)
 * and their 14 parents (6 DRG then 8 expander, graph order), for the C1's registered proof.
 * out_parents may be NULL. Errors as fc_porep_public_inputs. */
cuzk_status fc_porep_partition_nodes(const fc_c1_output *c1, uint32_t partition, uint64_t *out_challenges,
                                     uint32_t (*out_parents)[FC_POREP_PARENTS], cuzk_error *err);

/* Semantic validation of a parsed C1 before any synthesis (docs/formats.md#c1-output-json,
 * docs/engine.md#inputs-per-proof-kind): a registered proof is set; every
 * 32-byte field element is canonical; comm_d, comm_r and seed are not all zero; the proof
 * count is partitions x challenges of the registered proof; replica_id is the one
 * prover_id, sector_id, ticket, comm_d and porep_id give (when the C1 carries prover and
 * sector); per challenge (nodes from replica_id, seed / comm_r, the graph and the challenge
 * rule): every path has its tree's shape and hashes to its root, comm_d proof roots equal
 * comm_d, every comm_r_last root and every column root equals the first proof's, and
 * Poseidon_2(comm_c, comm_r_last) = comm_r; each path's index is the challenge or the
 * parent, each column.index is that node number, each column hashes to its tree-C leaf,
 * the labels c_x.rows recompute from the parent columns (create_label), the tree-R leaf is
 * label_L + data leaf, and the labeling / encoding proofs are the challenge's (layer, node,
 * the 37 parent slots taken from the columns).
 * Errors: CUZK_E_VERIFY_FAILED (inconsistent: message names the field as a JSON path such
 * as "vanilla_proofs[0][1].replica_column_proofs.drg_parents[3].column.index" with the
 * expected and the actual value), CUZK_E_FIELD_NONCANONICAL (value named likewise),
 * CUZK_E_INVALID_ARG (counts or shapes), CUZK_E_INTERNAL (libcrypto). */
cuzk_status fc_c1_validate(const fc_c1_output *c1, cuzk_error *err);

#endif
