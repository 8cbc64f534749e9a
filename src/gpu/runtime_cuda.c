/* runtime.h over the CUDA driver API, loaded at run time with dlopen("libcuda.so.1"), so that a
 * binary built with CUDA starts, and reports "no CUDA driver", on a machine without one. Only
 * the header's types are used at build time (cuda.h from the toolkit nvcc belongs to); every
 * function is resolved by its exported name, the versioned one (_v2) where cuda.h maps the API
 * name to it.
 *
 * Each gpu_device uses the device's primary context (cuDevicePrimaryCtxRetain), made current on
 * the calling thread at the start of every call (cuCtxSetCurrent is per thread and cheap), and
 * one module loaded from the program image (cuModuleLoadDataEx, with the JIT error log captured
 * for messages). Kernel functions are looked up once per name under the device lock. Each
 * gpu_queue is a non-blocking stream. Source: NVIDIA CUDA Driver API reference (CUDA 12/13).
 */
#include <cuda.h>
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/runtime_internal.h"

/* ---------------------------------------------------------------- the driver library */

static struct {
    void *lib;
    char why[200]; /* why the driver is unusable, when lib == NULL or init failed */
    CUresult init;
    CUresult (*Init)(unsigned);
    CUresult (*DriverGetVersion)(int *);
    CUresult (*DeviceGetCount)(int *);
    CUresult (*DeviceGet)(CUdevice *, int);
    CUresult (*DeviceGetName)(char *, int, CUdevice);
    CUresult (*DeviceTotalMem)(size_t *, CUdevice);
    CUresult (*DeviceGetAttribute)(int *, CUdevice_attribute, CUdevice);
    CUresult (*DevicePrimaryCtxRetain)(CUcontext *, CUdevice);
    CUresult (*DevicePrimaryCtxRelease)(CUdevice);
    CUresult (*CtxSetCurrent)(CUcontext);
    CUresult (*CtxSynchronize)(void);
    CUresult (*ModuleLoadDataEx)(CUmodule *, const void *, unsigned, CUjit_option *, void **);
    CUresult (*ModuleUnload)(CUmodule);
    CUresult (*ModuleGetFunction)(CUfunction *, CUmodule, const char *);
    CUresult (*FuncGetAttribute)(int *, CUfunction_attribute, CUfunction);
    CUresult (*MemAlloc)(CUdeviceptr *, size_t);
    CUresult (*MemFree)(CUdeviceptr);
    CUresult (*MemGetInfo)(size_t *, size_t *);
    CUresult (*MemHostAlloc)(void **, size_t, unsigned);
    CUresult (*MemFreeHost)(void *);
    CUresult (*MemHostRegister)(void *, size_t, unsigned);
    CUresult (*MemHostUnregister)(void *);
    CUresult (*MemcpyHtoDAsync)(CUdeviceptr, const void *, size_t, CUstream);
    CUresult (*MemcpyDtoHAsync)(void *, CUdeviceptr, size_t, CUstream);
    CUresult (*MemcpyDtoDAsync)(CUdeviceptr, CUdeviceptr, size_t, CUstream);
    CUresult (*MemsetD8Async)(CUdeviceptr, unsigned char, size_t, CUstream);
    CUresult (*StreamCreate)(CUstream *, unsigned);
    CUresult (*StreamDestroy)(CUstream);
    CUresult (*StreamSynchronize)(CUstream);
    CUresult (*StreamWaitEvent)(CUstream, CUevent, unsigned);
    CUresult (*EventCreate)(CUevent *, unsigned);
    CUresult (*EventRecord)(CUevent, CUstream);
    CUresult (*EventSynchronize)(CUevent);
    CUresult (*EventQuery)(CUevent);
    CUresult (*EventDestroy)(CUevent);
    CUresult (*LaunchKernel)(CUfunction, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned, unsigned,
                             CUstream, void **, void **);
    CUresult (*GetErrorName)(CUresult, const char **);
} cu;

static pthread_once_t cu_once = PTHREAD_ONCE_INIT;

