/* Radix-2 number-theoretic transforms over Fr (BLS12-381 scalar field), in place.
 *
 * Layout: v is an array of n = 2^log2_n fr_t (Montgomery form, 32 bytes each), natural order in
 * and out: the coefficient vector (c_0 .. c_{n-1}) of P(X) = sum c_i X^i on one side and the
 * evaluations (P(omega^0) .. P(omega^{n-1})) on the other, omega the primitive n-th root of unity
 * of the chosen family (poly/roots.h: POLY_ROOTS_FF = bellperson/ff, POLY_ROOTS_SNARKJS).
 *
 *   poly_ntt            coefficients -> evaluations:  v_j <- sum_i v_i omega^(ij)
 *   poly_intt           evaluations -> coefficients:  v_i <- n^-1 sum_j v_j omega^(-ij)
 *   poly_coset_ntt      coefficients -> evaluations on the coset g*<omega>, g = 7 (Fr's
 *                       multiplicative generator, as bellperson's EvaluationDomain::coset_fft
 *                       and ff's MULTIPLICATIVE_GENERATOR): v_j <- P(g omega^j)
 *   poly_coset_intt     the inverse of poly_coset_ntt
 *   poly_coset_ntt_shift / poly_coset_intt_shift: the same with an arbitrary non-zero shift.
 *
 * Sizes: 0 <= log2_n <= POLY_MAX_LOG2 (28). Memory: in place; besides v at most about 1 MiB of
 * root tables (no table of size n) and the threads' stacks. Algorithm: iterative radix-2
 * Cooley-Tukey, cache-blocked, see ntt_engine.h.
 * Threads: `threads` >= 1 is the number of threads to use, the caller's included (pthreads,
 * created and joined within the call); fewer are used for small n (under 2^12 elements per
 * thread) and at most 512. The result is bit-identical for every thread count.
 * Errors (err may be NULL; v is unchanged on error): CUZK_E_INVALID_ARG for v == NULL,
 * log2_n > 28, threads == 0, an unknown root family or a zero shift; CUZK_E_NOMEM if the root
 * tables cannot be allocated.
 * Thread-safety: concurrent calls on distinct buffers are safe.
 */
#ifndef CUZK_POLY_NTT_H
#define CUZK_POLY_NTT_H

#include "common/status.h"
#include "field/fr.h"
#include "poly/roots.h"

cuzk_status poly_ntt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err);
cuzk_status poly_intt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err);
cuzk_status poly_coset_ntt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err);
cuzk_status poly_coset_intt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err);
cuzk_status poly_coset_ntt_shift(fr_t *v, unsigned log2_n, poly_roots roots, const fr_t *shift,
                                 unsigned threads, cuzk_error *err);
cuzk_status poly_coset_intt_shift(fr_t *v, unsigned log2_n, poly_roots roots, const fr_t *shift,
                                  unsigned threads, cuzk_error *err);

#endif
