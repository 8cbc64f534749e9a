/* The GPU prover backend: per partition on device d, a/b/c uploaded on the worker's upload
 * queue -- straight from the engine's a/b/c pool buffer when the pool's hooks registered it
 * (gpu_pin.c), else through the worker's pinned staging halves -- each vector's transform to the
 * coset (gpu_h_to_coset) starting on the worker's kernel queue as soon as that vector is on the
 * device while the next one copies, a/b/c released to the engine as soon as the host no longer
 * reads them, H formed (gpu_h_combine, gpu_fr_from_mont), the A, B_G1, L and H MSMs on the
 * circuit's resident bases (gpu_msm_g1 / gpu_msm_g1_indexed / gpu_msm_g1_host), and a groth16
 * pending handle (groth16_pending_from_g1) that the CPU's prove_finish completes (B_G2 MSM,
 * assembly), as bellperson's GPU prover splits the work (src/groth16/prover.rs: the G1
 * multiexps on the GPU, B_G2 on the CPU; supraseal-c2 groth16_cuda.cu likewise).
 *
 * Locks: the device's mutex guards only its slot list, resident bases table and counters and is
 * never held across device work; each prover worker runs its partition on its own slot (queue,
 * staging buffer, a/b/c buffers), so two workers of one device overlap (one uploading or
 * preparing scalars on the host while the other's kernels run). */
#include <stdlib.h>
#include <string.h>

#include "backends/cpu.h"
#include "backends/gpu_internal.h"
#include "kinds/builtin/builtin.h"
#include "engine/log.h"
#include "engine/sync.h"

/* ---- slots ---- */

static void slot_free(gpu_slot *s)
{
    gpu_queue_destroy(s->uq); /* waits for its copies, which may read the staging */
    for (int i = 0; i < 2; i++) {
        gpu_event_destroy(s->stage_done[i]);
        gpu_host_free(s->stage[i]);
    }
    for (int i = 0; i < 3; i++)
        gpu_buffer_free(s->abc[i]);
    gpu_buffer_free(s->w);
    gpu_queue_destroy(s->q);
    memset(s, 0, sizeof *s);
}

static cuzk_status slot_create(gpu_backend *g, gpu_dev *d, gpu_slot *s, cuzk_error *err)
{
    memset(s, 0, sizeof *s);
    cuzk_status st = gpu_queue_create(d->dev, &s->q, err);
    if (!st)
        st = gpu_queue_create(d->dev, &s->uq, err);
    for (int i = 0; !st && i < 2; i++)
        st = gpu_host_alloc(d->dev, g->staging_bytes / 2, &s->stage[i], err);
    if (st)
        slot_free(s);
    return st;
}

/* A free slot of d, made on first use (at most g->max_slots; beyond, wait for one). */
static cuzk_status slot_acquire(gpu_backend *g, gpu_dev *d, gpu_slot **out, cuzk_error *err)
{
    pthread_mutex_lock(&d->mu);
    for (;;) {
        for (unsigned i = 0; i < d->nslots; i++)
            if (!d->slots[i].busy) {
                d->slots[i].busy = true;
                pthread_mutex_unlock(&d->mu);
                *out = &d->slots[i];
                return CUZK_OK;
            }
        if (d->nslots < g->max_slots) {
            gpu_slot *s = &d->slots[d->nslots];
            cuzk_status st = slot_create(g, d, s, err);
            if (!st) {
                s->busy = true;
                d->nslots++;
                *out = s;
            }
            pthread_mutex_unlock(&d->mu);
            return st;
        }
        pthread_cond_wait(&d->cv, &d->mu);
    }
}

static void slot_release(gpu_dev *d, gpu_slot *s)
{
    pthread_mutex_lock(&d->mu);
    s->busy = false;
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
}

