/* Internal to the poly layer: run one function on a team of pthreads with a barrier.
 *
 * par_run(threads, fn, arg) calls fn(team, tid, nthreads, arg) once on each of nthreads
 * threads (tid 0 is the calling thread) and returns when all have returned. nthreads is
 * `threads` (>= 1) unless pthread_create fails, in which case the team is smaller: fn must
 * split its work by the nthreads it is given, never by `threads`. It cannot fail.
 * par_barrier waits until every member of the team has reached it.
 * par_useful_threads(n, threads) is the team size worth using for n elements of Fr work:
 * threads capped at 512 and at one thread per 2^12 elements, at least 1.
 * par_range splits [0, n) into nthreads contiguous parts and gives part tid as [*lo, *hi).
 * Thread-safety: each par_run call has its own team; calls may run concurrently.
 */
#ifndef CUZK_POLY_PAR_H
#define CUZK_POLY_PAR_H

#include <stddef.h>

typedef struct par_team par_team;
typedef void (*par_fn)(par_team *team, unsigned tid, unsigned nthreads, void *arg);

void par_run(unsigned threads, par_fn fn, void *arg);
void par_barrier(par_team *team);
unsigned par_useful_threads(size_t n, unsigned threads);
void par_range(size_t n, unsigned tid, unsigned nthreads, size_t *lo, size_t *hi);

#endif
