/* Host side of the device G1 MSM: base tables, the chunk loop, the Pippenger launches and the
 * host combine. Contract in msm.h; kernels in kernels/msm.h. */
#include "gpu/msm.h"

#include <stdlib.h>
#include <string.h>

#include "field/fp.h"
#include "gpu/g1_sum.h"
#include "gpu/runtime_internal.h"

#define MSM_GROUP 64        /* work-items per group of the point kernels (kernels/msm.h MSM_REDUCE_THREADS) */
#define MSM_SCAN_THREADS 256 /* kernels/msm.h */
#define MSM_SCAN_TILE 1024
#define MSM_SCAN_LEVELS 4    /* tiles of 1024: up to 2^40 counts */
#define MSM_SUM_GROUP 16     /* segment sums added per work-item of msm_sum_groups */
#define MSM_HOST_SEGS 16     /* at most this many sums per window left to the host */
#define SCALAR_BYTES 32

/* The device's g1_xyzz_t (kernels/g1.h): x = X/ZZ, y = Y/ZZZ, infinity ZZ = 0 */
typedef struct {
    fp_t x, y, zz, zzz;
} msm_xyzz;
#define XYZZ_BYTES sizeof(msm_xyzz)

struct gpu_msm_bases {
    gpu_device *dev;
    gpu_buffer *buf; /* NULL when n == 0 */
    size_t n;
};

static const char FN[] = "gpu_msm_g1";

cuzk_status gpu_msm_bases_upload(gpu_queue *q, const g1_affine_t *points, size_t n, gpu_msm_bases **out,
                                 cuzk_error *err)
{
    if (!q || !out || (!points && n))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_bases_upload: NULL %s", !q ? "queue" : !out ? "out" : "points");
    gpu_device *dev = gpu_queue_device(q);
    if (n > UINT32_MAX)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "gpu_msm_bases_upload: %zu points, at most 2^32 - 1", n);
    gpu_msm_bases *b = calloc(1, sizeof *b);
    if (!b)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "gpu_msm_bases_upload: out of host memory");
    b->dev = dev;
    b->n = n;
    cuzk_status st = CUZK_OK;
    if (n) {
        st = gpu_buffer_alloc(dev, n * sizeof(g1_affine_t), &b->buf, err);
        if (!st)
            st = gpu_upload(q, b->buf, 0, points, n * sizeof(g1_affine_t), err);
        if (!st)
            st = gpu_queue_sync(q, err);
    }
    if (st) {
        gpu_queue_sync(q, NULL);
        gpu_msm_bases_free(b);
        return st;
    }
    *out = b;
    return CUZK_OK;
}

size_t gpu_msm_bases_bytes(const gpu_msm_bases *b)
{
    return b && b->buf ? gpu_buffer_size(b->buf) : 0;
}

size_t gpu_msm_bases_count(const gpu_msm_bases *b)
{
    return b ? b->n : 0;
}

void gpu_msm_bases_free(gpu_msm_bases *b)
{
    if (!b)
        return;
    gpu_buffer_free(b->buf);
    free(b);
}

unsigned gpu_msm_window_bits(size_t m)
{
    unsigned best = GPU_MSM_MIN_WINDOW;
    double best_cost = 0;
    for (unsigned c = GPU_MSM_MIN_WINDOW; c <= GPU_MSM_MAX_WINDOW; c++) {
        double cost = (double)((256 + c - 1) / c) * ((double)m + 3.0 * (double)((size_t)1 << (c - 1)));
        if (c == GPU_MSM_MIN_WINDOW || cost < best_cost) {
            best = c;
            best_cost = cost;
        }
    }
    return best;
}

/* (X, Y, ZZ, ZZZ) -> Jacobian (X ZZ, Y ZZZ, ZZ), as the device's g1_jac_from_xyzz */
static void xyzz_to_jac(g1_jac_t *r, const msm_xyzz *p)
{
    if (fp_is_zero(&p->zz)) {
        g1_jac_set_infinity(r);
        return;
    }
    fp_mul(&r->x, &p->x, &p->zz);
    fp_mul(&r->y, &p->y, &p->zzz);
    r->z = p->zz;
}

