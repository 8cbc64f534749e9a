/* The device runtime (src/gpu/runtime.h) on every device (gpu_test_util.h): errors come back as
 * values naming the device and the call, and the device keeps working after each; copies,
 * pinned and registered host memory, events and cross-queue ordering move the right bytes;
 * several threads share one device. Also, without any device: discovery of each runtime reports a reason (CUDA built
 * without a driver: "no CUDA driver"), and opening a device there is CUZK_E_UNSUPPORTED.
 *
 * The OpenCL program cache: a fresh cache directory is filled by the first open and serves the
 * second; a corrupted entry is rebuilt from source and replaced; CUZK_GPU_CACHE=off writes none.
 * Expected values are independent of the device: byte patterns made on the host, and Fr sums and
 * products computed by the CPU field code (the twin of the kernel gpu_test_fr).
 */
#include <dirent.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "check.h"
#include "field/fr.h"
#include "gpu/kernels/test_ops.h"
#include "gpu_test_util.h"

static bool has(const cuzk_error *e, const char *s)
{
    return strstr(e->msg, s) != NULL;
}

/* ---------------------------------------------------------------- without a device */

static void test_discovery(void)
{
    gpu_runtime rt;
    cuzk_error err = {0};
    CHECK(gpu_runtime_parse("opencl", &rt, &err) == CUZK_OK && rt == GPU_RUNTIME_OPENCL, "parse opencl");
    CHECK(gpu_runtime_parse("cuda", &rt, &err) == CUZK_OK && rt == GPU_RUNTIME_CUDA, "parse cuda");
    CHECK(gpu_runtime_parse("metal", &rt, &err) == CUZK_E_INVALID_ARG && has(&err, "metal"), "parse metal: %s",
          err.msg);
    for (int r = 0; r < GPU_RUNTIME_COUNT; r++) {
        gpu_report rep;
        cuzk_status st = gpu_discover((gpu_runtime)r, &rep, &err);
        CHECK(st == CUZK_OK, "discover %s: %s", gpu_runtime_name((gpu_runtime)r), err.msg);
        CHECK(rep.built == gpu_runtime_built((gpu_runtime)r), "built flag of %s", gpu_runtime_name((gpu_runtime)r));
        CHECK(rep.ndevices > 0 || rep.reason[0], "%s: no device and no reason", gpu_runtime_name((gpu_runtime)r));
        printf("%s: built %d, %zu device(s)%s%s\n", gpu_runtime_name((gpu_runtime)r), rep.built, rep.ndevices,
               rep.reason[0] ? "; " : "", rep.reason);
        if (!rep.built)
            CHECK(strstr(rep.reason, "not built") != NULL,
                  "%s not built: reason '%s'", gpu_runtime_name((gpu_runtime)r), rep.reason);
        if (r == GPU_RUNTIME_CUDA && rep.built && rep.ndevices == 0 && !getenv("CUZK_GPU_TEST_REQUIRE")) {
            /* this machine has no NVIDIA driver (CI, the development machine): said plainly */
            CHECK(strstr(rep.reason, "CUDA driver") != NULL, "CUDA without devices: reason '%s'", rep.reason);
        }
        unsigned idx = (unsigned)rep.ndevices; /* one past the last device */
        gpu_device *dev = NULL;
        st = gpu_device_open((gpu_runtime)r, idx, NULL, &dev, &err);
        CHECK(st != CUZK_OK && dev == NULL, "opening %s:%u (no such device) succeeded", gpu_runtime_name((gpu_runtime)r),
              idx);
        CHECK(st == (rep.ndevices ? CUZK_E_INVALID_ARG : CUZK_E_UNSUPPORTED), "open %s:%u: %s (%s)",
              gpu_runtime_name((gpu_runtime)r), idx, cuzk_status_name(st), err.msg);
        gpu_report_free(&rep);
    }
    gpu_report rep;
    CHECK(gpu_discover((gpu_runtime)7, &rep, &err) == CUZK_E_INVALID_ARG, "unknown runtime");
    gpu_report_free(&rep);
}

