/* Internal to the poly layer: the one radix-2 NTT engine behind ntt.h and h.h.
 *
 * ntt_engine_run transforms v (length n = 2^log2_n, natural order in and out) in place:
 *
 *   1. if pre:  v[i] *= pre_c * pre_base^i
 *   2. v[j] = sum_i v[i] * omega^(i*j)            (omega must have order exactly n)
 *   3. if post: v[i] *= post_c * post_base^i
 *
 * so an inverse NTT is omega^-1 with post (n^-1, 1), a coset NTT is pre (1, shift), and the
 * bellperson H pipeline fuses its scalings into these steps.
 *
 * Algorithm: iterative Cooley-Tukey decimation in time (Cormen et al., "Introduction to
 * Algorithms", 3rd ed., §30.3 ITERATIVE-FFT): bit-reversal permutation, then log2_n butterfly
 * stages. Stages 0 .. NTT_BLOCK_LOG-1 run block by block on 2^NTT_BLOCK_LOG contiguous elements
 * (256 KiB, cache-resident) with one shared table of the block's roots; the remaining stages run
 * as strided passes whose twiddles omega^e (e < n/2) come from two sqrt(n/2)-sized tables,
 * omega^e = lo[e mod 2^L] * hi[e >> L], computed once per chunk of 64 consecutive twiddles and
 * reused across every butterfly group of the stage. Extra memory: under 1 MiB of tables for
 * n = 2^28, plus the worker threads' stacks; nothing of size n is allocated.
 *
 * Threads: `threads` >= 1 workers (the caller's thread is one of them), separated by a barrier
 * between phases; the count is reduced where the size cannot use it. Field arithmetic is exact
 * and fully reduced, so the output is bit-identical for every thread count.
 * Errors: CUZK_E_NOMEM when a table cannot be allocated (v is then unchanged); a failed
 * pthread_create only lowers the thread count. Thread-safety: distinct calls may run at once on
 * distinct buffers.
 */
#ifndef CUZK_POLY_NTT_ENGINE_H
#define CUZK_POLY_NTT_ENGINE_H

#include <stdbool.h>

#include "common/status.h"
#include "field/fr.h"

#define NTT_BLOCK_LOG 13

typedef struct {
    unsigned log2_n;
    fr_t omega;
    bool pre, post;
    fr_t pre_c, pre_base;
    fr_t post_c, post_base;
} ntt_plan;

cuzk_status ntt_engine_run(fr_t *v, const ntt_plan *plan, unsigned threads);

#endif
