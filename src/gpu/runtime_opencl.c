/* runtime.h over OpenCL 1.2 through the ICD loader (Debian's ocl-icd; POCL on the CPU in CI).
 *
 * Device numbering: every device of every platform (CL_DEVICE_TYPE_ALL), platforms in the
 * loader's order. Each gpu_device has one context, the program built from source, and an
 * internal queue for the one-off commands of allocation (touching new buffers so that lazy
 * allocation fails here, mapping pinned memory). Each gpu_queue keeps its own cl_kernel objects,
 * since clSetKernelArg + clEnqueueNDRangeKernel on a shared kernel object would race; every other
 * OpenCL call used here is thread-safe (OpenCL 1.2 specification, appendix A.2). Built programs
 * are kept in an on-disk cache (opencl_cache.h) and loaded from it by the next process.
 * Source: the Khronos OpenCL 1.2 specification (API calls and error codes).
 */
#define CL_TARGET_OPENCL_VERSION 120
#include <CL/cl.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/opencl_cache.h"
#include "gpu/runtime_internal.h"

static const char *cl_err_name(cl_int e)
{
    switch (e) {
#define N(x) \
    case x:  \
        return #x;
        N(CL_SUCCESS) N(CL_DEVICE_NOT_FOUND) N(CL_DEVICE_NOT_AVAILABLE) N(CL_COMPILER_NOT_AVAILABLE)
        N(CL_MEM_OBJECT_ALLOCATION_FAILURE) N(CL_OUT_OF_RESOURCES) N(CL_OUT_OF_HOST_MEMORY)
        N(CL_PROFILING_INFO_NOT_AVAILABLE) N(CL_MEM_COPY_OVERLAP) N(CL_BUILD_PROGRAM_FAILURE) N(CL_MAP_FAILURE)
        N(CL_MISALIGNED_SUB_BUFFER_OFFSET) N(CL_EXEC_STATUS_ERROR_FOR_EVENTS_IN_WAIT_LIST)
        N(CL_COMPILE_PROGRAM_FAILURE) N(CL_LINKER_NOT_AVAILABLE) N(CL_LINK_PROGRAM_FAILURE)
        N(CL_INVALID_VALUE) N(CL_INVALID_DEVICE_TYPE) N(CL_INVALID_PLATFORM) N(CL_INVALID_DEVICE)
        N(CL_INVALID_CONTEXT) N(CL_INVALID_QUEUE_PROPERTIES) N(CL_INVALID_COMMAND_QUEUE) N(CL_INVALID_HOST_PTR)
        N(CL_INVALID_MEM_OBJECT) N(CL_INVALID_BUFFER_SIZE) N(CL_INVALID_BINARY) N(CL_INVALID_BUILD_OPTIONS)
        N(CL_INVALID_PROGRAM) N(CL_INVALID_PROGRAM_EXECUTABLE) N(CL_INVALID_KERNEL_NAME)
        N(CL_INVALID_KERNEL_DEFINITION) N(CL_INVALID_KERNEL) N(CL_INVALID_ARG_INDEX) N(CL_INVALID_ARG_VALUE)
        N(CL_INVALID_ARG_SIZE) N(CL_INVALID_KERNEL_ARGS) N(CL_INVALID_WORK_DIMENSION)
        N(CL_INVALID_WORK_GROUP_SIZE) N(CL_INVALID_WORK_ITEM_SIZE) N(CL_INVALID_GLOBAL_OFFSET)
        N(CL_INVALID_EVENT_WAIT_LIST) N(CL_INVALID_EVENT) N(CL_INVALID_OPERATION) N(CL_INVALID_GLOBAL_WORK_SIZE)
        N(CL_INVALID_PROPERTY)
#undef N
    case -1001:
        return "CL_PLATFORM_NOT_FOUND_KHR";
    default:
        return "unknown OpenCL error";
    }
}

typedef struct {
    cl_platform_id platform;
    cl_device_id device;
    cl_context ctx;
    cl_program program;
    cl_command_queue aux; /* allocation touches and pinned-memory maps */
} ocl_device;

typedef struct {
    char name[64];
    cl_kernel k;
    size_t max_group; /* CL_KERNEL_WORK_GROUP_SIZE */
    cl_uint nargs;
} ocl_kernel;