/* The slot's a/b/c device buffers, at least `bytes` each (kept across partitions). */
static cuzk_status ensure_abc(gpu_dev *d, gpu_slot *s, size_t bytes, cuzk_error *err)
{
    if (s->abc_bytes >= bytes)
        return CUZK_OK;
    for (int i = 0; i < 3; i++) {
        gpu_buffer_free(s->abc[i]);
        s->abc[i] = NULL;
    }
    s->abc_bytes = 0;
    cuzk_status st = CUZK_OK;
    for (int i = 0; !st && i < 3; i++)
        st = gpu_buffer_alloc(d->dev, bytes, &s->abc[i], err);
    if (!st)
        s->abc_bytes = bytes;
    return st;
}

/* The device buffer for the partition's nvars witness scalars: abc[1] once gpu_h_compute has
 * made it scratch (its queue orders the upload after H), else the slot's own, kept across
 * partitions. */
static cuzk_status witness_buffer(gpu_dev *d, gpu_slot *s, size_t bytes, gpu_buffer **out, cuzk_error *err)
{
    *out = s->abc[1];
    if (bytes <= s->abc_bytes)
        return CUZK_OK;
    if (s->w_bytes < bytes) {
        gpu_buffer_free(s->w);
        s->w = NULL;
        s->w_bytes = 0;
        cuzk_status st = gpu_buffer_alloc(d->dev, bytes, &s->w, err);
        if (st)
            return st;
        s->w_bytes = bytes;
    }
    *out = s->w;
    return CUZK_OK;
}

/* Copy `bytes` of host memory to dst on queue q through the slot's two pinned halves: the host
 * copy into one half overlaps the DMA of the other. Returns with the copies enqueued (order
 * later work after them by q or an event) once src has been read: src may then be released. */
static cuzk_status staged_upload(gpu_backend *g, gpu_slot *s, gpu_queue *q, gpu_buffer *dst, const void *src,
                                 size_t bytes, cuzk_error *err)
{
    size_t half = g->staging_bytes / 2;
    int h = 0;
    for (size_t off = 0; off < bytes; off += half, h ^= 1) {
        size_t n = bytes - off < half ? bytes - off : half;
        if (s->stage_done[h]) {
            cuzk_status st = gpu_event_wait(s->stage_done[h], err);
            gpu_event_destroy(s->stage_done[h]);
            s->stage_done[h] = NULL;
            if (st)
                return st;
        }
        void *p = gpu_host_ptr(s->stage[h]);
        memcpy(p, (const uint8_t *)src + off, n);
        cuzk_status st = gpu_upload(q, dst, off, p, n, err);
        if (!st)
            st = gpu_event_record(q, &s->stage_done[h], err);
        if (st)
            return st;
    }
    return CUZK_OK;
}

/* ---- one partition on the device ---- */

/* a, b and c to the slot's device buffers on its upload queue, each vector's transform to the
 * coset enqueued on its kernel queue behind an event of its upload, so that vector i + 1 copies
 * while vector i's transform runs. Straight from the host vectors (one asynchronous copy each)
 * when they lie in registered pool buffers, else through the staging halves. Returns once the
 * host vectors are no longer read (*direct: the first way; then after their copies completed). */
static cuzk_status upload_abc(gpu_backend *g, gpu_dev *d, gpu_slot *sl, const gpu_ntt_domain *dom, poly_h_form form,
                              fr_t *const abc[3], size_t vbytes, bool *direct, cuzk_error *err)
{
    gpu_event *up[3] = {NULL, NULL, NULL};
    *direct = true;
    for (int i = 0; i < 3; i++)
        *direct = *direct && gpu_pin_covers(&g->pins, abc[i], vbytes);
    cuzk_status st = CUZK_OK;
    for (int i = 0; !st && i < 3; i++) {
        st = *direct ? gpu_upload(sl->uq, sl->abc[i], 0, abc[i], vbytes, err)
                     : staged_upload(g, sl, sl->uq, sl->abc[i], abc[i], vbytes, err);
        if (!st)
            st = gpu_event_record(sl->uq, &up[i], err);
        if (!st)
            st = gpu_queue_wait_event(sl->q, up[i], err);
        if (!st)
            st = gpu_h_to_coset(sl->q, dom, sl->abc[i], form, err);
    }
    if (!st && *direct)
        st = gpu_event_wait(up[2], err); /* the copies read the host vectors until they complete */
    for (int i = 0; i < 3; i++)
        gpu_event_destroy(up[i]);
    if (!st) {
        pthread_mutex_lock(&d->mu);
        *(*direct ? &d->abc_direct_bytes : &d->abc_staged_bytes) += 3 * (uint64_t)vbytes;
        pthread_mutex_unlock(&d->mu);
    }
    return st;
}

