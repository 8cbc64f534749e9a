/* Pairwise batch-affine sum of G1 points on the device; contract in g1_sum.h. */
#include "gpu/g1_sum.h"

#include "gpu/runtime_internal.h"

#define SUM_GROUP 64
#define SUM_MAX_PER_ITEM 64

/* Pairs per work-item: enough work-items to fill the device (1024 per compute unit), at most
 * SUM_MAX_PER_ITEM pairs each so the inversion is amortised without long serial runs. */
static uint32_t per_item(const gpu_device *dev, size_t npairs)
{
    size_t target = (size_t)(dev->info.compute_units ? dev->info.compute_units : 1) * 1024;
    size_t p = (npairs + target - 1) / target;
    return (uint32_t)(p < 1 ? 1 : p > SUM_MAX_PER_ITEM ? SUM_MAX_PER_ITEM : p);
}

cuzk_status gpu_g1_sum_affine(gpu_queue *q, gpu_buffer *points, size_t n, g1_affine_t *sum, cuzk_error *err)
{
    if (!q || !points || !sum)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_g1_sum_affine: NULL argument");
    gpu_device *dev = gpu_queue_device(q);
    if (n >= ((size_t)1 << 32))
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "gpu_g1_sum_affine: %zu points, at most 2^32 - 1", n);
    if (gpu_buffer_size(points) / sizeof(g1_affine_t) < n)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "gpu_g1_sum_affine: %zu points do not fit a buffer of %zu bytes",
                        n, gpu_buffer_size(points));
    if (n == 0) {
        g1_affine_set_infinity(sum);
        return CUZK_OK;
    }
    if (n == 1) {
        cuzk_status st = gpu_download(q, sum, points, 0, sizeof *sum, err);
        return st ? st : gpu_queue_sync(q, err);
    }
    gpu_buffer *lvl[2] = {NULL, NULL}, *scratch = NULL;
    size_t half = (n + 1) / 2;
    cuzk_status st = gpu_buffer_alloc(dev, half * sizeof(g1_affine_t), &lvl[0], err);
    if (!st)
        st = gpu_buffer_alloc(dev, ((half + 1) / 2) * sizeof(g1_affine_t), &lvl[1], err);
    if (!st)
        st = gpu_buffer_alloc(dev, (n / 2) * sizeof(fp_t), &scratch, err);
    gpu_buffer *in = points;
    int next = 0;
    for (size_t cur = n; !st && cur > 1; cur = (cur + 1) / 2) {
        size_t npairs = cur / 2;
        uint32_t per = per_item(dev, npairs);
        size_t items = (npairs + per - 1) / per;
        gpu_arg args[] = {gpu_arg_buf(in), gpu_arg_buf(lvl[next]), gpu_arg_buf(scratch), gpu_arg_u32((uint32_t)cur),
                          gpu_arg_u32(per)};
        st = gpu_launch(q, "g1_affine_add_pairs", (items + SUM_GROUP - 1) / SUM_GROUP, SUM_GROUP, args, 5, err);
        in = lvl[next];
        next ^= 1;
    }
    if (!st)
        st = gpu_download(q, sum, in, 0, sizeof *sum, err);
    if (!st)
        st = gpu_queue_sync(q, err);
    else
        gpu_queue_sync(q, NULL);
    gpu_buffer_free(lvl[0]);
    gpu_buffer_free(lvl[1]);
    gpu_buffer_free(scratch);
    return st;
}
