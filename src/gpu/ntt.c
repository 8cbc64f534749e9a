/* Host side of the device NTT and H polynomial: domain tables, pass plans, launches. Contracts
 * in ntt.h; kernels in kernels/ntt.h. */
#include "gpu/ntt.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gpu/runtime_internal.h"

#define NTT_WG_THREADS 256 /* kernels/ntt.h */
#define NTT_WG_ELEMS 1024
#define NTT_MAX_K 10
#define NTT_ROOTS 512      /* omega_1024^i, i < 512 */
#define ELEM_GROUP 256     /* element-wise kernels */

/* Scaling tables: v[i] *= c * base^i */
enum { SC_INTT, SC_COSET_FWD, SC_COSET_INV, SC_H_COEFF, SC_H_FINAL, SC_COUNT };

typedef struct {
    gpu_buffer *lo, *hi; /* lo[i] = base^i (i < 2^split), hi[j] = c base^(j 2^split) */
} pow_table;

struct gpu_ntt_domain {
    gpu_ntt_cache *cache;
    poly_roots roots;
    unsigned log_n, split;
    gpu_buffer *root_tab[2]; /* [0] omega_1024^i, [1] omega_1024^-i */
    pow_table tw[2];         /* omega_n^e, omega_n^-e */
    pow_table sc[SC_COUNT];  /* SC_H_FINAL only for POLY_ROOTS_FF (the bellperson form) */
};

struct gpu_ntt_cache {
    gpu_device *dev;
    pthread_mutex_t lock;
    gpu_ntt_domain *dom[2][POLY_MAX_LOG2 + 1];
    size_t bytes;
};

static void pow_free(pow_table *t)
{
    gpu_buffer_free(t->lo);
    gpu_buffer_free(t->hi);
    t->lo = t->hi = NULL;
}

static void domain_free(gpu_ntt_domain *d)
{
    if (!d)
        return;
    for (int i = 0; i < 2; i++) {
        gpu_buffer_free(d->root_tab[i]);
        pow_free(&d->tw[i]);
    }
    for (int i = 0; i < SC_COUNT; i++)
        pow_free(&d->sc[i]);
    free(d);
}

/* Upload n host elements into a new buffer (the caller syncs q before freeing host memory). */
static cuzk_status upload_new(gpu_queue *q, const fr_t *host, size_t n, gpu_buffer **out, size_t *bytes,
                              cuzk_error *err)
{
    cuzk_status st = gpu_buffer_alloc(gpu_queue_device(q), n * sizeof(fr_t), out, err);
    if (!st)
        st = gpu_upload(q, *out, 0, host, n * sizeof(fr_t), err);
    if (!st)
        *bytes += n * sizeof(fr_t);
    return st;
}

/* Fill and upload a power table of (c, base) over log_n bits split at `split`. */
static cuzk_status pow_make(gpu_queue *q, pow_table *t, const fr_t *c, const fr_t *base, unsigned log_n,
                            unsigned split, fr_t *scratch, size_t *bytes, cuzk_error *err)
{
    size_t nlo = (size_t)1 << split, nhi = (size_t)1 << (log_n - split);
    fr_t x = FR_ONE;
    for (size_t i = 0; i < nlo; i++) {
        scratch[i] = x;
        fr_mul(&x, &x, base);
    }
    /* x = base^(2^split) */
    cuzk_status st = upload_new(q, scratch, nlo, &t->lo, bytes, err);
    if (!st)
        st = gpu_queue_sync(q, err);
    if (st)
        return st;
    fr_t y = *c;
    for (size_t j = 0; j < nhi; j++) {
        scratch[j] = y;
        fr_mul(&y, &y, &x);
    }
    st = upload_new(q, scratch, nhi, &t->hi, bytes, err);
    if (!st)
        st = gpu_queue_sync(q, err);
    return st;
}