static void cu_load(void)
{
    /* the driver's soname through the loader's search (ld.so.cache, LD_LIBRARY_PATH), as the
     * CUDA runtime loads it; then where container images mount the host's driver when neither
     * names that folder (NVIDIA Container Toolkit: /usr/local/nvidia/lib64). Never the
     * toolkit's link-time stub (lib64/stubs/libcuda.so, no .1), which fails every call. */
    static const char *const where[] = {"libcuda.so.1", "/usr/local/nvidia/lib64/libcuda.so.1",
                                        "/usr/local/nvidia/lib/libcuda.so.1"};
    char first[160] = "";
    for (size_t i = 0; i < sizeof where / sizeof where[0] && !cu.lib; i++) {
        cu.lib = dlopen(where[i], RTLD_NOW | RTLD_LOCAL);
        const char *e = cu.lib ? NULL : dlerror();
        if (i == 0 && e)
            snprintf(first, sizeof first, "%s", e);
    }
    if (!cu.lib) {
        snprintf(cu.why, sizeof cu.why, "no CUDA driver (dlopen libcuda.so.1: %s)", first[0] ? first : "not found");
        return;
    }
    struct {
        void **slot;
        const char *name;
    } syms[] = {
#define S(field, sym) {(void **)&cu.field, sym}
        S(Init, "cuInit"), S(DriverGetVersion, "cuDriverGetVersion"), S(DeviceGetCount, "cuDeviceGetCount"),
        S(DeviceGet, "cuDeviceGet"), S(DeviceGetName, "cuDeviceGetName"), S(DeviceTotalMem, "cuDeviceTotalMem_v2"),
        S(DeviceGetAttribute, "cuDeviceGetAttribute"), S(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
        S(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"), S(CtxSetCurrent, "cuCtxSetCurrent"),
        S(CtxSynchronize, "cuCtxSynchronize"), S(ModuleLoadDataEx, "cuModuleLoadDataEx"),
        S(ModuleUnload, "cuModuleUnload"), S(ModuleGetFunction, "cuModuleGetFunction"),
        S(FuncGetAttribute, "cuFuncGetAttribute"), S(MemAlloc, "cuMemAlloc_v2"), S(MemFree, "cuMemFree_v2"),
        S(MemGetInfo, "cuMemGetInfo_v2"), S(MemHostAlloc, "cuMemHostAlloc"), S(MemFreeHost, "cuMemFreeHost"),
        S(MemHostRegister, "cuMemHostRegister_v2"), S(MemHostUnregister, "cuMemHostUnregister"),
        S(MemcpyHtoDAsync, "cuMemcpyHtoDAsync_v2"), S(MemcpyDtoHAsync, "cuMemcpyDtoHAsync_v2"),
        S(MemcpyDtoDAsync, "cuMemcpyDtoDAsync_v2"), S(MemsetD8Async, "cuMemsetD8Async"),
        S(StreamCreate, "cuStreamCreate"), S(StreamDestroy, "cuStreamDestroy_v2"),
        S(StreamSynchronize, "cuStreamSynchronize"), S(StreamWaitEvent, "cuStreamWaitEvent"),
        S(EventCreate, "cuEventCreate"), S(EventRecord, "cuEventRecord"), S(EventSynchronize, "cuEventSynchronize"),
        S(EventQuery, "cuEventQuery"), S(EventDestroy, "cuEventDestroy_v2"), S(LaunchKernel, "cuLaunchKernel"),
        S(GetErrorName, "cuGetErrorName"),
#undef S
    };
    for (size_t i = 0; i < sizeof syms / sizeof syms[0]; i++) {
        *syms[i].slot = dlsym(cu.lib, syms[i].name);
        if (!*syms[i].slot) {
            snprintf(cu.why, sizeof cu.why, "the CUDA driver libcuda.so.1 lacks %s (driver too old)", syms[i].name);
            dlclose(cu.lib);
            cu.lib = NULL;
            return;
        }
    }
    cu.init = cu.Init(0);
    if (cu.init != CUDA_SUCCESS) {
        const char *name = NULL;
        cu.GetErrorName(cu.init, &name);
        snprintf(cu.why, sizeof cu.why, "the CUDA driver does not initialise (cuInit: %s)", name ? name : "?");
    }
}

/* true when the driver is loaded and initialised; else why in cu.why */
static bool cu_ready(void)
{
    pthread_once(&cu_once, cu_load);
    return cu.lib && cu.init == CUDA_SUCCESS;
}

static const char *cu_err(CUresult r)
{
    const char *name = NULL;
    if (cu.GetErrorName && cu.GetErrorName(r, &name) == CUDA_SUCCESS && name)
        return name;
    return "unknown CUDA error";
}

static cuzk_status cu_fail(const gpu_device *dev, cuzk_error *err, const char *call, CUresult r)
{
    cuzk_status code = r == CUDA_ERROR_OUT_OF_MEMORY ? CUZK_E_NOMEM : CUZK_E_DEVICE;
    return gpu_fail(dev, err, code, "%s: %s (%d)", call, cu_err(r), (int)r);
}

/* ---------------------------------------------------------------- discovery */

static cuzk_status cu_discover(gpu_report *r, cuzk_error *err)
{
    if (!cu_ready()) {
        snprintf(r->reason, sizeof r->reason, "%s", cu.why);
        return CUZK_OK;
    }
    int n = 0, ver = 0;
    CUresult e = cu.DeviceGetCount(&n);
    if (e != CUDA_SUCCESS) {
        snprintf(r->reason, sizeof r->reason, "cuDeviceGetCount: %s", cu_err(e));
        return CUZK_OK;
    }
    if (n == 0)
        snprintf(r->reason, sizeof r->reason, "the CUDA driver reports no device");
    cu.DriverGetVersion(&ver);
    for (int i = 0; i < n; i++) {
        CUdevice d;
        if (cu.DeviceGet(&d, i) != CUDA_SUCCESS)
            continue;
        gpu_device_info *info = gpu_report_add(r);
        if (!info)
            return cuzk_fail(err, CUZK_E_NOMEM, "CUDA discovery: out of host memory");
        info->index = (unsigned)i;
        char name[256] = "";
        cu.DeviceGetName(name, (int)sizeof name - 1, d);
        gpu_copy_str(info->name, sizeof info->name, name);
        gpu_copy_str(info->vendor, sizeof info->vendor, "NVIDIA Corporation");
        gpu_copy_str(info->platform, sizeof info->platform, "CUDA");
        snprintf(info->driver, sizeof info->driver, "%d.%d", ver / 1000, (ver % 1000) / 10);
        int v = 0;
        cu.DeviceGetAttribute(&info->cc_major, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MAJOR, d);
        cu.DeviceGetAttribute(&info->cc_minor, CU_DEVICE_ATTRIBUTE_COMPUTE_CAPABILITY_MINOR, d);
        snprintf(info->version, sizeof info->version, "compute capability %d.%d", info->cc_major, info->cc_minor);
        cu.DeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MULTIPROCESSOR_COUNT, d);
        info->compute_units = (unsigned)v;
        cu.DeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_THREADS_PER_BLOCK, d);
        info->max_group_size = (unsigned)v;
        cu.DeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_MAX_SHARED_MEMORY_PER_BLOCK, d);
        info->local_mem_bytes = (uint64_t)v;
        size_t mem = 0;
        cu.DeviceTotalMem(&mem, d);
        info->global_mem_bytes = mem;
        info->max_alloc_bytes = mem;
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- device */

typedef struct {
    char name[64];
    CUfunction f;
    int max_threads;
} cu_kernel;

typedef struct {
    CUdevice device;
    CUcontext ctx;
    CUmodule module;
    cu_kernel *kernels; /* under dev->lock */
    size_t nkernels;
} cu_device;

#define CUD(dev) ((cu_device *)(dev)->impl)
#define STREAM(q) ((CUstream)(q)->impl)

/* Make dev's context current on this thread. */
static cuzk_status cu_bind(const gpu_device *dev, cuzk_error *err)
{
    CUresult r = cu.CtxSetCurrent(CUD(dev)->ctx);
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(dev, err, "cuCtxSetCurrent", r);
}

static void cu_close(gpu_device *dev)
{
    cu_device *c = CUD(dev);
    if (!c)
        return;
    if (c->ctx && cu.CtxSetCurrent(c->ctx) == CUDA_SUCCESS) {
        cu.CtxSynchronize();
        if (c->module)
            cu.ModuleUnload(c->module);
    }
    if (c->ctx)
        cu.DevicePrimaryCtxRelease(c->device);
    free(c->kernels);
    free(c);
    dev->impl = NULL;
}

static cuzk_status cu_open(gpu_device *dev, const gpu_program *prog, cuzk_error *err)
{
    if (!cu_ready())
        return gpu_fail(dev, err, CUZK_E_UNSUPPORTED, "%s", cu.why);
    cu_device *c = calloc(1, sizeof *c);
    if (!c)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "out of host memory");
    dev->impl = c;
    CUresult r = cu.DeviceGet(&c->device, (int)dev->info.index);
    if (r == CUDA_SUCCESS)
        r = cu.DevicePrimaryCtxRetain(&c->ctx, c->device);
    if (r != CUDA_SUCCESS) {
        c->ctx = NULL;
        cuzk_status st = cu_fail(dev, err, "cuDevicePrimaryCtxRetain", r);
        cu_close(dev);
        return st;
    }
    cuzk_status st = cu_bind(dev, err);
    if (st) {
        cu_close(dev);
        return st;
    }
    char log[1024] = "";
    CUjit_option opts[] = {CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES};
    void *vals[] = {log, (void *)(uintptr_t)(sizeof log - 1)};
    r = cu.ModuleLoadDataEx(&c->module, prog->cuda_image, 2, opts, vals);
    if (r != CUDA_SUCCESS) {
        c->module = NULL;
        st = gpu_fail(dev, err, CUZK_E_DEVICE, "cuModuleLoadData of %s failed: %s (%d)%s%.300s", dev->program_name,
                      cu_err(r), (int)r, log[0] ? "; JIT log: " : " (an image for another GPU or a newer driver?)",
                      log);
        cu_close(dev);
        return st;
    }
    return CUZK_OK;
}