typedef struct {
    cl_command_queue q;
    ocl_kernel *kernels;
    size_t nkernels;
} ocl_queue;

#define OCL(dev) ((ocl_device *)(dev)->impl)
#define MEM(b) ((cl_mem)(uintptr_t)(b)->h)

static cuzk_status cl_fail(const gpu_device *dev, cuzk_error *err, const char *call, cl_int e)
{
    cuzk_status code = e == CL_MEM_OBJECT_ALLOCATION_FAILURE || e == CL_OUT_OF_RESOURCES || e == CL_OUT_OF_HOST_MEMORY
                           ? CUZK_E_NOMEM
                           : CUZK_E_DEVICE;
    return gpu_fail(dev, err, code, "%s: %s (%d)", call, cl_err_name(e), (int)e);
}

/* ---------------------------------------------------------------- discovery */

/* Every (platform, device) pair, in order; *n = 0 and a reason when there is none. */
static cuzk_status list_devices(cl_platform_id **plat_of, cl_device_id **devs, size_t *n, char *reason, size_t rcap,
                                cuzk_error *err)
{
    *plat_of = NULL;
    *devs = NULL;
    *n = 0;
    cl_uint np = 0;
    cl_int e = clGetPlatformIDs(0, NULL, &np);
    if (e != CL_SUCCESS || np == 0) {
        snprintf(reason, rcap, "no OpenCL platform (clGetPlatformIDs: %s; install an ICD such as pocl-opencl-icd)",
                 e != CL_SUCCESS ? cl_err_name(e) : "0 platforms");
        return CUZK_OK;
    }
    cl_platform_id *plats = calloc(np, sizeof *plats);
    if (!plats)
        return cuzk_fail(err, CUZK_E_NOMEM, "OpenCL discovery: out of host memory");
    clGetPlatformIDs(np, plats, NULL);
    size_t total = 0;
    for (cl_uint i = 0; i < np; i++) {
        cl_uint nd = 0;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, 0, NULL, &nd) != CL_SUCCESS)
            continue;
        cl_platform_id *po = realloc(*plat_of, (total + nd) * sizeof *po);
        if (po)
            *plat_of = po;
        cl_device_id *d = po ? realloc(*devs, (total + nd) * sizeof *d) : NULL;
        if (!d) {
            free(plats);
            free(*plat_of);
            free(*devs);
            *plat_of = NULL;
            *devs = NULL;
            return cuzk_fail(err, CUZK_E_NOMEM, "OpenCL discovery: out of host memory");
        }
        *devs = d;
        if (clGetDeviceIDs(plats[i], CL_DEVICE_TYPE_ALL, nd, d + total, &nd) != CL_SUCCESS)
            continue;
        for (cl_uint j = 0; j < nd; j++)
            (*plat_of)[total + j] = plats[i];
        total += nd;
    }
    free(plats);
    *n = total;
    if (total == 0)
        snprintf(reason, rcap, "%u OpenCL platform(s) but no device", (unsigned)np);
    return CUZK_OK;
}

static void str_info(cl_device_id d, cl_device_info what, char *out, size_t cap)
{
    char buf[512] = "";
    clGetDeviceInfo(d, what, sizeof buf - 1, buf, NULL);
    gpu_copy_str(out, cap, buf);
}

