/* Memory budget: a byte total and the bytes reserved against it, with FIFO admission.
 *
 * Semantics (docs/engine.md#memory-budget, without the reference's lost wake-up and endless wait):
 *  - acquire(n) blocks until n bytes fit (used + n <= total); waiters are admitted strictly
 *    in arrival order, so a large request is not starved by smaller ones behind it;
 *  - a request larger than the total can never fit and fails at once with CUZK_E_NOMEM
 *    instead of waiting forever;
 *  - waits are on a mutex + condition variable, so a release can never be missed.
 *
 * The engine reserves a partition's whole estimated working set before its synthesis,
 * returns the a/b/c share when kind.release_abc runs (inside or right after prove_start),
 * and the rest after prove_finish.
 *
 * Thread-safety: all calls may race except init/destroy.
 */
#ifndef CUZK_ENGINE_BUDGET_H
#define CUZK_ENGINE_BUDGET_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/counters.h"
#include "engine/sync.h"

typedef struct cuzk_budget_waiter cuzk_budget_waiter;

/* A cache that holds budget bytes for idle data (parameters, PCEs) and can give them back:
 * releases (with cuzk_budget_release) idle items until about `want` bytes are freed, and
 * returns the bytes it released (0 when nothing is idle). Called without the budget's lock
 * held, from whichever thread needs the room; it must not itself wait on the budget. */
typedef uint64_t (*cuzk_budget_reclaim_fn)(void *ctx, uint64_t want);

typedef struct {
    cuzk_budget_reclaim_fn fn;
    void *ctx;
} cuzk_budget_reclaimer;

/* Whether anything holding budget bytes may still release them without the waiter's help
 * (its owner, the engine: another job in flight, a partition holding a reservation).
 * Called without the budget's lock held by a blocked acquire at the head of the FIFO that
 * does not fit once the reclaimers freed nothing; it may take the owner's locks. */
typedef bool (*cuzk_budget_hope_fn)(void *ctx);

/* How long a head waiter stays without hope (hope false, reclaimers freeing nothing, asked
 * again every tenth of it) before its acquire fails with CUZK_E_NOMEM: a cache being
 * released right after a job's collection gets this long to become reclaimable. */
#define CUZK_BUDGET_HOPELESS_MS 1000

#define CUZK_BUDGET_MAX_RECLAIMERS 4

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t total;                  /* fixed at init */
    uint64_t used;                   /* guarded by mu */
    cuzk_budget_waiter *head, *tail; /* FIFO of blocked acquires; guarded by mu */
    size_t waiting;                  /* length of that FIFO; guarded by mu */
    cuzk_gauge *used_gauge;          /* optional mirror of `used` (with its peak) */
    uint64_t releases;               /* count of releases (a reclaim is retried only after one) */
    cuzk_budget_reclaimer reclaim[CUZK_BUDGET_MAX_RECLAIMERS]; /* guarded by mu */
    size_t n_reclaim;
    uint64_t wakes;                  /* count of broadcasts (release, wake); guarded by mu */
    cuzk_budget_hope_fn hope;        /* optional; guarded by mu */
    void *hope_ctx;
} cuzk_budget;

/* Create a budget of `total` bytes (>= 1). `used_gauge` may be NULL. Errors:
 * CUZK_E_INVALID_ARG for total 0, CUZK_E_INTERNAL if pthread init fails. */
cuzk_status cuzk_budget_init(cuzk_budget *b, uint64_t total, cuzk_gauge *used_gauge, cuzk_error *err);
/* Destroy; nothing may be waiting. */
void cuzk_budget_destroy(cuzk_budget *b);

/* Register a cache that can free idle bytes (see cuzk_budget_reclaim_fn). A blocked acquire
 * at the head of the FIFO that does not fit asks the reclaimers for the missing bytes
 * before it waits (again after each release), so idle cached data never holds up a
 * partition. Errors: CUZK_E_INVALID_ARG when CUZK_BUDGET_MAX_RECLAIMERS are registered.
 * Remove it (cuzk_budget_remove_reclaimer) before the cache goes away, while no acquire
 * runs (at shutdown). */
cuzk_status cuzk_budget_add_reclaimer(cuzk_budget *b, cuzk_budget_reclaim_fn fn, void *ctx, cuzk_error *err);
void cuzk_budget_remove_reclaimer(cuzk_budget *b, cuzk_budget_reclaim_fn fn, void *ctx);
/* Ask every reclaimer, in registration order, for `want` bytes until that many are freed;
 * returns the bytes freed. Call without holding any lock a reclaimer takes. */
