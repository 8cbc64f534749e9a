/* TEMPORARY stand-in for gpu/msm.h; contract in gpu_msm_stub.h. */
#include "backends/gpu_msm_stub.h"

#include <stdlib.h>
#include <string.h>

#include "msm/msm.h"

struct gpu_msm_bases {
    gpu_buffer *points;
    size_t n;
};

cuzk_status gpu_msm_bases_upload(gpu_queue *q, const g1_affine_t *points, size_t n, gpu_msm_bases **out,
                                 cuzk_error *err)
{
    if (!q || (!points && n) || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_bases_upload: NULL argument");
    *out = NULL;
    gpu_msm_bases *b = calloc(1, sizeof *b);
    if (!b)
        return cuzk_fail(err, CUZK_E_NOMEM, "gpu_msm_bases_upload: out of memory");
    b->n = n;
    cuzk_status st = gpu_buffer_alloc(gpu_queue_device(q), (n ? n : 1) * sizeof(g1_affine_t), &b->points, err);
    if (!st)
        st = gpu_upload(q, b->points, 0, points, n * sizeof(g1_affine_t), err);
    if (!st)
        st = gpu_queue_sync(q, err);
    if (st) {
        gpu_msm_bases_free(b);
        return st;
    }
    *out = b;
    return CUZK_OK;
}

size_t gpu_msm_bases_bytes(const gpu_msm_bases *b)
{
    return b ? gpu_buffer_size(b->points) : 0;
}

size_t gpu_msm_bases_count(const gpu_msm_bases *b)
{
    return b ? b->n : 0;
}

void gpu_msm_bases_free(gpu_msm_bases *b)
{
    if (!b)
        return;
    gpu_buffer_free(b->points);
    free(b);
}

/* The CPU's witness-aware MSM (zeros skipped, ones summed) over bases[first .. first + n) downloaded through q, scalars as limbs. */
static cuzk_status msm_downloaded(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const uint64_t *limbs,
                                  size_t n, g1_jac_t *result, cuzk_error *err)
{
    g1_affine_t *pts = malloc((n ? n : 1) * sizeof *pts);
    if (!pts)
        return cuzk_fail(err, CUZK_E_NOMEM, "gpu_msm_g1: out of memory for %zu bases", n);
    cuzk_status st = gpu_download(q, pts, bases->points, first * sizeof *pts, n * sizeof *pts, err);
    if (!st)
        st = gpu_queue_sync(q, err);
    if (!st) {
        msm_opts_t opts = {.threads = 0};
        st = msm_g1_witness(result, pts, n, NULL, limbs, n, &opts, NULL, err);
    }
    free(pts);
    return st;
}

static cuzk_status check_range(const gpu_msm_bases *bases, size_t first, size_t n, g1_jac_t *result,
                               cuzk_error *err)
{
    if (!bases || !result)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_g1: NULL argument");
    if (first > bases->n || n > bases->n - first)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_g1: bases [%zu, %zu) beyond the %zu resident", first,
                         first + n, bases->n);
    return CUZK_OK;
}

cuzk_status gpu_msm_g1(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *scalars, size_t n,
                       g1_jac_t *result, cuzk_error *err)
{
    cuzk_status st = check_range(bases, first, n, result, err);
    if (st)
        return st;
    if (!q || !scalars || gpu_buffer_size(scalars) / 32 < n)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_g1: no queue, or a scalar buffer below %zu scalars", n);
    uint64_t *limbs = malloc((n ? n : 1) * 32);
    if (!limbs)
        return cuzk_fail(err, CUZK_E_NOMEM, "gpu_msm_g1: out of memory for %zu scalars", n);
    st = gpu_download(q, limbs, scalars, 0, n * 32, err);
    if (!st)
        st = msm_downloaded(q, bases, first, limbs, n, result, err);
    free(limbs);
    return st;
}

cuzk_status gpu_msm_g1_host(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const uint8_t *scalars,
                            size_t n, g1_jac_t *result, cuzk_error *err)
{
    cuzk_status st = check_range(bases, first, n, result, err);
    if (st)
        return st;
    if (!q || (!scalars && n))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_g1_host: NULL argument");
    if (((uintptr_t)scalars & 7) == 0)
        return msm_downloaded(q, bases, first, (const uint64_t *)scalars, n, result, err);
    uint64_t *limbs = malloc((n ? n : 1) * 32);
    if (!limbs)
        return cuzk_fail(err, CUZK_E_NOMEM, "gpu_msm_g1_host: out of memory for %zu scalars", n);
    memcpy(limbs, scalars, n * 32);
    st = msm_downloaded(q, bases, first, limbs, n, result, err);
    free(limbs);
    return st;
}
