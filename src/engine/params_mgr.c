/* Parameter manager; contracts in params_mgr.h. */
#include "engine/params_mgr.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "engine/log.h"

#define MAX_PROVIDERS 8

struct cuzk_params_entry {
    char id[CUZK_PARAMS_ID_MAX];
    const cuzk_params_provider *p;
    bool loaded, loading, failed;
    bool warm;        /* unloaded by a budget reclaim */
    void *handle;     /* the provider's object while loaded */
    uint64_t bytes;   /* resident bytes while loaded */
    uint64_t charged; /* budget bytes held for it */
    char error[1024];
    uint32_t refs;
    double released_at;
    cuzk_params_entry *next;
};

struct cuzk_params_mgr {
    cuzk_budget *budget;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a load ended, or an entry was released (room may be reclaimable) */
    cuzk_params_entry *entries;
    const cuzk_params_provider *providers[MAX_PROVIDERS];
    size_t n_providers;
    void (*evict_hook)(void *ctx, const void *params); /* cuzk_params_set_evict_hook */
    void *evict_ctx;
};

const char *cuzk_params_tier_name(cuzk_params_tier t)
{
    return t == CUZK_PARAMS_HOT ? "hot" : t == CUZK_PARAMS_WARM ? "warm" : "cold";
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

/* With mu held (or at destroy): free e's handle and return its charge. */
static void unload(cuzk_params_mgr *m, cuzk_params_entry *e, bool cold)
{
    if (e->loaded && cold && m->evict_hook && e->p->prover_params)
        m->evict_hook(m->evict_ctx, e->p->prover_params(e->p->ctx, e->handle));
    if (e->loaded)
        e->p->unload(e->p->ctx, e->handle, cold);
    e->handle = NULL;
    if (m->budget && e->charged)
        cuzk_budget_release(m->budget, e->charged);
    e->charged = 0;
    e->bytes = 0;
    e->loaded = false;
}

/* The budget's reclaimer: unload idle HOT entries, least recently released first, until
 * `want` bytes are freed. They become WARM. */
static uint64_t reclaim(void *ctx, uint64_t want)
{
    cuzk_params_mgr *m = ctx;
    uint64_t freed = 0;
    pthread_mutex_lock(&m->mu);
    while (freed < want) {
        cuzk_params_entry *lru = NULL;
        for (cuzk_params_entry *e = m->entries; e; e = e->next)
            if (e->loaded && !e->refs && e->charged && (!lru || e->released_at < lru->released_at))
                lru = e;
        if (!lru)
            break;
        uint64_t n = lru->charged;
        cuzk_log(CUZK_LOG_INFO, "srs: %s idle, unloaded for %llu bytes of the memory budget (%llu bytes freed)",
                 lru->id, (unsigned long long)want, (unsigned long long)n);
        unload(m, lru, false);
        lru->warm = true;
        freed += n;
    }
    pthread_mutex_unlock(&m->mu);
    return freed;
}

cuzk_status cuzk_params_mgr_create(cuzk_budget *budget, cuzk_params_mgr **out, cuzk_error *err)
{
    *out = NULL;
    cuzk_params_mgr *m = calloc(1, sizeof *m);
    if (!m)
        return cuzk_fail(err, CUZK_E_NOMEM, "params: out of memory");
    pthread_mutex_init(&m->mu, NULL);
    if (cuzk_cond_init_monotonic(&m->cv)) {
        pthread_mutex_destroy(&m->mu);
        free(m);
        return cuzk_fail(err, CUZK_E_INTERNAL, "params: pthread_cond_init failed");
    }
    if (budget) {
        cuzk_status st = cuzk_budget_add_reclaimer(budget, reclaim, m, err);
        if (st) {
            cuzk_params_mgr_destroy(m);
            return st;
        }
        m->budget = budget;
    }
    *out = m;
    return CUZK_OK;
}

void cuzk_params_mgr_destroy(cuzk_params_mgr *m)
{
    if (!m)
        return;
    if (m->budget)
        cuzk_budget_remove_reclaimer(m->budget, reclaim, m);
    for (cuzk_params_entry *e = m->entries, *n; e; e = n) {
        n = e->next;
        unload(m, e, false);
        free(e);
    }
    pthread_mutex_destroy(&m->mu);
    pthread_cond_destroy(&m->cv);
    free(m);
}

cuzk_status cuzk_params_add_provider(cuzk_params_mgr *m, const cuzk_params_provider *p, cuzk_error *err)
{
    pthread_mutex_lock(&m->mu);
    bool room = m->n_providers < MAX_PROVIDERS;
    if (room)
        m->providers[m->n_providers++] = p;
    pthread_mutex_unlock(&m->mu);
    return room ? CUZK_OK : cuzk_fail(err, CUZK_E_NOMEM, "params: more than %d providers", MAX_PROVIDERS);
}

void cuzk_params_remove_provider(cuzk_params_mgr *m, const cuzk_params_provider *p)
{
    pthread_mutex_lock(&m->mu);
    for (size_t i = 0; i < m->n_providers; i++)
        if (m->providers[i] == p) {
            memmove(&m->providers[i], &m->providers[i + 1], (m->n_providers - i - 1) * sizeof *m->providers);
            m->n_providers--;
            break;
        }
    for (cuzk_params_entry **pp = &m->entries; *pp;) {
        cuzk_params_entry *e = *pp;
        if (e->p != p) {
            pp = &e->next;
            continue;
        }
        *pp = e->next;
        unload(m, e, false);
        free(e);
    }
    pthread_mutex_unlock(&m->mu);
}

/* A copy of the providers (they are only added and removed at set-up and teardown). */
static size_t providers(cuzk_params_mgr *m, const cuzk_params_provider **ps)
{
    pthread_mutex_lock(&m->mu);
    size_t n = m->n_providers;
    memcpy(ps, m->providers, n * sizeof *ps);
    pthread_mutex_unlock(&m->mu);
    return n;
}

const cuzk_params_provider *cuzk_params_provider_of(cuzk_params_mgr *m, const char *id, cuzk_error *err)
{
    const cuzk_params_provider *ps[MAX_PROVIDERS];
    size_t n = providers(m, ps);
    for (size_t i = 0; i < n; i++)
        if (ps[i]->claims(ps[i]->ctx, id))
            return ps[i];
    cuzk_params_unknown(m, id, err);
    return NULL;
}

cuzk_status cuzk_params_unknown(cuzk_params_mgr *m, const char *id, cuzk_error *err)
{
    const cuzk_params_provider *ps[MAX_PROVIDERS];
    size_t n = providers(m, ps);
    char known[768] = "";
    size_t used = 0;
    for (size_t i = 0; i < n && used + 3 < sizeof known; i++) {
        if (used)
            used += (size_t)snprintf(known + used, sizeof known - used, "; ");
        ps[i]->describe(ps[i]->ctx, known + used, sizeof known - used);
        used = strlen(known);
    }
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown circuit \"%.64s\" (%s)", id, used ? known : "none known");
}