static cuzk_status device_prove(gpu_backend *g, gpu_dev *d, const groth16_params_t *pp, const builtin_assignment *as,
                                const cuzk_release_cb *rel, const fr_t *r, const fr_t *s, groth16_pending_t **out,
                                size_t *scalar_bytes, cuzk_error *err)
{
    gpu_slot *sl = NULL;
    gpu_resident *res = NULL;
    groth16_query_scalars_t qs = {0};
    groth16_g1_sums_t sums;
    const groth16_compact_witness_t *cw = as->compact.aux ? &as->compact : NULL;
    size_t vbytes = ((size_t)1 << pp->log2_m) * sizeof(fr_t), nvars = pp->n_inputs + pp->n_aux, up_bytes = 0;
    const gpu_ntt_domain *dom = NULL;
    int64_t t0 = cuzk_now_ns();

    bool direct = false;
    cuzk_status st = slot_acquire(g, d, &sl, err);
    if (!st)
        st = gpu_bases_acquire(d, sl->q, pp, as->g.a_density, as->g.b_density, &res, err);
    if (!st)
        st = ensure_abc(d, sl, vbytes, err);
    if (!st && (!as->g.a || !as->g.b || !as->g.c))
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: prove_start without a/b/c", d->label);
    poly_roots fam = pp->h_form == POLY_H_SNARKJS ? POLY_ROOTS_SNARKJS : POLY_ROOTS_FF;
    if (!st)
        st = gpu_ntt_domain_get(d->ntt, sl->q, fam, pp->log2_m, &dom, err);
    if (!st)
        st = gpu_fail_check(d->fail, GPU_FAIL_UPLOAD, d->pos, d->label, err);
    if (!st)
        st = gpu_fail_check(d->fail, GPU_FAIL_H, d->pos, d->label, err);
    fr_t *abc[3] = {as->g.a, as->g.b, as->g.c};
    if (!st)
        st = upload_abc(g, d, sl, dom, pp->h_form, abc, vbytes, &direct, err);
    int64_t t_up = cuzk_now_ns();
    if (!st && !g->fallback) {
        /* read for the last time: the engine frees a/b/c and returns their budget share at once,
         * while their transforms run (with a CPU fallback configured they stay until the device
         * work has succeeded) */
        cuzk_release_cb_call(rel);
    }
    if (!st)
        st = gpu_h_combine(sl->q, dom, sl->abc[0], sl->abc[1], sl->abc[2], pp->h_form, err);
    if (!st)
        st = gpu_fr_from_mont(sl->q, sl->abc[0], pp->n_h, err);
    /* the witness scalars on the host while the device computes H */
    bool by_index = res && gpu_resident_density_is(res, as->g.a_density, as->g.b_density);
    if (!st)
        st = groth16_query_scalars(pp, &as->g, cw, !by_index, &qs, err);
    int64_t t_scal = cuzk_now_ns();
    if (!st)
        st = gpu_fail_check(d->fail, GPU_FAIL_MSM, d->pos, d->label, err);
    /* the witness once, on the device, for the L, A and B_G1 MSMs */
    gpu_buffer *wbuf = NULL;
    if (!st && by_index)
        st = witness_buffer(d, sl, nvars * sizeof(fr_t), &wbuf, err);
    if (!st && by_index)
        st = staged_upload(g, sl, sl->q, wbuf, qs.w, nvars * sizeof(fr_t), err);
    if (!st)
        st = gpu_msm_g1(sl->q, res->h, 0, sl->abc[0], pp->n_h, &sums.h, err);
    int64_t t_h = cuzk_now_ns();
    if (!st && by_index) {
        st = gpu_msm_g1_indexed(sl->q, res->l, 0, wbuf, pp->n_inputs, pp->n_aux, NULL, pp->n_aux, NULL, NULL, &sums.l,
                                err);
        if (!st)
            st = gpu_msm_g1_indexed(sl->q, res->a, 0, wbuf, 0, nvars, res->idx_a, pp->n_a, NULL, NULL, &sums.a, err);
        if (!st)
            st = gpu_msm_g1_indexed(sl->q, res->b_g1, 0, wbuf, 0, nvars, res->idx_b, pp->n_b, NULL, NULL, &sums.b_g1,
                                    err);
        up_bytes = nvars * sizeof(fr_t);
    } else if (!st) {
        /* densities other than those the resident index lists were made from: the filtered
         * scalars from the host */
        st = gpu_msm_g1_host(sl->q, res->l, 0, (const uint8_t *)(qs.w + 4 * pp->n_inputs), pp->n_aux, &sums.l, err);
        if (!st)
            st = gpu_msm_g1_host(sl->q, res->a, 0, (const uint8_t *)qs.wa, pp->n_a, &sums.a, err);
        if (!st)
            st = gpu_msm_g1_host(sl->q, res->b_g1, 0, (const uint8_t *)qs.wb, pp->n_b, &sums.b_g1, err);
        up_bytes = (pp->n_aux + pp->n_a + pp->n_b) * sizeof(fr_t);
    }
    if (st && sl) { /* drain before the slot's buffers are reused */
        gpu_queue_sync(sl->uq, NULL);
        gpu_queue_sync(sl->q, NULL);
    } else {
        CUZK_LOGD("%s: partition of 2^%u: bases + a/b/c upload (%s, transforms beside it) %.3f s, scalars %.3f s "
                  "(beside H), H + witness upload + H MSM %.3f s, L/A/B_G1 MSMs %.3f s (%zu scalar bytes "
                  "uploaded%s)",
                  d->label, pp->log2_m, direct ? "straight from the registered pool buffer" : "through the staging",
                  (t_up - t0) / 1e9, (t_scal - t_up) / 1e9, (t_h - t_scal) / 1e9, (cuzk_now_ns() - t_h) / 1e9,
                  up_bytes, by_index ? "" : ", densities unlike the resident ones'");
    }
    gpu_bases_release(d, res);
    if (sl)
        slot_release(d, sl);
    if (!st) {
        *scalar_bytes = up_bytes;
        st = groth16_pending_from_g1(pp, &sums, r, s, qs.wb, out, err);
        qs.wb = NULL;
    }
    groth16_query_scalars_free(&qs);
    return st;
}

