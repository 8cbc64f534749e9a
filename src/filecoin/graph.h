/* The SDR graph of a RegisteredSealProof: DRG (BucketGraph, degree 6) and expander
 * (StackedGraph, degree 8) parents of every node, and the parent cache file the reference
 * keeps (storage-proofs-core drgraph.rs, crypto/feistel.rs; storage-proofs-porep
 * stacked/vanilla/graph.rs, cache.rs; filecoin-circuits.md §6.7, filecoin-vanilla.md §3.1).
 *
 * DRG: ChaCha8 keyed with drg_seed[28] || u32_le(node), bucket sampling with m' = 5;
 * API 1.0.0 puts the predecessor last, API 1.1.0+ first. Expander: a 3-round Feistel
 * permutation (BLAKE2b-512 round function, keys from SHA-256("Filecoin_Feistel" ||
 * porep_id)) over N * 8 with cycle walking; API 1.0.0 truncates the permuted value to 32
 * bits before dividing by 8.
 *
 * An fc_graph is plain immutable data after fc_graph_init: thread-safe to share.
 */
#ifndef CUZK_FILECOIN_GRAPH_H
#define CUZK_FILECOIN_GRAPH_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/registry.h"

#define FC_GRAPH_PARENTS 14 /* 6 DRG then 8 expander */

typedef struct {
    uint64_t nodes;
    fc_api_version api;
    uint8_t drg_seed[28];        /* SHA-256("Filecoin_DRSample" || porep_id)[0..28) */
    uint64_t feistel_keys[4];    /* SHA-256("Filecoin_Feistel" || porep_id) as 4 u64 LE */
    uint8_t porep_id[32];
} fc_graph;

/* Graph of a registered seal proof. Errors: none beyond CUZK_E_INVALID_ARG for NULL. */
cuzk_status fc_graph_init(fc_graph *g, const fc_seal_proof *p, cuzk_error *err);
/* Graph for an arbitrary node count and porep_id (test sizes such as 2^3 or 2^7 nodes).
 * Errors: CUZK_E_INVALID_ARG (nodes < 2 or not a power of two). */
cuzk_status fc_graph_init_custom(fc_graph *g, uint64_t nodes, fc_api_version api, const uint8_t porep_id[32],
                                 cuzk_error *err);

/* Parents of `node` (< nodes), in graph order. */
void fc_graph_drg_parents(const fc_graph *g, uint64_t node, uint32_t out[6]);
void fc_graph_exp_parents(const fc_graph *g, uint64_t node, uint32_t out[8]);
/* All 14: DRG then expander (the cache row). */
void fc_graph_parents(const fc_graph *g, uint64_t node, uint32_t out[FC_GRAPH_PARENTS]);

/* Parent cache file name "v28-sdr-parent-<hex>.cache" (FC_PARENT_CACHE_NAME_MAX bytes). */
#define FC_PARENT_CACHE_NAME_MAX 96
void fc_graph_cache_name(const fc_graph *g, const fc_seal_proof *p, char out[FC_PARENT_CACHE_NAME_MAX]);

/* Stream the parent cache (56 bytes per node: 14 parents as u32 LE) for nodes
 * [0, nodes) in order to `sink` in chunks, using `threads` threads (>= 1) to compute
 * parents; sink returns 0 or an errno. Computes the SHA-256 of the whole stream into
 * sha256 (may be NULL). progress (may be NULL) is called with nodes done so far.
 * Errors: CUZK_E_IO (sink errno), CUZK_E_NOMEM. */
cuzk_status fc_graph_cache_stream(const fc_graph *g, unsigned threads,
                                  int (*sink)(void *ctx, const uint8_t *buf, size_t len), void *ctx,
                                  uint8_t sha256[32], void (*progress)(void *ctx, uint64_t done),
                                  cuzk_error *err);

/* Published SHA-256 digest of the cache of seal proof `id` (hex), NULL when the manifest
 * has none (API 1.2.0 ids). */
const char *fc_graph_cache_digest(unsigned seal_proof_id);

#endif