static size_t div_up(size_t a, size_t b)
{
    return (a + b - 1) / b;
}

/* Everything one MSM holds; freed by ctx_free. */
typedef struct {
    gpu_queue *q;
    gpu_device *dev;
    gpu_buffer *bases;
    gpu_buffer *staged;         /* host scalars of one chunk */
    gpu_buffer *ones, *big, *ctr;
    gpu_buffer *ones_pts;       /* gathered bases of the ones, chunk capacity */
    /* Pippenger of one chunk (sized for its window and batch) */
    gpu_buffer *count, *offs, *cursor, *keys, *vals, *buckets, *part_first, *part_last, *segs, *segs2;
    gpu_buffer *scan_sums[MSM_SCAN_LEVELS];
    msm_xyzz *seg_host;
    size_t seg_cap;
} msm_ctx;

static void free_pippenger(msm_ctx *c)
{
    gpu_buffer **bufs[] = {&c->count, &c->offs, &c->cursor, &c->keys, &c->vals, &c->buckets,
                           &c->part_first, &c->part_last, &c->segs, &c->segs2};
    for (size_t i = 0; i < sizeof bufs / sizeof bufs[0]; i++) {
        gpu_buffer_free(*bufs[i]);
        *bufs[i] = NULL;
    }
    for (int i = 0; i < MSM_SCAN_LEVELS; i++) {
        gpu_buffer_free(c->scan_sums[i]);
        c->scan_sums[i] = NULL;
    }
}

static void ctx_free(msm_ctx *c)
{
    free_pippenger(c);
    gpu_buffer_free(c->staged);
    gpu_buffer_free(c->ones);
    gpu_buffer_free(c->big);
    gpu_buffer_free(c->ctr);
    gpu_buffer_free(c->ones_pts);
    free(c->seg_host);
}

static cuzk_status launch(msm_ctx *c, const char *name, size_t items, unsigned group, const gpu_arg *args,
                          unsigned nargs, cuzk_error *err)
{
    return gpu_launch(c->q, name, div_up(items ? items : 1, group), group, args, nargs, err);
}

/* Exclusive prefix sum of n u32 counts (in) into out, tile by tile and then the tile sums,
 * recursively (level = depth, its sums buffer allocated on first use). */
static cuzk_status scan(msm_ctx *c, gpu_buffer *in, gpu_buffer *out, size_t n, int level, cuzk_error *err)
{
    if (level >= MSM_SCAN_LEVELS)
        return gpu_fail(c->dev, err, CUZK_E_INVALID_ARG, "%s: %zu counts exceed the prefix scan", FN, n);
    size_t tiles = div_up(n, MSM_SCAN_TILE);
    cuzk_status st = CUZK_OK;
    if (!c->scan_sums[level])
        st = gpu_buffer_alloc(c->dev, tiles * sizeof(uint32_t), &c->scan_sums[level], err);
    gpu_buffer *sums = c->scan_sums[level];
    if (!st) {
        gpu_arg a[] = {gpu_arg_buf(in), gpu_arg_buf(out), gpu_arg_u32((uint32_t)n), gpu_arg_buf(sums)};
        st = gpu_launch(c->q, "msm_scan_tiles", tiles, MSM_SCAN_THREADS, a, 4, err);
    }
    if (st || tiles == 1)
        return st;
    st = scan(c, sums, sums, tiles, level + 1, err);
    if (!st) {
        gpu_arg a[] = {gpu_arg_buf(out), gpu_arg_u32((uint32_t)n), gpu_arg_buf(sums)};
        st = launch(c, "msm_scan_add", n, MSM_SCAN_THREADS, a, 3, err);
    }
    return st;
}

/* The Pippenger sum of the m large scalars of one chunk (indices in c->big, scalars
 * sbuf[soff + i], bases c->bases[base0 + i]) into *acc (added). */
