/* Runtime-independent half of runtime.h: argument checks, handle allocation, messages, and
 * dispatch to the OpenCL / CUDA implementations. */
#include "gpu/runtime.h"

#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "gpu/runtime_internal.h"

/* The device reads host arrays of 64-bit limbs as pairs of 32-bit limbs, low half first. */
_Static_assert(__BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__, "src/gpu needs a little-endian host");

static const gpu_backend_ops *ops_of(gpu_runtime rt)
{
#ifdef CUZK_HAVE_OPENCL
    if (rt == GPU_RUNTIME_OPENCL)
        return &gpu_opencl_ops;
#endif
#ifdef CUZK_HAVE_CUDA
    if (rt == GPU_RUNTIME_CUDA)
        return &gpu_cuda_ops;
#endif
    (void)rt;
    return NULL;
}

const char *gpu_runtime_name(gpu_runtime rt)
{
    return rt == GPU_RUNTIME_OPENCL ? "opencl" : rt == GPU_RUNTIME_CUDA ? "cuda" : "?";
}

cuzk_status gpu_runtime_parse(const char *name, gpu_runtime *out, cuzk_error *err)
{
    for (int rt = 0; rt < GPU_RUNTIME_COUNT; rt++)
        if (name && !strcmp(name, gpu_runtime_name((gpu_runtime)rt))) {
            *out = (gpu_runtime)rt;
            return CUZK_OK;
        }
    return cuzk_fail(err, CUZK_E_INVALID_ARG, "unknown GPU runtime '%s' (expected opencl or cuda)",
                     name ? name : "(null)");
}

bool gpu_runtime_built(gpu_runtime rt)
{
    return ops_of(rt) != NULL;
}

cuzk_status gpu_fail(const gpu_device *dev, cuzk_error *err, cuzk_status code, const char *fmt, ...)
{
    if (err) {
        char msg[sizeof err->msg];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        cuzk_fail(err, code, "%s: %s", dev ? dev->label : "gpu", msg);
    }
    return code;
}

void gpu_copy_str(char *dst, size_t cap, const char *src)
{
    snprintf(dst, cap, "%s", src ? src : "");
    size_t n = strlen(dst);
    while (n > 0 && (dst[n - 1] == ' ' || dst[n - 1] == '\n'))
        dst[--n] = '\0';
}

gpu_device_info *gpu_report_add(gpu_report *r)
{
    gpu_device_info *d = realloc(r->devices, (r->ndevices + 1) * sizeof *d);
    if (!d)
        return NULL;
    r->devices = d;
    gpu_device_info *e = &d[r->ndevices];
    memset(e, 0, sizeof *e);
    e->runtime = r->runtime;
    e->index = (unsigned)r->ndevices++;
    return e;
}