static void fill_info(gpu_device_info *info, cl_platform_id p, cl_device_id d)
{
    char pname[256] = "";
    clGetPlatformInfo(p, CL_PLATFORM_NAME, sizeof pname - 1, pname, NULL);
    gpu_copy_str(info->platform, sizeof info->platform, pname);
    str_info(d, CL_DEVICE_NAME, info->name, sizeof info->name);
    str_info(d, CL_DEVICE_VENDOR, info->vendor, sizeof info->vendor);
    str_info(d, CL_DEVICE_VERSION, info->version, sizeof info->version);
    str_info(d, CL_DRIVER_VERSION, info->driver, sizeof info->driver);
    cl_uint cu = 0;
    cl_ulong gmem = 0, amax = 0, lmem = 0;
    size_t wg = 0;
    cl_device_type type = 0;
    clGetDeviceInfo(d, CL_DEVICE_MAX_COMPUTE_UNITS, sizeof cu, &cu, NULL);
    clGetDeviceInfo(d, CL_DEVICE_GLOBAL_MEM_SIZE, sizeof gmem, &gmem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_MEM_ALLOC_SIZE, sizeof amax, &amax, NULL);
    clGetDeviceInfo(d, CL_DEVICE_LOCAL_MEM_SIZE, sizeof lmem, &lmem, NULL);
    clGetDeviceInfo(d, CL_DEVICE_MAX_WORK_GROUP_SIZE, sizeof wg, &wg, NULL);
    clGetDeviceInfo(d, CL_DEVICE_TYPE, sizeof type, &type, NULL);
    info->compute_units = cu;
    info->global_mem_bytes = gmem;
    info->max_alloc_bytes = amax;
    info->local_mem_bytes = lmem;
    info->max_group_size = (unsigned)(wg > 0xffffffffu ? 0xffffffffu : wg);
    info->is_cpu = (type & CL_DEVICE_TYPE_CPU) != 0;
}

static cuzk_status ocl_discover(gpu_report *r, cuzk_error *err)
{
    cl_platform_id *plat;
    cl_device_id *devs;
    size_t n;
    cuzk_status st = list_devices(&plat, &devs, &n, r->reason, sizeof r->reason, err);
    if (st)
        return st;
    for (size_t i = 0; i < n; i++) {
        gpu_device_info *info = gpu_report_add(r);
        if (!info) {
            st = cuzk_fail(err, CUZK_E_NOMEM, "OpenCL discovery: out of host memory");
            break;
        }
        fill_info(info, plat[i], devs[i]);
    }
    free(plat);
    free(devs);
    return st;
}

/* ---------------------------------------------------------------- device */

/* The first lines of the build log, at most ~cap bytes, newlines as " | ". */
static void build_log_head(cl_program prog, cl_device_id d, char *out, size_t cap)
{
    size_t len = 0;
    out[0] = '\0';
    if (clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, 0, NULL, &len) != CL_SUCCESS || len == 0)
        return;
    char *log = malloc(len + 1);
    if (!log)
        return;
    if (clGetProgramBuildInfo(prog, d, CL_PROGRAM_BUILD_LOG, len, log, NULL) == CL_SUCCESS) {
        log[len] = '\0';
        size_t o = 0;
        int lines = 0;
        for (const char *p = log; *p && o + 4 < cap && lines < 8; p++) {
            if (*p == '\n') {
                lines++;
                if (o && p[1]) {
                    memcpy(out + o, " | ", 3);
                    o += 3;
                }
            } else {
                out[o++] = *p;
            }
        }
        out[o] = '\0';
    }
    free(log);
}

#define BUILD_OPTIONS "-cl-std=CL1.2"

/* The program from the on-disk cache (opencl_cache.h), built for the device; false (and nothing
 * kept) when absent or refused by the driver. */
static bool load_cached(gpu_device *dev, const char *path)
{
    ocl_device *o = OCL(dev);
    size_t len = 0;
    unsigned char *bin = gpu_ocl_cache_load(path, &len);
    if (!bin)
        return false;
    const unsigned char *bins[1] = {bin};
    cl_int e, bst = CL_SUCCESS;
    cl_program p = clCreateProgramWithBinary(o->ctx, 1, &o->device, &len, bins, &bst, &e);
    free(bin);
    if (!p)
        return false;
    if (e != CL_SUCCESS || bst != CL_SUCCESS ||
        clBuildProgram(p, 1, &o->device, BUILD_OPTIONS, NULL, NULL) != CL_SUCCESS) {
        clReleaseProgram(p);
        return false;
    }
    o->program = p;
    return true;
}

/* Save the built program's binary for the next process; best effort. */
static void store_cached(ocl_device *o, const char *path)
{
    size_t len = 0;
    if (clGetProgramInfo(o->program, CL_PROGRAM_BINARY_SIZES, sizeof len, &len, NULL) != CL_SUCCESS || len == 0)
        return;
    unsigned char *bin = malloc(len);
    unsigned char *bins[1] = {bin};
    if (bin && clGetProgramInfo(o->program, CL_PROGRAM_BINARIES, sizeof bins, bins, NULL) == CL_SUCCESS)
        gpu_ocl_cache_store(path, bin, len);
    free(bin);
}