static cuzk_params_entry *find(cuzk_params_mgr *m, const char *id)
{
    for (cuzk_params_entry *e = m->entries; e; e = e->next)
        if (!strcmp(e->id, id))
            return e;
    return NULL;
}

/* With mu held: the entry of id, created if missing (NULL when out of memory). */
static cuzk_params_entry *get_entry(cuzk_params_mgr *m, const cuzk_params_provider *p, const char *id)
{
    cuzk_params_entry *e = find(m, id);
    if (e)
        return e;
    e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    snprintf(e->id, sizeof e->id, "%s", id);
    e->p = p;
    e->next = m->entries;
    m->entries = e;
    return e;
}

/* Without mu: charge the budget `n` bytes for e (loaded, not yet marked), reclaiming idle
 * caches; wait for releases unless `no_wait`. *transient: a failure that is no failed load
 * (no room now, cancelled). */
static cuzk_status charge(cuzk_params_mgr *m, const cuzk_params_entry *e, uint64_t n, bool no_wait,
                          cuzk_abort_fn abort, void *ctx, bool *transient, cuzk_error *err)
{
    *transient = true;
    uint64_t total = cuzk_budget_total(m->budget);
    if (n > total) {
        *transient = false;
        return cuzk_fail(err, CUZK_E_NOMEM,
                         "parameters of %s need %llu bytes resident; the whole memory budget is %llu bytes "
                         "([memory] total_budget)",
                         e->id, (unsigned long long)n, (unsigned long long)total);
    }
    bool logged = false;
    for (;;) {
        if (cuzk_budget_try_acquire(m->budget, n))
            return CUZK_OK;
        uint64_t used = cuzk_budget_used(m->budget);
        if (cuzk_budget_reclaim(m->budget, used + n > total ? used + n - total : n) > 0)
            continue;
        if (no_wait)
            return cuzk_fail(err, CUZK_E_NOMEM,
                             "no room in the memory budget now for the %llu bytes of %s (%llu of %llu bytes in use "
                             "by running jobs)",
                             (unsigned long long)n, e->id, (unsigned long long)used, (unsigned long long)total);
        if (abort && abort(ctx))
            return cuzk_fail(err, CUZK_E_CANCELLED, "cancelled while waiting for memory for the parameters of %s",
                             e->id);
        if (!logged) {
            cuzk_log(CUZK_LOG_INFO, "srs: %s waits for %llu bytes of the memory budget (%llu of %llu in use)", e->id,
                     (unsigned long long)n, (unsigned long long)used, (unsigned long long)total);
            logged = true;
        }
        /* a release of an entry signals cv; partitions' releases are caught by the timeout */
        pthread_mutex_lock(&m->mu);
        cuzk_cond_wait_until(&m->cv, &m->mu, cuzk_deadline_ms(50));
        pthread_mutex_unlock(&m->mu);
    }
}

