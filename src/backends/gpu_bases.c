/* The circuits' G1 query bases (and their densities' index lists) resident on a device,
 * charged to its budget, least recently used dropped first; see gpu_internal.h. */
#include <stdlib.h>
#include <string.h>

#include "backends/gpu_internal.h"
#include "engine/log.h"

/* FNV-1a over a few points of every query, so that a new parameter set loaded at the address
 * of a freed one is not taken for it. */
static uint64_t fnv(uint64_t h, const void *p, size_t n)
{
    const uint8_t *b = p;
    for (size_t i = 0; i < n; i++)
        h = (h ^ b[i]) * 0x100000001b3ull;
    return h;
}

static uint64_t fingerprint(const groth16_params_t *pp)
{
    const g1_affine_t *q[4] = {pp->h, pp->l, pp->a, pp->b_g1};
    size_t n[4] = {pp->n_h, pp->n_l, pp->n_a, pp->n_b};
    uint64_t h = 0xcbf29ce484222325ull;
    for (int i = 0; i < 4; i++) {
        h = fnv(h, &n[i], sizeof n[i]);
        if (n[i]) {
            h = fnv(h, &q[i][0], sizeof(g1_affine_t));
            h = fnv(h, &q[i][n[i] / 2], sizeof(g1_affine_t));
            h = fnv(h, &q[i][n[i] - 1], sizeof(g1_affine_t));
        }
    }
    return h;
}

/* The bases and, for each density given, its index list (4 bytes a dense variable). */
static uint64_t bytes_needed(const groth16_params_t *pp, const uint64_t *a_density, const uint64_t *b_density)
{
    return (uint64_t)(pp->n_h + pp->n_l + pp->n_a + pp->n_b) * sizeof(g1_affine_t) +
           (uint64_t)((a_density ? pp->n_a : 0) + (b_density ? pp->n_b : 0)) * sizeof(uint32_t);
}

static size_t density_words(const groth16_params_t *pp)
{
    return (pp->n_inputs + pp->n_aux) / 64 + 1;
}

/* Equal bits over the first nbits (bits past them are not part of a density). */
static bool density_eq(const uint64_t *x, const uint64_t *y, size_t nbits)
{
    if (!x || !y)
        return x == y;
    if (memcmp(x, y, nbits / 64 * sizeof *x))
        return false;
    uint64_t mask = nbits % 64 ? (1ull << (nbits % 64)) - 1 : 0;
    return !((x[nbits / 64] ^ y[nbits / 64]) & mask);
}

bool gpu_resident_density_is(const gpu_resident *r, const uint64_t *a_density, const uint64_t *b_density)
{
    size_t nbits = r->params->n_inputs + r->params->n_aux;
    return density_eq(r->a_density, a_density, nbits) && density_eq(r->b_density, b_density, nbits);
}

static void resident_free(gpu_resident *r)
{
    gpu_msm_bases_free(r->h);
    gpu_msm_bases_free(r->l);
    gpu_msm_bases_free(r->a);
    gpu_msm_bases_free(r->b_g1);
    gpu_buffer_free(r->idx_a);
    gpu_buffer_free(r->idx_b);
    free(r->a_density);
    free(r->b_density);
    free(r);
}

/* A host copy of a density (NULL stays NULL) and its index list on the device. */
static cuzk_status density_index(gpu_dev *d, gpu_queue *q, const groth16_params_t *pp, const uint64_t *density,
                                 size_t want, uint64_t **copy, gpu_buffer **idx, cuzk_error *err)
{
    if (!density)
        return CUZK_OK;
    size_t words = density_words(pp), count = 0;
    if (!(*copy = malloc(words * sizeof **copy)))
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory for a density copy", d->label);
    memcpy(*copy, density, words * sizeof **copy);
    cuzk_status st = gpu_msm_density_index(q, density, pp->n_inputs + pp->n_aux, idx, &count, err);
    if (!st && count != want)
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: a density selects %zu variables, the key has %zu bases", d->label,
                       count, want);
    return st;
}

static void unlink_resident(gpu_dev *d, gpu_resident *r)
{
    for (gpu_resident **pp = &d->residents; *pp; pp = &(*pp)->next)
        if (*pp == r) {
            *pp = r->next;
            break;
        }
    d->bases_bytes -= r->bytes;
    d->n_resident--;
}

static cuzk_status upload(gpu_dev *d, gpu_queue *q, gpu_resident *r, const uint64_t *a_density,
                          const uint64_t *b_density, cuzk_error *err)
{
    const groth16_params_t *pp = r->params;
    cuzk_status st = gpu_fail_check(d->fail, GPU_FAIL_BASES, d->pos, d->label, err);
    if (!st)
        st = gpu_msm_bases_upload(q, pp->h, pp->n_h, &r->h, err);
    if (!st)
        st = gpu_msm_bases_upload(q, pp->l, pp->n_l, &r->l, err);
    if (!st)
        st = gpu_msm_bases_upload(q, pp->a, pp->n_a, &r->a, err);
    if (!st)
        st = gpu_msm_bases_upload(q, pp->b_g1, pp->n_b, &r->b_g1, err);
    if (!st)
        st = density_index(d, q, pp, a_density, pp->n_a, &r->a_density, &r->idx_a, err);
    if (!st)
        st = density_index(d, q, pp, b_density, pp->n_b, &r->b_density, &r->idx_b, err);
    return st;
}

