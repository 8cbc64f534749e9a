/* Gadgets of the EmptySectorUpdate (SnapDeals) circuits, in storage-proofs-update's
 * allocation and constraint order (storage-proofs-update src/gadgets.rs). They are
 * specific to those circuits, hence here rather than in src/gadgets/.
 *
 * The randomness hashes (phi, rho, challenge digests) are the legacy Poseidon circuit of
 * arity 2 with the domain tag Custom(1) = 2^40 (constants.rs HASH_TYPE_GEN_RANDOMNESS).
 * Every function reports failures through the cs's sticky status; not thread-safe on one cs.
 */
#ifndef CUZK_FILECOIN_SNAP_SNAP_GADGETS_H
#define CUZK_FILECOIN_SNAP_SNAP_GADGETS_H

#include "filecoin/snap/snap.h"
#include "gadgets/num.h"

/* Largest path handled (siblings of one Merkle path: 71 for a 64 GiB tree R, 31 for its
 * tree D). */
#define SNAP_MAX_SIBLINGS 128

/* Poseidon_2 with the Custom(1) tag over (a, b): phi = H(comm_d_new, comm_r_old),
 * rho = H(phi, c_high), digest_j = H(comm_r_new, digest_index). 311 constraints. */
anum snap_hash_randomness(cs_t *cs, const anum *a, const anum *b);

/* Allocate the n low bits of x (LSB first, AllocatedBit each) and enforce
 * `(Σ 2^i b_i) · ONE = x`: n + 1 constraints. With n = 255 this is
 * allocated_num_to_allocated_bits (gadgets.rs); with n = pb + 6 the k_and_h_select
 * decomposition (circuit.rs), n = 6 the h_select one (poseidon/circuit.rs). n <= 255. */
void snap_alloc_bits_le(cs_t *cs, const anum *x, unsigned n, gbool *out);

/* apex_por: hash the A = 2^ab apex leaves pairwise into their apex-tree root (A − 1 SHA-256
 * hash2 in row order, left to right), then por_no_challenge_input over the pb-level binary
 * SHA-256 tree with the partition bits and the pb partition-path siblings up to comm_d.
 * Constraints: (A − 1)·45,379 + pb·45,381 + 1 (317,654 for A = 8, pb = 0). */
void snap_apex_por(cs_t *cs, const anum *apex, unsigned ab, const gbool *partition_bits, unsigned pb,
                   const anum *partition_path, const anum *comm_d);

/* gen_challenge_bits: per_digest = 254 / bits_per_challenge challenges per digest,
 * D = ceil(challenges / per_digest) digests; digest j: digest_index = alloc(k·D + j) with
 * `(D·partition + j·ONE) · ONE = digest_index`, digest = H(comm_r_new, digest_index), its 255
 * bits by snap_alloc_bits_le; challenge i takes the consecutive bits_per_challenge-bit chunk
 * (LSB first). 568 constraints per digest. out receives challenges · bits_per_challenge
 * bits (challenge i at out + i·bits_per_challenge). 1 <= bits_per_challenge <= 254. */
void snap_gen_challenge_bits(cs_t *cs, const anum *comm_r_new, const anum *partition, unsigned challenges,
                             unsigned bits_per_challenge, gbool *out);

/* get_challenge_high_bits: for each of the 6 h in hs: c_high = pack_bits(the h most
 * significant of the nbits challenge bits), c_high_or_zero with `c_high · h_select_bit =
 * c_high_or_zero`; then c_high_selected with `(Σ c_high_or_zero) · ONE = selected`.
 * 13 constraints. hs[i] <= nbits. */
anum snap_challenge_high(cs_t *cs, const gbool *c_bits, unsigned nbits, const gbool h_select_bits[6],
                         const unsigned hs[6]);

/* label_r_new: t = leaf_d_new · rho (`leaf_d_new · rho = t`), leaf_r_new with
 * `(leaf_r_old + t) · ONE = leaf_r_new`. 2 constraints. */
anum snap_label_r_new(cs_t *cs, const anum *leaf_r_old, const anum *leaf_d_new, const anum *rho);

/* Allocate n numbers from values[0..n) (values NULL in modes without values). */
void snap_alloc_nums(cs_t *cs, const fr_t *values, unsigned n, anum *out);

/* The part of one challenge both variants share (circuit.rs and poseidon/circuit.rs, loop
 * body): c_high and rho = H(phi, c_high), leaf_r_old and leaf_d_new allocated, leaf_r_new =
 * label_r_new, the tree R_old siblings allocated and por_no_challenge_input to root_r_old,
 * the tree R_new siblings and por_no_challenge_input to root_r_new. c_bits: the cb
 * challenge bits, LSB first. w: NULL in modes without values. Returns leaf_d_new, which
 * the caller proves in tree D_new. */
anum snap_challenge_trees_r(cs_t *cs, const fc_snap_shape *s, const gbool *c_bits, const gbool h_select_bits[6],
                            const anum *phi, const anum *root_r_old, const anum *root_r_new,
                            const fc_snap_challenge_witness *w);

/* ---- pieces shared by the two circuit files (snap.c, snap_poseidon.c) ---- */

/* AllocatedNum::alloc then inputize (1 aux, 1 input, 1 constraint). */
anum snap_alloc_input(cs_t *cs, const fr_t *v);

/* The commitments both variants allocate after their first public input (circuit.rs steps
 * 2-4): comm_r_old, comm_d_new, comm_r_new allocated and inputized, phi = H(comm_d_new,
 * comm_r_old), then comm_c, root_r_old, root_r_new allocated. pub / w NULL in modes
 * without values. */
typedef struct {
    anum comm_r_old, comm_d_new, comm_r_new, phi, comm_c, root_r_old, root_r_new;
} snap_commitments;
void snap_commitments_alloc(cs_t *cs, const fc_snap_public *pub, const fc_snap_witness *w, snap_commitments *c);

/* comm_r_old_calc = Poseidon_2(comm_c, root_r_old) with `calc · ONE = comm_r_old`, then the
 * same for root_r_new / comm_r_new (the SHA variant allocates its apex leaves and partition
 * path between snap_commitments_alloc and this). */
void snap_commitments_check(cs_t *cs, const snap_commitments *c);

/* The EmptySectorUpdate-Poseidon circuit body (snap_poseidon.c), called by
 * fc_snap_synthesize after its argument checks; returns the cs status. */
cuzk_status snap_poseidon_synthesize(cs_t *cs, const fc_snap_shape *s, const fc_snap_public *pub,
                                     const fc_snap_witness *w);

#endif