/* With mu held on entry and exit: make e loaded (or report why not). */
static cuzk_status ensure_loaded(cuzk_params_mgr *m, cuzk_params_entry *e, uint64_t *load_ms, bool *was_loaded,
                                 bool no_wait, cuzk_abort_fn abort, void *abort_ctx, cuzk_error *err)
{
    while (e->loading)
        pthread_cond_wait(&m->cv, &m->mu);
    if (was_loaded)
        *was_loaded = e->loaded;
    if (e->loaded)
        return CUZK_OK;
    e->loading = true;
    pthread_mutex_unlock(&m->mu);
    double t0 = now_ms();
    cuzk_error le = {0};
    void *handle = NULL;
    uint64_t bytes = 0;
    cuzk_status st = e->p->load(e->p->ctx, e->id, &handle, &bytes, &le);
    bool transient = false; /* waiting for room (or cancelled then) is not a failed load */
    if (!st && m->budget) {
        st = charge(m, e, bytes, no_wait, abort, abort_ctx, &transient, &le);
        if (st)
            e->p->unload(e->p->ctx, handle, false);
    }
    double ms = now_ms() - t0;
    pthread_mutex_lock(&m->mu);
    e->loading = false;
    e->loaded = st == CUZK_OK;
    e->failed = st != CUZK_OK && !transient;
    if (!st) {
        e->warm = false;
        e->handle = handle;
        e->bytes = bytes;
        e->charged = m->budget ? bytes : 0;
    }
    snprintf(e->error, sizeof e->error, "%s", e->failed ? le.msg : "");
    if (e->failed && st != CUZK_E_CANCELLED)
        cuzk_log(CUZK_LOG_ERROR, "srs: %s: loading the parameters failed: %s", e->id, le.msg);
    if (load_ms)
        *load_ms = (uint64_t)ms;
    pthread_cond_broadcast(&m->cv);
    if (st && err)
        *err = le;
    return st;
}

static cuzk_status check_id(const char *id, cuzk_error *err)
{
    if (strlen(id) >= CUZK_PARAMS_ID_MAX)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameters id \"%.64s...\" is longer than %d bytes", id,
                         CUZK_PARAMS_ID_MAX - 1);
    return CUZK_OK;
}

cuzk_status cuzk_params_acquire(cuzk_params_mgr *m, const cuzk_params_provider *p, const char *id,
                                cuzk_abort_fn abort, void *abort_ctx, cuzk_params_entry **out, uint64_t *load_ms,
                                cuzk_error *err)
{
    *out = NULL;
    if (load_ms)
        *load_ms = 0;
    cuzk_status st = check_id(id, err);
    if (st)
        return st;
    pthread_mutex_lock(&m->mu);
    cuzk_params_entry *e = get_entry(m, p, id);
    st = e ? ensure_loaded(m, e, load_ms, NULL, false, abort, abort_ctx, err)
           : cuzk_fail(err, CUZK_E_NOMEM, "params: out of memory");
    if (!st) {
        e->refs++;
        *out = e;
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

void cuzk_params_release(cuzk_params_mgr *m, cuzk_params_entry *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&m->mu);
    if (e->refs)
        e->refs--;
    e->released_at = now_ms();
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->mu);
}

