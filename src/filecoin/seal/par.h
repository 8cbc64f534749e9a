/* Parallel loops for sealing: `items` independent work items handed to `threads` pthreads
 * (the calling thread is one of them) through an atomic counter; the first error stops the
 * handing out of further items and is returned.
 *
 * Thread-safety: fn runs concurrently on distinct items and must only touch data its item
 * owns (or read shared immutable data); each call of fc_par_for has its own state. If
 * pthread_create fails, fewer threads do the same work.
 */
#ifndef CUZK_FILECOIN_SEAL_PAR_H
#define CUZK_FILECOIN_SEAL_PAR_H

#include <stdint.h>

#include "common/status.h"

/* fn(ctx, item, worker, err) for every item in [0, items); worker in [0, threads) names the
 * calling thread (for per-thread scratch). Returns CUZK_OK or the first failing item's status
 * with its message in err. threads 0 is taken as 1. */
typedef cuzk_status (*fc_par_fn)(void *ctx, uint64_t item, unsigned worker, cuzk_error *err);
cuzk_status fc_par_for(unsigned threads, uint64_t items, fc_par_fn fn, void *ctx, cuzk_error *err);

#endif
