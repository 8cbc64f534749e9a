/* Witness-aware MSM (msm.h, msm_g1_witness): the census of scalar sizes, the choice of
 * the short/full split, and the three phases (sum of the ones, short Pippenger, full
 * Pippenger), each run by msm_run_phase on all threads in turn. A sparse full or short
 * part (a witness's few large values) is first gathered into its own arrays (base index,
 * scalar; 36 bytes a pair), so that its windows do not walk the zeros and ones again. */
#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"

/* A part is gathered when it holds less than 1 / GATHER_SHARE of the pairs. */
#define GATHER_SHARE 4

/* Split points tried for the short Pippenger (bit lengths); 0 means none. */
static const unsigned SPLIT_CANDIDATES[] = {2,  3,  4,  5,  6,  7,  8,  10, 12,  14,  16,
                                            20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192};

/* hist[b] = number of pairs (density bit set) whose scalar has bit length b. The bases
 * are not read here (a pair whose base is at infinity is counted by its scalar and skipped
 * by the phase that meets it). */
static void census(size_t hist[256], const uint64_t *density, const uint64_t *scalars, size_t n)
{
    memset(hist, 0, 256 * sizeof *hist);
    for (size_t i = 0; i < n; i++) {
        if (density && !(density[i / 64] >> (i % 64) & 1))
            continue;
        hist[msm_scalar_bits(scalars + MSM_SCALAR_LIMBS * i)]++;
    }
}

/* The split t minimising the planned cost of short (2..t bits) plus full (> t bits). */
unsigned msm_witness_split(const size_t hist[256], msm_group_id id, const msm_opts_t *opts)
{
    size_t above = 0;
    for (unsigned b = 2; b < 256; b++)
        above += hist[b];
    msm_plan_t plan;
    double best = above ? msm_plan_bits(&plan, id, above, 255, opts) : 0;
    unsigned best_t = 0;
    size_t small = 0;
    unsigned b = 2;
    for (size_t i = 0; i < sizeof SPLIT_CANDIDATES / sizeof *SPLIT_CANDIDATES; i++) {
        unsigned t = SPLIT_CANDIDATES[i];
        for (; b <= t; b++)
            small += hist[b];
        if (small == 0)
            continue;
        size_t full = above - small;
        double cost = msm_plan_bits(&plan, id, small, t, opts) +
                      (full ? msm_plan_bits(&plan, id, full, 255, opts) : 0);
        if (cost < best) {
            best = cost;
            best_t = t;
        }
    }
    return best_t;
}

/* A class of pairs gathered out of the MSM's arrays: base indices and scalars, so that
 * its phase walks only its own pairs instead of every pair in every window. */
typedef struct {
    uint32_t *base_idx;
    uint64_t *scalars;
    size_t n;
} gathered_t;

/* Gather the pairs of bit lengths [lo1, hi1] into g[0] and [lo2, hi2] into g[1] (one pass;
 * a class whose count `want` is 0 is not gathered). False (nothing allocated) on
 * allocation failure. */
static bool gather(gathered_t g[2], const unsigned lo[2], const unsigned hi[2], const size_t want[2],
                   const msm_group_t *group, const unsigned char *bases, size_t base_size,
                   const uint64_t *density, const uint64_t *scalars, size_t n)
{
    for (int c = 0; c < 2; c++) {
        g[c].n = 0;
        g[c].base_idx = want[c] ? malloc(want[c] * sizeof *g[c].base_idx) : NULL;
        g[c].scalars = want[c] ? malloc(want[c] * MSM_SCALAR_LIMBS * sizeof *g[c].scalars) : NULL;
        if (want[c] && (!g[c].base_idx || !g[c].scalars)) {
            for (int d = 0; d <= c; d++)
                free(g[d].base_idx), free(g[d].scalars);
            return false;
        }
    }
    for (size_t i = 0, k = 0; i < n; i++) {
        if (density && !(density[i / 64] >> (i % 64) & 1))
            continue;
        const uint64_t *s = scalars + MSM_SCALAR_LIMBS * i;
        unsigned bits = msm_scalar_bits(s);
        for (int c = 0; c < 2; c++) {
            if (want[c] && bits >= lo[c] && bits <= hi[c] && !group->aff_is_inf(bases + k * base_size)) {
                g[c].base_idx[g[c].n] = (uint32_t)k;
                memcpy(g[c].scalars + MSM_SCALAR_LIMBS * g[c].n, s, MSM_SCALAR_LIMBS * sizeof *s);
                g[c].n++;
            }
        }
        k++;
    }
    return true;
}

cuzk_status msm_run_witness(const msm_group_t *group, void *out, const void *bases,
                            size_t base_size, size_t nbases, const uint64_t *density,
                            const uint64_t *scalars, size_t n, const msm_opts_t *opts,
                            msm_witness_stats_t *stats, cuzk_error *err)
{
    cuzk_status st = msm_check_inputs(out, bases, nbases, density, scalars, n, err);
    if (st)
        return st;
    size_t hist[256];
    census(hist, density, scalars, n);
    unsigned t = msm_witness_split(hist, group->id, opts);
    msm_witness_stats_t s = {.zeros = hist[0], .ones = hist[1], .small_bits = t};
    for (unsigned b = 2; b < 256; b++) {
        if (b <= t)
            s.small += hist[b];
        else
            s.full += hist[b];
    }

    /* The full and short parts are gathered when they are a small share of the pairs (the
     * witness case); otherwise their phases walk every pair and skip the others. */
    const unsigned lo[2] = {t ? t + 1 : 2, 2}, hi[2] = {255, t};
    const size_t count[2] = {s.full, s.small};
    size_t want[2];
    for (int c = 0; c < 2; c++)
        want[c] = count[c] && count[c] * GATHER_SHARE < nbases && nbases <= UINT32_MAX ? count[c] : 0;
    gathered_t g[2] = {{0}};
    if ((want[0] || want[1]) &&
        !gather(g, lo, hi, want, group, bases, base_size, density, scalars, n))
        want[0] = want[1] = 0;

    /* total = full + short + ones */
    msm_jac_any total, part;
    group->jac_set_infinity(&total);
    for (int c = 0; c < 2 && !st; c++) {
        if (!count[c])
            continue;
        if (want[c])
            st = msm_run_phase(group, &part, bases, base_size, nbases, NULL, g[c].base_idx, g[c].scalars,
                               g[c].n, lo[c], hi[c], g[c].n, opts, err);
        else
            st = msm_run_phase(group, &part, bases, base_size, nbases, density, NULL, scalars, n, lo[c],
                               hi[c], count[c], opts, err);
        if (!st)
            group->jac_add(&total, &total, &part);
    }
    for (int c = 0; c < 2; c++)
        free(g[c].base_idx), free(g[c].scalars);
    if (!st && s.ones) {
        st = msm_run_phase(group, &part, bases, base_size, nbases, density, NULL, scalars, n, 1, 1, s.ones,
                           opts, err);
        if (!st)
            group->jac_add(&total, &total, &part);
    }
    if (st)
        return st;
    group->jac_normalize(&total);
    memcpy(out, &total, group->jac_size);
    if (stats)
        *stats = s;
    return CUZK_OK;
}
