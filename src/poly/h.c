/* Groth16 H in the bellperson and snarkjs forms over one shared core; contracts in h.h. */
#include "poly/h.h"

#include "common/par.h"
#include "poly/ntt_engine.h"
#include "poly/roots.h"

size_t poly_h_len(poly_h_form form, size_t m)
{
    if (form == POLY_H_BELLPERSON)
        return m ? m - 1 : 0;
    if (form == POLY_H_SNARKJS)
        return m;
    return 0;
}

typedef struct {
    fr_t *a;
    const fr_t *b, *c;
    size_t m;
} combine_job;

/* a_i <- a_i b_i - c_i on this thread's range */
static void combine_worker(cuzk_par_team *team, unsigned tid, unsigned nthreads, void *arg)
{
    const combine_job *job = arg;
    size_t lo, hi;
    cuzk_par_range(job->m, tid, nthreads, &lo, &hi);
    for (size_t i = lo; i < hi; i++) {
        fr_t t;
        fr_mul(&t, &job->a[i], &job->b[i]);
        fr_sub(&job->a[i], &t, &job->c[i]);
    }
}

/* The error of a failed ntt_engine_run. */
static cuzk_status ntt_failed(cuzk_status st, unsigned log2_m, cuzk_error *err)
{
    if (st == CUZK_E_CANCELLED)
        return cuzk_fail(err, st, "poly_h_compute: cancelled");
    return cuzk_fail(err, st, "poly_h_compute: cannot allocate root tables for log2_m = %u", log2_m);
}

cuzk_status poly_h_compute(fr_t *a, fr_t *b, fr_t *c, unsigned log2_m, poly_h_form form, unsigned threads,
                           cuzk_error *err)
{
    if (!a || !b || !c)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "poly_h_compute: a, b or c is NULL");
    if (log2_m > POLY_MAX_LOG2)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "poly_h_compute: log2_m = %u exceeds the maximum %u", log2_m,
                         POLY_MAX_LOG2);
    if (threads == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "poly_h_compute: threads = 0, need at least 1");
    if (form != POLY_H_BELLPERSON && form != POLY_H_SNARKJS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "poly_h_compute: unknown form %d", (int)form);

    size_t m = (size_t)1 << log2_m;
    poly_roots roots = form == POLY_H_BELLPERSON ? POLY_ROOTS_FF : POLY_ROOTS_SNARKJS;
    fr_t omega, omega_inv, m_inv, shift;
    poly_root_of_unity(&omega, log2_m, roots);
    fr_inv(&omega_inv, &omega);
    fr_from_u64(&m_inv, m);
    fr_inv(&m_inv, &m_inv);
    if (form == POLY_H_BELLPERSON)
        fr_generator(&shift);                           /* coset g*<omega>, g = 7 */
    else
        poly_root_of_unity(&shift, log2_m + 1, roots);  /* odd points: omega_2m*<omega> */

    /* Shared core: values of A, B, C on shift*<omega>. The inverse NTT's m^-1 and the coset
     * factor shift^i are one fused post-scaling; the forward NTT needs none. */
    ntt_plan to_coeffs = {.log2_n = log2_m, .omega = omega_inv, .post = true, .post_c = m_inv,
                          .post_base = shift};
    ntt_plan to_values = {.log2_n = log2_m, .omega = omega};
    fr_t *vec[3] = {a, b, c};
    for (int i = 0; i < 3; i++) {
        cuzk_status st = ntt_engine_run(vec[i], &to_coeffs, threads);
        if (!st)
            st = ntt_engine_run(vec[i], &to_values, threads);
        if (st)
            return ntt_failed(st, log2_m, err);
    }

    combine_job job = {.a = a, .b = b, .c = c, .m = m};
    cuzk_par_run(cuzk_par_useful_threads(m, NTT_PAR_GRAIN, threads), combine_worker, &job);
    if (form == POLY_H_SNARKJS)
        return CUZK_OK;

    /* bellperson: divide by Z = g^m - 1, then inverse coset NTT; both scalings fused into the
     * post-scaling m^-1 (g^m - 1)^-1 g^-i. */
    fr_t z;
    fr_pow_u64(&z, &shift, m);
    fr_sub(&z, &z, &FR_ONE);
    fr_inv(&z, &z);
    ntt_plan back = {.log2_n = log2_m, .omega = omega_inv, .post = true};
    fr_mul(&back.post_c, &m_inv, &z);
    fr_inv(&back.post_base, &shift);
    cuzk_status st = ntt_engine_run(a, &back, threads);
    return st ? ntt_failed(st, log2_m, err) : CUZK_OK;
}
