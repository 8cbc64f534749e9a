/* Circuit registry (circuit_registry.h). */
#include "server/circuit_registry.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cs/r1cs.h"
#include "kinds/builtin/builtin.h"
#include "groth16/zkey.h"

typedef enum { ENTRY_UNLOADED = 0, ENTRY_LOADING, ENTRY_LOADED } entry_state;

struct cuzk_circuit {
    char *name;
    bool synthetic;
    unsigned k;                /* synthetic: log2 of the row count */
    char *r1cs_path, *zkey_path;
    entry_state state;
    builtin_synthetic *syn;
    r1cs_t r1cs;
    zkey_t zkey;
    builtin_r1cs *rc;
    uint64_t size_bytes;
    uint32_t refs;
    double last_release_ms;    /* monotonic ms of the last release; 0 = never */
    bool load_failed;          /* the last load failed (state is UNLOADED); load_error says why */
    char load_error[sizeof(((cuzk_error *)0)->msg)];
};

struct cuzk_registry {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned setup_threads;
    cuzk_abc_pool *abc_pool; /* for the circuits' kinds; NULL: malloc */
    cuzk_circuit **entries;
    size_t n, cap;
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static void entry_free(cuzk_circuit *c)
{
    if (!c)
        return;
    free(c->name);
    free(c->r1cs_path);
    free(c->zkey_path);
    free(c);
}

static cuzk_status push_entry(cuzk_registry *r, cuzk_circuit *c, cuzk_error *err)
{
    if (r->n == r->cap) {
        size_t nc = r->cap ? r->cap * 2 : 8;
        cuzk_circuit **ne = realloc(r->entries, nc * sizeof *ne);
        if (!ne)
            return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
        r->entries = ne;
        r->cap = nc;
    }
    r->entries[r->n++] = c;
    return CUZK_OK;
}

cuzk_status cuzk_registry_create(const cuzk_server_config *cfg, unsigned setup_threads, cuzk_registry **out,
                                 cuzk_error *err)
{
    *out = NULL;
    cuzk_registry *r = calloc(1, sizeof *r);
    if (!r)
        return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->cv, NULL);
    r->setup_threads = setup_threads ? setup_threads : 1;
    for (size_t i = 0; i < cfg->n_circuits; i++) {
        cuzk_circuit *c = calloc(1, sizeof *c);
        if (c) {
            c->name = strdup(cfg->circuits[i].name);
            c->r1cs_path = strdup(cfg->circuits[i].r1cs);
            c->zkey_path = strdup(cfg->circuits[i].zkey);
        }
        if (!c || !c->name || !c->r1cs_path || !c->zkey_path || push_entry(r, c, err)) {
            entry_free(c);
            cuzk_registry_destroy(r);
            return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
        }
    }
    *out = r;
    return CUZK_OK;
}

void cuzk_registry_use_abc_pool(cuzk_registry *r, cuzk_abc_pool *pool)
{
    r->abc_pool = pool;
}

static void unload(cuzk_circuit *c)
{
    builtin_synthetic_free(c->syn);
    c->syn = NULL;
    builtin_r1cs_free(c->rc);
    c->rc = NULL;
    r1cs_free(&c->r1cs);
    zkey_free(&c->zkey);
    c->size_bytes = 0;
    c->state = ENTRY_UNLOADED;
}

void cuzk_registry_destroy(cuzk_registry *r)
{
    if (!r)
        return;
    for (size_t i = 0; i < r->n; i++) {
        unload(r->entries[i]);
        entry_free(r->entries[i]);
    }
    free(r->entries);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->cv);
    free(r);
}

/* "synthetic-<k>" with 2 <= k <= CUZK_SYNTHETIC_MAX_K (decimal, no leading zeros). */
static bool parse_synthetic(const char *name, unsigned *k)
{
    if (strncmp(name, "synthetic-", 10))
        return false;
    const char *s = name + 10;
    if (!*s || (s[0] == '0') || strlen(s) > 2)
        return false;
    unsigned v = 0;
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        v = v * 10 + (unsigned)(*s - '0');
    }
    if (v < 2 || v > CUZK_SYNTHETIC_MAX_K)
        return false;
    *k = v;
    return true;
}

