/* Per-step invariant checker for engine tests, fed by the engine's event hook.
 *
 * On every event it checks, under its own mutex:
 *  - permits held (SYNTH_START .. PERMIT_RELEASED, tracked from events) <= partition_workers;
 *  - the engine's own gauges: every count and byte gauge >= 0, permits_held and
 *    synthesizing <= partition_workers, queued <= channel capacity, memory used <= budget;
 *  - per partition, the stage order (MEM_ACQUIRED before SYNTH_START before SYNTH_END before
 *    PROVE_START before PROVE_END before FINISH_END) and that reserved bytes never go negative;
 *  - when a job settles, that each of its partitions released every byte it reserved and
 *    ended finished or discarded.
 * Violations are counted (the first one is kept as text) and checked on the main thread.
 */
#ifndef CUZK_TESTS_ENGINE_CHECKER_H
#define CUZK_TESTS_ENGINE_CHECKER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>

#include "engine/engine.h"

#define CHK_MAX_JOBS 512
#define CHK_MAX_PARTS 32

typedef struct {
    pthread_mutex_t mu;
    _Atomic(cuzk_engine *) engine; /* set right after create; read in the hook */
    uint32_t pw, capacity;
    uint64_t budget;
    int64_t held, peak_held;
    uint64_t events, settled, violations;
    char first_violation[256];
    uint32_t seen[CHK_MAX_JOBS][CHK_MAX_PARTS]; /* bit per cuzk_event_type */
    int64_t bytes[CHK_MAX_JOBS][CHK_MAX_PARTS];
} checker;

void checker_init(checker *c, uint32_t pw, uint32_t capacity, uint64_t budget);
void checker_destroy(checker *c);
/* The event hook (ctx = checker *). */
void checker_on_event(void *ctx, const cuzk_engine_event *ev);

#endif