cuzk_status gpu_discover(gpu_runtime rt, gpu_report *out, cuzk_error *err)
{
    if (!out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_discover: out is NULL");
    memset(out, 0, sizeof *out);
    out->runtime = rt;
    if (rt != GPU_RUNTIME_OPENCL && rt != GPU_RUNTIME_CUDA)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_discover: unknown runtime %d", (int)rt);
    const gpu_backend_ops *ops = ops_of(rt);
    if (!ops) {
        snprintf(out->reason, sizeof out->reason, "not built into this binary (%s)",
                 rt == GPU_RUNTIME_CUDA ? "no nvcc at build time, or -DCUZK_CUDA=OFF"
                                        : "no OpenCL ICD loader and headers at build time, or -DCUZK_OPENCL=OFF");
        return CUZK_OK;
    }
    out->built = true;
    cuzk_status st = ops->discover(out, err);
    if (st) {
        gpu_report_free(out);
        out->runtime = rt;
        out->built = true;
        return st;
    }
    if (out->ndevices == 0 && !out->reason[0])
        snprintf(out->reason, sizeof out->reason, "the %s runtime reports no device", gpu_runtime_name(rt));
    return CUZK_OK;
}

void gpu_report_free(gpu_report *r)
{
    if (!r)
        return;
    free(r->devices);
    r->devices = NULL;
    r->ndevices = 0;
}

static double now_s(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

cuzk_status gpu_device_open(gpu_runtime rt, unsigned index, const gpu_program *prog, gpu_device **out,
                            cuzk_error *err)
{
    if (!out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_device_open: out is NULL");
    *out = NULL;
    if (!prog)
        prog = gpu_program_builtin();
    gpu_report rep;
    cuzk_status st = gpu_discover(rt, &rep, err);
    if (st)
        return st;
    if (!rep.built) {
        cuzk_fail(err, CUZK_E_UNSUPPORTED, "%s:%u: the %s runtime is %s", gpu_runtime_name(rt), index,
                  gpu_runtime_name(rt), rep.reason);
        gpu_report_free(&rep);
        return CUZK_E_UNSUPPORTED;
    }
    if (index >= rep.ndevices) {
        st = rep.ndevices == 0 ? CUZK_E_UNSUPPORTED : CUZK_E_INVALID_ARG;
        if (rep.ndevices == 0)
            cuzk_fail(err, st, "%s:%u: no device: %s", gpu_runtime_name(rt), index, rep.reason);
        else
            cuzk_fail(err, st, "%s:%u: no such device (the %s runtime has %zu: indices 0..%zu)",
                      gpu_runtime_name(rt), index, gpu_runtime_name(rt), rep.ndevices, rep.ndevices - 1);
        gpu_report_free(&rep);
        return st;
    }
    gpu_device *dev = calloc(1, sizeof *dev);
    if (!dev) {
        gpu_report_free(&rep);
        return cuzk_fail(err, CUZK_E_NOMEM, "gpu_device_open: out of host memory");
    }
    dev->ops = ops_of(rt);
    dev->info = rep.devices[index];
    gpu_report_free(&rep);
    snprintf(dev->label, sizeof dev->label, "%s:%u (%s)", gpu_runtime_name(rt), index, dev->info.name);
    gpu_copy_str(dev->program_name, sizeof dev->program_name, prog->name ? prog->name : "device program");
    pthread_mutex_init(&dev->lock, NULL);
    bool have = rt == GPU_RUNTIME_OPENCL ? prog->opencl_source != NULL : prog->cuda_image != NULL;
    if (!have) {
        st = gpu_fail(dev, err, CUZK_E_UNSUPPORTED, "%s has no %s part%s", dev->program_name, gpu_runtime_name(rt),
                      rt == GPU_RUNTIME_CUDA ? " (the kernels were not compiled with nvcc)" : "");
    } else {
        double t0 = now_s();
        st = dev->ops->open(dev, prog, err);
        dev->build_seconds = now_s() - t0;
    }
    if (st) {
        pthread_mutex_destroy(&dev->lock);
        free(dev);
        return st;
    }
    *out = dev;
    return CUZK_OK;
}

void gpu_device_close(gpu_device *dev)
{
    if (!dev)
        return;
    dev->ops->close(dev);
    pthread_mutex_destroy(&dev->lock);
    free(dev);
}

const gpu_device_info *gpu_device_get_info(const gpu_device *dev)
{
    return &dev->info;
}

const char *gpu_device_label(const gpu_device *dev)
{
    return dev->label;
}

double gpu_device_build_seconds(const gpu_device *dev)
{
    return dev->build_seconds;
}

bool gpu_device_program_cached(const gpu_device *dev)
{
    return dev->program_cached;
}

cuzk_status gpu_device_mem_info(gpu_device *dev, uint64_t *free_bytes, uint64_t *total_bytes, cuzk_error *err)
{
    if (!dev || !free_bytes || !total_bytes)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_device_mem_info: NULL argument");
    *total_bytes = dev->info.global_mem_bytes;
    *free_bytes = GPU_MEM_UNKNOWN;
    return dev->ops->mem_info(dev, free_bytes, err);
}

/* ---------------------------------------------------------------- memory */

cuzk_status gpu_buffer_alloc(gpu_device *dev, size_t bytes, gpu_buffer **out, cuzk_error *err)
{
    if (!dev || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_buffer_alloc: NULL argument");
    *out = NULL;
    if (bytes == 0)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "cannot allocate a buffer of 0 bytes");
    if (bytes > dev->info.max_alloc_bytes)
        return gpu_fail(dev, err, CUZK_E_NOMEM,
                        "cannot allocate %zu bytes: above the device's largest buffer of %llu bytes "
                        "(device memory %llu bytes)",
                        bytes, (unsigned long long)dev->info.max_alloc_bytes,
                        (unsigned long long)dev->info.global_mem_bytes);
    gpu_buffer *b = calloc(1, sizeof *b);
    if (!b)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "gpu_buffer_alloc: out of host memory");
    b->dev = dev;
    b->bytes = bytes;
    cuzk_status st = dev->ops->buffer_alloc(b, err);
    if (st) {
        free(b);
        return st;
    }
    *out = b;
    return CUZK_OK;
}

void gpu_buffer_free(gpu_buffer *buf)
{
    if (!buf)
        return;
    buf->dev->ops->buffer_free(buf);
    free(buf);
}

size_t gpu_buffer_size(const gpu_buffer *buf)
{
    return buf ? buf->bytes : 0;
}

cuzk_status gpu_host_alloc(gpu_device *dev, size_t bytes, gpu_host_buffer **out, cuzk_error *err)
{
    if (!dev || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_host_alloc: NULL argument");
    *out = NULL;
    if (bytes == 0)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "cannot allocate 0 bytes of pinned host memory");
    gpu_host_buffer *h = calloc(1, sizeof *h);
    if (!h)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "gpu_host_alloc: out of host memory");
    h->dev = dev;
    h->bytes = bytes;
    cuzk_status st = dev->ops->host_alloc(h, err);
    if (st) {
        free(h);
        return st;
    }
    *out = h;
    return CUZK_OK;
}

void *gpu_host_ptr(gpu_host_buffer *h)
{
    return h ? h->ptr : NULL;
}

void gpu_host_free(gpu_host_buffer *h)
{
    if (!h)
        return;
    if (!h->registered)
        h->dev->ops->host_free(h);
    else if (h->dev->ops->host_unregister)
        h->dev->ops->host_unregister(h);
    free(h);
}

cuzk_status gpu_host_register(gpu_device *dev, void *ptr, size_t bytes, gpu_host_buffer **out, cuzk_error *err)
{
    if (!dev || !ptr || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_host_register: NULL argument");
    *out = NULL;
    if (bytes == 0)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "cannot register 0 bytes of host memory");
    gpu_host_buffer *h = calloc(1, sizeof *h);
    if (!h)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "gpu_host_register: out of host memory");
    h->dev = dev;
    h->bytes = bytes;
    h->ptr = ptr;
    h->registered = true;
    cuzk_status st = dev->ops->host_register ? dev->ops->host_register(h, err) : CUZK_OK;
    if (st) {
        free(h);
        return st;
    }
    *out = h;
    return CUZK_OK;
}

