/* Multi-threaded CSR SpMV over Fr (see spmv.h). */
#include "cs/spmv.h"

#include <stdlib.h>

#include "common/par.h"

#define CHUNKS_PER_THREAD 4u

typedef struct {
    const cs_csr *m;
    fr_t *out;
    uint64_t row_begin, row_end;
} chunk;

typedef struct {
    chunk *chunks;
    size_t n_chunks;
    const fr_t *w;
} job;

static void run_chunk(const chunk *c, const fr_t *w)
{
    const cs_csr *m = c->m;
    for (uint64_t r = c->row_begin; r < c->row_end; r++) {
        fr_t acc = FR_ZERO, t;
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++) {
            fr_mul(&t, &m->val[k], &w[m->col[k]]);
            fr_add(&acc, &acc, &t);
        }
        c->out[r] = acc;
    }
}

static cuzk_status run_item(void *arg, uint64_t i, unsigned worker, cuzk_error *err)
{
    job *j = arg;
    run_chunk(&j->chunks[i], j->w);
    return CUZK_OK;
}

/* First row r with row_ptr[r] + r >= target (cost of rows before r), in [lo, rows]. */
static uint64_t split_row(const cs_csr *m, uint64_t lo, uint64_t target)
{
    uint64_t hi = m->rows;
    while (lo < hi) {
        uint64_t mid = lo + (hi - lo) / 2;
        if (m->row_ptr[mid] + mid < target)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

/* Append up to `parts` chunks covering m's rows with balanced cost. */
static size_t add_chunks(chunk *out, const cs_csr *m, fr_t *dst, size_t parts)
{
    uint64_t total = m->row_ptr[m->rows] + m->rows;
    size_t n = 0;
    uint64_t begin = 0;
    for (size_t p = 1; p <= parts && begin < m->rows; p++) {
        uint64_t end = p == parts ? m->rows : split_row(m, begin, total / parts * p);
        if (end <= begin)
            continue;
        out[n++] = (chunk){m, dst, begin, end};
        begin = end;
    }
    return n;
}

static cuzk_status check(const char *name, fr_t *out, const cs_csr *m, const fr_t *w,
                         uint64_t n_w, cuzk_error *err)
{
    if (!m || !out)
        return (m || out) ? cuzk_fail(err, CUZK_E_INVALID_ARG,
                                      "spmv: matrix %s and its output must both be given or "
                                      "both be NULL",
                                      name)
                          : CUZK_OK;
    if (m->cols > n_w)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "spmv: matrix %s has %llu columns but the assignment has %llu values",
                         name, (unsigned long long)m->cols, (unsigned long long)n_w);
    if (m->rows > 0 && (!m->row_ptr || (m->row_ptr[m->rows] > 0 && (!m->col || !m->val || !w))))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "spmv: matrix %s has NULL arrays", name);
    return CUZK_OK;
}

cuzk_status cs_spmv_abc(fr_t *a, fr_t *b, fr_t *c, const cs_csr *A, const cs_csr *B,
                        const cs_csr *C, const fr_t *w, uint64_t n_w, unsigned threads,
                        cuzk_error *err)
{
    cuzk_status st;
    if ((st = check("A", a, A, w, n_w, err)) != CUZK_OK ||
        (st = check("B", b, B, w, n_w, err)) != CUZK_OK ||
        (st = check("C", c, C, w, n_w, err)) != CUZK_OK)
        return st;
    threads = cuzk_par_threads(threads);

    size_t parts = threads == 1 ? 1 : (size_t)threads * CHUNKS_PER_THREAD;
    chunk *chunks = malloc(3 * parts * sizeof *chunks);
    if (!chunks)
        return cuzk_fail(err, CUZK_E_NOMEM, "spmv: out of memory for %zu chunks", 3 * parts);
    job j = {.chunks = chunks, .n_chunks = 0, .w = w};
    const cs_csr *mats[3] = {A, B, C};
    fr_t *outs[3] = {a, b, c};
    for (int k = 0; k < 3; k++) {
        if (mats[k] && mats[k]->rows > 0)
            j.n_chunks += add_chunks(chunks + j.n_chunks, mats[k], outs[k], parts);
    }

    (void)cuzk_par_for(threads, j.n_chunks, run_item, &j, NULL);
    free(chunks);
    return CUZK_OK;
}

cuzk_status cs_spmv(fr_t *out, const cs_csr *m, const fr_t *w, uint64_t n_w, unsigned threads,
                    cuzk_error *err)
{
    if (!m || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "spmv: NULL matrix or output");
    return cs_spmv_abc(out, NULL, NULL, m, NULL, NULL, w, n_w, threads, err);
}
