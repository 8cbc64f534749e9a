/* Witness-aware MSM (msm.h, msm_g1_witness): the census of scalar sizes, the choice of
 * the short/full split, and the three phases (sum of the ones, short Pippenger, full
 * Pippenger), each run by msm_run_phase on all threads in turn. */
#include <string.h>

#include "msm/msm_internal.h"

/* Split points tried for the short Pippenger (bit lengths); 0 means none. */
static const unsigned SPLIT_CANDIDATES[] = {2,  3,  4,  5,  6,  7,  8,  10, 12,  14,  16,
                                            20, 24, 32, 40, 48, 64, 80, 96, 128, 160, 192};

/* hist[b] = number of contributing pairs (base not at infinity) whose scalar has bit
 * length b; hist[0] also counts the pairs with a base at infinity. */
static void census(size_t hist[256], const msm_group_t *group, const unsigned char *bases,
                   size_t base_size, const uint64_t *density, const uint64_t *scalars, size_t n)
{
    memset(hist, 0, 256 * sizeof *hist);
    for (size_t i = 0, k = 0; i < n; i++) {
        if (density && !(density[i / 64] >> (i % 64) & 1))
            continue;
        unsigned bits = msm_scalar_bits(scalars + MSM_SCALAR_LIMBS * i);
        if (bits && group->aff_is_inf(bases + k * base_size))
            bits = 0;
        hist[bits]++;
        k++;
    }
}

/* The split t minimising the planned cost of short (2..t bits) plus full (> t bits). */
static unsigned choose_split(const size_t hist[256], msm_group_id id, const msm_opts_t *opts)
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

cuzk_status msm_run_witness(const msm_group_t *group, void *out, const void *bases,
                            size_t base_size, size_t nbases, const uint64_t *density,
                            const uint64_t *scalars, size_t n, const msm_opts_t *opts,
                            msm_witness_stats_t *stats, cuzk_error *err)
{
    cuzk_status st = msm_check_inputs(out, bases, nbases, density, scalars, n, err);
    if (st)
        return st;
    size_t hist[256];
    census(hist, group, bases, base_size, density, scalars, n);
    unsigned t = choose_split(hist, group->id, opts);
    msm_witness_stats_t s = {.zeros = hist[0], .ones = hist[1], .small_bits = t};
    for (unsigned b = 2; b < 256; b++) {
        if (b <= t)
            s.small += hist[b];
        else
            s.full += hist[b];
    }

    /* total = full + short + ones */
    msm_jac_any total, part;
    st = msm_run_phase(group, &total, bases, base_size, nbases, density, scalars, n, t ? t + 1 : 2,
                       255, s.full, opts, err);
    if (!st && s.small) {
        st = msm_run_phase(group, &part, bases, base_size, nbases, density, scalars, n, 2, t,
                           s.small, opts, err);
        if (!st)
            group->jac_add(&total, &total, &part);
    }
    if (!st && s.ones) {
        st = msm_run_phase(group, &part, bases, base_size, nbases, density, scalars, n, 1, 1,
                           s.ones, opts, err);
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
