/* Radix-2 DIT NTT engine: bit reversal, cache-blocked low stages, strided high stages with
 * sqrt-sized twiddle tables, all on a pthread team. Contracts in ntt_engine.h. On the ifma
 * CPU back end (field/cpu.h) the butterflies of every stage with half-size h >= 8 run 8 at
 * a time in ntt_ifma.c, with twiddle tables kept in that kernel's scaled vector form. */
#include "poly/ntt_engine.h"

#include <stdlib.h>
#include <string.h>

#include "common/cancel.h"
#include "common/par.h"
#include "field/cpu.h"

#define TW_CHUNK 64          /* twiddles computed at once in a strided stage */

typedef struct {
    fr_t *v;
    const ntt_plan *p;
    size_t n;
    unsigned k;          /* log2 n */
    unsigned block_log;  /* stages done block by block: 0 .. block_log-1 */
    unsigned lo_log;     /* omega^e = lo[e & (2^lo_log - 1)] * hi[e >> lo_log] */
    const fr_t *wb;      /* wb[j] = omega_B^j for j < B/2, omega_B = omega^(n/B) */
    const fr_t *lo, *hi;
    /* ifma back end: lo16[i] = 16 lo[i] (the scaled twiddle form of ntt_ifma_twiddles),
     * and per block stage s >= NTT_IFMA_MIN_LOG the stage's twiddles in vector form at
     * wbv + wbv_off[s] bytes; NULL otherwise */
    const fr_t *lo16;
    const unsigned char *wbv;
    size_t wbv_off[NTT_BLOCK_LOG];
    const atomic_bool *cancel; /* the caller's bound flag (common/cancel.h): skip the rest */
} ntt_job;

static uint32_t bitrev32(uint32_t x)
{
    x = ((x >> 1) & 0x55555555u) | ((x & 0x55555555u) << 1);
    x = ((x >> 2) & 0x33333333u) | ((x & 0x33333333u) << 2);
    x = ((x >> 4) & 0x0f0f0f0fu) | ((x & 0x0f0f0f0fu) << 4);
    x = ((x >> 8) & 0x00ff00ffu) | ((x & 0x00ff00ffu) << 8);
    return (x >> 16) | (x << 16);
}

/* v[i] *= c * base^i for lo <= i < hi */
static void scale_range(fr_t *v, size_t lo, size_t hi, const fr_t *c, const fr_t *base)
{
    if (lo >= hi)
        return;
    fr_t f;
    fr_pow_u64(&f, base, lo);
    fr_mul(&f, &f, c);
    for (size_t i = lo; i < hi; i++) {
        fr_mul(&v[i], &v[i], &f);
        fr_mul(&f, &f, base);
    }
}

/* (x, y) <- (x + w*y, x - w*y) */
static inline void butterfly(fr_t *x, fr_t *y, const fr_t *w)
{
    fr_t t;
    fr_mul(&t, y, w);
    fr_sub(y, x, &t);
    fr_add(x, x, &t);
}

static inline void butterfly_w1(fr_t *x, fr_t *y)
{
    fr_t t = *y;
    fr_sub(y, x, &t);
    fr_add(x, x, &t);
}

/* Stages 0 .. block_log-1 on one block of B = 2^block_log bit-reversed elements. */
static void block_stages(fr_t *x, const ntt_job *job)
{
    const unsigned block_log = job->block_log;
    const fr_t *wb = job->wb;
    size_t b = (size_t)1 << block_log;
    for (unsigned s = 0; s < block_log; s++) {
        size_t h = (size_t)1 << s, stride = b >> (s + 1); /* omega_{2h} = omega_B^(B/2h) */
#ifdef CUZK_HAVE_IFMA
        if (job->wbv && s >= NTT_IFMA_MIN_LOG) {
            for (size_t g = 0; g < b; g += 2 * h)
                ntt_ifma_butterflies(&x[g], &x[g + h], job->wbv + job->wbv_off[s], h);
            continue;
        }
#endif
        for (size_t g = 0; g < b; g += 2 * h) {
            butterfly_w1(&x[g], &x[g + h]);
            for (size_t j = 1; j < h; j++)
                butterfly(&x[g + j], &x[g + j + h], &wb[j * stride]);
        }
    }
}

