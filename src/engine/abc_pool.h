/* The a/b/c buffer pool: partition buffers (a circuit kind's a/b/c vectors, one region per
 * partition) reused across partitions and jobs instead of being faulted in afresh for each.
 *
 * Buffers are anonymous mappings, pre-faulted once when created (MAP_POPULATE, else a write
 * per page) and advised MADV_HUGEPAGE where the kernel offers transparent huge pages (a
 * refusal is counted, never an error). A buffer is handed out only for a request of its
 * exact size (a circuit's a/b/c size is fixed), so there is no fragmentation to manage.
 *
 * Memory budget (budget.h): every byte of every buffer is charged exactly once.
 *  - in use: through the reservation of the partition that holds it (its estimate's
 *    abc_bytes, reserved before synthesis as for any a/b/c);
 *  - free: through the pool's own charge. cuzk_abc_pool_get hands a charged free buffer to
 *    a partition that has reserved its bytes, and releases the pool's charge for it;
 *    cuzk_abc_pool_put returns it uncharged, and the next cuzk_abc_pool_adopt (called by
 *    the engine whenever a partition gives back reservation bytes, right after put)
 *    takes those bytes over as the pool's charge instead of releasing them, so a buffer
 *    returns to the pool without the budget ever seeing it leave and come back.
 *  - free buffers go back to the system when the budget needs their room (the pool is a
 *    reclaimer: cuzk_abc_pool_reclaim), when they have been idle for idle_ms (a trimmer
 *    thread), or at destroy.
 * Counters (counters.h): POOL_TOTAL_BYTES, POOL_IN_USE_BYTES, POOL_FREE_BYTES.
 *
 * Pinning (a GPU backend's staging): hooks registered with cuzk_abc_pool_set_hooks see
 * every buffer once after it is mapped (e.g. to register it as pinned host memory) and once before it is
 * unmapped, so a backend pins each pool buffer once for its lifetime instead of per
 * partition.
 *
 * The engine owns one pool (cuzk_engine_abc_pool) when [memory] abc_pool is on; kinds take
 * their a/b/c from it (directly, or through cuzk_abc_pool_region into their constraint
 * system; src/kinds/) and give them back in
 * kind.release_abc.
 *
 * Thread-safety: every function except create/destroy/set_hooks may be called from any
 * thread concurrently.
 */
#ifndef CUZK_ENGINE_ABC_POOL_H
#define CUZK_ENGINE_ABC_POOL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/region.h"
#include "common/status.h"
#include "engine/budget.h"
#include "engine/counters.h"

typedef struct cuzk_abc_pool cuzk_abc_pool;

typedef struct {
    uint64_t idle_ms;      /* free buffers unused this long go back to the system; 0 = never (only on reclaim) */
    bool hugepages;        /* advise MADV_HUGEPAGE (silently skipped where refused) */
    /* madvise(2) replacement for tests of the "no transparent huge pages" path; NULL = madvise */
    int (*advise)(void *addr, size_t len, int advice);
} cuzk_abc_pool_config;

/* Defaults: idle_ms 60000, hugepages true, advise NULL. */
void cuzk_abc_pool_config_default(cuzk_abc_pool_config *cfg);

/* Create a pool charging `budget` (borrowed, must outlive the pool) and mirroring its
 * figures into gauges[0..2] = total, in use, free (may be NULL). Registers the pool as
 * the budget's reclaimer and starts the trimmer thread when idle_ms > 0.
 * Errors: CUZK_E_NOMEM, CUZK_E_INTERNAL (thread start), the budget's reclaimer errors. */
cuzk_status cuzk_abc_pool_create(const cuzk_abc_pool_config *cfg, cuzk_budget *budget, cuzk_gauge *gauges,
                                 cuzk_abc_pool **out, cuzk_error *err);
/* Unregister, stop the trimmer and unmap every buffer. Buffers still in use are an engine
 * bug (logged at ERROR and unmapped anyway). NULL is a no-op. */
void cuzk_abc_pool_destroy(cuzk_abc_pool *p);

/* A buffer of exactly `bytes` (> 0) for a partition whose reservation covers them: a free
 * one when there is one (its pool charge is released), else a new pre-faulted mapping.
 * Contents are undefined (a reused buffer holds the previous partition's values).
 * Errors: CUZK_E_INVALID_ARG (0 bytes), CUZK_E_NOMEM (mmap failed; message names the size). */
cuzk_status cuzk_abc_pool_get(cuzk_abc_pool *p, size_t bytes, void **mem, cuzk_error *err);
/* Return a buffer from cuzk_abc_pool_get (uncharged until the next adopt). A pointer the
 * pool did not hand out is logged at ERROR and ignored. */
void cuzk_abc_pool_put(cuzk_abc_pool *p, void *mem);
/* Take over up to `bytes` of reservation being given back as the charge of returned,
 * uncharged buffers (whole buffers only); returns the bytes taken over, which the caller
 * then does not release. A kind must size its buffers within its estimate's abc_bytes, so
 * the release that follows a put always covers the buffer; a returned buffer left
 * uncharged is not reused (get skips it) and goes at the next reclaim or trim. */
uint64_t cuzk_abc_pool_adopt(cuzk_abc_pool *p, uint64_t bytes);
/* The budget reclaimer: unmap free buffers, least recently used first, until `want`
 * bytes are released; returns the bytes released. */
uint64_t cuzk_abc_pool_reclaim(void *pool, uint64_t want);

/* The pool as a region allocator (common/region.h) for layers below the engine (the
 * constraint system's a/b/c: cs_prove_hint.abc_alloc): get is cuzk_abc_pool_get (NULL on
 * its errors, which are logged at WARN), put is cuzk_abc_pool_put. The same rules hold: a
 * region is got only for a partition whose reservation covers it, and after put the
 * engine's release adopts it. *out borrows p. */
void cuzk_abc_pool_region(cuzk_abc_pool *p, cuzk_region_alloc *out);

/* Pinning hooks (see above): on_map after a buffer is mapped and faulted in, on_unmap
 * before it is unmapped; both run with the pool's lock held (they must not call the pool).
 * Set before the first get; either may be NULL. hooks NULL clears them (a backend detaching
 * from its engine): buffers mapped or unmapped after that are not reported, so whoever
 * cleared them undoes what on_map did for the buffers still mapped. */
typedef struct {
    void (*on_map)(void *ctx, void *mem, size_t bytes);
    void (*on_unmap)(void *ctx, void *mem, size_t bytes);
    void *ctx;
} cuzk_abc_pool_hooks;
void cuzk_abc_pool_set_hooks(cuzk_abc_pool *p, const cuzk_abc_pool_hooks *hooks);

typedef struct {
    uint64_t total_bytes, in_use_bytes, free_bytes;
    uint64_t buffers;        /* mapped now */
    uint64_t created, reused; /* gets served by a new mapping / by a free buffer, since create */
    uint64_t released;        /* buffers unmapped (reclaim, idle, adopt overflow), since create */
    uint64_t hugepage_refused; /* buffers whose MADV_HUGEPAGE the kernel refused */
} cuzk_abc_pool_stats;
void cuzk_abc_pool_stats_get(cuzk_abc_pool *p, cuzk_abc_pool_stats *out);

#endif