static void ocl_close(gpu_device *dev)
{
    ocl_device *o = OCL(dev);
    if (!o)
        return;
    if (o->aux) {
        clFinish(o->aux);
        clReleaseCommandQueue(o->aux);
    }
    if (o->program)
        clReleaseProgram(o->program);
    if (o->ctx)
        clReleaseContext(o->ctx);
    free(o);
    dev->impl = NULL;
}

static cuzk_status ocl_open(gpu_device *dev, const gpu_program *prog, cuzk_error *err)
{
    cl_platform_id *plat;
    cl_device_id *devs;
    size_t n;
    char reason[256];
    cuzk_status st = list_devices(&plat, &devs, &n, reason, sizeof reason, err);
    if (st)
        return st;
    if (dev->info.index >= n) { /* the device went away since discovery */
        free(plat);
        free(devs);
        return gpu_fail(dev, err, CUZK_E_DEVICE, "device no longer listed by the OpenCL platforms");
    }
    ocl_device *o = calloc(1, sizeof *o);
    if (!o) {
        free(plat);
        free(devs);
        return gpu_fail(dev, err, CUZK_E_NOMEM, "out of host memory");
    }
    dev->impl = o;
    o->platform = plat[dev->info.index];
    o->device = devs[dev->info.index];
    free(plat);
    free(devs);

    cl_int e;
    cl_context_properties props[] = {CL_CONTEXT_PLATFORM, (cl_context_properties)o->platform, 0};
    o->ctx = clCreateContext(props, 1, &o->device, NULL, NULL, &e);
    if (!o->ctx) {
        ocl_close(dev);
        return cl_fail(dev, err, "clCreateContext", e);
    }
    o->aux = clCreateCommandQueue(o->ctx, o->device, 0, &e);
    if (!o->aux) {
        ocl_close(dev);
        return cl_fail(dev, err, "clCreateCommandQueue", e);
    }
    const char *src = prog->opencl_source;
    size_t len = prog->opencl_len;
    char *cpath = gpu_ocl_cache_path(src, len, BUILD_OPTIONS, &dev->info);
    if (cpath && load_cached(dev, cpath)) {
        free(cpath);
        dev->program_cached = true;
        return CUZK_OK;
    }
    o->program = clCreateProgramWithSource(o->ctx, 1, &src, &len, &e);
    if (!o->program) {
        free(cpath);
        ocl_close(dev);
        return cl_fail(dev, err, "clCreateProgramWithSource", e);
    }
    e = clBuildProgram(o->program, 1, &o->device, BUILD_OPTIONS, NULL, NULL);
    if (e != CL_SUCCESS) {
        char log[360];
        build_log_head(o->program, o->device, log, sizeof log);
        st = gpu_fail(dev, err, CUZK_E_DEVICE, "clBuildProgram of %s failed: %s (%d); build log: %s",
                      dev->program_name, cl_err_name(e), (int)e, log[0] ? log : "(empty)");
        free(cpath);
        ocl_close(dev);
        return st;
    }
    if (cpath)
        store_cached(o, cpath);
    free(cpath);
    return CUZK_OK;
}

static cuzk_status ocl_mem_info(gpu_device *dev, uint64_t *free_bytes, cuzk_error *err)
{
    (void)dev;
    (void)err;
    *free_bytes = GPU_MEM_UNKNOWN; /* no standard OpenCL query */
    return CUZK_OK;
}

/* ---------------------------------------------------------------- memory */

static cuzk_status ocl_buffer_alloc(gpu_buffer *b, cuzk_error *err)
{
    gpu_device *dev = b->dev;
    cl_int e;
    cl_mem m = clCreateBuffer(OCL(dev)->ctx, CL_MEM_READ_WRITE, b->bytes, NULL, &e);
    if (!m)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "cannot allocate %zu bytes: clCreateBuffer: %s (%d)", b->bytes,
                        cl_err_name(e), (int)e);
    /* Drivers allocate at first use: write one byte now, so exhaustion is reported here. */
    unsigned char zero = 0;
    e = clEnqueueWriteBuffer(OCL(dev)->aux, m, CL_TRUE, 0, 1, &zero, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        clReleaseMemObject(m);
        return gpu_fail(dev, err, CUZK_E_NOMEM, "cannot allocate %zu bytes: first write: %s (%d)", b->bytes,
                        cl_err_name(e), (int)e);
    }
    b->h = (uint64_t)(uintptr_t)m;
    return CUZK_OK;
}

