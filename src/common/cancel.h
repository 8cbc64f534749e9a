/* Cancellation of long computations: a flag that the owner of the work sets (a cancelled or
 * failed job, a shutdown) and that the layers doing the work read between phases and
 * chunks, ending with CUZK_E_CANCELLED instead of running to completion.
 *
 * The flag travels explicitly where a layer has an options struct for it (msm_opts_t.cancel),
 * and otherwise as the calling thread's bound flag: the engine binds a job's flag around its
 * calls into synthesis and the prover backend (cuzk_cancel_bind), and the layers below
 * (msm, cs) read it with cuzk_cancel_flag() on the thread that entered them, so no
 * signature between the engine and the MSM has to carry it. Worker threads a layer starts
 * itself get the pointer from that layer, not from their own binding.
 *
 * Thread-safety: the binding is thread-local; the flag is read with relaxed atomic loads
 * (a late read only delays the stop by one chunk). Source: the usual cooperative
 * cancellation token (e.g. Java's Thread.interrupted, .NET's CancellationToken).
 */
#ifndef CUZK_COMMON_CANCEL_H
#define CUZK_COMMON_CANCEL_H

#include <stdatomic.h>
#include <stdbool.h>

/* Bind `flag` (may be NULL: nothing cancels) to the calling thread until the next bind;
 * returns the previous binding, for nesting. The flag must outlive the binding. */
const atomic_bool *cuzk_cancel_bind(const atomic_bool *flag);

/* The calling thread's bound flag, NULL if none. */
const atomic_bool *cuzk_cancel_flag(void);

/* Whether `flag` (NULL: never) is set. */
static inline bool cuzk_cancel_is_set(const atomic_bool *flag)
{
    return flag && atomic_load_explicit(flag, memory_order_relaxed);
}

/* Whether the calling thread's bound flag is set. */
static inline bool cuzk_cancel_requested(void) { return cuzk_cancel_is_set(cuzk_cancel_flag()); }

#endif