/* Stage s >= block_log (half-size h = 2^s) for twiddle indices j in [jlo, jhi), all groups. */
static void strided_stage(const ntt_job *job, unsigned s, size_t jlo, size_t jhi)
{
    size_t h = (size_t)1 << s, mask = ((size_t)1 << job->lo_log) - 1;
    unsigned shift = job->k - 1 - s; /* omega_{2h}^j = omega^(j << shift) */
    fr_t tw[TW_CHUNK];
#ifdef CUZK_HAVE_IFMA
    _Alignas(64) unsigned char tv[TW_CHUNK / NTT_IFMA_LANES * NTT_IFMA_VECTOR_BYTES];
#endif
    for (size_t j0 = jlo; j0 < jhi; j0 += TW_CHUNK) {
        size_t cnt = jhi - j0 < TW_CHUNK ? jhi - j0 : TW_CHUNK;
        /* the first vcnt twiddles in the ifma kernel's scaled form (from lo16), the rest as
         * plain twiddles for the scalar butterfly */
        size_t vcnt = job->lo16 ? cnt & ~(size_t)(NTT_IFMA_LANES - 1) : 0;
        for (size_t c = 0; c < cnt; c++) {
            size_t e = (j0 + c) << shift, e_hi = e >> job->lo_log;
            const fr_t *lo = c < vcnt ? job->lo16 : job->lo;
            if (e_hi)
                fr_mul(&tw[c], &lo[e & mask], &job->hi[e_hi]);
            else
                tw[c] = lo[e & mask];
        }
#ifdef CUZK_HAVE_IFMA
        if (vcnt)
            ntt_ifma_twiddles(tv, tw, vcnt, true);
#endif
        for (size_t g = 0; g < job->n; g += 2 * h) {
            fr_t *x = job->v + g + j0;
#ifdef CUZK_HAVE_IFMA
            if (vcnt)
                ntt_ifma_butterflies(x, x + h, tv, vcnt);
#endif
            for (size_t c = vcnt; c < cnt; c++)
                butterfly(&x[c], &x[c + h], &tw[c]);
        }
    }
}

static void ntt_worker(cuzk_par_team *team, unsigned tid, unsigned nthreads, void *arg)
{
    const ntt_job *job = arg;
    const ntt_plan *p = job->p;
    fr_t *v = job->v;
    size_t lo, hi;

    cuzk_par_range(job->n, tid, nthreads, &lo, &hi);
    if (p->pre) {
        scale_range(v, lo, hi, &p->pre_c, &p->pre_base);
        cuzk_par_barrier(team);
    }
    unsigned rshift = 32 - job->k;
    for (size_t i = lo; i < hi; i++) {
        size_t j = bitrev32((uint32_t)i) >> rshift;
        if (i < j) {
            fr_t t = v[i];
            v[i] = v[j];
            v[j] = t;
        }
    }
    cuzk_par_barrier(team);

    /* once cancelled every member skips the remaining work but still meets the barriers */
    size_t nblocks = job->n >> job->block_log;
    cuzk_par_range(nblocks, tid, nthreads, &lo, &hi);
    for (size_t b = lo; b < hi && !cuzk_cancel_is_set(job->cancel); b++)
        block_stages(v + (b << job->block_log), job);
    cuzk_par_barrier(team);

    for (unsigned s = job->block_log; s < job->k; s++) {
        cuzk_par_range((size_t)1 << s, tid, nthreads, &lo, &hi);
        if (!cuzk_cancel_is_set(job->cancel))
            strided_stage(job, s, lo, hi);
        cuzk_par_barrier(team);
    }

    if (p->post) {
        cuzk_par_range(job->n, tid, nthreads, &lo, &hi);
        scale_range(v, lo, hi, &p->post_c, &p->post_base);
    }
}

/* t[i] = w^i for i < len */
static void powers(fr_t *t, size_t len, const fr_t *w)
{
    if (!len)
        return;
    t[0] = FR_ONE;
    for (size_t i = 1; i < len; i++)
        fr_mul(&t[i], &t[i - 1], w);
}