/* ---------------------------------------------------------------- on a device */

static void fill_pattern(uint8_t *p, size_t n, uint32_t seed)
{
    for (size_t i = 0; i < n; i++)
        p[i] = (uint8_t)((i * 2654435761u + seed) >> 13);
}

/* n Fr elements from a seed (Montgomery form, fully reduced) */
static void fr_values(fr_t *v, size_t n, uint64_t seed)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t l[4];
        for (int k = 0; k < 4; k++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            l[k] = seed;
        }
        fr_from_limbs_reduce(&v[i], l);
    }
}

/* r = a op b on the device through gpu_test_fr, host arrays of n elements */
static cuzk_status fr_op(gpu_test_dev *d, gpu_queue *q, int op, const fr_t *a, const fr_t *b, fr_t *r, size_t n,
                         cuzk_error *err)
{
    gpu_buffer *ba = NULL, *bb = NULL, *br = NULL;
    size_t bytes = n * sizeof(fr_t);
    cuzk_status st = gpu_buffer_alloc(d->dev, bytes, &ba, err);
    if (!st)
        st = gpu_buffer_alloc(d->dev, bytes, &bb, err);
    if (!st)
        st = gpu_buffer_alloc(d->dev, bytes, &br, err);
    if (!st)
        st = gpu_upload(q, ba, 0, a, bytes, err);
    if (!st)
        st = gpu_upload(q, bb, 0, b, bytes, err);
    if (!st) {
        gpu_arg args[] = {gpu_arg_u32((uint32_t)op), gpu_arg_buf(ba), gpu_arg_buf(bb), gpu_arg_buf(br),
                          gpu_arg_u32((uint32_t)n)};
        st = gpu_launch(q, "gpu_test_fr", (n + 63) / 64, 64, args, 5, err);
    }
    if (!st)
        st = gpu_download(q, r, br, 0, bytes, err);
    if (!st)
        st = gpu_queue_sync(q, err);
    gpu_buffer_free(ba);
    gpu_buffer_free(bb);
    gpu_buffer_free(br);
    return st;
}

/* the device still computes correctly (after an error) */
static void check_alive(gpu_test_dev *d, const char *after)
{
    enum { N = 100 };
    fr_t a[N], b[N], r[N], want[N];
    fr_values(a, N, 1);
    fr_values(b, N, 2);
    for (int i = 0; i < N; i++)
        fr_mul(&want[i], &a[i], &b[i]);
    cuzk_error err = {0};
    cuzk_status st = fr_op(d, d->q, GPU_TEST_MUL, a, b, r, N, &err);
    CHECK(st == CUZK_OK && !memcmp(r, want, sizeof r), "%s: wrong products after %s: %s", d->label, after, err.msg);
}

