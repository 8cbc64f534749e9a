/* Sealing a whole small sector (2 KiB, 8 MiB, 512 MiB) bit-exactly as rust-fil-proofs does
 * (storage-proofs-porep stacked/vanilla/proof.rs
 * transform_and_replicate_layers, filecoin-proofs api/seal.rs):
 *
 *   1. tree D over the Fr32-padded data (zero nodes for a CC sector) -> comm_d
 *   2. replica_id = sha254(prover_id ‖ u64_be(sector_id) ‖ ticket ‖ comm_d ‖ porep_id)
 *   3. SDR labels of layers 1..L over the proof's graph (sdr.h)
 *   4. tree C over the column hashes P_L(label_1(v) .. label_L(v)) -> comm_c
 *   5. replica(v) = data(v) + label_L(v) mod r; tree R_last over the replica -> comm_r_last
 *   6. comm_r = P_2(comm_c, comm_r_last)
 *
 * State: tree D (its leaves are the unsealed data), the L label layers, tree C and tree R_last
 * (its leaves are the sealed replica) stay in the fc_sector for C1, PoSt and SnapDeals, in
 * memory or in anonymous temporary files (see store.h).
 *
 * Memory: in memory, about (2 + L + 2.3) * N * 32 bytes (8 MiB: 53 MiB; 512 MiB: 3.4 GiB).
 * With a directory, RSS peaks during labelling at two label buffers (2 * N * 32 bytes: 1 GiB
 * for 512 MiB) plus about 1 MiB per thread elsewhere, and the state takes
 * (2 + L + 2.3) * N * 32 bytes of disk (3.4 GB for 512 MiB). Threads: tree building, column hashing and encoding
 * use `threads` threads; labelling is sequential within a layer (sdr.h: one labelling thread
 * and one thread computing graph parents ahead).
 */
#ifndef CUZK_FILECOIN_TESTKIT_SEAL_H
#define CUZK_FILECOIN_TESTKIT_SEAL_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/seal/store.h"
#include "filecoin/core/seal/tree.h"
#include "filecoin/testkit/c1_gen.h"
#include "filecoin/testkit/post_gen.h"

#define FC_MAX_LAYERS 11

typedef struct {
    const fc_seal_proof *proof; /* registered seal proof (graph, porep_id, size) */
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32];
    /* Unpadded user data, Fr32-padded into the sector from node 0 and zero-filled after it:
     * either data[0..data_len) or the file data_path; neither = a CC (all-zero) sector. At
     * most fc_fr32_unpadded_capacity(nodes) bytes. */
    const uint8_t *data;
    uint64_t data_len;
    const char *data_path;
    const char *dir;  /* NULL: state in memory; else temporary files in this directory */
    unsigned threads; /* >= 1 */
    /* Called after each phase ("tree D", "labels", "tree C", "tree R") with its duration in
     * seconds; may be NULL. */
    void (*progress)(void *ctx, const char *phase, double seconds);
    void *progress_ctx;
} fc_seal_params;

typedef struct {
    const fc_seal_proof *proof;
    unsigned layers;
    uint8_t prover_id[32];
    uint64_t sector_id;
    uint8_t ticket[32];
    uint8_t replica_id[32], comm_d[32], comm_c[32], comm_r_last[32], comm_r[32];
    fc_full_tree tree_d;              /* leaves: the unsealed sector */
    fc_store layer[FC_MAX_LAYERS];    /* labels of layer l + 1, N * 32 bytes each */
    fc_full_tree tree_c;              /* leaves: column hashes */
    fc_full_tree tree_r;              /* leaves: the sealed replica */
} fc_sector;

/* Seal a sector. Only the 2 KiB, 8 MiB and 512 MiB proofs are accepted (32 / 64 GiB take
 * hundreds of GB; use the sparse fixtures of fixtures.h). On error *s is freed. Errors:
 * CUZK_E_UNSUPPORTED (size), CUZK_E_INVALID_ARG (data longer than the sector capacity),
 * CUZK_E_IO (data file, temporary files), CUZK_E_NOMEM. */
cuzk_status fc_seal(fc_sector *s, const fc_seal_params *p, cuzk_error *err);
/* Release the trees and layers (memory, or the temporary files). A freed or zeroed sector
 * is accepted. */
void fc_sector_free(fc_sector *s);

/* The labels of node (rows[l] = layer l + 1, s->layers rows). Errors: CUZK_E_INVALID_ARG
 * (node out of range), CUZK_E_IO. Thread-safe. */
cuzk_status fc_sector_column(const fc_sector *s, uint64_t node, uint8_t (*rows)[32], cuzk_error *err);
/* The C1 and PoSt views of the sector (valid while s lives). */
void fc_sector_porep_view(const fc_sector *s, fc_porep_view *v);
void fc_sector_post_view(const fc_sector *s, fc_post_sector *v);

/* Fr32-pad unpadded user data (data[0..len), or the file path when path is not NULL) into the
 * leaves of a tree D from leaf 0; later leaves are left as they are (zero in a new tree).
 * Reads in chunks of 127 KiB. Errors: CUZK_E_INVALID_ARG (more bytes than
 * fc_fr32_unpadded_capacity(leaves)), CUZK_E_IO (the file, naming it and the offset). */
cuzk_status fc_tree_d_put_data(fc_full_tree *tree_d, const uint8_t *data, uint64_t len, const char *path,
                               cuzk_error *err);

#endif