static cuzk_status pippenger(msm_ctx *c, gpu_buffer *sbuf, uint32_t soff, uint32_t base0, size_t m,
                             const gpu_msm_opts *o, gpu_msm_stats *stats, g1_jac_t *acc, cuzk_error *err)
{
    unsigned cb = o->window_bits ? o->window_bits : gpu_msm_window_bits(m);
    unsigned windows = (256 + cb - 1) / cb;
    size_t nb = (size_t)1 << (cb - 1), nbk = windows * nb;
    size_t batch = o->max_pairs / windows;
    if (batch > m)
        batch = m;
    size_t pairs = batch * windows;
    /* accumulation runs: enough work-items to fill the device */
    size_t target = (size_t)(c->dev->info.compute_units ? c->dev->info.compute_units : 1) * 1024;
    size_t seg = div_up(pairs, target);
    if (seg < 4)
        seg = 4;
    size_t runs = div_up(pairs, seg);
    /* reduction segments: about 256 work-items per compute unit over all windows */
    size_t rtarget = (size_t)(c->dev->info.compute_units ? c->dev->info.compute_units : 1) * 256;
    size_t nseg = o->segments ? o->segments : rtarget / windows;
    if (nseg < 1)
        nseg = 1;
    if (nseg > nb)
        nseg = nb;
    size_t len = div_up(nb, nseg);
    nseg = div_up(nb, len);
    size_t nsegs = windows * nseg;
    /* the segments summed on the device down to at most MSM_HOST_SEGS a window */
    size_t nleft = nseg;
    unsigned rounds = 0;
    for (; nleft > MSM_HOST_SEGS; rounds++)
        nleft = div_up(nleft, MSM_SUM_GROUP);

    cuzk_status st = CUZK_OK;
    gpu_device *dev = c->dev;
#define ALLOC(buf, bytes)                                                                                              \
    if (!st)                                                                                                           \
    st = gpu_buffer_alloc(dev, (bytes), &c->buf, err)
    ALLOC(count, (nbk + 1) * sizeof(uint32_t));
    ALLOC(offs, (nbk + 1) * sizeof(uint32_t));
    ALLOC(cursor, (nbk + 1) * sizeof(uint32_t));
    ALLOC(keys, pairs * sizeof(uint32_t));
    ALLOC(vals, pairs * sizeof(uint32_t));
    ALLOC(buckets, nbk * XYZZ_BYTES);
    ALLOC(part_first, runs * XYZZ_BYTES);
    ALLOC(part_last, runs * XYZZ_BYTES);
    ALLOC(segs, nsegs * XYZZ_BYTES);
    if (nseg > MSM_HOST_SEGS)
        ALLOC(segs2, windows * div_up(nseg, MSM_SUM_GROUP) * XYZZ_BYTES);
#undef ALLOC
    size_t nhost = windows * nleft;
    if (!st && c->seg_cap < nhost) {
        msm_xyzz *p = realloc(c->seg_host, nhost * sizeof *p);
        if (!p)
            st = gpu_fail(dev, err, CUZK_E_NOMEM, "%s: out of host memory for %zu segment sums", FN, nhost);
        else {
            c->seg_host = p;
            c->seg_cap = nhost;
        }
    }
    for (size_t j0 = 0; j0 < m && !st; j0 += batch) {
        uint32_t mb = (uint32_t)(m - j0 < batch ? m - j0 : batch);
        st = gpu_fill_zero(c->q, c->count, 0, (nbk + 1) * sizeof(uint32_t), err);
        if (!st) {
            gpu_arg a[] = {gpu_arg_buf(sbuf),          gpu_arg_u32(soff),    gpu_arg_buf(c->big),
                           gpu_arg_u32((uint32_t)j0), gpu_arg_u32(mb),       gpu_arg_u32(cb),
                           gpu_arg_u32(windows),      gpu_arg_buf(c->count)};
            st = launch(c, "msm_histogram", mb, MSM_GROUP, a, 8, err);
        }
        if (!st)
            st = scan(c, c->count, c->offs, nbk + 1, 0, err);
        if (!st)
            st = gpu_copy(c->q, c->cursor, 0, c->offs, 0, (nbk + 1) * sizeof(uint32_t), err);
        if (!st) {
            gpu_arg a[] = {gpu_arg_buf(sbuf),     gpu_arg_u32(soff),       gpu_arg_buf(c->big), gpu_arg_u32((uint32_t)j0),
                           gpu_arg_u32(mb),       gpu_arg_u32(cb),         gpu_arg_u32(windows), gpu_arg_buf(c->cursor),
                           gpu_arg_buf(c->keys),  gpu_arg_buf(c->vals)};
            st = launch(c, "msm_scatter", mb, MSM_GROUP, a, 10, err);
        }
        if (!st) {
            gpu_arg a[] = {gpu_arg_buf(c->bases),      gpu_arg_u32(base0),          gpu_arg_buf(c->keys),
                           gpu_arg_buf(c->vals),       gpu_arg_u32((uint32_t)nbk), gpu_arg_u32((uint32_t)seg),
                           gpu_arg_buf(c->offs),       gpu_arg_buf(c->count),       gpu_arg_buf(c->buckets),
                           gpu_arg_buf(c->part_first), gpu_arg_buf(c->part_last)};
            st = launch(c, "msm_accumulate", runs, MSM_GROUP, a, 11, err);
        }
        if (!st) {
            gpu_arg a[] = {gpu_arg_buf(c->offs),       gpu_arg_buf(c->count),     gpu_arg_u32((uint32_t)nbk),
                           gpu_arg_u32((uint32_t)seg), gpu_arg_buf(c->part_first), gpu_arg_buf(c->part_last),
                           gpu_arg_buf(c->buckets)};
            st = launch(c, "msm_bucket_fixup", nbk, MSM_GROUP, a, 7, err);
        }
        if (!st) {
            gpu_arg a[] = {gpu_arg_buf(c->buckets),   gpu_arg_u32((uint32_t)nb),   gpu_arg_u32(windows),
                           gpu_arg_u32((uint32_t)len), gpu_arg_u32((uint32_t)nseg), gpu_arg_buf(c->segs)};
            st = launch(c, "msm_reduce", nsegs, MSM_GROUP, a, 6, err);
        }
        gpu_buffer *sums = c->segs, *spare = c->segs2;
        for (size_t nin = nseg; !st && nin > MSM_HOST_SEGS; nin = div_up(nin, MSM_SUM_GROUP)) {
            gpu_arg a[] = {gpu_arg_buf(sums), gpu_arg_u32((uint32_t)nin), gpu_arg_u32(windows),
                           gpu_arg_u32(MSM_SUM_GROUP), gpu_arg_buf(spare)};
            st = launch(c, "msm_sum_groups", windows * div_up(nin, MSM_SUM_GROUP), MSM_GROUP, a, 5, err);
            gpu_buffer *t = sums;
            sums = spare;
            spare = t;
        }
        if (!st)
            st = gpu_download(c->q, c->seg_host, sums, 0, nhost * XYZZ_BYTES, err);
        if (!st)
            st = gpu_queue_sync(c->q, err);
        if (st)
            break;
        /* windows by Horner's rule: sum_w 2^(c w) W_w, each W_w the sum of its segments */
        g1_jac_t tot;
        g1_jac_set_infinity(&tot);
        for (unsigned w = windows; w-- > 0;) {
            for (unsigned k = 0; k < cb; k++)
                g1_dbl(&tot, &tot);
            for (size_t p = 0; p < nleft; p++) {
                g1_jac_t s;
                xyzz_to_jac(&s, &c->seg_host[w * nleft + p]);
                g1_add(&tot, &tot, &s);
            }
        }
        g1_add(acc, acc, &tot);
        if (stats) {
            stats->batches++;
            stats->window_bits = cb;
            stats->segments = nseg;
            stats->sum_rounds = rounds;
        }
    }
    if (st)
        gpu_queue_sync(c->q, NULL);
    free_pippenger(c);
    return st;
}

