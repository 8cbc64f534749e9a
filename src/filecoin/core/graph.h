/* The SDR graph of a RegisteredSealProof: DRG (BucketGraph, degree 6) and expander
 * (StackedGraph, degree 8) parents of every node, and the parent cache file the reference
 * keeps (storage-proofs-core drgraph.rs, crypto/feistel.rs; storage-proofs-porep
 * stacked/vanilla/graph.rs, cache.rs; storage-proofs-core drgraph.rs, crypto/feistel.rs).
 *
 * DRG: ChaCha8 keyed with drg_seed[28] || u32_le(node), bucket sampling with m' = 5;
 * API 1.0.0 puts the predecessor last, API 1.1.0+ first. Expander: a 3-round Feistel
 * permutation (BLAKE2b-512 round function, keys from SHA-256("Filecoin_Feistel" ||
 * porep_id)) over N * 8 with cycle walking; API 1.0.0 truncates the permuted value to 32
 * bits before dividing by 8.
 *
 * An fc_graph is plain immutable data after fc_graph_init: thread-safe to share. The
 * plain per-node calls hash with BLAKE2b-512 through a per-thread libcrypto context made on
 * first use and freed when the thread exits; bulk work (caches, labelling) tabulates the
 * round function once per graph (fc_feistel_table) and hashes nothing per node.
 */
#ifndef CUZK_FILECOIN_CORE_GRAPH_H
#define CUZK_FILECOIN_CORE_GRAPH_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/registry.h"

#define FC_GRAPH_DRG_PARENTS 6
#define FC_GRAPH_EXP_PARENTS 8
#define FC_GRAPH_PARENTS 14 /* 6 DRG then 8 expander */

typedef struct {
    uint64_t nodes;
    fc_api_version api;
    uint8_t drg_seed[28];        /* SHA-256("Filecoin_DRSample" || porep_id)[0..28) */
    uint64_t feistel_keys[4];    /* SHA-256("Filecoin_Feistel" || porep_id) as 4 u64 LE */
    uint8_t porep_id[32];
    /* Feistel geometry for the domain nodes * 8: half width hb (smallest k >= 1 with
     * 4^k >= nodes * 8), right mask 2^hb - 1, left mask right mask << hb. */
    unsigned feistel_half_bits;
    uint64_t feistel_right_mask, feistel_left_mask;
} fc_graph;

/* Graph of a registered seal proof: nodes = p->shape->nodes, api = p->api, seeds from
 * p->porep_id. Errors: CUZK_E_INVALID_ARG for NULL. */
cuzk_status fc_graph_init(fc_graph *g, const fc_seal_proof *p, cuzk_error *err);
/* Graph for an arbitrary node count and porep_id (test sizes such as 2^3 or 2^7 nodes).
 * Errors: CUZK_E_INVALID_ARG (NULL, nodes < 2, nodes > 2^32 or not a power of two). */
cuzk_status fc_graph_init_custom(fc_graph *g, uint64_t nodes, fc_api_version api, const uint8_t porep_id[32],
                                 cuzk_error *err);

/* Parents of `node` (< nodes), in graph order. DRG parents are < node for node >= 1 (all 0
 * for nodes 0 and 1); expander parents are any node. Thread-safe. The expander (and the
 * combined) call uses this thread's BLAKE2b context, made on first use; if libcrypto cannot
 * make one (out of memory) the process stops with a message on stderr: callers that must
 * survive that use the fc_feistel_table forms below. */
void fc_graph_drg_parents(const fc_graph *g, uint64_t node, uint32_t out[6]);
void fc_graph_exp_parents(const fc_graph *g, uint64_t node, uint32_t out[8]);
/* All 14: DRG then expander (the cache row). */
void fc_graph_parents(const fc_graph *g, uint64_t node, uint32_t out[FC_GRAPH_PARENTS]);