/* Find the entry (creating synthetic ones); NULL if unknown. Locked. */
static cuzk_circuit *find_locked(cuzk_registry *r, const char *name, bool create, cuzk_error *err)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->entries[i]->name, name))
            return r->entries[i];
    unsigned k;
    if (!parse_synthetic(name, &k)) {
        char known[256] = "";
        size_t used = 0;
        for (size_t i = 0; i < r->n && used + 2 < sizeof known; i++)
            if (!r->entries[i]->synthetic)
                used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", used ? ", " : "",
                                         r->entries[i]->name);
        cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown circuit \"%.64s\" (configured: %s; built-in: synthetic-2 .. synthetic-%d; "
                  "Filecoin parameters: porep-, winning-, wpost-, snap-, snap-poseidon- + 2k 8m 512m 32g 64g)",
                  name, used ? known : "none", CUZK_SYNTHETIC_MAX_K);
        return NULL;
    }
    if (!create)
        return NULL;
    cuzk_circuit *c = calloc(1, sizeof *c);
    if (c && (c->name = strdup(name)) != NULL) {
        c->synthetic = true;
        c->k = k;
        if (!push_entry(r, c, err))
            return c;
    }
    entry_free(c);
    cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
    return NULL;
}

bool cuzk_registry_knows(cuzk_registry *r, const char *name)
{
    unsigned k;
    if (parse_synthetic(name, &k))
        return true;
    pthread_mutex_lock(&r->mu);
    bool found = find_locked(r, name, false, NULL) != NULL;
    pthread_mutex_unlock(&r->mu);
    return found;
}

static uint64_t params_bytes(const groth16_params_t *p)
{
    return (uint64_t)(p->vk.n_ic + p->n_h + p->n_l + p->n_a + p->n_b + 3) * sizeof(g1_affine_t) +
           (uint64_t)(p->n_b + 3) * sizeof(g2_affine_t);
}

/* Load outside the lock (state is LOADING, so nobody else touches the entry). */
static cuzk_status load(cuzk_registry *r, cuzk_circuit *c, cuzk_error *err)
{
    cuzk_status st;
    if (c->synthetic) {
        if ((st = builtin_synthetic_create(c->k, r->setup_threads, &c->syn, err)))
            return st;
        builtin_synthetic_use_pool(c->syn, r->abc_pool);
        c->size_bytes = params_bytes(builtin_synthetic_params(c->syn));
        return CUZK_OK;
    }
    if ((st = r1cs_read_file(&c->r1cs, c->r1cs_path, err)))
        return st;
    if ((st = zkey_read_file(&c->zkey, c->zkey_path, 0, err)) ||
        (st = builtin_r1cs_create(&c->r1cs, &c->zkey, &c->rc, err))) {
        unload(c);
        return st;
    }
    builtin_r1cs_use_pool(c->rc, r->abc_pool);
    const r1cs_t *q = &c->r1cs;
    c->size_bytes = params_bytes(builtin_r1cs_params(c->rc)) +
                    (q->a.row_ptr[q->a.rows] + q->b.row_ptr[q->b.rows] + q->c.row_ptr[q->c.rows]) *
                        (sizeof(fr_t) + sizeof(uint32_t)) +
                    3ull * (q->n_constraints + 1) * sizeof(uint64_t);
    return CUZK_OK;
}

/* Wait until the entry is loaded, loading it ourselves if nobody is. Locked on entry and
 * exit. */
static cuzk_status ensure_loaded_locked(cuzk_registry *r, cuzk_circuit *c, uint64_t *load_ms, cuzk_error *err)
{
    *load_ms = 0;
    for (;;) {
        if (c->state == ENTRY_LOADED)
            return CUZK_OK;
        if (c->state == ENTRY_UNLOADED)
            break;
        pthread_cond_wait(&r->cv, &r->mu);
    }
    c->state = ENTRY_LOADING;
    pthread_mutex_unlock(&r->mu);
    double t0 = now_ms();
    cuzk_status st = load(r, c, err);
    double t1 = now_ms();
    pthread_mutex_lock(&r->mu);
    c->state = st ? ENTRY_UNLOADED : ENTRY_LOADED;
    c->load_failed = st != CUZK_OK;
    snprintf(c->load_error, sizeof c->load_error, "%s", !st ? "" : err ? err->msg : cuzk_status_name(st));
    pthread_cond_broadcast(&r->cv);
    *load_ms = (uint64_t)(t1 - t0);
    return st;
}

cuzk_status cuzk_registry_acquire(cuzk_registry *r, const char *name, cuzk_circuit **out, uint64_t *load_ms,
                                  cuzk_error *err)
{
    *out = NULL;
    *load_ms = 0;
    pthread_mutex_lock(&r->mu);
    cuzk_circuit *c = find_locked(r, name, true, err);
    cuzk_status st = c ? CUZK_OK : (err ? err->code : CUZK_E_UNSUPPORTED);
    if (c) {
        c->refs++; /* held across loading so evict cannot race */
        st = ensure_loaded_locked(r, c, load_ms, err);
        if (st)
            c->refs--;
        else
            *out = c;
    }
    pthread_mutex_unlock(&r->mu);
    return st;
}

