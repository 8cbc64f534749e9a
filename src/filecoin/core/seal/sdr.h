/* SDR labelling (stacked DRG): the labels of every node of every layer of a sector
 * (storage-proofs-porep stacked/vanilla/create_label/
 * {single,multi}.rs, graph.rs copy_parents_data, proof.rs TOTAL_PARENTS = 37).
 *
 * label(l, v) for layer l in 1..L and node v in 0..N-1 is SHA-256 of replica_id || u32_be(l)
 * || u64_be(v) || 20 zero bytes || 37 parent slots S (the slots only for v > 0), with byte 31
 * &= 0x3f. The slots repeat a base list E: layer 1: E = the labels of the 6 DRG parents (same
 * layer); layer >= 2: E = the 6 DRG parents' labels in this layer, then the 8 expander
 * parents' labels in layer l - 1; S[k] = E[k mod |E|]. The hash is create_label_native
 * (gadgets/create_label.h).
 *
 * Layout: a layer is N labels of 32 bytes, node v at byte 32 v (the reference's
 * sc-02-data-layer-<l>.dat). Labels inside a layer are sequential (DRG parents precede the
 * node), so one layer runs on one thread; without a parent cache the graph parents are
 * computed ahead on a second thread.
 *
 * Parents come either from a parent cache (N * 14 host-order u32: fc_graph_cache_fill, or the
 * v28-sdr-parent-*.cache file mapped on a little-endian host; 56 bytes per node, 14.7 MB for
 * 8 MiB, 940 MB for 512 MiB) or, when the cache is NULL, from the graph itself, recomputed for
 * every layer (about 3 M nodes/s per thread, faster than labelling).
 *
 * Thread-safety: every function works on caller-owned buffers; calls on distinct buffers may
 * run concurrently.
 */
#ifndef CUZK_FILECOIN_CORE_SEAL_SDR_H
#define CUZK_FILECOIN_CORE_SEAL_SDR_H

#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/graph.h"
#include "gadgets/create_label.h"

/* The 37 slots S of a node of `layer` (>= 1) from its base list e: e[0..6) the DRG parents'
 * labels in this layer, e[6..14) the expander parents' labels in layer - 1 (not read for
 * layer 1). */
void fc_sdr_slots(uint32_t layer, const uint8_t e[FC_GRAPH_PARENTS][32], uint8_t slots[LABEL_PARENTS][32]);

/* label(layer, node) from its slots (not read for node 0, may then be NULL). */
void fc_sdr_label(const uint8_t replica_id[32], uint32_t layer, uint64_t node, const uint8_t slots[LABEL_PARENTS][32],
                  uint8_t out[32]);

/* All N labels of `layer` into out (N * 32 bytes). prev: the labels of layer - 1 (N * 32
 * bytes), required for layer >= 2, not read for layer 1; it must not overlap out. cache: the
 * parent cache of g or NULL (see above). Errors: CUZK_E_INVALID_ARG (NULL g / replica_id /
 * out, layer 0, missing prev, out overlapping prev), CUZK_E_FORMAT (a cache entry out of
 * range: a parent >= N or a DRG parent not before its node, named with the node),
 * CUZK_E_NOMEM, CUZK_E_INTERNAL (libcrypto or threads, from the parent computation). */
cuzk_status fc_sdr_layer(const fc_graph *g, const uint32_t *cache, const uint8_t replica_id[32], uint32_t layer,
                         const uint8_t *prev, uint8_t *out, cuzk_error *err);

/* Called after each layer with its labels (N * 32 bytes, valid until the buffer is reused);
 * a non-OK status stops the labelling and is returned. */
typedef cuzk_status (*fc_sdr_layer_done)(void *ctx, uint32_t layer, const uint8_t *labels, cuzk_error *err);

/* Layers 1..layers: layer l into out[l - 1] (each N * 32 bytes), then done(ctx, l, out[l - 1])
 * if done is not NULL. out[l] must not overlap out[l - 1], but may be out[l - 2]: two buffers
 * used in turn label a sector of any layer count in 2 * N * 32 bytes when done stores each
 * layer (e.g. into an fc_store). Errors: as fc_sdr_layer, CUZK_E_INVALID_ARG (layers 0 or
 * NULL out), or done's. */
cuzk_status fc_sdr_layers(const fc_graph *g, const uint32_t *cache, const uint8_t replica_id[32], uint32_t layers,
                          uint8_t *const *out, fc_sdr_layer_done done, void *ctx, cuzk_error *err);

#endif
