/* Self-checks of vanilla proofs (filecoin-vanilla.md §11.5, §7.3, §8.9, §9.7): everything the
 * reference vanilla verifiers and the circuits tie together, re-derived from public data.
 * The generators run them on what they make (and a daemon may run them on what it receives).
 *
 *   C1      replica_id from prover_id, sector_id, ticket, comm_d and porep_id (when the output
 *           carries the sector); comm_r = P_2(comm_c, comm_r_last) with the roots of the first
 *           proof; per challenge (re-derived for the proof's feature): every inclusion proof
 *           has the sector's shape, the challenged / parent node as index, the common root
 *           and a valid path; column leaves = P_L(rows); labels recomputed from the parent
 *           columns equal c_x's rows; labeling / encoding proofs equal the slots of the
 *           columns; replica leaf = label_L + data leaf (mod r).
 *   PoSt    comm_r = P_2(comm_c, comm_r_last); per challenge the leaf re-derived from
 *           randomness, sector id and challenge index is the path's node, root = comm_r_last,
 *           valid path of the tree R shape.
 *   Snap    shapes and counts; comm_r_old / comm_r_new = P_2(comm_c, roots); per re-derived
 *           challenge: three paths with that node and valid roots (tree D_new root comm_d_new),
 *           leaf_r_new = leaf_r_old + leaf_d_new * rho(c >> bits_shr); the tree D path meets
 *           partition k's apex leaves and the apex tree built from them.
 *
 * Errors: CUZK_E_VERIFY_FAILED with a message naming the partition, challenge and field;
 * CUZK_E_FIELD_NONCANONICAL; CUZK_E_NOMEM. Thread-safety: read-only on their arguments.
 */
#ifndef CUZK_FILECOIN_SEAL_SELFCHECK_H
#define CUZK_FILECOIN_SEAL_SELFCHECK_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/registry.h"
#include "filecoin/vanilla.h"

cuzk_status fc_c1_selfcheck(const fc_c1_output *c1, cuzk_error *err);

/* v is the proof of the sector at position sector_pos of partition k (they enter the
 * challenges of API 1.0 WindowPoSt only; WinningPoSt ignores them). */
cuzk_status fc_post_selfcheck(const fc_post_proof *p, const uint8_t randomness[32], uint32_t k, uint32_t sector_pos,
                              const fc_post_vanilla *v, cuzk_error *err);

cuzk_status fc_snap_selfcheck(const fc_update_proof *u, uint32_t k, const uint8_t comm_r_old[32],
                              const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
                              const fc_snap_partition_proof *pp, cuzk_error *err);

#endif