/* The ones of one chunk: gather their bases, sum them pairwise, add to *acc. */
static cuzk_status sum_ones(msm_ctx *c, uint32_t base0, size_t k1, size_t cap, g1_jac_t *acc, cuzk_error *err)
{
    cuzk_status st = CUZK_OK;
    if (!c->ones_pts)
        st = gpu_buffer_alloc(c->dev, cap * sizeof(g1_affine_t), &c->ones_pts, err);
    if (!st) {
        gpu_arg a[] = {gpu_arg_buf(c->bases), gpu_arg_u32(base0), gpu_arg_buf(c->ones), gpu_arg_u32((uint32_t)k1),
                       gpu_arg_buf(c->ones_pts)};
        st = launch(c, "msm_gather", k1, MSM_GROUP, a, 5, err);
    }
    g1_affine_t s;
    if (!st)
        st = gpu_g1_sum_affine(c->q, c->ones_pts, k1, &s, err);
    if (!st)
        g1_add_mixed(acc, acc, &s);
    return st;
}

static cuzk_status check_opts(gpu_device *dev, const gpu_msm_opts *in, gpu_msm_opts *o, cuzk_error *err)
{
    memset(o, 0, sizeof *o);
    if (in)
        *o = *in;
    if (o->window_bits && (o->window_bits < GPU_MSM_MIN_WINDOW || o->window_bits > GPU_MSM_MAX_WINDOW))
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: opts.window_bits = %u outside [%d, %d]", FN, o->window_bits,
                        GPU_MSM_MIN_WINDOW, GPU_MSM_MAX_WINDOW);
    if (!o->chunk)
        o->chunk = GPU_MSM_CHUNK;
    if (o->chunk > ((size_t)1 << 31))
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: opts.chunk = %zu above 2^31", FN, o->chunk);
    if (!o->max_pairs)
        o->max_pairs = GPU_MSM_MAX_PAIRS;
    if (o->max_pairs < 256 || o->max_pairs > UINT32_MAX)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: opts.max_pairs = %zu outside [256, 2^32 - 1]", FN,
                        o->max_pairs);
    return CUZK_OK;
}

