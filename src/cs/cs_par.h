/* Internal to the cs layer: a parallel loop over work items on a few pthreads, shared by
 * the SpMV (spmv.c), the PCE products (pce_eval.c) and the PCE file hashing (pce_file.c).
 *
 * cs_par_for(n, threads, fn, arg) calls fn(arg, i) exactly once for every i < n, items
 * taken in increasing order from a shared counter by up to `threads` threads (0 = online
 * CPUs; the caller is one of them, so it never runs fewer than one). If a thread cannot be
 * started the others do its share; it cannot fail. Returns when every call has returned.
 * Thread-safety: each call has its own counter; calls may run concurrently.
 */
#ifndef CUZK_CS_CS_PAR_H
#define CUZK_CS_CS_PAR_H

#include <stddef.h>

void cs_par_for(size_t n, unsigned threads, void (*fn)(void *arg, size_t i), void *arg);
/* The online CPU count (at least 1) when threads is 0, else threads, capped at 256. */
unsigned cs_par_threads(unsigned threads);

#endif
