/* Public MSM entry points: thin wrappers binding the group tables to the driver. */
#include "msm/msm.h"
#include "msm/msm_internal.h"

cuzk_status msm_g1(g1_jac_t *out, const g1_affine_t *bases, const uint64_t *scalars,
                   size_t n, const msm_opts_t *opts, cuzk_error *err)
{
    return msm_run(&msm_group_g1, out, bases, sizeof *bases, n, NULL, scalars, n, opts, err);
}

cuzk_status msm_g2(g2_jac_t *out, const g2_affine_t *bases, const uint64_t *scalars,
                   size_t n, const msm_opts_t *opts, cuzk_error *err)
{
    return msm_run(&msm_group_g2, out, bases, sizeof *bases, n, NULL, scalars, n, opts, err);
}

cuzk_status msm_g1_density(g1_jac_t *out, const g1_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, cuzk_error *err)
{
    if (!density && n > 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm_g1_density: density is NULL");
    if (n == 0 && nbases != 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "msm_g1_density: n = 0 but nbases = %zu", nbases);
    return msm_run(&msm_group_g1, out, bases, sizeof *bases, nbases, n ? density : NULL,
                   scalars, n, opts, err);
}

cuzk_status msm_g2_density(g2_jac_t *out, const g2_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, cuzk_error *err)
{
    if (!density && n > 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm_g2_density: density is NULL");
    if (n == 0 && nbases != 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "msm_g2_density: n = 0 but nbases = %zu", nbases);
    return msm_run(&msm_group_g2, out, bases, sizeof *bases, nbases, n ? density : NULL,
                   scalars, n, opts, err);
}

cuzk_status msm_g1_witness(g1_jac_t *out, const g1_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err)
{
    if (!density && nbases != n)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "msm_g1_witness: no density but nbases = %zu != n = %zu", nbases, n);
    return msm_run_witness(&msm_group_g1, out, bases, sizeof *bases, nbases, n ? density : NULL,
                           scalars, n, opts, stats, err);
}

cuzk_status msm_g2_witness(g2_jac_t *out, const g2_affine_t *bases, size_t nbases,
                           const uint64_t *density, const uint64_t *scalars, size_t n,
                           const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err)
{
    if (!density && nbases != n)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "msm_g2_witness: no density but nbases = %zu != n = %zu", nbases, n);
    return msm_run_witness(&msm_group_g2, out, bases, sizeof *bases, nbases, n ? density : NULL,
                           scalars, n, opts, stats, err);
}

cuzk_status msm_g1_witness_sparse(g1_jac_t *out, const g1_affine_t *bases, size_t nbases,
                                  const uint64_t *density, const msm_sparse_scalars_t *s,
                                  const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err)
{
    return msm_run_witness_sparse(&msm_group_g1, out, bases, sizeof *bases, nbases, density, s, opts, stats, err);
}

cuzk_status msm_g2_witness_sparse(g2_jac_t *out, const g2_affine_t *bases, size_t nbases,
                                  const uint64_t *density, const msm_sparse_scalars_t *s,
                                  const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err)
{
    return msm_run_witness_sparse(&msm_group_g2, out, bases, sizeof *bases, nbases, density, s, opts, stats, err);
}