static void ocl_buffer_free(gpu_buffer *b)
{
    clReleaseMemObject(MEM(b));
}

static cuzk_status ocl_host_alloc(gpu_host_buffer *h, cuzk_error *err)
{
    gpu_device *dev = h->dev;
    cl_int e;
    cl_mem m = clCreateBuffer(OCL(dev)->ctx, CL_MEM_READ_WRITE | CL_MEM_ALLOC_HOST_PTR, h->bytes, NULL, &e);
    if (!m)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "cannot allocate %zu bytes of pinned host memory: clCreateBuffer: %s (%d)",
                        h->bytes, cl_err_name(e), (int)e);
    void *p = clEnqueueMapBuffer(OCL(dev)->aux, m, CL_TRUE, CL_MAP_READ | CL_MAP_WRITE, 0, h->bytes, 0, NULL, NULL,
                                 &e);
    if (!p) {
        clReleaseMemObject(m);
        return gpu_fail(dev, err, CUZK_E_NOMEM, "cannot map %zu bytes of pinned host memory: %s (%d)", h->bytes,
                        cl_err_name(e), (int)e);
    }
    h->ptr = p;
    h->impl = m;
    return CUZK_OK;
}

static void ocl_host_free(gpu_host_buffer *h)
{
    cl_mem m = h->impl;
    clEnqueueUnmapMemObject(OCL(h->dev)->aux, m, h->ptr, 0, NULL, NULL);
    clFinish(OCL(h->dev)->aux);
    clReleaseMemObject(m);
}

/* ---------------------------------------------------------------- queues */

#define QUEUE(q) ((ocl_queue *)(q)->impl)

static cuzk_status ocl_queue_create(gpu_queue *q, cuzk_error *err)
{
    ocl_queue *oq = calloc(1, sizeof *oq);
    if (!oq)
        return gpu_fail(q->dev, err, CUZK_E_NOMEM, "out of host memory");
    cl_int e;
    oq->q = clCreateCommandQueue(OCL(q->dev)->ctx, OCL(q->dev)->device, 0, &e);
    if (!oq->q) {
        free(oq);
        return cl_fail(q->dev, err, "clCreateCommandQueue", e);
    }
    q->impl = oq;
    return CUZK_OK;
}

static void ocl_queue_destroy(gpu_queue *q)
{
    ocl_queue *oq = QUEUE(q);
    clFinish(oq->q);
    for (size_t i = 0; i < oq->nkernels; i++)
        clReleaseKernel(oq->kernels[i].k);
    free(oq->kernels);
    clReleaseCommandQueue(oq->q);
    free(oq);
}

static cuzk_status ocl_upload(gpu_queue *q, gpu_buffer *dst, size_t off, const void *src, size_t n, cuzk_error *err)
{
    cl_int e = clEnqueueWriteBuffer(QUEUE(q)->q, MEM(dst), CL_FALSE, off, n, src, 0, NULL, NULL);
    return e == CL_SUCCESS ? CUZK_OK : cl_fail(q->dev, err, "clEnqueueWriteBuffer", e);
}

static cuzk_status ocl_download(gpu_queue *q, void *dst, const gpu_buffer *src, size_t off, size_t n,
                                cuzk_error *err)
{
    cl_int e = clEnqueueReadBuffer(QUEUE(q)->q, MEM(src), CL_FALSE, off, n, dst, 0, NULL, NULL);
    return e == CL_SUCCESS ? CUZK_OK : cl_fail(q->dev, err, "clEnqueueReadBuffer", e);
}