static cuzk_status cu_mem_info(gpu_device *dev, uint64_t *free_bytes, cuzk_error *err)
{
    cuzk_status st = cu_bind(dev, err);
    if (st)
        return st;
    size_t fr = 0, tot = 0;
    CUresult r = cu.MemGetInfo(&fr, &tot);
    if (r != CUDA_SUCCESS)
        return cu_fail(dev, err, "cuMemGetInfo", r);
    *free_bytes = fr;
    return CUZK_OK;
}

/* ---------------------------------------------------------------- memory */

static cuzk_status cu_buffer_alloc(gpu_buffer *b, cuzk_error *err)
{
    cuzk_status st = cu_bind(b->dev, err);
    if (st)
        return st;
    CUdeviceptr p = 0;
    CUresult r = cu.MemAlloc(&p, b->bytes);
    if (r != CUDA_SUCCESS) {
        char call[64];
        snprintf(call, sizeof call, "cuMemAlloc(%zu bytes)", b->bytes);
        return cu_fail(b->dev, err, call, r);
    }
    b->h = (uint64_t)p;
    return CUZK_OK;
}

static void cu_buffer_free(gpu_buffer *b)
{
    if (cu_bind(b->dev, NULL) == CUZK_OK)
        cu.MemFree((CUdeviceptr)b->h);
}