#ifdef CUZK_HAVE_IFMA
/* The ifma kernel's tables (one allocation, *out): lo16 when there are strided stages, and
 * the twiddles wb[j * stride], j < h, of each block stage with h >= 8 in vector form. */
static cuzk_status ifma_tables(ntt_job *job, void **out)
{
    size_t lo_len = job->lo ? (size_t)1 << job->lo_log : 0, bytes = 0;
    size_t lo16_bytes = (lo_len * sizeof(fr_t) + 63) & ~(size_t)63;
    for (unsigned s = NTT_IFMA_MIN_LOG; s < job->block_log; s++)
        bytes += ntt_ifma_twiddle_bytes((size_t)1 << s);
    unsigned char *t = aligned_alloc(64, lo16_bytes + bytes + 64);
    fr_t *stage = malloc(((size_t)1 << (job->block_log - 1)) * sizeof *stage + 1);
    if (!t || !stage) {
        free(t);
        free(stage);
        return CUZK_E_NOMEM;
    }
    if (lo_len) {
        fr_t *lo16 = (fr_t *)(void *)t;
        for (size_t i = 0; i < lo_len; i++)
            fr_mul(&lo16[i], &job->lo[i], &NTT_IFMA_SIXTEEN);
        job->lo16 = lo16;
    }
    size_t off = lo16_bytes, b = (size_t)1 << job->block_log;
    for (unsigned s = NTT_IFMA_MIN_LOG; s < job->block_log; s++) {
        size_t h = (size_t)1 << s, stride = b >> (s + 1);
        for (size_t j = 0; j < h; j++)
            stage[j] = job->wb[j * stride];
        ntt_ifma_twiddles(t + off, stage, h, false);
        job->wbv_off[s] = off;
        off += ntt_ifma_twiddle_bytes(h);
    }
    free(stage);
    job->wbv = t;
    *out = t;
    return CUZK_OK;
}
#endif

cuzk_status ntt_engine_run(fr_t *v, const ntt_plan *p, unsigned threads)
{
    unsigned k = p->log2_n;
    if (k == 0) {
        if (p->pre)
            fr_mul(&v[0], &v[0], &p->pre_c);
        if (p->post)
            fr_mul(&v[0], &v[0], &p->post_c);
        return CUZK_OK;
    }
    ntt_job job = {.v = v, .p = p, .n = (size_t)1 << k, .k = k, .cancel = cuzk_cancel_flag()};
    job.block_log = k < NTT_BLOCK_LOG ? k : NTT_BLOCK_LOG;
    job.lo_log = k / 2; /* = ceil((k - 1) / 2): lo and hi together cover e < 2^(k-1) */
    size_t wb_len = (size_t)1 << (job.block_log - 1);
    size_t lo_len = 0, hi_len = 0;
    if (k > job.block_log) {
        lo_len = (size_t)1 << job.lo_log;
        hi_len = (size_t)1 << (k - 1 - job.lo_log);
    }
    fr_t *tables = malloc((wb_len + lo_len + hi_len) * sizeof *tables);
    if (!tables)
        return CUZK_E_NOMEM;
    fr_t w = p->omega;
    for (unsigned i = job.block_log; i < k; i++)
        fr_sqr(&w, &w);
    powers(tables, wb_len, &w);
    job.wb = tables;
    if (lo_len) {
        powers(tables + wb_len, lo_len, &p->omega);
        w = p->omega;
        for (unsigned i = 0; i < job.lo_log; i++)
            fr_sqr(&w, &w);
        powers(tables + wb_len + lo_len, hi_len, &w);
        job.lo = tables + wb_len;
        job.hi = tables + wb_len + lo_len;
    }

    void *vtables = NULL;
#ifdef CUZK_HAVE_IFMA
    if (cuzk_cpu_use_ifma() && ifma_tables(&job, &vtables) != CUZK_OK) {
        free(tables);
        return CUZK_E_NOMEM;
    }
#endif
    cuzk_par_run(cuzk_par_useful_threads(job.n, NTT_PAR_GRAIN, threads), ntt_worker, &job);
    free(tables);
    free(vtables);
    return cuzk_cancel_is_set(job.cancel) ? CUZK_E_CANCELLED : CUZK_OK;
}
