/* Public NTT entry points: argument checks and the plan for each transform. Contracts in ntt.h. */
#include "poly/ntt.h"

#include <stdbool.h>

#include "poly/ntt_engine.h"

static cuzk_status check_args(const char *fn, const fr_t *v, unsigned log2_n, poly_roots roots,
                              unsigned threads, cuzk_error *err)
{
    if (!v)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: v is NULL", fn);
    if (log2_n > POLY_MAX_LOG2)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: log2_n = %u exceeds the maximum %u", fn, log2_n,
                         POLY_MAX_LOG2);
    if (threads == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: threads = 0, need at least 1", fn);
    if (roots != POLY_ROOTS_FF && roots != POLY_ROOTS_SNARKJS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: unknown root family %d", fn, (int)roots);
    return CUZK_OK;
}

/* Forward transform with optional pre-scaling by shift^i, or inverse transform with
 * post-scaling by n^-1 * shift^-i; shift == NULL means no coset. */
static cuzk_status transform(const char *fn, fr_t *v, unsigned log2_n, poly_roots roots, bool inverse,
                             const fr_t *shift, unsigned threads, cuzk_error *err)
{
    cuzk_status st = check_args(fn, v, log2_n, roots, threads, err);
    if (st)
        return st;
    if (shift && fr_is_zero(shift))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: coset shift is zero", fn);
    ntt_plan plan = {.log2_n = log2_n};
    poly_root_of_unity(&plan.omega, log2_n, roots);
    if (!inverse) {
        if (shift) {
            plan.pre = true;
            plan.pre_c = FR_ONE;
            plan.pre_base = *shift;
        }
    } else {
        fr_inv(&plan.omega, &plan.omega);
        plan.post = true;
        fr_from_u64(&plan.post_c, (uint64_t)1 << log2_n);
        fr_inv(&plan.post_c, &plan.post_c);
        plan.post_base = FR_ONE;
        if (shift)
            fr_inv(&plan.post_base, shift);
    }
    st = ntt_engine_run(v, &plan, threads);
    if (st == CUZK_E_CANCELLED)
        return cuzk_fail(err, st, "%s: cancelled", fn);
    if (st)
        return cuzk_fail(err, st, "%s: cannot allocate root tables for log2_n = %u", fn, log2_n);
    return CUZK_OK;
}

cuzk_status poly_ntt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err)
{
    return transform("poly_ntt", v, log2_n, roots, false, NULL, threads, err);
}

cuzk_status poly_intt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err)
{
    return transform("poly_intt", v, log2_n, roots, true, NULL, threads, err);
}

cuzk_status poly_coset_ntt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err)
{
    fr_t g;
    fr_generator(&g);
    return transform("poly_coset_ntt", v, log2_n, roots, false, &g, threads, err);
}

cuzk_status poly_coset_intt(fr_t *v, unsigned log2_n, poly_roots roots, unsigned threads, cuzk_error *err)
{
    fr_t g;
    fr_generator(&g);
    return transform("poly_coset_intt", v, log2_n, roots, true, &g, threads, err);
}

cuzk_status poly_coset_ntt_shift(fr_t *v, unsigned log2_n, poly_roots roots, const fr_t *shift,
                                 unsigned threads, cuzk_error *err)
{
    if (!shift)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "poly_coset_ntt_shift: shift is NULL");
    return transform("poly_coset_ntt_shift", v, log2_n, roots, false, shift, threads, err);
}

cuzk_status poly_coset_intt_shift(fr_t *v, unsigned log2_n, poly_roots roots, const fr_t *shift,
                                  unsigned threads, cuzk_error *err)
{
    if (!shift)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "poly_coset_intt_shift: shift is NULL");
    return transform("poly_coset_intt_shift", v, log2_n, roots, true, shift, threads, err);
}