static cuzk_status cu_host_alloc(gpu_host_buffer *h, cuzk_error *err)
{
    cuzk_status st = cu_bind(h->dev, err);
    if (st)
        return st;
    void *p = NULL;
    CUresult r = cu.MemHostAlloc(&p, h->bytes, CU_MEMHOSTALLOC_PORTABLE);
    if (r != CUDA_SUCCESS) {
        char call[80];
        snprintf(call, sizeof call, "cuMemHostAlloc(%zu bytes of pinned host memory)", h->bytes);
        return cu_fail(h->dev, err, call, r);
    }
    h->ptr = p;
    return CUZK_OK;
}

static void cu_host_free(gpu_host_buffer *h)
{
    if (cu_bind(h->dev, NULL) == CUZK_OK)
        cu.MemFreeHost(h->ptr);
}

static cuzk_status cu_host_register(gpu_host_buffer *h, cuzk_error *err)
{
    cuzk_status st = cu_bind(h->dev, err);
    if (st)
        return st;
    CUresult r = cu.MemHostRegister(h->ptr, h->bytes, CU_MEMHOSTREGISTER_PORTABLE);
    if (r != CUDA_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "cuMemHostRegister(%zu bytes of host memory)", h->bytes);
        return cu_fail(h->dev, err, call, r);
    }
    return CUZK_OK;
}

static void cu_host_unregister(gpu_host_buffer *h)
{
    if (cu_bind(h->dev, NULL) == CUZK_OK)
        cu.MemHostUnregister(h->ptr);
}

