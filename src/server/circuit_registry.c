/* Circuit registry (circuit_registry.h): the "circuit" provider of the parameter manager. */
#include "server/circuit_registry.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cs/r1cs.h"
#include "kinds/builtin/builtin.h"
#include "groth16/zkey.h"

/* A loaded circuit: the manager's handle. cuzk_circuit pointers are the manager's
 * cuzk_params_entry pointers (struct cuzk_circuit is never defined). */
typedef struct {
    bool synthetic;
    builtin_synthetic *syn;
    r1cs_t r1cs;
    zkey_t zkey;
    builtin_r1cs *rc;
} loaded;

typedef struct {
    char *name, *r1cs_path, *zkey_path;
} configured;

struct cuzk_registry {
    unsigned setup_threads;
    cuzk_abc_pool *abc_pool; /* for the circuits' kinds; NULL: malloc */
    configured *entries;     /* [[circuits]], fixed at create */
    size_t n;
    cuzk_params_mgr *params; /* the shared manager, or own_params */
    cuzk_params_mgr *own_params;
    cuzk_params_provider provider;
};

static const loaded *handle_of(const cuzk_circuit *c)
{
    return cuzk_params_handle((const cuzk_params_entry *)c);
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

static const configured *find_configured(const cuzk_registry *r, const char *name)
{
    for (size_t i = 0; i < r->n; i++)
        if (!strcmp(r->entries[i].name, name))
            return &r->entries[i];
    return NULL;
}

static bool provider_claims(void *ctx, const char *id)
{
    unsigned k;
    return find_configured(ctx, id) || parse_synthetic(id, &k);
}

static void provider_describe(void *ctx, char *out, size_t cap)
{
    const cuzk_registry *r = ctx;
    char known[256] = "";
    size_t used = 0;
    for (size_t i = 0; i < r->n && used + 2 < sizeof known; i++)
        used += (size_t)snprintf(known + used, sizeof known - used, "%s%s", used ? ", " : "", r->entries[i].name);
    snprintf(out, cap, "configured: %s; built-in: synthetic-2 .. synthetic-%d", used ? known : "none",
             CUZK_SYNTHETIC_MAX_K);
}

static void unload(loaded *c)
{
    builtin_synthetic_free(c->syn);
    builtin_r1cs_free(c->rc);
    r1cs_free(&c->r1cs);
    zkey_free(&c->zkey);
    free(c);
}

static void provider_unload(void *ctx, void *handle, bool cold)
{
    (void)ctx;
    (void)cold;
    unload(handle);
}

static uint64_t params_bytes(const groth16_params_t *p)
{
    return (uint64_t)(p->vk.n_ic + p->n_h + p->n_l + p->n_a + p->n_b + 3) * sizeof(g1_affine_t) +
           (uint64_t)(p->n_b + 3) * sizeof(g2_affine_t);
}

/* Load without any lock: the synthetic setup, or the .r1cs + .zkey. */
static cuzk_status provider_load(void *ctx, const char *id, void **handle, uint64_t *bytes, cuzk_error *err)
{
    cuzk_registry *r = ctx;
    loaded *c = calloc(1, sizeof *c);
    if (!c)
        return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
    unsigned k;
    const configured *cf = find_configured(r, id);
    cuzk_status st;
    if (!cf && parse_synthetic(id, &k)) {
        c->synthetic = true;
        if ((st = builtin_synthetic_create(k, r->setup_threads, &c->syn, err))) {
            unload(c);
            return st;
        }
        builtin_synthetic_use_pool(c->syn, r->abc_pool);
        *bytes = params_bytes(builtin_synthetic_params(c->syn));
        *handle = c;
        return CUZK_OK;
    }
    if (!cf) {
        unload(c);
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown circuit \"%.64s\"", id);
    }
    if ((st = r1cs_read_file(&c->r1cs, cf->r1cs_path, err)) || (st = zkey_read_file(&c->zkey, cf->zkey_path, 0, err)) ||
        (st = builtin_r1cs_create(&c->r1cs, &c->zkey, &c->rc, err))) {
        unload(c);
        return st;
    }
    builtin_r1cs_use_pool(c->rc, r->abc_pool);
    const r1cs_t *q = &c->r1cs;
    *bytes = params_bytes(builtin_r1cs_params(c->rc)) +
             (q->a.row_ptr[q->a.rows] + q->b.row_ptr[q->b.rows] + q->c.row_ptr[q->c.rows]) *
                 (sizeof(fr_t) + sizeof(uint32_t)) +
             3ull * (q->n_constraints + 1) * sizeof(uint64_t);
    *handle = c;
    return CUZK_OK;
}

/* A loaded circuit's proving key, the params its jobs give the backend (cuzk_circuit_params). */
static const void *provider_prover_params(void *ctx, const void *handle)
{
    (void)ctx;
    const loaded *h = handle;
    return h->synthetic ? (const void *)builtin_synthetic_params(h->syn) : (const void *)builtin_r1cs_params(h->rc);
}