cuzk_status gpu_bases_acquire(gpu_dev *d, gpu_queue *q, const groth16_params_t *pp, const uint64_t *a_density,
                              const uint64_t *b_density, gpu_resident **out, cuzk_error *err)
{
    uint64_t fp = fingerprint(pp), need = bytes_needed(pp, a_density, b_density);
    pthread_mutex_lock(&d->mu);
    for (;;) {
        gpu_resident *r = d->residents;
        while (r && !(r->params == pp && r->fingerprint == fp && !r->forgotten))
            r = r->next;
        if (r && r->loading) {
            pthread_cond_wait(&d->cv, &d->mu);
            continue;
        }
        if (r) {
            r->users++;
            r->last_use = ++d->tick;
            pthread_mutex_unlock(&d->mu);
            *out = r;
            return CUZK_OK;
        }
        if (need > d->bases_budget) {
            pthread_mutex_unlock(&d->mu);
            return cuzk_fail(err, CUZK_E_NOMEM,
                             "%s: the circuit's bases need %llu bytes, the device's bases budget is %llu "
                             "([gpus] device_memory_fraction / device_memory_limit)",
                             d->label, (unsigned long long)need, (unsigned long long)d->bases_budget);
        }
        bool waited = false;
        while (d->bases_bytes + need > d->bases_budget) {
            gpu_resident *victim = NULL;
            for (gpu_resident *v = d->residents; v; v = v->next)
                if (!v->users && !v->loading && (!victim || v->last_use < victim->last_use))
                    victim = v;
            if (!victim) { /* every resident set is in use: wait for one to be released */
                pthread_cond_wait(&d->cv, &d->mu);
                waited = true;
                break;
            }
            unlink_resident(d, victim);
            d->evictions++;
            cuzk_log(CUZK_LOG_INFO, "%s: dropped resident bases (%llu bytes, least recently used) for a circuit of "
                                    "%llu bytes", d->label, (unsigned long long)victim->bytes,
                     (unsigned long long)need);
            resident_free(victim);
        }
        if (waited)
            continue;
        r = calloc(1, sizeof *r);
        if (!r) {
            pthread_mutex_unlock(&d->mu);
            return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory for a resident bases record", d->label);
        }
        *r = (gpu_resident){.params = pp, .fingerprint = fp, .bytes = need, .last_use = ++d->tick, .users = 1,
                            .loading = true, .next = d->residents};
        d->residents = r;
        d->bases_bytes += need;
        d->n_resident++;
        pthread_mutex_unlock(&d->mu);

        cuzk_status st = upload(d, q, r, a_density, b_density, err);

        pthread_mutex_lock(&d->mu);
        r->loading = false;
        if (st) {
            unlink_resident(d, r);
            resident_free(r);
            r = NULL;
        } else {
            cuzk_log(CUZK_LOG_INFO, "%s: bases of a circuit resident (%llu bytes; %llu of %llu in use)", d->label,
                     (unsigned long long)need, (unsigned long long)d->bases_bytes,
                     (unsigned long long)d->bases_budget);
        }
        pthread_cond_broadcast(&d->cv);
        pthread_mutex_unlock(&d->mu);
        *out = r;
        return st;
    }
}

void gpu_bases_release(gpu_dev *d, gpu_resident *r)
{
    if (!r)
        return;
    pthread_mutex_lock(&d->mu);
    bool drop = --r->users == 0 && r->forgotten;
    if (drop)
        unlink_resident(d, r);
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
    if (drop)
        resident_free(r);
}

unsigned gpu_bases_forget(gpu_dev *d, const groth16_params_t *params)
{
    unsigned n = 0;
    pthread_mutex_lock(&d->mu);
    for (gpu_resident **pr = &d->residents; *pr;) {
        gpu_resident *r = *pr;
        if (r->params != params || r->forgotten) {
            pr = &r->next;
            continue;
        }
        n++;
        if (r->users || r->loading) { /* the loader holds a use too: its release frees it */
            r->forgotten = true;
            pr = &r->next;
            continue;
        }
        unlink_resident(d, r); /* *pr is r->next now */
        cuzk_log(CUZK_LOG_INFO, "%s: dropped resident bases (%llu bytes) of evicted parameters", d->label,
                 (unsigned long long)r->bytes);
        resident_free(r);
    }
    pthread_cond_broadcast(&d->cv);
    pthread_mutex_unlock(&d->mu);
    return n;
}

void gpu_bases_free_all(gpu_dev *d)
{
    while (d->residents) {
        gpu_resident *r = d->residents;
        unlink_resident(d, r);
        resident_free(r);
    }
}
