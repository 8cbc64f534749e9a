/* Bounded, key-ordered, multi-producer multi-consumer channel of intrusive nodes.
 *
 * Items are cuzk_chan_node structs embedded in the caller's objects; the channel never
 * allocates. recv returns the node with the smallest (key_hi, key_lo), FIFO among equal
 * keys, so the engine gives CRITICAL partitions the prover before queued NORMAL ones.
 * Capacity 0 means unbounded (the finalizer queue, bounded instead by the memory budget).
 *
 * Optional gauges (count and bytes) are updated under the channel mutex at the exact
 * moment a node enters or leaves, so they can never read negative.
 *
 * Ownership: a node belongs to the channel from a successful send until recv/remove_if
 * returns it. Thread-safety: all calls may race except init/destroy.
 */
#ifndef CUZK_ENGINE_CHANNEL_H
#define CUZK_ENGINE_CHANNEL_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/counters.h"
#include "engine/sync.h"

typedef struct cuzk_chan_node {
    struct cuzk_chan_node *next;
    uint64_t key_hi, key_lo; /* ordering key, smallest first */
    int64_t bytes;           /* added to the bytes gauge while queued */
} cuzk_chan_node;

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t not_empty, not_full;
    cuzk_chan_node *head; /* sorted by key; guarded by mu */
    size_t len;           /* guarded by mu */
    size_t capacity;      /* 0 = unbounded */
    bool closed;          /* guarded by mu */
    cuzk_gauge *count_gauge, *bytes_gauge; /* optional, may be NULL */
} cuzk_chan;

/* Create an open, empty channel. Errors: CUZK_E_INTERNAL if pthread init fails. */
cuzk_status cuzk_chan_init(cuzk_chan *ch, size_t capacity, cuzk_gauge *count_gauge,
                           cuzk_gauge *bytes_gauge, cuzk_error *err);
/* Destroy; the channel must be empty. */
void cuzk_chan_destroy(cuzk_chan *ch);

/* Insert `node`, blocking while the channel is full. Returns CUZK_OK (the channel now owns
 * node) or CUZK_E_CANCELLED (node not inserted, still the caller's) when the channel is
 * closed or abort(ctx) became true; abort may be NULL. */
cuzk_status cuzk_chan_send(cuzk_chan *ch, cuzk_chan_node *node, cuzk_abort_fn abort, void *ctx);
/* Remove and return the smallest node, blocking while empty; NULL once closed and empty. */
cuzk_chan_node *cuzk_chan_recv(cuzk_chan *ch);
/* Remove every node for which pred(node, ctx) is true; returns them as a list linked by
 * `next` (ownership passes to the caller). */
cuzk_chan_node *cuzk_chan_remove_if(cuzk_chan *ch, bool (*pred)(const cuzk_chan_node *, void *),
                                    void *ctx);
/* Close: senders fail from now on, receivers drain what is left and then get NULL. */
void cuzk_chan_close(cuzk_chan *ch);
/* Wake blocked senders so they re-evaluate their abort predicates. */
void cuzk_chan_wake(cuzk_chan *ch);
/* Current number of queued nodes (a racy snapshot). */
size_t cuzk_chan_len(cuzk_chan *ch);

#endif