void cuzk_registry_release(cuzk_registry *r, cuzk_circuit *c)
{
    if (!c)
        return;
    pthread_mutex_lock(&r->mu);
    c->refs--;
    c->last_release_ms = now_ms();
    pthread_mutex_unlock(&r->mu);
}

const char *cuzk_circuit_name(const cuzk_circuit *c) { return c->name; }
bool cuzk_circuit_is_synthetic(const cuzk_circuit *c) { return c->synthetic; }

const cuzk_circuit_kind *cuzk_circuit_kind_of(const cuzk_circuit *c)
{
    return c->synthetic ? builtin_synthetic_kind(c->syn) : builtin_r1cs_kind(c->rc);
}

const void *cuzk_circuit_params(const cuzk_circuit *c)
{
    return c->synthetic ? (const void *)builtin_synthetic_params(c->syn) : (const void *)builtin_r1cs_params(c->rc);
}

const cuzk_verify_hook *cuzk_circuit_verify_hook(const cuzk_circuit *c)
{
    return c->synthetic ? builtin_synthetic_verify_hook(c->syn) : builtin_r1cs_verify_hook(c->rc);
}

uint32_t cuzk_circuit_n_wires(const cuzk_circuit *c) { return c->synthetic ? 0 : c->r1cs.n_wires; }

cuzk_status cuzk_registry_preload(cuzk_registry *r, const char *name, bool *already_loaded, uint64_t *load_ms,
                                  cuzk_error *err)
{
    pthread_mutex_lock(&r->mu);
    cuzk_circuit *c = find_locked(r, name, true, err);
    cuzk_status st = c ? CUZK_OK : (err ? err->code : CUZK_E_UNSUPPORTED);
    if (c) {
        *already_loaded = c->state == ENTRY_LOADED;
        c->refs++;
        st = ensure_loaded_locked(r, c, load_ms, err);
        c->refs--;
        if (!st && !c->last_release_ms)
            c->last_release_ms = now_ms();
    }
    pthread_mutex_unlock(&r->mu);
    return st;
}

cuzk_status cuzk_registry_evict(cuzk_registry *r, const char *name, bool *was_loaded, uint64_t *freed_bytes,
                                cuzk_error *err)
{
    *was_loaded = false;
    *freed_bytes = 0;
    pthread_mutex_lock(&r->mu);
    cuzk_circuit *c = find_locked(r, name, false, err);
    cuzk_status st = CUZK_OK;
    if (!c) {
        unsigned k;
        /* A valid synthetic name that was never loaded is simply not loaded. */
        st = parse_synthetic(name, &k) ? CUZK_OK : (err ? err->code : CUZK_E_UNSUPPORTED);
    } else if (c->refs > 0 || c->state == ENTRY_LOADING) {
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "circuit \"%s\" is in use by %u job(s); evict it when idle", name,
                       c->refs);
    } else if (c->state == ENTRY_LOADED) {
        *was_loaded = true;
        *freed_bytes = c->size_bytes;
        unload(c);
    }
    pthread_mutex_unlock(&r->mu);
    return st;
}

cuzk_status cuzk_registry_list(cuzk_registry *r, cuzk_srs_entry **out, size_t *n, cuzk_error *err)
{
    pthread_mutex_lock(&r->mu);
    *n = 0;
    *out = calloc(r->n ? r->n : 1, sizeof **out);
    if (!*out) {
        pthread_mutex_unlock(&r->mu);
        return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
    }
    double now = now_ms();
    for (size_t i = 0; i < r->n; i++) {
        const cuzk_circuit *c = r->entries[i];
        if (c->synthetic && c->state != ENTRY_LOADED && c->refs == 0)
            continue;
        cuzk_srs_entry *e = &(*out)[(*n)++];
        snprintf(e->name, sizeof e->name, "%s", c->name);
        e->loaded = c->state == ENTRY_LOADED;
        e->load_failed = c->state == ENTRY_UNLOADED && c->load_failed;
        snprintf(e->load_error, sizeof e->load_error, "%s", e->load_failed ? c->load_error : "");
        e->size_bytes = e->loaded ? c->size_bytes : 0;
        e->ref_count = c->refs;
        e->idle_ms = (c->refs == 0 && c->last_release_ms > 0) ? now - c->last_release_ms : 0;
    }
    pthread_mutex_unlock(&r->mu);
    return CUZK_OK;
}