bool gpu_host_is_registered(const gpu_host_buffer *h)
{
    return h && h->registered;
}

/* ---------------------------------------------------------------- queues and copies */

cuzk_status gpu_queue_create(gpu_device *dev, gpu_queue **out, cuzk_error *err)
{
    if (!dev || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_queue_create: NULL argument");
    *out = NULL;
    gpu_queue *q = calloc(1, sizeof *q);
    if (!q)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "gpu_queue_create: out of host memory");
    q->dev = dev;
    cuzk_status st = dev->ops->queue_create(q, err);
    if (st) {
        free(q);
        return st;
    }
    *out = q;
    return CUZK_OK;
}

void gpu_queue_destroy(gpu_queue *q)
{
    if (!q)
        return;
    q->dev->ops->queue_destroy(q);
    free(q);
}

gpu_device *gpu_queue_device(gpu_queue *q)
{
    return q ? q->dev : NULL;
}

/* The range [off, off + n) lies in b, which belongs to q's device. */
static cuzk_status check_range(const char *fn, gpu_queue *q, const gpu_buffer *b, size_t off, size_t n,
                               cuzk_error *err)
{
    if (!q)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: queue is NULL", fn);
    if (!b)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "%s: buffer is NULL", fn);
    if (b->dev != q->dev)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "%s: the buffer belongs to %s", fn, b->dev->label);
    if (off > b->bytes || n > b->bytes - off)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "%s: range at offset %zu of %zu bytes exceeds the buffer of %zu bytes",
                        fn, off, n, b->bytes);
    return CUZK_OK;
}

cuzk_status gpu_upload(gpu_queue *q, gpu_buffer *dst, size_t dst_off, const void *src, size_t bytes,
                       cuzk_error *err)
{
    cuzk_status st = check_range("gpu_upload", q, dst, dst_off, bytes, err);
    if (st || bytes == 0)
        return st;
    if (!src)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "gpu_upload: source is NULL");
    return q->dev->ops->upload(q, dst, dst_off, src, bytes, err);
}

cuzk_status gpu_download(gpu_queue *q, void *dst, const gpu_buffer *src, size_t src_off, size_t bytes,
                         cuzk_error *err)
{
    cuzk_status st = check_range("gpu_download", q, src, src_off, bytes, err);
    if (st || bytes == 0)
        return st;
    if (!dst)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "gpu_download: destination is NULL");
    return q->dev->ops->download(q, dst, src, src_off, bytes, err);
}