/* The Feistel round function of g tabulated: F(R, key_k) for every right half R < 2^hb
 * and the three round keys (3 * 2^hb u32 values: 1.5 MiB at hb = 17, the 32 / 64 GiB
 * graphs; 3 * 2^hb BLAKE2b-512 calls to build, e.g. 6,144 for 8 MiB). Every round input
 * is a right half, so with the table the expander parents need no hashing: this is the
 * fast path for bulk work. Read-only after fc_feistel_table_init, so one table can be
 * shared by any number of threads. Errors: CUZK_E_INVALID_ARG (NULL), CUZK_E_NOMEM,
 * CUZK_E_INTERNAL (libcrypto has no BLAKE2B-512). fc_feistel_table_free releases it (a
 * zeroed or freed table is a no-op). */
typedef struct {
    unsigned half_bits;
    uint32_t *round; /* round[k << half_bits | R] = F(R, feistel_keys[k]), k < 3 */
} fc_feistel_table;
cuzk_status fc_feistel_table_init(fc_feistel_table *t, const fc_graph *g, cuzk_error *err);
void fc_feistel_table_free(fc_feistel_table *t);

/* The same parents through t, which must have been made from g (or an identical graph). */
void fc_graph_exp_parents_t(const fc_graph *g, const fc_feistel_table *t, uint64_t node, uint32_t out[8]);
void fc_graph_parents_t(const fc_graph *g, const fc_feistel_table *t, uint64_t node,
                        uint32_t out[FC_GRAPH_PARENTS]);

/* Parent cache file name "v28-sdr-parent-<hex>.cache" (FC_PARENT_CACHE_NAME_MAX bytes),
 * <hex> = SHA-256("poseidon_hasher" || StackedGraph identifier string || the four Feistel
 * keys as u64 LE || u32_le(nodes)) (storage-proofs-porep cache.rs). The name
 * depends only on g (node count and porep_id); p, the seal proof g was made from, is not
 * read and may be NULL. */
#define FC_PARENT_CACHE_NAME_MAX 96
void fc_graph_cache_name(const fc_graph *g, const fc_seal_proof *p, char out[FC_PARENT_CACHE_NAME_MAX]);

/* Bytes of the parent cache of g: nodes * 56. */
uint64_t fc_graph_cache_bytes(const fc_graph *g);

/* Stream the parent cache (56 bytes per node: 14 parents as u32 LE) for nodes
 * [0, nodes) in order to `sink` in chunks, using `threads` threads (>= 1) to compute
 * parents; sink returns 0 or an errno. Computes the SHA-256 of the whole stream into
 * sha256 (may be NULL). progress (may be NULL) is called with nodes done so far.
 * sink (may be NULL: only hashed) and progress are called from the calling thread, in node
 * order, with the same ctx; the parents come from `threads` worker threads through a
 * fc_feistel_table. Memory: the table plus threads * 2 chunks of 16,384 nodes (0.9 MiB
 * each). Errors: CUZK_E_INVALID_ARG (NULL g, threads 0), CUZK_E_IO (sink errno, naming the
 * first node of the refused chunk), CUZK_E_NOMEM, CUZK_E_INTERNAL (libcrypto, threads). */
cuzk_status fc_graph_cache_stream(const fc_graph *g, unsigned threads,
                                  int (*sink)(void *ctx, const uint8_t *buf, size_t len), void *ctx,
                                  uint8_t sha256[32], void (*progress)(void *ctx, uint64_t done),
                                  cuzk_error *err);

/* Fill an in-memory parent cache: out[14 * v + i] = parent i of node v (host-order u32;
 * on little-endian hosts the bytes equal the cache file), nodes * 14 entries
 * (fc_graph_cache_bytes bytes), using `threads` threads (>= 1). Errors: CUZK_E_INVALID_ARG
 * (threads 0, NULL out), CUZK_E_NOMEM, CUZK_E_INTERNAL (libcrypto). */
cuzk_status fc_graph_cache_fill(const fc_graph *g, unsigned threads, uint32_t *out, cuzk_error *err);

/* Published SHA-256 digest of the cache of seal proof `id` (hex), NULL when the manifest
 * has none (API 1.2.0 ids 10-19, or id >= 20) (storage-proofs-porep parent_cache.json;
 * storage-proofs-porep parent_cache.json). */
const char *fc_graph_cache_digest(unsigned seal_proof_id);

#endif