cuzk_status cuzk_registry_create(const cuzk_server_config *cfg, unsigned setup_threads, cuzk_params_mgr *params,
                                 cuzk_registry **out, cuzk_error *err)
{
    *out = NULL;
    cuzk_registry *r = calloc(1, sizeof *r);
    if (!r || !(r->entries = calloc(cfg->n_circuits ? cfg->n_circuits : 1, sizeof *r->entries))) {
        free(r);
        return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
    }
    r->setup_threads = setup_threads ? setup_threads : 1;
    r->provider = (cuzk_params_provider){"circuit", r, provider_claims, provider_describe, provider_load,
                                         provider_unload, provider_prover_params};
    for (size_t i = 0; i < cfg->n_circuits; i++) {
        configured *c = &r->entries[r->n++];
        c->name = strdup(cfg->circuits[i].name);
        c->r1cs_path = strdup(cfg->circuits[i].r1cs);
        c->zkey_path = strdup(cfg->circuits[i].zkey);
        if (!c->name || !c->r1cs_path || !c->zkey_path) {
            cuzk_registry_destroy(r);
            return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
        }
    }
    cuzk_status st = CUZK_OK;
    if (params)
        r->params = params;
    else if (!(st = cuzk_params_mgr_create(NULL, &r->own_params, err)))
        r->params = r->own_params;
    if (!st)
        st = cuzk_params_add_provider(r->params, &r->provider, err);
    if (st) {
        cuzk_registry_destroy(r);
        return st;
    }
    *out = r;
    return CUZK_OK;
}

void cuzk_registry_use_abc_pool(cuzk_registry *r, cuzk_abc_pool *pool)
{
    r->abc_pool = pool;
}

void cuzk_registry_destroy(cuzk_registry *r)
{
    if (!r)
        return;
    if (r->params)
        cuzk_params_remove_provider(r->params, &r->provider);
    cuzk_params_mgr_destroy(r->own_params);
    for (size_t i = 0; i < r->n; i++) {
        free(r->entries[i].name);
        free(r->entries[i].r1cs_path);
        free(r->entries[i].zkey_path);
    }
    free(r->entries);
    free(r);
}

bool cuzk_registry_knows(cuzk_registry *r, const char *name)
{
    return provider_claims(r, name);
}

cuzk_status cuzk_registry_acquire(cuzk_registry *r, const char *name, cuzk_abort_fn abort, void *abort_ctx,
                                  cuzk_circuit **out, uint64_t *load_ms, cuzk_error *err)
{
    *out = NULL;
    *load_ms = 0;
    if (!provider_claims(r, name)) /* an id of another provider (a Filecoin one) is no circuit either */
        return cuzk_params_unknown(r->params, name, err);
    cuzk_params_entry *e;
    cuzk_status st = cuzk_params_acquire(r->params, &r->provider, name, abort, abort_ctx, &e, load_ms, err);
    if (!st)
        *out = (cuzk_circuit *)e;
    return st;
}

void cuzk_registry_release(cuzk_registry *r, cuzk_circuit *c)
{
    cuzk_params_release(r->params, (cuzk_params_entry *)c);
}

const char *cuzk_circuit_name(const cuzk_circuit *c) { return cuzk_params_id((const cuzk_params_entry *)c); }
bool cuzk_circuit_is_synthetic(const cuzk_circuit *c) { return handle_of(c)->synthetic; }

const cuzk_circuit_kind *cuzk_circuit_kind_of(const cuzk_circuit *c)
{
    const loaded *h = handle_of(c);
    return h->synthetic ? builtin_synthetic_kind(h->syn) : builtin_r1cs_kind(h->rc);
}

const void *cuzk_circuit_params(const cuzk_circuit *c)
{
    return provider_prover_params(NULL, handle_of(c));
}

const cuzk_verify_hook *cuzk_circuit_verify_hook(const cuzk_circuit *c)
{
    const loaded *h = handle_of(c);
    return h->synthetic ? builtin_synthetic_verify_hook(h->syn) : builtin_r1cs_verify_hook(h->rc);
}

uint32_t cuzk_circuit_n_wires(const cuzk_circuit *c)
{
    const loaded *h = handle_of(c);
    return h->synthetic ? 0 : h->r1cs.n_wires;
}

/* A manager status row as a listing row. */
static void row_of(const cuzk_params_status *p, cuzk_srs_entry *e)
{
    memset(e, 0, sizeof *e);
    snprintf(e->name, sizeof e->name, "%s", p->id);
    e->loaded = p->loaded;
    e->load_failed = p->failed && !p->loaded;
    e->warm = p->tier == CUZK_PARAMS_WARM;
    snprintf(e->load_error, sizeof e->load_error, "%s", e->load_failed ? p->error : "");
    e->size_bytes = p->size_bytes;
    e->ref_count = p->ref_count;
    e->idle_ms = p->idle_ms;
}

cuzk_status cuzk_registry_list(cuzk_registry *r, cuzk_srs_entry **out, size_t *n, cuzk_error *err)
{
    *n = 0;
    cuzk_params_status *ps;
    size_t np;
    cuzk_status st = cuzk_params_list(r->params, &r->provider, &ps, &np, err);
    if (st)
        return st;
    *out = calloc(r->n + np + 1, sizeof **out);
    if (!*out) {
        free(ps);
        return cuzk_fail(err, CUZK_E_NOMEM, "registry: out of memory");
    }
    /* every configured circuit (COLD until first used), then the synthetic ones in use or loaded */
    for (size_t i = 0; i < r->n; i++) {
        cuzk_params_status s;
        if (cuzk_params_status_of(r->params, r->entries[i].name, &s))
            row_of(&s, &(*out)[(*n)++]);
        else
            snprintf((*out)[(*n)++].name, sizeof (*out)->name, "%s", r->entries[i].name);
    }
    for (size_t i = 0; i < np; i++)
        if (!find_configured(r, ps[i].id) && (ps[i].loaded || ps[i].ref_count))
            row_of(&ps[i], &(*out)[(*n)++]);
    free(ps);
    return CUZK_OK;
}
