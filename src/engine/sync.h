/* Shared pieces of the engine's blocking primitives: the monotonic clock, condition
 * variables on CLOCK_MONOTONIC, and the abort predicate that lets a blocked wait give up.
 *
 * Every blocking call in the engine (semaphore, channel send, memory budget) takes a
 * cuzk_abort_fn that it evaluates under its own mutex before each wait; whoever makes the
 * predicate true must then call that primitive's wake function, which takes the same
 * mutex, so no wake-up can be lost (cf. reference bug 9.3 #20).
 */
#ifndef CUZK_ENGINE_SYNC_H
#define CUZK_ENGINE_SYNC_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

/* Returns true when the waiter should stop waiting. Called with the primitive's mutex
 * held: it must only read atomics, never lock anything. NULL means "never abort". */
typedef bool (*cuzk_abort_fn)(void *ctx);

/* Nanoseconds on CLOCK_MONOTONIC. */
int64_t cuzk_now_ns(void);

/* pthread_cond_init with CLOCK_MONOTONIC. Returns 0 or an errno value. */
int cuzk_cond_init_monotonic(pthread_cond_t *cv);

/* Wait on `cv` until signalled or until `deadline_ns` (CLOCK_MONOTONIC ns; negative =
 * no deadline). Returns false once the deadline has passed. */
bool cuzk_cond_wait_until(pthread_cond_t *cv, pthread_mutex_t *mu, int64_t deadline_ns);

/* Deadline for a timeout in milliseconds from now; timeout_ms < 0 gives -1 (none). */
int64_t cuzk_deadline_ms(int64_t timeout_ms);

#endif
