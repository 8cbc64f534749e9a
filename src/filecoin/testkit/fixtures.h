/* Synthetic fixtures of production shape without sealing (docs/fixtures.md): sparse
 * trees (sparse.h) in which only the leaves a proof touches are set, so that a C1 output, a
 * PoSt vanilla proof or SnapDeals partition proofs of a 32 / 64 GiB sector are made in
 * seconds with little memory and satisfy every relation the circuits and the reference
 * vanilla verifiers check (the checks cuzk-bench gen-vanilla runs on every output:
 * fc_c1_validate in porep/porep.h, fc_post_partition_assemble in post/post.h,
 * fc_snap_partition_check in snap_gen.h). They work for every sector size; outputs made from
 * them must be labelled as synthetic fixtures (they are not sectors anyone sealed).
 *
 *   PoRep          CC data (tree D = zero ladder, comm_d = Z_log2N); replica_id from the
 *                  inputs; the challenges of every partition (interactive proofs only: the
 *                  synthetic and non-interactive ones derive their challenges from comm_r,
 *                  docs/fixtures.md#porep); parents not challenged get columns from a PRF of
 *                  (replica_id, node, layer); challenged labels are computed layer by layer in
 *                  increasing node order from the parent columns; tree C leaves at those nodes
 *                  = P_L(column), tree R leaves at the challenges = label_L; every other leaf 0.
 *   PoSt           tree R leaves at the challenged leaves from a PRF of (sector_id, leaf), every
 *                  other 0; comm_c from a PRF of sector_id.
 *   SnapDeals      old replica 0 everywhere (tree R_old = zero ladder), new data the
 *                  constant node w, new replica w * rho(v >> bits_shr) (constant on each of the
 *                  2^h blocks), comm_c from a PRF of sector_id.
 * PRF(x) = SHA-256("cuzk synthetic fixture" ‖ x) with byte 31 &= 0x3f (a canonical Fr).
 *
 * Cost: 32 GiB C1 about 3,000 columns and 2,000 labels plus about 50,000 Poseidon hashes (a few
 * seconds); PoSt about 100 hashes per sector; SnapDeals about 7,000 Poseidon hashes. Memory:
 * a few MB. Objects are immutable after creation; views are valid while they live.
 */
#ifndef CUZK_FILECOIN_TESTKIT_FIXTURES_H
#define CUZK_FILECOIN_TESTKIT_FIXTURES_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"
#include "filecoin/testkit/c1_gen.h"
#include "filecoin/testkit/post_gen.h"
#include "filecoin/testkit/snap_gen.h"

typedef struct fc_sparse_porep fc_sparse_porep;
/* A sparse sector whose C1 for `seed` is fully determined. Errors: CUZK_E_UNSUPPORTED
 * (synthetic or non-interactive proof), CUZK_E_NOMEM. */
cuzk_status fc_sparse_porep_create(fc_sparse_porep **out, const fc_seal_proof *p, const uint8_t prover_id[32],
                                   uint64_t sector_id, const uint8_t ticket[32], const uint8_t seed[32],
                                   cuzk_error *err);
/* Free a fixture (NULL accepted); its views become invalid. The same holds for the PoSt and
 * SnapDeals fixtures below. */
void fc_sparse_porep_free(fc_sparse_porep *s);
/* The view for fc_c1_generate (only the columns of challenged nodes and their parents exist:
 * other columns are CUZK_E_INVALID_ARG). */
void fc_sparse_porep_view(const fc_sparse_porep *s, fc_porep_view *v);

typedef struct fc_sparse_post fc_sparse_post;
/* A sparse sector for PoSt proof p, randomness, partition k and position sector_pos (as in
 * fc_post_generate, which must be called with the same values). Errors: CUZK_E_NOMEM,
 * CUZK_E_FIELD_NONCANONICAL (randomness). */
cuzk_status fc_sparse_post_create(fc_sparse_post **out, const fc_post_proof *p, const uint8_t randomness[32],
                                  uint32_t k, uint32_t sector_pos, uint64_t sector_id, cuzk_error *err);
void fc_sparse_post_free(fc_sparse_post *s);
/* The view for fc_post_generate. */
void fc_sparse_post_view(const fc_sparse_post *s, fc_post_sector *v);

typedef struct fc_sparse_snap fc_sparse_snap;
/* A sparse updated sector for update proof u with new data node w (canonical). Errors:
 * CUZK_E_FIELD_NONCANONICAL (w), CUZK_E_NOMEM. */
cuzk_status fc_sparse_snap_create(fc_sparse_snap **out, const fc_snap_proof *u, uint64_t sector_id,
                                  const uint8_t w[32], cuzk_error *err);
void fc_sparse_snap_free(fc_sparse_snap *s);
/* The view for fc_snap_partition_generate (every partition). */
void fc_sparse_snap_view(const fc_sparse_snap *s, fc_snap_view *v);

#endif
