/* Parallel subgroup check of a zkey's points (zkey_internal.h). Subgroup membership costs
 * a scalar multiplication per point (curve.h: endomorphism checks), about 100x the on-curve
 * test, so it runs on all threads: work is cut into chunks of CHUNK points that threads
 * take from a shared counter; each run keeps the lowest failing index so the reported
 * point does not depend on scheduling. */
#include <stdatomic.h>
#include <stdlib.h>

#include "common/par.h"
#include "groth16/zkey_internal.h"

#define CHUNK 256u
#define MAX_THREADS 64u

typedef struct {
    const zkey_point_run *runs;
    size_t n_runs;
    uint64_t *first_chunk; /* prefix sums: chunk index where run i starts; n_runs + 1 */
    _Atomic uint64_t *first_bad; /* per run: lowest failing index, UINT64_MAX if none */
} job;

static cuzk_status check_chunk(void *ctx, uint64_t chunk, unsigned worker, cuzk_error *err)
{
    job *j = ctx;
    size_t r = 0;
    while (j->first_chunk[r + 1] <= chunk)
        r++;
    const zkey_point_run *run = &j->runs[r];
    uint64_t begin = (chunk - j->first_chunk[r]) * CHUNK;
    uint64_t end = begin + CHUNK < run->n ? begin + CHUNK : run->n;
    for (uint64_t i = begin; i < end; i++) {
        bool ok = run->g2 ? g2_affine_in_subgroup(&((const g2_affine_t *)run->pts)[i])
                          : g1_affine_in_subgroup(&((const g1_affine_t *)run->pts)[i]);
        if (ok)
            continue;
        uint64_t cur = atomic_load(&j->first_bad[r]);
        while (i < cur && !atomic_compare_exchange_weak(&j->first_bad[r], &cur, i))
            ;
        break;
    }
    return CUZK_OK;
}

cuzk_status zkey_check_subgroup_runs(const zkey_point_run *runs, size_t n_runs, unsigned threads,
                                     cuzk_error *err)
{
    job j = {.runs = runs, .n_runs = n_runs};
    j.first_chunk = malloc((n_runs + 1) * sizeof *j.first_chunk);
    j.first_bad = malloc((n_runs ? n_runs : 1) * sizeof *j.first_bad);
    if (!j.first_chunk || !j.first_bad) {
        free(j.first_chunk);
        free((void *)j.first_bad);
        return cuzk_fail(err, CUZK_E_NOMEM, "zkey: out of memory for the subgroup check");
    }
    j.first_chunk[0] = 0;
    for (size_t i = 0; i < n_runs; i++) {
        j.first_chunk[i + 1] = j.first_chunk[i] + (runs[i].n + CHUNK - 1) / CHUNK;
        atomic_init(&j.first_bad[i], UINT64_MAX);
    }
    threads = cuzk_par_threads(threads);
    if (threads > MAX_THREADS)
        threads = MAX_THREADS;
    (void)cuzk_par_for(threads, j.first_chunk[n_runs], check_chunk, &j, NULL);

    cuzk_status st = CUZK_OK;
    for (size_t i = 0; i < n_runs && st == CUZK_OK; i++) {
        uint64_t bad = atomic_load(&j.first_bad[i]);
        if (bad == UINT64_MAX)
            continue;
        const zkey_point_run *r = &runs[i];
        uint64_t off = r->file_offset + bad * (r->g2 ? ZKEY_G2_BYTES : ZKEY_G1_BYTES);
        st = cuzk_fail(err, CUZK_E_POINT_NOT_IN_SUBGROUP,
                       "zkey: section %u (%s) %s[%llu] at offset %llu is not in the %s subgroup",
                       r->sec, zkey_section_name(r->sec), r->field, (unsigned long long)bad,
                       (unsigned long long)off, r->g2 ? "G2" : "G1");
    }
    free(j.first_chunk);
    free((void *)j.first_bad);
    return st;
}