static cuzk_status domain_make(gpu_ntt_cache *cache, gpu_queue *q, poly_roots roots, unsigned log_n,
                               gpu_ntt_domain **out, cuzk_error *err)
{
    gpu_device *dev = cache->dev;
    gpu_ntt_domain *d = calloc(1, sizeof *d);
    unsigned split = (log_n + 1) / 2;
    size_t nscratch = (size_t)1 << split;
    fr_t *scratch = malloc((nscratch > NTT_ROOTS ? nscratch : NTT_ROOTS) * sizeof *scratch);
    if (!d || !scratch) {
        free(d);
        free(scratch);
        return gpu_fail(dev, err, CUZK_E_NOMEM, "NTT domain 2^%u: out of host memory", log_n);
    }
    d->cache = cache;
    d->roots = roots;
    d->log_n = log_n;
    d->split = split;
    size_t bytes = 0;

    fr_t w1024, w, winv, n_inv, g, g_inv, one = FR_ONE;
    poly_root_of_unity(&w1024, NTT_MAX_K, roots);
    poly_root_of_unity(&w, log_n, roots);
    fr_inv(&winv, &w);
    fr_from_u64(&n_inv, (uint64_t)1 << log_n);
    fr_inv(&n_inv, &n_inv);
    fr_generator(&g);
    fr_inv(&g_inv, &g);

    cuzk_status st = CUZK_OK;
    for (int dir = 0; dir < 2 && !st; dir++) {
        fr_t r = w1024, x = FR_ONE;
        if (dir)
            fr_inv(&r, &r);
        for (size_t i = 0; i < NTT_ROOTS; i++) {
            scratch[i] = x;
            fr_mul(&x, &x, &r);
        }
        st = upload_new(q, scratch, NTT_ROOTS, &d->root_tab[dir], &bytes, err);
        if (!st)
            st = gpu_queue_sync(q, err);
        if (!st)
            st = pow_make(q, &d->tw[dir], &one, dir ? &winv : &w, log_n, split, scratch, &bytes, err);
    }
    /* the H shift: bellperson's coset g = 7, snarkjs's odd points omega_2m; Z = shift^m - 1 */
    fr_t shift, shift_inv, zc;
    if (roots == POLY_ROOTS_FF)
        shift = g;
    else
        poly_root_of_unity(&shift, log_n + 1, roots);
    fr_inv(&shift_inv, &shift);
    fr_pow_u64(&zc, &shift, (uint64_t)1 << log_n);
    fr_sub(&zc, &zc, &FR_ONE);
    fr_inv(&zc, &zc);
    fr_mul(&zc, &zc, &n_inv); /* m^-1 (shift^m - 1)^-1 */
    const struct {
        const fr_t *c, *base;
    } sc[SC_COUNT] = {
        [SC_INTT] = {&n_inv, &one},
        [SC_COSET_FWD] = {&one, &g},
        [SC_COSET_INV] = {&n_inv, &g_inv},
        [SC_H_COEFF] = {&n_inv, &shift},
        [SC_H_FINAL] = {&zc, &shift_inv},
    };
    for (int i = 0; i < SC_COUNT && !st; i++)
        if (i != SC_H_FINAL || roots == POLY_ROOTS_FF)
            st = pow_make(q, &d->sc[i], sc[i].c, sc[i].base, log_n, split, scratch, &bytes, err);
    free(scratch);
    if (st) {
        gpu_queue_sync(q, NULL);
        domain_free(d);
        return st;
    }
    cache->bytes += bytes;
    *out = d;
    return CUZK_OK;
}

