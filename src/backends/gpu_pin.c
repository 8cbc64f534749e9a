/* The engine's a/b/c pool buffers registered with the devices, so that a partition's a/b/c go
 * to the device as one asynchronous copy each, straight from the pool buffer, instead of
 * through the worker's staging halves; see gpu_internal.h. Each buffer is registered once when
 * the pool maps it and unregistered when the pool unmaps it (engine/abc_pool.h pinning hooks),
 * never per partition, as supraseal-c2 keeps its host a/b/c pinned across partitions. */
#include <stdlib.h>

#include "backends/gpu_internal.h"
#include "engine/abc_pool.h"
#include "engine/log.h"

static void on_map(void *ctx, void *mem, size_t bytes)
{
    gpu_pin_table *t = ctx;
    gpu_host_buffer *h = NULL;
    cuzk_error err = {0};
    cuzk_status st = gpu_host_register(t->dev, mem, bytes, &h, &err);
    pthread_mutex_lock(&t->mu);
    if (!st && t->n == t->cap) {
        size_t cap = t->cap ? 2 * t->cap : 16;
        gpu_pinned *nb = realloc(t->bufs, cap * sizeof *nb);
        if (nb) {
            t->bufs = nb;
            t->cap = cap;
        } else {
            st = cuzk_fail(&err, CUZK_E_NOMEM, "out of memory for the registered buffer table");
        }
    }
    if (!st) {
        t->bufs[t->n++] = (gpu_pinned){mem, bytes, h};
        t->bytes += bytes;
    } else {
        t->failures++;
    }
    pthread_mutex_unlock(&t->mu);
    if (st) {
        gpu_host_free(h);
        cuzk_log(CUZK_LOG_WARN, "gpu backend: an a/b/c pool buffer of %zu bytes is not registered (%s); its "
                                "partitions go through the pinned staging", bytes, err.msg);
    }
}

static void on_unmap(void *ctx, void *mem, size_t bytes)
{
    (void)bytes;
    gpu_pin_table *t = ctx;
    gpu_host_buffer *h = NULL;
    pthread_mutex_lock(&t->mu);
    for (size_t i = 0; i < t->n; i++)
        if (t->bufs[i].mem == mem) {
            h = t->bufs[i].h;
            t->bytes -= t->bufs[i].bytes;
            t->bufs[i] = t->bufs[--t->n];
            break;
        }
    pthread_mutex_unlock(&t->mu);
    gpu_host_free(h); /* no upload reads it: the pool unmaps only buffers no partition holds */
}

void gpu_pin_attach(gpu_pin_table *t, gpu_device *dev, cuzk_abc_pool *pool)
{
    t->dev = dev;
    t->pool = pool;
    if (pool)
        cuzk_abc_pool_set_hooks(pool, &(cuzk_abc_pool_hooks){on_map, on_unmap, t});
}

void gpu_pin_detach(gpu_pin_table *t)
{
    if (t->pool)
        cuzk_abc_pool_set_hooks(t->pool, NULL);
    t->pool = NULL;
    pthread_mutex_lock(&t->mu);
    for (size_t i = 0; i < t->n; i++)
        gpu_host_free(t->bufs[i].h);
    t->n = 0;
    t->bytes = 0;
    pthread_mutex_unlock(&t->mu);
}

bool gpu_pin_covers(gpu_pin_table *t, const void *p, size_t bytes)
{
    const char *a = p;
    bool yes = false;
    pthread_mutex_lock(&t->mu);
    for (size_t i = 0; i < t->n && !yes; i++) {
        const char *m = t->bufs[i].mem;
        yes = a >= m && bytes <= t->bufs[i].bytes && (size_t)(a - m) <= t->bufs[i].bytes - bytes;
    }
    pthread_mutex_unlock(&t->mu);
    return yes;
}