/* The checks shared by the entry points: bases on q's device, first + n within them, n < 2^32. */
static cuzk_status check_common(gpu_queue *q, const gpu_msm_bases *bases, size_t first, size_t n,
                                const g1_jac_t *result, cuzk_error *err)
{
    if (!q || !bases || !result)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: NULL %s", FN, !q ? "queue" : !bases ? "bases" : "result");
    gpu_device *dev = gpu_queue_device(q);
    if (bases->dev != dev)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: the bases are on %s", FN, gpu_device_label(bases->dev));
    if (n > UINT32_MAX)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: n = %zu, at most 2^32 - 1", FN, n);
    if (first > bases->n || n > bases->n - first)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: first %zu + n %zu exceed the %zu bases", FN, first, n,
                        bases->n);
    return CUZK_OK;
}

/* A device buffer of q's device holding at least `count` elements of `elem` bytes. */
static cuzk_status check_buffer(gpu_device *dev, const gpu_buffer *b, const char *what, size_t count, size_t elem,
                                cuzk_error *err)
{
    if (b->dev != dev)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: the %s buffer is on %s", FN, what, gpu_device_label(b->dev));
    if (gpu_buffer_size(b) / elem < count)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: the %s buffer holds %zu bytes, %zu %s need %zu", FN, what,
                        gpu_buffer_size(b), count, what, count * elem);
    return CUZK_OK;
}

/* The MSM of every entry point: scalar i of the sum is host_scalars[i] (host), or
 * device_scalars[sfirst + index[i]] (index != NULL) or device_scalars[sfirst + i]; nscalars
 * bounds the indices. Arguments checked by the caller. */