static void test_errors(gpu_test_dev *d)
{
    const gpu_device_info *info = gpu_device_get_info(d->dev);
    cuzk_error err = {0};
    gpu_buffer *b = NULL;

    /* unknown kernel */
    cuzk_status st = gpu_launch(d->q, "no_such_kernel", 1, 64, NULL, 0, &err);
    CHECK(st == CUZK_E_INVALID_ARG && has(&err, "no kernel 'no_such_kernel'") && has(&err, d->label),
          "unknown kernel: %s (%s)", cuzk_status_name(st), err.msg);
    check_alive(d, "an unknown kernel");

    /* allocations above the device's limits, and of nothing */
    size_t sizes[] = {(size_t)info->max_alloc_bytes + 1, (size_t)1 << 60};
    for (int i = 0; i < 2; i++) {
        st = gpu_buffer_alloc(d->dev, sizes[i], &b, &err);
        char num[32];
        snprintf(num, sizeof num, "%zu", sizes[i]);
        CHECK(st == CUZK_E_NOMEM && b == NULL && has(&err, d->label) && has(&err, num),
              "allocation of %zu bytes: %s (%s)", sizes[i], cuzk_status_name(st), err.msg);
    }
    st = gpu_buffer_alloc(d->dev, 0, &b, &err);
    CHECK(st == CUZK_E_INVALID_ARG && b == NULL, "allocation of 0 bytes: %s", cuzk_status_name(st));
    st = gpu_host_alloc(d->dev, (size_t)1 << 62, (gpu_host_buffer **)&b, &err);
    CHECK(st == CUZK_E_NOMEM && b == NULL && has(&err, d->label), "pinned allocation of 2^62 bytes: %s (%s)",
          cuzk_status_name(st), err.msg);
    check_alive(d, "failed allocations");

    /* bad launches */
    st = gpu_buffer_alloc(d->dev, 4096, &b, &err);
    CHECK(st == CUZK_OK, "alloc 4096: %s", err.msg);
    if (st)
        return;
    gpu_arg args[] = {gpu_arg_u32(GPU_TEST_ADD), gpu_arg_buf(b), gpu_arg_buf(b), gpu_arg_buf(b), gpu_arg_u32(0)};
    st = gpu_launch(d->q, "gpu_test_fr", 1, info->max_group_size + 1, args, 5, &err);
    CHECK(st == CUZK_E_INVALID_ARG && has(&err, "group size"), "oversized group: %s (%s)", cuzk_status_name(st),
          err.msg);
    st = gpu_launch(d->q, "gpu_test_fr", 0, 64, args, 5, &err);
    CHECK(st == CUZK_E_INVALID_ARG, "empty grid: %s", cuzk_status_name(st));
    gpu_arg nullbuf[] = {gpu_arg_u32(0), gpu_arg_buf(NULL), gpu_arg_buf(b), gpu_arg_buf(b), gpu_arg_u32(0)};
    st = gpu_launch(d->q, "gpu_test_fr", 1, 64, nullbuf, 5, &err);
    CHECK(st == CUZK_E_INVALID_ARG && has(&err, "argument 1"), "NULL buffer argument: %s (%s)", cuzk_status_name(st),
          err.msg);
    if (info->runtime == GPU_RUNTIME_OPENCL) { /* CUDA cannot see a kernel's parameter count */
        st = gpu_launch(d->q, "gpu_test_fr", 1, 64, args, 4, &err);
        CHECK(st == CUZK_E_INVALID_ARG && has(&err, "takes 5 arguments"), "wrong argument count: %s (%s)",
              cuzk_status_name(st), err.msg);
    }
    /* copies outside the buffer */
    uint8_t host[64] = {0};
    st = gpu_upload(d->q, b, 4090, host, 7, &err);
    CHECK(st == CUZK_E_INVALID_ARG && has(&err, "exceeds the buffer"), "upload past the end: %s (%s)",
          cuzk_status_name(st), err.msg);
    st = gpu_download(d->q, host, b, (size_t)-8, 16, &err);
    CHECK(st == CUZK_E_INVALID_ARG, "download with a wrapping offset: %s", cuzk_status_name(st));
    st = gpu_copy(d->q, b, 0, b, 8, 16, &err);
    CHECK(st == CUZK_E_INVALID_ARG && has(&err, "overlapping"), "overlapping copy: %s", cuzk_status_name(st));
    gpu_buffer_free(b);
    check_alive(d, "bad launches and copies");

    /* memory info */
    uint64_t fr_b = 0, tot = 0;
    st = gpu_device_mem_info(d->dev, &fr_b, &tot, &err);
    CHECK(st == CUZK_OK && tot == info->global_mem_bytes && (fr_b == GPU_MEM_UNKNOWN || fr_b <= tot),
          "memory info: %s free %llu total %llu", err.msg, (unsigned long long)fr_b, (unsigned long long)tot);
}