/* ---------------------------------------------------------------- queues */

static cuzk_status cu_queue_create(gpu_queue *q, cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUstream s;
    CUresult r = cu.StreamCreate(&s, CU_STREAM_NON_BLOCKING);
    if (r != CUDA_SUCCESS)
        return cu_fail(q->dev, err, "cuStreamCreate", r);
    q->impl = s;
    return CUZK_OK;
}

static void cu_queue_destroy(gpu_queue *q)
{
    if (cu_bind(q->dev, NULL) == CUZK_OK) {
        cu.StreamSynchronize(STREAM(q));
        cu.StreamDestroy(STREAM(q));
    }
}

static cuzk_status cu_upload(gpu_queue *q, gpu_buffer *dst, size_t off, const void *src, size_t n, cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUresult r = cu.MemcpyHtoDAsync((CUdeviceptr)(dst->h + off), src, n, STREAM(q));
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(q->dev, err, "cuMemcpyHtoDAsync", r);
}

static cuzk_status cu_download(gpu_queue *q, void *dst, const gpu_buffer *src, size_t off, size_t n,
                               cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUresult r = cu.MemcpyDtoHAsync(dst, (CUdeviceptr)(src->h + off), n, STREAM(q));
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(q->dev, err, "cuMemcpyDtoHAsync", r);
}

static cuzk_status cu_copy(gpu_queue *q, gpu_buffer *dst, size_t doff, const gpu_buffer *src, size_t soff, size_t n,
                           cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUresult r = cu.MemcpyDtoDAsync((CUdeviceptr)(dst->h + doff), (CUdeviceptr)(src->h + soff), n, STREAM(q));
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(q->dev, err, "cuMemcpyDtoDAsync", r);
}

static cuzk_status cu_fill_zero(gpu_queue *q, gpu_buffer *dst, size_t off, size_t n, cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUresult r = cu.MemsetD8Async((CUdeviceptr)(dst->h + off), 0, n, STREAM(q));
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(q->dev, err, "cuMemsetD8Async", r);
}

static cuzk_status cu_sync(gpu_queue *q, cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUresult r = cu.StreamSynchronize(STREAM(q));
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(q->dev, err, "cuStreamSynchronize", r);
}

static cuzk_status find_function(gpu_device *dev, const char *name, cu_kernel *out, cuzk_error *err)
{
    cu_device *c = CUD(dev);
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&dev->lock);
    for (size_t i = 0; i < c->nkernels; i++)
        if (!strcmp(c->kernels[i].name, name)) {
            *out = c->kernels[i];
            pthread_mutex_unlock(&dev->lock);
            return CUZK_OK;
        }
    CUfunction f;
    CUresult r = strlen(name) < sizeof c->kernels[0].name ? cu.ModuleGetFunction(&f, c->module, name)
                                                           : CUDA_ERROR_NOT_FOUND;
    if (r == CUDA_ERROR_NOT_FOUND) {
        st = gpu_fail(dev, err, CUZK_E_INVALID_ARG, "no kernel '%.80s' in %s", name, dev->program_name);
    } else if (r != CUDA_SUCCESS) {
        st = cu_fail(dev, err, "cuModuleGetFunction", r);
    } else {
        cu_kernel *ks = realloc(c->kernels, (c->nkernels + 1) * sizeof *ks);
        if (!ks) {
            st = gpu_fail(dev, err, CUZK_E_NOMEM, "out of host memory");
        } else {
            c->kernels = ks;
            cu_kernel *k = &ks[c->nkernels++];
            memset(k, 0, sizeof *k);
            snprintf(k->name, sizeof k->name, "%s", name);
            k->f = f;
            cu.FuncGetAttribute(&k->max_threads, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f);
            *out = *k;
        }
    }
    pthread_mutex_unlock(&dev->lock);
    return st;
}