static cuzk_status ocl_copy(gpu_queue *q, gpu_buffer *dst, size_t doff, const gpu_buffer *src, size_t soff,
                            size_t n, cuzk_error *err)
{
    cl_int e = clEnqueueCopyBuffer(QUEUE(q)->q, MEM(src), MEM(dst), soff, doff, n, 0, NULL, NULL);
    return e == CL_SUCCESS ? CUZK_OK : cl_fail(q->dev, err, "clEnqueueCopyBuffer", e);
}

static cuzk_status ocl_fill_zero(gpu_queue *q, gpu_buffer *dst, size_t off, size_t n, cuzk_error *err)
{
    unsigned char zero = 0;
    cl_int e = clEnqueueFillBuffer(QUEUE(q)->q, MEM(dst), &zero, 1, off, n, 0, NULL, NULL);
    return e == CL_SUCCESS ? CUZK_OK : cl_fail(q->dev, err, "clEnqueueFillBuffer", e);
}

static cuzk_status ocl_sync(gpu_queue *q, cuzk_error *err)
{
    cl_int e = clFinish(QUEUE(q)->q);
    return e == CL_SUCCESS ? CUZK_OK : cl_fail(q->dev, err, "clFinish", e);
}

/* This queue's kernel object for `name`, created on first use. */
static cuzk_status find_kernel(gpu_queue *q, const char *name, ocl_kernel **out, cuzk_error *err)
{
    ocl_queue *oq = QUEUE(q);
    for (size_t i = 0; i < oq->nkernels; i++)
        if (!strcmp(oq->kernels[i].name, name)) {
            *out = &oq->kernels[i];
            return CUZK_OK;
        }
    if (strlen(name) >= sizeof oq->kernels[0].name)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "no kernel '%.80s...' in %s (name too long)", name,
                        q->dev->program_name);
    cl_int e;
    cl_kernel k = clCreateKernel(OCL(q->dev)->program, name, &e);
    if (!k) {
        if (e == CL_INVALID_KERNEL_NAME)
            return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "no kernel '%s' in %s", name, q->dev->program_name);
        return cl_fail(q->dev, err, "clCreateKernel", e);
    }
    ocl_kernel *ks = realloc(oq->kernels, (oq->nkernels + 1) * sizeof *ks);
    if (!ks) {
        clReleaseKernel(k);
        return gpu_fail(q->dev, err, CUZK_E_NOMEM, "out of host memory");
    }
    oq->kernels = ks;
    ocl_kernel *kk = &ks[oq->nkernels++];
    memset(kk, 0, sizeof *kk);
    snprintf(kk->name, sizeof kk->name, "%s", name);
    kk->k = k;
    clGetKernelWorkGroupInfo(k, OCL(q->dev)->device, CL_KERNEL_WORK_GROUP_SIZE, sizeof kk->max_group,
                             &kk->max_group, NULL);
    clGetKernelInfo(k, CL_KERNEL_NUM_ARGS, sizeof kk->nargs, &kk->nargs, NULL);
    *out = kk;
    return CUZK_OK;
}

static cuzk_status ocl_launch(gpu_queue *q, const char *name, size_t groups, unsigned group_size,
                              const gpu_arg *args, unsigned nargs, cuzk_error *err)
{
    ocl_kernel *k;
    cuzk_status st = find_kernel(q, name, &k, err);
    if (st)
        return st;
    if (nargs != k->nargs)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "kernel '%s' takes %u arguments, %u given", name,
                        (unsigned)k->nargs, nargs);
    if (k->max_group && group_size > k->max_group)
        return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "kernel '%s': group size %u exceeds its limit %zu", name,
                        group_size, k->max_group);
    for (unsigned i = 0; i < nargs; i++) {
        const gpu_arg *a = &args[i];
        cl_int e;
        cl_mem m;
        cl_uint u32;
        cl_ulong u64;
        switch (a->kind) {
        case GPU_ARG_BUFFER:
            m = MEM(a->v.buf);
            e = clSetKernelArg(k->k, i, sizeof m, &m);
            break;
        case GPU_ARG_U32:
            u32 = a->v.u32;
            e = clSetKernelArg(k->k, i, sizeof u32, &u32);
            break;
        case GPU_ARG_U64:
            u64 = a->v.u64;
            e = clSetKernelArg(k->k, i, sizeof u64, &u64);
            break;
        default:
            e = clSetKernelArg(k->k, i, a->v.bytes.len, a->v.bytes.ptr);
            break;
        }
        if (e != CL_SUCCESS)
            return gpu_fail(q->dev, err, CUZK_E_INVALID_ARG, "kernel '%s' argument %u: clSetKernelArg: %s (%d)", name,
                            i, cl_err_name(e), (int)e);
    }
    size_t local = group_size, global = groups * (size_t)group_size;
    cl_int e = clEnqueueNDRangeKernel(QUEUE(q)->q, k->k, 1, NULL, &global, &local, 0, NULL, NULL);
    if (e != CL_SUCCESS) {
        char call[96];
        snprintf(call, sizeof call, "clEnqueueNDRangeKernel('%s', %zu x %u)", name, groups, group_size);
        return cl_fail(q->dev, err, call, e);
    }
    return CUZK_OK;
}