cuzk_status gpu_copy(gpu_queue *q, gpu_buffer *dst, size_t dst_off, const gpu_buffer *src, size_t src_off,
                     size_t bytes, cuzk_error *err)
{
    cuzk_status st = check_range("gpu_copy (destination)", q, dst, dst_off, bytes, err);
    if (!st)
        st = check_range("gpu_copy (source)", q, src, src_off, bytes, err);
    if (st || bytes == 0)
        return st;
    if (src == dst && dst_off < src_off + bytes && src_off < dst_off + bytes)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "gpu_copy: overlapping ranges at %zu and %zu (%zu bytes)",
                        src_off, dst_off, bytes);
    return q->dev->ops->copy(q, dst, dst_off, src, src_off, bytes, err);
}

cuzk_status gpu_fill_zero(gpu_queue *q, gpu_buffer *dst, size_t off, size_t bytes, cuzk_error *err)
{
    cuzk_status st = check_range("gpu_fill_zero", q, dst, off, bytes, err);
    if (st || bytes == 0)
        return st;
    return q->dev->ops->fill_zero(q, dst, off, bytes, err);
}

cuzk_status gpu_queue_sync(gpu_queue *q, cuzk_error *err)
{
    if (!q)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_queue_sync: queue is NULL");
    return q->dev->ops->sync(q, err);
}

/* ---------------------------------------------------------------- launches */

cuzk_status gpu_launch(gpu_queue *q, const char *name, size_t groups, unsigned group_size, const gpu_arg *args,
                       unsigned nargs, cuzk_error *err)
{
    if (!q)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_launch: queue is NULL");
    gpu_device *dev = q->dev;
    if (!name || !name[0])
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "gpu_launch: no kernel name");
    if (groups == 0 || group_size == 0)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "kernel '%s': empty grid (%zu groups of %u)", name, groups,
                        group_size);
    if (group_size > dev->info.max_group_size)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "kernel '%s': group size %u exceeds the device's %u", name,
                        group_size, dev->info.max_group_size);
    if (groups > (size_t)0x7fffffff)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "kernel '%s': %zu groups exceed 2^31 - 1", name, groups);
    if (nargs > GPU_MAX_ARGS || (nargs && !args))
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "kernel '%s': %u arguments (at most %d)", name, nargs,
                        GPU_MAX_ARGS);
    for (unsigned i = 0; i < nargs; i++) {
        const gpu_arg *a = &args[i];
        if (a->kind == GPU_ARG_BUFFER && (!a->v.buf || a->v.buf->dev != dev))
            return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "kernel '%s' argument %u: %s", name, i,
                            !a->v.buf ? "buffer is NULL" : "buffer of another device");
        if (a->kind == GPU_ARG_BYTES && (!a->v.bytes.ptr || !a->v.bytes.len || a->v.bytes.len > GPU_MAX_ARG_BYTES))
            return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "kernel '%s' argument %u: by-value bytes must be 1..%d",
                            name, i, GPU_MAX_ARG_BYTES);
        if (a->kind > GPU_ARG_BYTES)
            return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "kernel '%s' argument %u: unknown kind %d", name, i,
                            (int)a->kind);
    }
    return dev->ops->launch(q, name, groups, group_size, args, nargs, err);
}

/* ---------------------------------------------------------------- events */

cuzk_status gpu_event_record(gpu_queue *q, gpu_event **out, cuzk_error *err)
{
    if (!q || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_event_record: NULL argument");
    *out = NULL;
    gpu_event *ev = calloc(1, sizeof *ev);
    if (!ev)
        return gpu_fail(q->dev, err, CUZK_E_NOMEM, "gpu_event_record: out of host memory");
    ev->dev = q->dev;
    cuzk_status st = q->dev->ops->event_record(q, ev, err);
    if (st) {
        free(ev);
        return st;
    }
    *out = ev;
    return CUZK_OK;
}

cuzk_status gpu_event_wait(gpu_event *ev, cuzk_error *err)
{
    if (!ev)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_event_wait: event is NULL");
    return ev->dev->ops->event_wait(ev, err);
}

cuzk_status gpu_event_query(gpu_event *ev, bool *done, cuzk_error *err)
{
    if (!ev || !done)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_event_query: NULL argument");
    return ev->dev->ops->event_query(ev, done, err);
}

cuzk_status gpu_queue_wait_event(gpu_queue *q, gpu_event *ev, cuzk_error *err)
{
    if (!q || !ev)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_queue_wait_event: NULL argument");
    if (ev->dev != q->dev)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "gpu_queue_wait_event: the event belongs to %s",
                        ev->dev->label);
    return q->dev->ops->queue_wait_event(q, ev, err);
}

void gpu_event_destroy(gpu_event *ev)
{
    if (!ev)
        return;
    ev->dev->ops->event_destroy(ev);
    free(ev);
}