static cuzk_status msm_run(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *device_scalars,
                           size_t sfirst, size_t nscalars, const gpu_buffer *index, const uint8_t *host_scalars,
                           size_t n, const gpu_msm_opts *opts, gpu_msm_stats *stats, g1_jac_t *result,
                           cuzk_error *err)
{
    gpu_device *dev = gpu_queue_device(q);
    gpu_msm_opts o;
    cuzk_status st = check_opts(dev, opts, &o, err);
    if (st)
        return st;
    gpu_msm_stats local;
    memset(&local, 0, sizeof local);
    g1_jac_t acc;
    g1_jac_set_infinity(&acc);

    msm_ctx c;
    memset(&c, 0, sizeof c);
    c.q = q;
    c.dev = dev;
    c.bases = bases->buf;
    size_t chunk = n < o.chunk ? n : o.chunk;
    bool staged = host_scalars || index; /* each chunk's scalars copied into c.staged */
    if (n) {
        if (staged)
            st = gpu_buffer_alloc(dev, chunk * SCALAR_BYTES, &c.staged, err);
        if (!st)
            st = gpu_buffer_alloc(dev, chunk * sizeof(uint32_t), &c.ones, err);
        if (!st)
            st = gpu_buffer_alloc(dev, chunk * sizeof(uint32_t), &c.big, err);
        if (!st)
            st = gpu_buffer_alloc(dev, 4 * sizeof(uint32_t), &c.ctr, err);
    }
    /* the scalar buffer is only read; the runtime's arguments are not const */
    gpu_buffer *dsc = (gpu_buffer *)(uintptr_t)device_scalars;
    gpu_buffer *sbuf = staged ? c.staged : dsc;
    for (size_t c0 = 0; c0 < n && !st; c0 += chunk) {
        size_t cn = n - c0 < chunk ? n - c0 : chunk;
        uint32_t soff = staged ? 0 : (uint32_t)(sfirst + c0), base0 = (uint32_t)(first + c0);
        uint32_t ctr[4] = {0, 0, UINT32_MAX, UINT32_MAX};
        if (host_scalars)
            st = gpu_upload(q, c.staged, 0, host_scalars + c0 * SCALAR_BYTES, cn * SCALAR_BYTES, err);
        if (!st)
            st = gpu_upload(q, c.ctr, 0, ctr, sizeof ctr, err);
        if (!st && index) {
            gpu_arg a[] = {gpu_arg_buf(dsc),          gpu_arg_u32((uint32_t)sfirst), gpu_arg_u32((uint32_t)nscalars),
                           gpu_arg_buf((gpu_buffer *)(uintptr_t)index), gpu_arg_u32((uint32_t)c0),
                           gpu_arg_u32((uint32_t)cn), gpu_arg_buf(c.staged), gpu_arg_buf(c.ctr)};
            st = launch(&c, "msm_gather_scalars", cn, MSM_GROUP, a, 8, err);
        }
        if (!st) {
            gpu_arg a[] = {gpu_arg_buf(sbuf), gpu_arg_u32(soff), gpu_arg_u32((uint32_t)cn), gpu_arg_buf(c.ones),
                           gpu_arg_buf(c.big), gpu_arg_buf(c.ctr)};
            st = launch(&c, "msm_classify", cn, MSM_GROUP, a, 6, err);
        }
        if (!st)
            st = gpu_download(q, ctr, c.ctr, 0, sizeof ctr, err);
        if (!st)
            st = gpu_queue_sync(q, err);
        if (st)
            break;
        if (ctr[3] != UINT32_MAX) {
            st = gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: index %zu selects a scalar past the %zu given", FN,
                          c0 + ctr[3], nscalars);
            break;
        }
        if (ctr[2] != UINT32_MAX) {
            st = gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: scalar %zu is not below r", FN, c0 + ctr[2]);
            break;
        }
        local.chunks++;
        local.ones += ctr[0];
        local.large += ctr[1];
        local.zeros += cn - ctr[0] - ctr[1];
        if (ctr[0])
            st = sum_ones(&c, base0, ctr[0], chunk, &acc, err);
        if (!st && ctr[1])
            st = pippenger(&c, sbuf, soff, base0, ctr[1], &o, &local, &acc, err);
    }
    if (st)
        gpu_queue_sync(q, NULL);
    ctx_free(&c);
    if (st)
        return st;
    g1_affine_t a;
    g1_affine_from_jac(&a, &acc);
    g1_jac_from_affine(result, &a);
    if (stats)
        *stats = local;
    return CUZK_OK;
}