/* ---------------------------------------------------------------- events */

static cuzk_status ocl_event_record(gpu_queue *q, gpu_event *ev, cuzk_error *err)
{
    cl_event e = NULL;
    cl_int r = clEnqueueMarkerWithWaitList(QUEUE(q)->q, 0, NULL, &e);
    if (r != CL_SUCCESS)
        return cl_fail(q->dev, err, "clEnqueueMarkerWithWaitList", r);
    clFlush(QUEUE(q)->q); /* so that a wait from another thread cannot stall on unflushed work */
    ev->impl = e;
    return CUZK_OK;
}

static cuzk_status ocl_event_status(gpu_event *ev, cl_int *status, cuzk_error *err)
{
    cl_int r = clGetEventInfo((cl_event)ev->impl, CL_EVENT_COMMAND_EXECUTION_STATUS, sizeof *status, status, NULL);
    if (r != CL_SUCCESS)
        return cl_fail(ev->dev, err, "clGetEventInfo", r);
    if (*status < 0)
        return gpu_fail(ev->dev, err, CUZK_E_DEVICE, "the work before the event failed: %s (%d)",
                        cl_err_name(*status), (int)*status);
    return CUZK_OK;
}

static cuzk_status ocl_event_wait(gpu_event *ev, cuzk_error *err)
{
    cl_event e = ev->impl;
    cl_int r = clWaitForEvents(1, &e);
    cl_int status;
    cuzk_status st = ocl_event_status(ev, &status, err);
    if (st)
        return st;
    return r == CL_SUCCESS ? CUZK_OK : cl_fail(ev->dev, err, "clWaitForEvents", r);
}

static cuzk_status ocl_event_query(gpu_event *ev, bool *done, cuzk_error *err)
{
    cl_int status;
    cuzk_status st = ocl_event_status(ev, &status, err);
    *done = !st && status == CL_COMPLETE;
    return st;
}

static cuzk_status ocl_queue_wait_event(gpu_queue *q, gpu_event *ev, cuzk_error *err)
{
    cl_event e = ev->impl;
    cl_int r = clEnqueueBarrierWithWaitList(QUEUE(q)->q, 1, &e, NULL);
    return r == CL_SUCCESS ? CUZK_OK : cl_fail(q->dev, err, "clEnqueueBarrierWithWaitList", r);
}

static void ocl_event_destroy(gpu_event *ev)
{
    clReleaseEvent((cl_event)ev->impl);
}

const gpu_backend_ops gpu_opencl_ops = {
    .discover = ocl_discover,
    .open = ocl_open,
    .close = ocl_close,
    .mem_info = ocl_mem_info,
    .buffer_alloc = ocl_buffer_alloc,
    .buffer_free = ocl_buffer_free,
    .host_alloc = ocl_host_alloc,
    .host_free = ocl_host_free,
    .queue_create = ocl_queue_create,
    .queue_destroy = ocl_queue_destroy,
    .upload = ocl_upload,
    .download = ocl_download,
    .copy = ocl_copy,
    .fill_zero = ocl_fill_zero,
    .sync = ocl_sync,
    .launch = ocl_launch,
    .event_record = ocl_event_record,
    .event_wait = ocl_event_wait,
    .event_query = ocl_event_query,
    .queue_wait_event = ocl_queue_wait_event,
    .event_destroy = ocl_event_destroy,
};