uint64_t cuzk_budget_reclaim(cuzk_budget *b, uint64_t want);
/* Set (or with fn NULL clear) the hope predicate (cuzk_budget_hope_fn). With one set, an
 * acquire that cannot fit while nothing can give way (the reclaimers free nothing and
 * hope stays false for CUZK_BUDGET_HOPELESS_MS) fails with CUZK_E_NOMEM naming the bytes
 * wanted, in use and the total, instead of waiting forever. Set it before any acquire. */
void cuzk_budget_set_hope(cuzk_budget *b, cuzk_budget_hope_fn fn, void *ctx);
/* The fixed total. */
uint64_t cuzk_budget_total(const cuzk_budget *b);

/* Reserve `bytes`, blocking (FIFO) until they fit. Returns CUZK_OK (reserved),
 * CUZK_E_NOMEM with a message when bytes > total (can never fit) or when the bytes in use
 * can no longer give way (see cuzk_budget_set_hope), or CUZK_E_CANCELLED
 * (nothing reserved) once abort(ctx) is true; abort may be NULL. bytes == 0 returns OK. */
cuzk_status cuzk_budget_acquire(cuzk_budget *b, uint64_t bytes, cuzk_abort_fn abort, void *ctx,
                                cuzk_error *err);
/* Reserve `bytes` only if that needs no waiting: nothing is queued in the FIFO (so a
 * try never overtakes a blocked acquire) and used + bytes <= total. For caches that fill
 * themselves opportunistically (a PCE recording, a preloaded entry) and must never hold up
 * the pipeline. Returns true when reserved; bytes == 0 is always true. */
bool cuzk_budget_try_acquire(cuzk_budget *b, uint64_t bytes);
/* Return `bytes` previously reserved. Releasing more than is reserved is an engine bug: it
 * is logged at ERROR, `used` is clamped at 0 and the gauge's low mark goes negative. */
void cuzk_budget_release(cuzk_budget *b, uint64_t bytes);
/* Wake blocked acquires so they re-evaluate their abort predicates. */
void cuzk_budget_wake(cuzk_budget *b);
/* Bytes reserved now (a racy snapshot). */
uint64_t cuzk_budget_used(cuzk_budget *b);
/* Number of acquires blocked in the FIFO now (a racy snapshot). Joining the queue, the
 * first admission check and (when admitted at once) leaving it happen under one hold of the
 * mutex, so each counted caller has been found not admissible at least once and has been
 * neither admitted nor cancelled since. Lets tests wait on arrival and admission as events
 * instead of relying on thread scheduling. */
size_t cuzk_budget_waiting(cuzk_budget *b);

/* Parse a byte size: decimal digits, optional spaces, then an optional suffix: none or "B"
 * (bytes), "KiB" "MiB" "GiB" "TiB" (powers of 2^10), "KB" "MB" "GB" "TB" (powers of 10).
 * Leading/trailing whitespace is ignored. Errors: CUZK_E_INVALID_ARG naming the string
 * (empty, no digits, unknown suffix, or overflow of 64 bits); never a silent default
 * (cf. reference bug 9.3 #27). */
cuzk_status cuzk_parse_size(const char *s, uint64_t *out, cuzk_error *err);

/* MemTotal of a /proc/meminfo-format file (`path`; NULL = "/proc/meminfo") in bytes
 * ("MemTotal: N kB" times 1024). Errors: CUZK_E_IO (cannot open), CUZK_E_FORMAT (no
 * parsable MemTotal line). */
cuzk_status cuzk_meminfo_total(const char *path, uint64_t *out, cuzk_error *err);

/* The budget total of the configuration: `is_auto` -> MemTotal (from meminfo_path as
 * above) minus safety_margin; otherwise explicit_bytes as given (no margin subtracted),
 * as the reference does (docs/engine.md#memory-budget). Errors: those of cuzk_meminfo_total;
 * CUZK_E_INVALID_ARG when the margin leaves nothing or explicit_bytes is 0. */
cuzk_status cuzk_budget_resolve_total(bool is_auto, uint64_t explicit_bytes, uint64_t safety_margin,
                                      const char *meminfo_path, uint64_t *out, cuzk_error *err);

#endif
