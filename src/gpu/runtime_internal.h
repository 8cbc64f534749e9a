/* Internal to src/gpu: the table each runtime implements behind runtime.h, and the object
 * layouts the common code (runtime.c) and the implementations share.
 *
 * runtime.c checks every argument (NULLs, ranges, sizes against limits, buffers of the right
 * device), allocates and frees the handle structs and prefixes messages with the device label;
 * an implementation only makes the runtime's calls and fills the `impl` / `h` fields. Every
 * implementation function may assume valid arguments.
 */
#ifndef CUZK_GPU_RUNTIME_INTERNAL_H
#define CUZK_GPU_RUNTIME_INTERNAL_H

#include <pthread.h>

#include "gpu/runtime.h"

typedef struct gpu_backend_ops {
    /* Fill r->devices / r->ndevices (r is zeroed, runtime set) or r->reason. */
    cuzk_status (*discover)(gpu_report *r, cuzk_error *err);
    /* dev->info is already filled from discovery; create the context and build/load prog. */
    cuzk_status (*open)(gpu_device *dev, const gpu_program *prog, cuzk_error *err);
    void (*close)(gpu_device *dev);
    cuzk_status (*mem_info)(gpu_device *dev, uint64_t *free_bytes, cuzk_error *err);
    cuzk_status (*buffer_alloc)(gpu_buffer *b, cuzk_error *err);
    void (*buffer_free)(gpu_buffer *b);
    cuzk_status (*host_alloc)(gpu_host_buffer *h, cuzk_error *err);
    void (*host_free)(gpu_host_buffer *h);
    /* h->ptr, h->bytes set: page-lock them (NULL: nothing to do, the range is only recorded);
     * host_unregister undoes it (called instead of host_free for a registered h). */
    cuzk_status (*host_register)(gpu_host_buffer *h, cuzk_error *err);
    void (*host_unregister)(gpu_host_buffer *h);
    cuzk_status (*queue_create)(gpu_queue *q, cuzk_error *err);
    void (*queue_destroy)(gpu_queue *q);
    cuzk_status (*upload)(gpu_queue *q, gpu_buffer *dst, size_t off, const void *src, size_t n, cuzk_error *err);
    cuzk_status (*download)(gpu_queue *q, void *dst, const gpu_buffer *src, size_t off, size_t n,
                            cuzk_error *err);
    cuzk_status (*copy)(gpu_queue *q, gpu_buffer *dst, size_t doff, const gpu_buffer *src, size_t soff, size_t n,
                        cuzk_error *err);
    cuzk_status (*fill_zero)(gpu_queue *q, gpu_buffer *dst, size_t off, size_t n, cuzk_error *err);
    cuzk_status (*sync)(gpu_queue *q, cuzk_error *err);
    cuzk_status (*launch)(gpu_queue *q, const char *name, size_t groups, unsigned group_size, const gpu_arg *args,
                          unsigned nargs, cuzk_error *err);
    cuzk_status (*event_record)(gpu_queue *q, gpu_event *ev, cuzk_error *err);
    cuzk_status (*event_wait)(gpu_event *ev, cuzk_error *err);
    cuzk_status (*event_query)(gpu_event *ev, bool *done, cuzk_error *err);
    cuzk_status (*queue_wait_event)(gpu_queue *q, gpu_event *ev, cuzk_error *err);
    void (*event_destroy)(gpu_event *ev);
} gpu_backend_ops;

struct gpu_device {
    const gpu_backend_ops *ops;
    gpu_device_info info;
    char label[176];            /* "opencl:0 (NAME)" */
    char program_name[64];      /* the program's name, for messages */
    double build_seconds;
    bool program_cached;        /* OpenCL: the program came from the on-disk cache */
    pthread_mutex_t lock;       /* the implementation's small caches (CUDA kernel functions) */
    void *impl;
};

struct gpu_buffer {
    gpu_device *dev;
    size_t bytes;
    uint64_t h;                 /* CUdeviceptr, or the cl_mem pointer value */
};

struct gpu_host_buffer {
    gpu_device *dev;
    size_t bytes;
    void *ptr;
    void *impl;                 /* OpenCL: the cl_mem backing ptr (gpu_host_alloc's) */
    bool registered;            /* gpu_host_register's: the memory is the caller's */
};

struct gpu_queue {
    gpu_device *dev;
    void *impl;
};

struct gpu_event {
    gpu_device *dev;
    void *impl;
};

#ifdef CUZK_HAVE_OPENCL
extern const gpu_backend_ops gpu_opencl_ops;
#endif
#ifdef CUZK_HAVE_CUDA
extern const gpu_backend_ops gpu_cuda_ops;
#endif

/* Record "<device label>: <message>" in err and return code. */
cuzk_status gpu_fail(const gpu_device *dev, cuzk_error *err, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Copy src into dst (cap bytes), always NUL-terminated, trailing spaces removed. */
void gpu_copy_str(char *dst, size_t cap, const char *src);

/* Grow r->devices by one zeroed entry (runtime and index set); NULL on allocation failure. */
gpu_device_info *gpu_report_add(gpu_report *r);

#endif
