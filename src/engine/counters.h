/* Buffer flight counters: exact atomic gauges with peak and low-water marks.
 *
 * Each gauge counts partitions (or bytes of their memory reservation) in one stage of the
 * pipeline. A partition moves between stages exactly where ownership of its buffers crosses
 * a pool boundary (see engine.h), so the gauges show where every large buffer is. The
 * `low` mark records the minimum value ever reached: it stays 0 unless a decrement was
 * unmatched, which makes "never negative" checkable after the fact (reference bug 9.3 #26).
 *
 * Thread-safety: lock-free; add/get may be called from any thread at any time.
 */
#ifndef CUZK_ENGINE_COUNTERS_H
#define CUZK_ENGINE_COUNTERS_H

#include <stdatomic.h>
#include <stdint.h>

/* Which gauge. Counts are partitions; *_BYTES are bytes of memory-budget reservation. */
typedef enum {
    CUZK_CTR_PERMITS_HELD = 0,    /* synthesis permits taken: synthesis start .. channel acceptance */
    CUZK_CTR_SYNTHESIZING,        /* inside circuit_kind.synthesize */
    CUZK_CTR_AWAITING_SEND,       /* synthesized, waiting for the prover channel to accept */
    CUZK_CTR_QUEUED,              /* in the prover channel */
    CUZK_CTR_PROVING,             /* inside backend.prove_start */
    CUZK_CTR_PENDING_FINISH,      /* prove_start returned, prove_finish not yet returned */
    CUZK_CTR_SYNTHESIZING_BYTES,
    CUZK_CTR_AWAITING_SEND_BYTES,
    CUZK_CTR_QUEUED_BYTES,
    CUZK_CTR_PROVING_BYTES,
    CUZK_CTR_PENDING_FINISH_BYTES,
    CUZK_CTR_MEMORY_USED_BYTES,   /* memory budget in use (all reservations) */
    CUZK_CTR_POOL_TOTAL_BYTES,    /* a/b/c pool (abc_pool.h): bytes mapped */
    CUZK_CTR_POOL_IN_USE_BYTES,   /* held by partitions */
    CUZK_CTR_POOL_FREE_BYTES,     /* free, charged to the budget by the pool */
    CUZK_COUNTER_COUNT
} cuzk_counter_id;

/* One gauge's value as read: current, highest and lowest value ever reached. */
typedef struct {
    int64_t current;
    int64_t peak;
    int64_t low;
} cuzk_counter_value;

typedef struct {
    _Atomic int64_t value;
    _Atomic int64_t peak;
    _Atomic int64_t low;
} cuzk_gauge;

/* Stable snake_case name of a counter (used as a JSON key), e.g. "permits_held". */
const char *cuzk_counter_name(cuzk_counter_id id);

/* Zero value, peak and low. Not thread-safe against concurrent add. */
void cuzk_gauge_init(cuzk_gauge *g);
/* Add `delta` (may be negative) and update peak/low with the value it produced. */
void cuzk_gauge_add(cuzk_gauge *g, int64_t delta);
/* Read current, peak and low (each read atomically; the triple is not one snapshot). */
cuzk_counter_value cuzk_gauge_read(const cuzk_gauge *g);

#endif