static cuzk_status caps(void *ctx, cuzk_backend_caps *out, cuzk_error *err)
{
    (void)err;
    gpu_backend *g = ctx;
    out->num_devices = g->ndevs;
    out->is_gpu = true;
    return CUZK_OK;
}

static cuzk_status start(void *ctx, uint32_t device, const void *params, const void *assignment,
                         const cuzk_release_cb *rel, void **pending, cuzk_error *err)
{
    gpu_backend *g = ctx;
    *pending = NULL;
    if (device >= g->ndevs || !params || !assignment)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu backend: device %u of %u, or NULL params / assignment", device,
                         g->ndevs);
    gpu_dev *d = &g->devs[device];
    const builtin_assignment *as = assignment;
    const groth16_params_t *pp = params;
    fr_t r = g->r, s = g->s;
    cuzk_status st = g->fixed_rs ? CUZK_OK : groth16_random_rs(&r, &s, err);
    if (st)
        return st;
    pthread_mutex_lock(&d->mu);
    d->in_flight++;
    pthread_mutex_unlock(&d->mu);
    int64_t t0 = cuzk_now_ns();
    groth16_pending_t *p = NULL;
    size_t scalar_bytes = 0;
    st = device_prove(g, d, pp, as, rel, &r, &s, &p, &scalar_bytes, err);
    bool fallback = st && g->fallback; /* a/b/c not released: the CPU can start over */
    pthread_mutex_lock(&d->mu);
    d->in_flight--;
    d->busy_ns += (uint64_t)(cuzk_now_ns() - t0);
    if (st)
        d->failures++;
    else
        d->partitions++;
    d->scalar_bytes += scalar_bytes;
    if (fallback)
        d->fallbacks++;
    pthread_mutex_unlock(&d->mu);
    if (fallback) {
        cuzk_log(CUZK_LOG_WARN, "%s failed (%s); proving the partition on the CPU (fallback_to_cpu)", d->label,
                 err ? err->msg : "");
        st = backend_cpu_prove_start(g->cpu_threads, pp, as, rel, &r, &s, &p, err);
    }
    *pending = p;
    return st;
}