void *cuzk_params_handle(const cuzk_params_entry *e) { return e->handle; }
const char *cuzk_params_id(const cuzk_params_entry *e) { return e->id; }
uint64_t cuzk_params_charged(const cuzk_params_entry *e) { return e->charged; }

cuzk_status cuzk_params_preload(cuzk_params_mgr *m, const cuzk_params_provider *p, const char *id,
                                bool *already_loaded, uint64_t *load_ms, cuzk_error *err)
{
    if (load_ms)
        *load_ms = 0;
    cuzk_status st = check_id(id, err);
    if (st)
        return st;
    pthread_mutex_lock(&m->mu);
    cuzk_params_entry *e = get_entry(m, p, id);
    st = e ? ensure_loaded(m, e, load_ms, already_loaded, true, NULL, NULL, err)
           : cuzk_fail(err, CUZK_E_NOMEM, "params: out of memory");
    if (!st)
        e->released_at = now_ms();
    pthread_mutex_unlock(&m->mu);
    return st;
}

void cuzk_params_set_evict_hook(cuzk_params_mgr *m, void (*fn)(void *ctx, const void *params), void *ctx)
{
    pthread_mutex_lock(&m->mu);
    m->evict_hook = fn;
    m->evict_ctx = ctx;
    pthread_mutex_unlock(&m->mu);
}

cuzk_status cuzk_params_evict(cuzk_params_mgr *m, const char *id, bool *was_loaded, uint64_t *freed_bytes,
                              cuzk_error *err)
{
    *was_loaded = false;
    *freed_bytes = 0;
    pthread_mutex_lock(&m->mu);
    cuzk_params_entry *e = find(m, id);
    while (e && e->loading)
        pthread_cond_wait(&m->cv, &m->mu);
    cuzk_status st = CUZK_OK;
    if (e && e->loaded) {
        if (e->refs) {
            st = cuzk_fail(err, CUZK_E_INVALID_ARG, "%s is in use by %u job(s); not evicted", id, e->refs);
        } else {
            *was_loaded = true;
            *freed_bytes = e->bytes;
            unload(m, e, true);
            e->warm = false;
        }
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

/* With mu held: e as a status row. */
static void status_of(const cuzk_params_entry *e, double now, cuzk_params_status *s)
{
    memset(s, 0, sizeof *s);
    snprintf(s->id, sizeof s->id, "%s", e->id);
    s->provider = e->p;
    s->loaded = e->loaded;
    s->tier = e->loaded ? CUZK_PARAMS_HOT : e->warm ? CUZK_PARAMS_WARM : CUZK_PARAMS_COLD;
    s->failed = e->failed;
    snprintf(s->error, sizeof s->error, "%s", e->error);
    s->size_bytes = e->loaded ? e->bytes : 0;
    s->ref_count = e->refs;
    s->idle_ms = e->refs || !e->released_at ? 0 : now - e->released_at;
}

cuzk_status cuzk_params_list(cuzk_params_mgr *m, const cuzk_params_provider *p, cuzk_params_status **out,
                             size_t *n, cuzk_error *err)
{
    pthread_mutex_lock(&m->mu);
    size_t cnt = 0;
    for (cuzk_params_entry *e = m->entries; e; e = e->next)
        cnt += !p || e->p == p;
    cuzk_params_status *a = calloc(cnt ? cnt : 1, sizeof *a);
    if (!a) {
        pthread_mutex_unlock(&m->mu);
        return cuzk_fail(err, CUZK_E_NOMEM, "params: out of memory");
    }
    double now = now_ms();
    size_t i = cnt;
    for (cuzk_params_entry *e = m->entries; e; e = e->next) /* newest first: filled from the end */
        if (!p || e->p == p)
            status_of(e, now, &a[--i]);
    pthread_mutex_unlock(&m->mu);
    *out = a;
    *n = cnt;
    return CUZK_OK;
}

bool cuzk_params_status_of(cuzk_params_mgr *m, const char *id, cuzk_params_status *out)
{
    pthread_mutex_lock(&m->mu);
    cuzk_params_entry *e = find(m, id);
    if (e)
        status_of(e, now_ms(), out);
    pthread_mutex_unlock(&m->mu);
    return e != NULL;
}
