/* Sparse matrix-vector products over Fr for pre-compiled constraint evaluation:
 * a = A·w, b = B·w, c = C·w with A, B, C in CSR form (cs.h cs_csr) and w the full
 * assignment (ONE first, as in .wtns files and cs_matrices columns).
 *
 * Work is split into chunks of consecutive rows with roughly equal (nnz + rows) and shared
 * among `threads` POSIX threads (the caller is one of them). Results are bit-identical for
 * every thread count (each row is summed in column order by one thread).
 * Thread-safety: inputs are only read; outputs must not overlap inputs or each other.
 */
#ifndef CUZK_CS_SPMV_H
#define CUZK_CS_SPMV_H

#include <stdint.h>

#include "common/status.h"
#include "cs/cs.h"
#include "field/fr.h"

/* out[i] = sum over row i of m: val[k] * w[col[k]], for i < m->rows (out has m->rows
 * entries; an empty row gives 0). `w` has n_w >= m->cols entries. threads = 0 means the
 * number of online CPUs. Errors: CUZK_E_INVALID_ARG (NULL pointer with rows > 0, or
 * m->cols > n_w). */
cuzk_status cs_spmv(fr_t *out, const cs_csr *m, const fr_t *w, uint64_t n_w, unsigned threads,
                    cuzk_error *err);

/* The three products in one parallel pass. Any of (a, A), (b, B), (c, C) may be NULL pairs
 * to skip that matrix (e.g. snarkjs computes c as a*b). Same errors as cs_spmv. */
cuzk_status cs_spmv_abc(fr_t *a, fr_t *b, fr_t *c, const cs_csr *A, const cs_csr *B,
                        const cs_csr *C, const fr_t *w, uint64_t n_w, unsigned threads,
                        cuzk_error *err);

#endif