/* A program that does not build: an error value naming the device, the call and the log. */
static void test_bad_program(gpu_test_dev *d)
{
    const gpu_device_info *info = gpu_device_get_info(d->dev);
    static const char bad_cl[] = "__kernel void broken(__global uint *x) { x[0] = undeclared_name; }\n";
    static const unsigned char bad_image[] = "this is not a CUDA module";
    gpu_program bad = {"the broken test program", bad_cl, sizeof bad_cl - 1, bad_image, sizeof bad_image};
    gpu_device *dev = NULL;
    cuzk_error err = {0};
    cuzk_status st = gpu_device_open(info->runtime, info->index, &bad, &dev, &err);
    CHECK(st == CUZK_E_DEVICE && dev == NULL && has(&err, info->name) && has(&err, "the broken test program"),
          "bad program: %s (%s)", cuzk_status_name(st), err.msg);
    if (info->runtime == GPU_RUNTIME_OPENCL)
        CHECK(has(&err, "clBuildProgram") && has(&err, "build log") && has(&err, "undeclared_name"),
              "build failure message lacks the log: %s", err.msg);
    else
        CHECK(has(&err, "cuModuleLoadData"), "module load failure message: %s", err.msg);
    printf("bad program on %s: %s\n", d->label, err.msg);
    gpu_program none = {"a program without this runtime's part", NULL, 0, NULL, 0};
    st = gpu_device_open(info->runtime, info->index, &none, &dev, &err);
    CHECK(st == CUZK_E_UNSUPPORTED && dev == NULL, "program without a part: %s (%s)", cuzk_status_name(st),
          err.msg);
    check_alive(d, "failed program builds");
}

static void test_copies(gpu_test_dev *d)
{
    enum { N = 1 << 20 };
    cuzk_error err = {0};
    gpu_buffer *a = NULL, *b = NULL;
    gpu_host_buffer *h1 = NULL, *h2 = NULL;
    gpu_event *ev = NULL;
    uint8_t *ref = malloc(N), *got = malloc(N);
    cuzk_status st = gpu_buffer_alloc(d->dev, N, &a, &err);
    if (!st)
        st = gpu_buffer_alloc(d->dev, N, &b, &err);
    if (!st)
        st = gpu_host_alloc(d->dev, N, &h1, &err);
    if (!st)
        st = gpu_host_alloc(d->dev, N, &h2, &err);
    if (gpu_test_ok(st, &err, "allocations for the copy test", d->label) || !ref || !got)
        goto out;
    uint8_t *p1 = gpu_host_ptr(h1), *p2 = gpu_host_ptr(h2);
    fill_pattern(p1, N, 7);
    memcpy(ref, p1, N);
    /* pinned -> a; a[1000 .. 1000 + 5000) zeroed; a -> b (offsets); b -> pinned */
    st = gpu_upload(d->q, a, 0, p1, N, &err);
    if (!st)
        st = gpu_fill_zero(d->q, a, 1000, 5000, &err);
    if (!st)
        st = gpu_copy(d->q, b, 64, a, 0, N - 64, &err);
    if (!st)
        st = gpu_copy(d->q, b, 0, a, N - 64, 64, &err);
    if (!st)
        st = gpu_download(d->q, p2, b, 0, N, &err);
    if (!st)
        st = gpu_queue_sync(d->q, &err);
    memset(ref + 1000, 0, 5000);
    if (!gpu_test_ok(st, &err, "copies", d->label)) {
        bool ok = !memcmp(p2 + 64, ref, N - 64) && !memcmp(p2, ref + N - 64, 64);
        CHECK(ok, "%s: upload / fill / copy / download moved the wrong bytes", d->label);
    }
    /* an event: after the download completes, the host sees the data */
    fill_pattern(got, N, 99);
    st = gpu_upload(d->q, a, 0, got, N, &err);
    if (!st)
        st = gpu_download(d->q, p2, a, 0, N, &err);
    if (!st)
        st = gpu_event_record(d->q, &ev, &err);
    if (!st)
        st = gpu_event_wait(ev, &err);
    bool done = false;
    if (!st)
        st = gpu_event_query(ev, &done, &err);
    if (!gpu_test_ok(st, &err, "event record / wait / query", d->label))
        CHECK(done && !memcmp(p2, got, N), "%s: event completed before its work", d->label);
    gpu_event_destroy(ev);
out:
    gpu_buffer_free(a);
    gpu_buffer_free(b);
    gpu_host_free(h1);
    gpu_host_free(h2);
    free(ref);
    free(got);
}

