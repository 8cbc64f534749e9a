/* Counting semaphore (mutex + condition variable) with abortable acquire.
 *
 * The engine uses one with `partition_workers` permits: a partition takes a permit when
 * its synthesis starts and gives it back only after the prover channel accepted it (or it
 * was discarded), so synthesized-but-unaccepted partitions never exceed partition_workers
 * (docs/engine.md#backpressure, the reference's Phase-12 fix).
 *
 * Thread-safety: all calls may race except init/destroy.
 */
#ifndef CUZK_ENGINE_SEMAPHORE_H
#define CUZK_ENGINE_SEMAPHORE_H

#include <pthread.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/sync.h"

typedef struct {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint32_t available; /* guarded by mu */
    uint32_t capacity;  /* fixed at init */
} cuzk_sem;

/* Create with `permits` (>= 1) available. Errors: CUZK_E_INVALID_ARG for 0,
 * CUZK_E_INTERNAL if pthread init fails. */
cuzk_status cuzk_sem_init(cuzk_sem *s, uint32_t permits, cuzk_error *err);
void cuzk_sem_destroy(cuzk_sem *s);

/* Take one permit, blocking while none is available. Returns CUZK_OK with the permit, or
 * CUZK_E_CANCELLED (no permit taken) once abort(ctx) is true; abort may be NULL. */
cuzk_status cuzk_sem_acquire(cuzk_sem *s, cuzk_abort_fn abort, void *ctx);
/* Return one permit taken by cuzk_sem_acquire. */
void cuzk_sem_release(cuzk_sem *s);
/* Wake all waiters so they re-evaluate their abort predicates. */
void cuzk_sem_wake(cuzk_sem *s);
/* Permits currently available (a racy snapshot). */
uint32_t cuzk_sem_available(cuzk_sem *s);

#endif