static cuzk_status finish(void *ctx, void *pending, uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    gpu_backend *g = ctx;
    return g->cpu.prove_finish(g->cpu.ctx, pending, proof, err);
}

/* The engine's host budget carries the pinned staging of every worker the engine will run
 * (each slot's two halves, [gpus] staging_buffer), charged once for the engine's lifetime:
 * the slots and their pinned buffers are kept across partitions, so the charge is too. The
 * engine's a/b/c pool, when it has one, registers its buffers here (gpu_pin.c): they are
 * charged to the budget by the pool already. */
static cuzk_status attach(void *ctx, const cuzk_backend_host *host, cuzk_error *err)
{
    gpu_backend *g = ctx;
    unsigned w = host->workers_per_device < g->max_slots ? host->workers_per_device : g->max_slots;
    uint64_t need;
    bool overflow = __builtin_mul_overflow((uint64_t)g->ndevs * (w ? w : 1), (uint64_t)g->staging_bytes, &need);
    if (overflow)
        need = UINT64_MAX; /* more than any budget: refused below with the factors */
    if (!host->budget || g->budget)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "gpu backend: %s", g->budget ? "attached to another engine already"
                                                                                : "attach without a budget");
    if (!cuzk_budget_try_acquire(host->budget, need)) {
        cuzk_budget_reclaim(host->budget, need);
        if (!cuzk_budget_try_acquire(host->budget, need))
            return cuzk_fail(err, CUZK_E_NOMEM,
                             "gpu backend: pinned staging of %s%llu bytes (%u devices x %u workers x [gpus] "
                             "staging_buffer %zu) does not fit the host memory budget (%llu of %llu in use)",
                             overflow ? "more than " : "", (unsigned long long)need, g->ndevs, w ? w : 1,
                             g->staging_bytes,
                             (unsigned long long)cuzk_budget_used(host->budget),
                             (unsigned long long)cuzk_budget_total(host->budget));
    }
    g->budget = host->budget;
    g->staging_charged = need;
    gpu_pin_attach(&g->pins, g->devs[0].dev, host->abc_pool);
    return CUZK_OK;
}

static void detach(void *ctx)
{
    gpu_backend *g = ctx;
    gpu_pin_detach(&g->pins);
    if (g->budget)
        cuzk_budget_release(g->budget, g->staging_charged);
    g->budget = NULL;
    g->staging_charged = 0;
}

/* The parameters' device copies go on every device (gpu_bases_forget); the engine's params
 * are groth16_params_t, as prove_start takes them. */
static void forget_params(void *ctx, const void *params)
{
    gpu_backend *g = ctx;
    for (uint32_t i = 0; i < g->ndevs; i++)
        gpu_bases_forget(&g->devs[i], params);
}

void gpu_backend_table(gpu_backend *g, cuzk_prover_backend *out)
{
    *out = (cuzk_prover_backend){
        .name = "gpu",
        .ctx = g,
        .capabilities = caps,
        .prove_start = start,
        .prove_finish = finish,
        .attach = attach,
        .detach = detach,
        .forget_params = forget_params,
    };
}

/* ---- open / close ---- */

