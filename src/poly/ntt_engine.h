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
 * pthread_create only lowers the thread count; CUZK_E_CANCELLED when the calling thread's
 * bound cancel flag (common/cancel.h) was set: the stages left are skipped (checked per
 * block and per strided stage) and v holds unspecified values. Thread-safety: distinct calls may run at once on
 * distinct buffers.
 */
#ifndef CUZK_POLY_NTT_ENGINE_H
#define CUZK_POLY_NTT_ENGINE_H

#include <stdbool.h>

#include "common/status.h"
#include "field/fr.h"

#define NTT_BLOCK_LOG 13
/* Fr elements one thread of an NTT or H pass gets at least (cuzk_par_useful_threads) */
#define NTT_PAR_GRAIN ((size_t)1 << 12)

typedef struct {
    unsigned log2_n;
    fr_t omega;
    bool pre, post;
    fr_t pre_c, pre_base;
    fr_t post_c, post_base;
} ntt_plan;

cuzk_status ntt_engine_run(fr_t *v, const ntt_plan *plan, unsigned threads);

#ifdef CUZK_HAVE_IFMA
/* ntt_ifma.c (AVX-512 IFMA; call only when cuzk_cpu_use_ifma()): 8 butterflies at a time.
 * Twiddles in the kernel's form: w 2^4 (in Montgomery form, i.e. fr_mul(w, 16)), 8 per
 * vector of ntt_ifma_twiddle_bytes(8) bytes, 64-byte aligned. */
#define NTT_IFMA_LANES 8
#define NTT_IFMA_MIN_LOG 3       /* stages with half-size h >= 8 */
#define NTT_IFMA_VECTOR_BYTES 320 /* 8 twiddles: 5 limbs x 8 lanes x 8 bytes */
/* 16 in Montgomery form: fr_mul(w, &NTT_IFMA_SIXTEEN) is w in the scaled form */
extern const fr_t NTT_IFMA_SIXTEEN;
size_t ntt_ifma_twiddle_bytes(size_t cnt);
/* w8 = the cnt twiddles tw[] (cnt a multiple of 8) in vector form; `scaled`: tw[] is already
 * in the scaled form, else each is multiplied by 16 here. */
void ntt_ifma_twiddles(void *w8, const fr_t *tw, size_t cnt, bool scaled);
/* (x[c], y[c]) <- (x[c] + w_c y[c], x[c] - w_c y[c]) for c < cnt (a multiple of 8), x and y
 * fully reduced, bit-identical to the scalar butterfly. */
void ntt_ifma_butterflies(fr_t *x, fr_t *y, const void *w8, size_t cnt);
#endif

#endif