cuzk_status gpu_ntt_cache_create(gpu_device *dev, gpu_ntt_cache **out, cuzk_error *err)
{
    if (!dev || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_ntt_cache_create: NULL argument");
    gpu_ntt_cache *c = calloc(1, sizeof *c);
    if (!c)
        return gpu_fail(dev, err, CUZK_E_NOMEM, "gpu_ntt_cache_create: out of host memory");
    c->dev = dev;
    pthread_mutex_init(&c->lock, NULL);
    *out = c;
    return CUZK_OK;
}

void gpu_ntt_cache_free(gpu_ntt_cache *c)
{
    if (!c)
        return;
    for (int r = 0; r < 2; r++)
        for (int l = 0; l <= POLY_MAX_LOG2; l++)
            domain_free(c->dom[r][l]);
    pthread_mutex_destroy(&c->lock);
    free(c);
}

size_t gpu_ntt_cache_bytes(gpu_ntt_cache *c)
{
    if (!c)
        return 0;
    pthread_mutex_lock(&c->lock);
    size_t b = c->bytes;
    pthread_mutex_unlock(&c->lock);
    return b;
}

cuzk_status gpu_ntt_domain_get(gpu_ntt_cache *c, gpu_queue *q, poly_roots roots, unsigned log_n,
                               const gpu_ntt_domain **out, cuzk_error *err)
{
    if (!c || !q || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_ntt_domain_get: NULL argument");
    if (gpu_queue_device(q) != c->dev)
        return gpu_fail(gpu_queue_device(q), err, CUZK_E_INVALID_ARG, "gpu_ntt_domain_get: the cache is for %s",
                        gpu_device_label(c->dev));
    if (roots != POLY_ROOTS_FF && roots != POLY_ROOTS_SNARKJS)
        return gpu_fail(c->dev, err, CUZK_E_INVALID_ARG, "gpu_ntt_domain_get: unknown root family %d", (int)roots);
    if (log_n > POLY_MAX_LOG2)
        return gpu_fail(c->dev, err, CUZK_E_INVALID_ARG, "gpu_ntt_domain_get: log_n = %u exceeds the maximum %u",
                        log_n, POLY_MAX_LOG2);
    pthread_mutex_lock(&c->lock);
    cuzk_status st = CUZK_OK;
    if (!c->dom[roots][log_n])
        st = domain_make(c, q, roots, log_n, &c->dom[roots][log_n], err);
    *out = c->dom[roots][log_n];
    pthread_mutex_unlock(&c->lock);
    return st;
}

/* ---------------------------------------------------------------- passes */

typedef struct {
    unsigned n;
    unsigned s[4], k[4]; /* at most ceil(28 / 10) = 3 passes */
} pass_plan;

/* ceil(log_n / 10) passes of near-equal k, the first over the whole vector (s = log_n) */
static void plan_passes(unsigned log_n, pass_plan *p)
{
    p->n = (log_n + NTT_MAX_K - 1) / NTT_MAX_K;
    unsigned s = log_n;
    for (unsigned i = 0; i < p->n; i++) {
        unsigned k = log_n / p->n + (i < log_n % p->n ? 1 : 0);
        p->s[i] = s;
        p->k[i] = k;
        s -= k;
    }
}

static size_t groups_for(size_t n, unsigned per)
{
    return (n + per - 1) / per;
}

static cuzk_status launch_pass(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, int dir, unsigned s, unsigned k,
                               bool dit, const pow_table *scale, cuzk_error *err)
{
    const pow_table *sc = scale ? scale : &d->tw[dir]; /* any valid buffers when unused */
    gpu_arg args[] = {gpu_arg_buf(v),          gpu_arg_buf(d->root_tab[dir]), gpu_arg_buf(d->tw[dir].lo),
                      gpu_arg_buf(d->tw[dir].hi), gpu_arg_buf(sc->lo),           gpu_arg_buf(sc->hi),
                      gpu_arg_u32(d->log_n),   gpu_arg_u32(s),                gpu_arg_u32(k),
                      gpu_arg_u32(d->split),   gpu_arg_u32(dit),              gpu_arg_u32(scale != NULL)};
    size_t n = (size_t)1 << d->log_n;
    return gpu_launch(q, "ntt_pass", groups_for(n, NTT_WG_ELEMS), NTT_WG_THREADS, args, 12, err);
}

static cuzk_status launch_scale(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, const pow_table *t, bool rev,
                                cuzk_error *err)
{
    size_t n = (size_t)1 << d->log_n;
    gpu_arg args[] = {gpu_arg_buf(v),         gpu_arg_buf(t->lo),      gpu_arg_buf(t->hi), gpu_arg_u32(d->log_n),
                      gpu_arg_u32(d->split), gpu_arg_u32(rev ? 1 : 0), gpu_arg_u32((uint32_t)n)};
    return gpu_launch(q, "ntt_scale", groups_for(n, ELEM_GROUP), ELEM_GROUP, args, 7, err);
}

/* natural -> bit-reversed; then v[pos] *= scale(bitrev(pos)) when scale is set */
static cuzk_status run_dif(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, int dir, const pow_table *scale,
                           cuzk_error *err)
{
    pass_plan p;
    plan_passes(d->log_n, &p);
    if (p.n == 0)
        return scale ? launch_scale(q, d, v, scale, true, err) : CUZK_OK;
    for (unsigned i = 0; i < p.n; i++) {
        cuzk_status st = launch_pass(q, d, v, dir, p.s[i], p.k[i], false, i + 1 == p.n ? scale : NULL, err);
        if (st)
            return st;
    }
    return CUZK_OK;
}

/* bit-reversed -> natural: the transposed passes in reverse order */
static cuzk_status run_dit(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, int dir, cuzk_error *err)
{
    pass_plan p;
    plan_passes(d->log_n, &p);
    for (unsigned i = p.n; i-- > 0;) {
        cuzk_status st = launch_pass(q, d, v, dir, p.s[i], p.k[i], true, NULL, err);
        if (st)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status permute(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, cuzk_error *err)
{
    size_t n = (size_t)1 << d->log_n;
    if (n == 1)
        return CUZK_OK;
    gpu_arg args[] = {gpu_arg_buf(v), gpu_arg_u32(d->log_n), gpu_arg_u32((uint32_t)n)};
    return gpu_launch(q, "ntt_bitrev_permute", groups_for(n, ELEM_GROUP), ELEM_GROUP, args, 3, err);
}

static cuzk_status check_vec(gpu_queue *q, const gpu_ntt_domain *d, const gpu_buffer *v, const char *what,
                             const char *fn, cuzk_error *err)
{
    gpu_device *dev = gpu_queue_device(q);
    if (!v)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: %s is NULL", fn, what);
    size_t need = ((size_t)1 << d->log_n) * sizeof(fr_t);
    if (gpu_buffer_size(v) < need)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: %s holds %zu bytes, 2^%u elements need %zu", fn, what,
                        gpu_buffer_size(v), d->log_n, need);
    return CUZK_OK;
}

static cuzk_status check_domain(gpu_queue *q, const gpu_ntt_domain *d, const char *fn, cuzk_error *err)
{
    if (!q || !d)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: NULL queue or domain", fn);
    if (gpu_queue_device(q) != d->cache->dev)
        return gpu_fail(gpu_queue_device(q), err, CUZK_E_INVALID_ARG, "%s: the domain belongs to %s", fn,
                        gpu_device_label(d->cache->dev));
    return CUZK_OK;
}

cuzk_status gpu_ntt(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, gpu_ntt_op op, cuzk_error *err)
{
    cuzk_status st = check_domain(q, d, "gpu_ntt", err);
    if (!st)
        st = check_vec(q, d, v, "v", "gpu_ntt", err);
    if (st)
        return st;
    switch (op) {
    case GPU_NTT_FORWARD:
        st = run_dif(q, d, v, 0, NULL, err);
        break;
    case GPU_NTT_INVERSE:
        st = run_dif(q, d, v, 1, &d->sc[SC_INTT], err);
        break;
    case GPU_NTT_COSET_FORWARD:
        st = launch_scale(q, d, v, &d->sc[SC_COSET_FWD], false, err);
        if (!st)
            st = run_dif(q, d, v, 0, NULL, err);
        break;
    case GPU_NTT_COSET_INVERSE:
        st = run_dif(q, d, v, 1, &d->sc[SC_COSET_INV], err);
        break;
    default:
        return gpu_fail(gpu_queue_device(q), err, CUZK_E_INVALID_ARG, "gpu_ntt: unknown op %d", (int)op);
    }
    return st ? st : permute(q, d, v, err);
}

/* The checks every H entry point makes: queue and domain, the form and its root family. */
static cuzk_status check_h(gpu_queue *q, const gpu_ntt_domain *d, poly_h_form form, const char *fn, cuzk_error *err)
{
    cuzk_status st = check_domain(q, d, fn, err);
    if (st)
        return st;
    gpu_device *dev = gpu_queue_device(q);
    if (form != POLY_H_BELLPERSON && form != POLY_H_SNARKJS)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: unknown form %d", fn, (int)form);
    poly_roots want = form == POLY_H_BELLPERSON ? POLY_ROOTS_FF : POLY_ROOTS_SNARKJS;
    if (d->roots != want)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "%s: the %s form needs a domain of the %s root family", fn,
                        form == POLY_H_BELLPERSON ? "bellperson" : "snarkjs",
                        want == POLY_ROOTS_FF ? "ff (7^t)" : "snarkjs (5^t)");
    return CUZK_OK;
}

cuzk_status gpu_h_to_coset(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *v, poly_h_form form, cuzk_error *err)
{
    static const char fn[] = "gpu_h_to_coset";
    cuzk_status st = check_h(q, d, form, fn, err);
    if (!st)
        st = check_vec(q, d, v, "v", fn, err);
    if (st)
        return st;
    /* values on shift * <omega>: inverse NTT with m^-1 shift^i fused, then forward NTT */
    st = run_dif(q, d, v, 1, &d->sc[SC_H_COEFF], err);
    return st ? st : run_dit(q, d, v, 0, err);
}

cuzk_status gpu_h_combine(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *a, const gpu_buffer *b,
                          const gpu_buffer *c, poly_h_form form, cuzk_error *err)
{
    static const char fn[] = "gpu_h_combine";
    cuzk_status st = check_h(q, d, form, fn, err);
    if (!st)
        st = check_vec(q, d, a, "a", fn, err);
    if (!st)
        st = check_vec(q, d, b, "b", fn, err);
    if (!st)
        st = check_vec(q, d, c, "c", fn, err);
    if (st)
        return st;
    if (a == b || a == c || b == c)
        return gpu_fail(gpu_queue_device(q), err, CUZK_E_INVALID_ARG, "%s: a, b and c must be distinct buffers", fn);
    size_t n = (size_t)1 << d->log_n;
    /* the kernel writes a only (b, c are read) */
    gpu_arg args[] = {gpu_arg_buf(a), gpu_arg_buf((gpu_buffer *)b), gpu_arg_buf((gpu_buffer *)c),
                      gpu_arg_u32((uint32_t)n)};
    st = gpu_launch(q, "ntt_ab_minus_c", groups_for(n, ELEM_GROUP), ELEM_GROUP, args, 4, err);
    if (st || form == POLY_H_SNARKJS)
        return st;
    /* bellperson: inverse coset NTT with 1/Z fused: m^-1 (g^m - 1)^-1 g^-i */
    st = run_dif(q, d, a, 1, &d->sc[SC_H_FINAL], err);
    return st ? st : permute(q, d, a, err);
}

cuzk_status gpu_h_compute(gpu_queue *q, const gpu_ntt_domain *d, gpu_buffer *a, gpu_buffer *b, gpu_buffer *c,
                          poly_h_form form, cuzk_error *err)
{
    static const char fn[] = "gpu_h_compute";
    cuzk_status st = check_h(q, d, form, fn, err);
    if (!st)
        st = check_vec(q, d, a, "a", fn, err);
    if (!st)
        st = check_vec(q, d, b, "b", fn, err);
    if (!st)
        st = check_vec(q, d, c, "c", fn, err);
    if (st)
        return st;
    if (a == b || a == c || b == c)
        return gpu_fail(gpu_queue_device(q), err, CUZK_E_INVALID_ARG, "%s: a, b and c must be distinct buffers", fn);
    gpu_buffer *vec[3] = {a, b, c};
    for (int i = 0; i < 3 && !st; i++)
        st = gpu_h_to_coset(q, d, vec[i], form, err);
    return st ? st : gpu_h_combine(q, d, a, b, c, form, err);
}

cuzk_status gpu_fr_from_mont(gpu_queue *q, gpu_buffer *v, size_t n, cuzk_error *err)
{
    if (!q || !v)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu_fr_from_mont: NULL argument");
    gpu_device *dev = gpu_queue_device(q);
    if (n > UINT32_MAX || gpu_buffer_size(v) / sizeof(fr_t) < n)
        return gpu_fail(dev, err, CUZK_E_INVALID_ARG, "gpu_fr_from_mont: %zu elements exceed the buffer of %zu bytes",
                        n, gpu_buffer_size(v));
    if (n == 0)
        return CUZK_OK;
    gpu_arg args[] = {gpu_arg_buf(v), gpu_arg_u32((uint32_t)n)};
    return gpu_launch(q, "fr_from_mont_n", groups_for(n, ELEM_GROUP), ELEM_GROUP, args, 2, err);
}