static void dev_close(gpu_dev *d)
{
    for (unsigned i = 0; i < d->nslots; i++)
        slot_free(&d->slots[i]);
    gpu_bases_free_all(d);
    gpu_ntt_cache_free(d->ntt);
    gpu_device_close(d->dev);
    pthread_mutex_destroy(&d->mu);
    pthread_cond_destroy(&d->cv);
}

static cuzk_status dev_open(gpu_backend *g, gpu_dev *d, uint32_t pos, gpu_runtime rt, unsigned index,
                            const backend_config *cfg, cuzk_error *err)
{
    memset(d, 0, sizeof *d);
    d->pos = pos;
    d->fail = &g->fail;
    pthread_mutex_init(&d->mu, NULL);
    pthread_cond_init(&d->cv, NULL);
    char what[64];
    snprintf(what, sizeof what, "%s:%u", gpu_runtime_name(rt), index);
    d->label = "";
    cuzk_status st = gpu_fail_check(d->fail, GPU_FAIL_OPEN, pos, what, err);
    if (!st)
        st = gpu_device_open(rt, index, NULL, &d->dev, err);
    if (st)
        return st;
    d->label = gpu_device_label(d->dev);
    uint64_t free_b, total;
    if (!st)
        st = gpu_device_mem_info(d->dev, &free_b, &total, err);
    if (!st)
        st = gpu_ntt_cache_create(d->dev, &d->ntt, err);
    if (st)
        return st;
    d->mem_total = total;
    double f = cfg->device_memory_fraction > 0 ? cfg->device_memory_fraction : 0.5;
    d->bases_budget = (uint64_t)((double)total * f);
    if (cfg->device_memory_limit && cfg->device_memory_limit < d->bases_budget)
        d->bases_budget = cfg->device_memory_limit;
    return CUZK_OK;
}

cuzk_status gpu_backend_open(gpu_runtime rt, const unsigned *indices, size_t n, const backend_config *cfg,
                             gpu_backend **out, cuzk_error *err)
{
    *out = NULL;
    gpu_backend *g = calloc(1, sizeof *g);
    if (!g || !(g->devs = calloc(n ? n : 1, sizeof *g->devs))) {
        free(g);
        return cuzk_fail(err, CUZK_E_NOMEM, "gpu backend: out of memory");
    }
    pthread_mutex_init(&g->pins.mu, NULL);
    cuzk_status st = gpu_fail_parse(cfg->fail, &g->fail, err); /* backend_open: the environment's when opted in */
    if (st) {
        gpu_backend_close(g);
        return st;
    }
    g->cpu_threads = cfg->cpu_threads ? cfg->cpu_threads : 1;
    backend_cpu_init(&g->cpu, g->cpu_threads);
    g->fallback = cfg->fallback_to_cpu;
    g->staging_bytes = cfg->staging_bytes >= 2 * 4096 ? cfg->staging_bytes & ~(size_t)4095 : (size_t)32 << 20;
    g->max_slots = cfg->workers_per_device ? cfg->workers_per_device : 1; /* <= GPU_MAX_SLOTS: backend_open */
    if (cfg->test_r && cfg->test_s) {
        g->fixed_rs = true;
        g->r = *cfg->test_r;
        g->s = *cfg->test_s;
    }
    for (size_t i = 0; i < n; i++) {
        st = dev_open(g, &g->devs[i], (uint32_t)i, rt, indices[i], cfg, err);
        g->ndevs++;
        if (st) {
            gpu_backend_close(g);
            return st;
        }
    }
    *out = g;
    return CUZK_OK;
}

void gpu_backend_close(gpu_backend *g)
{
    if (!g)
        return;
    gpu_pin_detach(&g->pins); /* an engine that was never destroyed: nothing registered stays */
    for (uint32_t i = 0; i < g->ndevs; i++)
        dev_close(&g->devs[i]);
    free(g->pins.bufs);
    pthread_mutex_destroy(&g->pins.mu);
    free(g->devs);
    free(g);
}
