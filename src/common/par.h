/* Parallel loops on pthreads, for every layer: a team of threads running one function with
 * barriers between phases (the NTT and H passes of src/poly), and a loop over independent
 * work items handed out through an atomic counter (the SpMV and PCE passes of src/cs, the
 * point-cache checksums and .zkey subgroup checks of src/groth16, the tree building and
 * sealing of src/filecoin).
 *
 * Team: cuzk_par_run(threads, fn, arg) calls fn(team, tid, nthreads, arg) once on each of
 * nthreads threads (tid 0 is the calling thread) and returns when all have returned. The
 * threads start together, once every one has been created. nthreads is `threads` (>= 1)
 * unless pthread_create fails, in which case the team is smaller: fn must split its work by
 * the nthreads it is given, never by `threads`. It cannot fail. cuzk_par_barrier waits until
 * every member of the team has reached it (NULL or a team of one: returns at once).
 * cuzk_par_range splits [0, n) into nthreads contiguous parts, the first n % nthreads one
 * element longer, and gives part tid as [*lo, *hi).
 *
 * Loop: cuzk_par_for(threads, items, fn, ctx, err) calls fn(ctx, item, worker, err) once for
 * every item in [0, items), items taken in increasing order from a shared counter by
 * min(cuzk_par_threads(threads), items) threads (at least 1; the calling thread is worker 0;
 * `worker` < that count names the calling thread, for per-thread scratch). Each thread starts
 * taking items as soon as it runs. The first item that fails stops the handing out of
 * further items (items already taken still finish); its status is returned and its message
 * copied to *err (err may be NULL). If pthread_create fails, fewer threads do the same work.
 *
 * Thread counts: cuzk_par_threads(0) is the online CPU count, any other value itself, both
 * capped at CUZK_PAR_MAX_THREADS. cuzk_par_useful_threads(n, grain, threads) is the team
 * size worth using for n elements of which one thread should get at least `grain`: threads
 * capped at CUZK_PAR_MAX_TEAM and at n / grain, at least 1.
 *
 * Thread-safety: every call has its own team or counter; calls may run concurrently and
 * nest. fn runs concurrently on distinct threads and must only write what its tid's range or
 * its item owns. Worker threads do not inherit the caller's bound cancel flag
 * (common/cancel.h): pass the flag in arg / ctx. Source: the fork-join team with a barrier and
 * the self-scheduling loop of OpenMP ("OpenMP API 5.2", parallel construct, barrier,
 * schedule(dynamic, 1)), on POSIX threads.
 */
#ifndef CUZK_COMMON_PAR_H
#define CUZK_COMMON_PAR_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

#define CUZK_PAR_MAX_THREADS 256u /* cuzk_par_threads' cap */
#define CUZK_PAR_MAX_TEAM 512u    /* cuzk_par_useful_threads' cap */

typedef struct cuzk_par_team cuzk_par_team;
typedef void (*cuzk_par_team_fn)(cuzk_par_team *team, unsigned tid, unsigned nthreads, void *arg);

void cuzk_par_run(unsigned threads, cuzk_par_team_fn fn, void *arg);
void cuzk_par_barrier(cuzk_par_team *team);
void cuzk_par_range(size_t n, unsigned tid, unsigned nthreads, size_t *lo, size_t *hi);

typedef cuzk_status (*cuzk_par_fn)(void *ctx, uint64_t item, unsigned worker, cuzk_error *err);
cuzk_status cuzk_par_for(unsigned threads, uint64_t items, cuzk_par_fn fn, void *ctx, cuzk_error *err);

unsigned cuzk_par_threads(unsigned threads);
unsigned cuzk_par_useful_threads(size_t n, size_t grain, unsigned threads);

#endif