static cuzk_status cu_launch(gpu_queue *q, const char *name, size_t groups, unsigned group_size, const gpu_arg *args,
                             unsigned nargs, cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    cu_kernel k;
    st = find_function(q->dev, name, &k, err);
    if (st)
        return st;
    if (k.max_threads > 0 && group_size > (unsigned)k.max_threads)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "kernel '%s': group size %u exceeds its limit %d "
                        "(registers)", name, group_size, k.max_threads);
    CUdeviceptr ptrs[GPU_MAX_ARGS];
    unsigned u32s[GPU_MAX_ARGS];
    unsigned long long u64s[GPU_MAX_ARGS];
    void *params[GPU_MAX_ARGS];
    for (unsigned i = 0; i < nargs; i++) {
        switch (args[i].kind) {
        case GPU_ARG_BUFFER:
            ptrs[i] = (CUdeviceptr)args[i].v.buf->h;
            params[i] = &ptrs[i];
            break;
        case GPU_ARG_U32:
            u32s[i] = args[i].v.u32;
            params[i] = &u32s[i];
            break;
        case GPU_ARG_U64:
            u64s[i] = args[i].v.u64;
            params[i] = &u64s[i];
            break;
        default:
            params[i] = (void *)args[i].v.bytes.ptr; /* read during cuLaunchKernel */
            break;
        }
    }
    CUresult r = cu.LaunchKernel(k.f, (unsigned)groups, 1, 1, group_size, 1, 1, 0, STREAM(q), nargs ? params : NULL,
                                 NULL);
    if (r != CUDA_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "cuLaunchKernel('%s', %zu x %u)", name, groups, group_size);
        return cu_fail(q->dev, err, call, r);
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- events */

static cuzk_status cu_event_record(gpu_queue *q, gpu_event *ev, cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUevent e;
    CUresult r = cu.EventCreate(&e, CU_EVENT_DISABLE_TIMING);
    if (r != CUDA_SUCCESS)
        return cu_fail(q->dev, err, "cuEventCreate", r);
    r = cu.EventRecord(e, STREAM(q));
    if (r != CUDA_SUCCESS) {
        cu.EventDestroy(e);
        return cu_fail(q->dev, err, "cuEventRecord", r);
    }
    ev->impl = e;
    return CUZK_OK;
}

static cuzk_status cu_event_wait(gpu_event *ev, cuzk_error *err)
{
    cuzk_status st = cu_bind(ev->dev, err);
    if (st)
        return st;
    CUresult r = cu.EventSynchronize((CUevent)ev->impl);
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(ev->dev, err, "cuEventSynchronize", r);
}

static cuzk_status cu_event_query(gpu_event *ev, bool *done, cuzk_error *err)
{
    cuzk_status st = cu_bind(ev->dev, err);
    if (st)
        return st;
    CUresult r = cu.EventQuery((CUevent)ev->impl);
    *done = r == CUDA_SUCCESS;
    if (r == CUDA_SUCCESS || r == CUDA_ERROR_NOT_READY)
        return CUZK_OK;
    return cu_fail(ev->dev, err, "cuEventQuery", r);
}

static cuzk_status cu_queue_wait_event(gpu_queue *q, gpu_event *ev, cuzk_error *err)
{
    cuzk_status st = cu_bind(q->dev, err);
    if (st)
        return st;
    CUresult r = cu.StreamWaitEvent(STREAM(q), (CUevent)ev->impl, 0);
    return r == CUDA_SUCCESS ? CUZK_OK : cu_fail(q->dev, err, "cuStreamWaitEvent", r);
}

static void cu_event_destroy(gpu_event *ev)
{
    if (cu_bind(ev->dev, NULL) == CUZK_OK)
        cu.EventDestroy((CUevent)ev->impl);
}

const gpu_backend_ops gpu_cuda_ops = {
    .discover = cu_discover,
    .open = cu_open,
    .close = cu_close,
    .mem_info = cu_mem_info,
    .buffer_alloc = cu_buffer_alloc,
    .buffer_free = cu_buffer_free,
    .host_alloc = cu_host_alloc,
    .host_free = cu_host_free,
    .host_register = cu_host_register,
    .host_unregister = cu_host_unregister,
    .queue_create = cu_queue_create,
    .queue_destroy = cu_queue_destroy,
    .upload = cu_upload,
    .download = cu_download,
    .copy = cu_copy,
    .fill_zero = cu_fill_zero,
    .sync = cu_sync,
    .launch = cu_launch,
    .event_record = cu_event_record,
    .event_wait = cu_event_wait,
    .event_query = cu_event_query,
    .queue_wait_event = cu_queue_wait_event,
    .event_destroy = cu_event_destroy,
};