cuzk_status gpu_msm_g1_ex(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *device_scalars,
                          const uint8_t *host_scalars, size_t n, const gpu_msm_opts *opts, gpu_msm_stats *stats,
                          g1_jac_t *result, cuzk_error *err)
{
    cuzk_status st = check_common(q, bases, first, n, result, err);
    if (st)
        return st;
    gpu_device *dev = gpu_queue_device(q);
    if (device_scalars && host_scalars)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: scalars both on the device and on the host", FN);
    if (n && !device_scalars && !host_scalars)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: NULL scalars with n = %zu", FN, n);
    if (device_scalars && (st = check_buffer(dev, device_scalars, "scalars", n, SCALAR_BYTES, err)))
        return st;
    return msm_run(q, bases, first, device_scalars, 0, n, NULL, host_scalars, n, opts, stats, result, err);
}

cuzk_status gpu_msm_g1_indexed(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *scalars,
                               size_t sfirst, size_t nscalars, const gpu_buffer *index, size_t n,
                               const gpu_msm_opts *opts, gpu_msm_stats *stats, g1_jac_t *result, cuzk_error *err)
{
    cuzk_status st = check_common(q, bases, first, n, result, err);
    if (st)
        return st;
    gpu_device *dev = gpu_queue_device(q);
    if (n && (!scalars || (!index && n > nscalars)))
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: %s with n = %zu", FN,
                        !scalars ? "NULL scalars" : "fewer scalars than bases", n);
    if (sfirst + nscalars > UINT32_MAX)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: scalars [%zu, %zu + %zu) past 2^32 - 1", FN, sfirst, sfirst,
                        nscalars);
    if (n && (st = check_buffer(dev, scalars, "scalars", sfirst + nscalars, SCALAR_BYTES, err)))
        return st;
    if (n && index && (st = check_buffer(dev, index, "index", n, sizeof(uint32_t), err)))
        return st;
    return msm_run(q, bases, first, scalars, sfirst, nscalars, index, NULL, n, opts, stats, result, err);
}

cuzk_status gpu_msm_density_index(gpu_queue *q, const uint64_t *density, size_t nbits, gpu_buffer **out,
                                  size_t *count, cuzk_error *err)
{
    if (!q || !density || !out || !count)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_density_index: NULL %s",
                         !q ? "queue" : !density ? "density" : !out ? "out" : "count");
    *out = NULL;
    *count = 0;
    gpu_device *dev = gpu_queue_device(q);
    if (nbits > UINT32_MAX)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "gpu_msm_density_index: %zu bits, at most 2^32 - 1", nbits);
    size_t m = 0;
    for (size_t i = 0; i < nbits; i++)
        m += density[i / 64] >> (i % 64) & 1;
    if (!m)
        return CUZK_OK;
    uint32_t *idx = malloc(m * sizeof *idx);
    if (!idx)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "gpu_msm_density_index: out of host memory for %zu indices", m);
    for (size_t i = 0, k = 0; i < nbits; i++)
        if (density[i / 64] >> (i % 64) & 1)
            idx[k++] = (uint32_t)i;
    cuzk_status st = gpu_buffer_alloc(dev, m * sizeof *idx, out, err);
    if (!st)
        st = gpu_upload(q, *out, 0, idx, m * sizeof *idx, err);
    if (!st)
        st = gpu_queue_sync(q, err);
    free(idx);
    if (st) {
        gpu_queue_sync(q, NULL);
        gpu_buffer_free(*out);
        *out = NULL;
        return st;
    }
    *count = m;
    return CUZK_OK;
}

cuzk_status gpu_msm_g1(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const gpu_buffer *scalars, size_t n,
                       g1_jac_t *result, cuzk_error *err)
{
    if (n && !scalars)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: NULL scalars with n = %zu", FN, n);
    return gpu_msm_g1_ex(q, bases, first, scalars, NULL, n, NULL, NULL, result, err);
}

cuzk_status gpu_msm_g1_host(gpu_queue *q, const gpu_msm_bases *bases, size_t first, const uint8_t *scalars,
                            size_t n, g1_jac_t *result, cuzk_error *err)
{
    if (n && !scalars)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_msm_g1_host: NULL scalars with n = %zu", n);
    return gpu_msm_g1_ex(q, bases, first, NULL, scalars, n, NULL, NULL, result, err);
}