/* Registered host memory (gpu_host_register, as the GPU backend registers the engine's a/b/c
 * pool buffers): an mmap'ed region registered once, two uploads from inside it at offsets (one
 * page-aligned, one not) on one queue, an event; the device holds the region's bytes. After
 * gpu_host_free the memory is still the caller's (writable, unmapped by it). Then the argument
 * errors. */
static void test_register(gpu_test_dev *d)
{
    enum { N = 3 << 20, OFF = 12345 };
    cuzk_error err = {0};
    uint8_t *mem = mmap(NULL, N, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    uint8_t *got = malloc(N);
    gpu_buffer *a = NULL;
    gpu_host_buffer *h = NULL;
    gpu_event *ev = NULL;
    if (mem == MAP_FAILED || !got) {
        CHECK(false, "%s: host memory for the registration test", d->label);
        free(got);
        return;
    }
    fill_pattern(mem, N, 23);
    cuzk_status st = gpu_host_register(d->dev, mem, N, &h, &err);
    if (!st)
        CHECK(gpu_host_is_registered(h) && gpu_host_ptr(h) == mem, "%s: registered buffer's pointer", d->label);
    if (!st)
        st = gpu_buffer_alloc(d->dev, N, &a, &err);
    if (!st)
        st = gpu_upload(d->q, a, 0, mem, OFF, &err);
    if (!st)
        st = gpu_upload(d->q, a, OFF, mem + OFF, N - OFF, &err);
    if (!st)
        st = gpu_event_record(d->q, &ev, &err);
    if (!st)
        st = gpu_event_wait(ev, &err);
    if (!st)
        st = gpu_download(d->q, got, a, 0, N, &err);
    if (!st)
        st = gpu_queue_sync(d->q, &err);
    if (!gpu_test_ok(st, &err, "uploads from registered host memory", d->label))
        CHECK(!memcmp(got, mem, N), "%s: uploads from registered memory moved the wrong bytes", d->label);
    gpu_event_destroy(ev);
    gpu_buffer_free(a);
    gpu_host_free(h);
    /* unregistered, not freed: the memory is still ours */
    memset(mem, 0x5a, N);
    CHECK(mem[N - 1] == 0x5a && mem[0] == 0x5a, "%s: memory after unregistering", d->label);
    h = NULL;
    st = gpu_host_register(d->dev, mem, 0, &h, &err);
    CHECK(st == CUZK_E_INVALID_ARG && !h && has(&err, d->label), "register 0 bytes: %s (%s)", cuzk_status_name(st),
          err.msg);
    st = gpu_host_register(d->dev, NULL, N, &h, &err);
    CHECK(st == CUZK_E_INVALID_ARG && !h, "register NULL: %s", cuzk_status_name(st));
    CHECK(!gpu_host_is_registered(NULL), "NULL is not registered");
    gpu_host_buffer *pinned = NULL;
    if (!gpu_host_alloc(d->dev, 4096, &pinned, &err))
        CHECK(!gpu_host_is_registered(pinned), "%s: gpu_host_alloc's memory is not 'registered'", d->label);
    gpu_host_free(pinned);
    munmap(mem, N);
    free(got);
    check_alive(d, "registered memory");
}

/* q1 computes a + b into a buffer; q2 waits on q1's event, then multiplies by c: the product
 * is right only if q2 started after q1's work. */
static void test_cross_queue(gpu_test_dev *d)
{
    enum { N = 4096 };
    static fr_t a[N], b[N], c[N], r[N], want[N];
    fr_values(a, N, 11);
    fr_values(b, N, 12);
    fr_values(c, N, 13);
    for (int i = 0; i < N; i++) {
        fr_add(&want[i], &a[i], &b[i]);
        fr_mul(&want[i], &want[i], &c[i]);
    }
    cuzk_error err = {0};
    gpu_queue *q2 = NULL;
    gpu_buffer *ba = NULL, *bb = NULL, *bc = NULL, *bs = NULL, *br = NULL;
    gpu_event *ev = NULL;
    size_t bytes = sizeof a;
    cuzk_status st = gpu_queue_create(d->dev, &q2, &err);
    gpu_buffer **bufs[] = {&ba, &bb, &bc, &bs, &br};
    for (int i = 0; i < 5 && !st; i++)
        st = gpu_buffer_alloc(d->dev, bytes, bufs[i], &err);
    if (!st)
        st = gpu_upload(d->q, ba, 0, a, bytes, &err);
    if (!st)
        st = gpu_upload(d->q, bb, 0, b, bytes, &err);
    if (!st)
        st = gpu_upload(q2, bc, 0, c, bytes, &err);
    if (!st) {
        gpu_arg args[] = {gpu_arg_u32(GPU_TEST_ADD), gpu_arg_buf(ba), gpu_arg_buf(bb), gpu_arg_buf(bs),
                          gpu_arg_u32(N)};
        st = gpu_launch(d->q, "gpu_test_fr", N / 64, 64, args, 5, &err);
    }
    if (!st)
        st = gpu_event_record(d->q, &ev, &err);
    if (!st)
        st = gpu_queue_wait_event(q2, ev, &err);
    if (!st) {
        gpu_arg args[] = {gpu_arg_u32(GPU_TEST_MUL), gpu_arg_buf(bs), gpu_arg_buf(bc), gpu_arg_buf(br),
                          gpu_arg_u32(N)};
        st = gpu_launch(q2, "gpu_test_fr", N / 64, 64, args, 5, &err);
    }
    if (!st)
        st = gpu_download(q2, r, br, 0, bytes, &err);
    if (!st)
        st = gpu_queue_sync(q2, &err);
    if (!gpu_test_ok(st, &err, "two queues ordered by an event", d->label))
        CHECK(!memcmp(r, want, bytes), "%s: (a + b) * c across queues differs from the CPU", d->label);
    gpu_event_destroy(ev);
    for (int i = 0; i < 5; i++)
        gpu_buffer_free(*bufs[i]);
    gpu_queue_destroy(q2);
}

/* Several threads share the device, each with its own queue. */
typedef struct {
    gpu_test_dev *d;
    int id;
    int bad;
    cuzk_error err;
} worker_arg;

static void *worker(void *p)
{
    worker_arg *w = p;
    enum { N = 1000 };
    fr_t a[N], b[N], r[N], want[N];
    gpu_queue *q = NULL;
    if (gpu_queue_create(w->d->dev, &q, &w->err)) {
        w->bad = 1;
        return NULL;
    }
    for (int round = 0; round < 8; round++) {
        fr_values(a, N, (uint64_t)(w->id * 100 + round));
        fr_values(b, N, (uint64_t)(w->id * 100 + round + 50));
        for (int i = 0; i < N; i++)
            fr_mul(&want[i], &a[i], &b[i]);
        if (fr_op(w->d, q, GPU_TEST_MUL, a, b, r, N, &w->err) || memcmp(r, want, sizeof r)) {
            w->bad = 1;
            break;
        }
    }
    gpu_queue_destroy(q);
    return NULL;
}

static void test_threads(gpu_test_dev *d)
{
    enum { T = 4 };
    pthread_t th[T];
    worker_arg w[T];
    for (int i = 0; i < T; i++) {
        memset(&w[i], 0, sizeof w[i]);
        w[i].d = d;
        w[i].id = i;
        pthread_create(&th[i], NULL, worker, &w[i]);
    }
    for (int i = 0; i < T; i++) {
        pthread_join(th[i], NULL);
        CHECK(!w[i].bad, "%s: worker %d of %d sharing the device failed: %s", d->label, i, T, w[i].err.msg);
    }
}

/* ---------------------------------------------------------------- the OpenCL program cache */

/* the single entry of dir: its path into `path`, its size; 0 when there is not exactly one */
static long cache_entry(const char *dir, char *path, size_t cap)
{
    DIR *d = opendir(dir);
    struct dirent *e;
    long size = 0;
    int n = 0;
    while (d && (e = readdir(d)))
        if (e->d_name[0] != '.') {
            n++;
            snprintf(path, cap, "%s/%s", dir, e->d_name);
            FILE *f = fopen(path, "rb");
            if (f && !fseek(f, 0, SEEK_END))
                size = ftell(f);
            if (f)
                fclose(f);
        }
    if (d)
        closedir(d);
    return n == 1 ? size : 0;
}

static bool open_and_check(gpu_test_dev *d, bool *cached)
{
    const gpu_device_info *info = gpu_device_get_info(d->dev);
    gpu_test_dev t = {NULL, NULL, d->label};
    cuzk_error err = {0};
    if (gpu_device_open(info->runtime, info->index, &gpu_program_test_, &t.dev, &err) ||
        gpu_queue_create(t.dev, &t.q, &err)) {
        CHECK(false, "%s: reopening: %s", d->label, err.msg);
        gpu_device_close(t.dev);
        return false;
    }
    *cached = gpu_device_program_cached(t.dev);
    check_alive(&t, "reopening with the program cache");
    gpu_queue_destroy(t.q);
    gpu_device_close(t.dev);
    return true;
}

static void test_program_cache(gpu_test_dev *d)
{
    if (gpu_device_get_info(d->dev)->runtime != GPU_RUNTIME_OPENCL)
        return;
    char dir[] = "/tmp/cuzk-gpu-cache-XXXXXX", entry[512];
    if (!mkdtemp(dir)) {
        CHECK(false, "mkdtemp");
        return;
    }
    const char *old = getenv("CUZK_GPU_CACHE");
    char *saved = old ? strdup(old) : NULL;
    setenv("CUZK_GPU_CACHE", dir, 1);
    bool cached = true;
    if (open_and_check(d, &cached))
        CHECK(!cached, "%s: a fresh cache served the program", d->label);
    long size = cache_entry(dir, entry, sizeof entry);
    CHECK(size > 0, "%s: no cache entry after the first build", d->label);
    if (open_and_check(d, &cached))
        CHECK(cached, "%s: the second open did not use the cache", d->label);
    FILE *f = fopen(entry, "wb"); /* corrupt it */
    if (f) {
        fputs("not a program binary", f);
        fclose(f);
    }
    if (open_and_check(d, &cached))
        CHECK(!cached, "%s: a corrupted entry was used", d->label);
    CHECK(cache_entry(dir, entry, sizeof entry) == size, "%s: the corrupted entry was not replaced", d->label);
    if (size)
        unlink(entry);
    setenv("CUZK_GPU_CACHE", "off", 1);
    if (open_and_check(d, &cached))
        CHECK(!cached && cache_entry(dir, entry, sizeof entry) == 0, "%s: CUZK_GPU_CACHE=off still cached", d->label);
    rmdir(dir);
    if (saved)
        setenv("CUZK_GPU_CACHE", saved, 1);
    else
        unsetenv("CUZK_GPU_CACHE");
    free(saved);
}

int main(void)
{
    test_discovery();
    gpu_test_dev devs[GPU_TEST_MAX_DEVICES];
    size_t nd = gpu_test_open_all(devs, &gpu_program_test_);
    for (size_t i = 0; i < nd; i++) {
        test_errors(&devs[i]);
        test_bad_program(&devs[i]);
        test_copies(&devs[i]);
        test_register(&devs[i]);
        test_cross_queue(&devs[i]);
        test_threads(&devs[i]);
        test_program_cache(&devs[i]);
    }
    gpu_test_close_all(devs, nd);
    return check_summary("gpu_runtime");
}
