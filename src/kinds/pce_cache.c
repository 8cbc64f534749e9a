/* PCE cache; contracts in pce_cache.h. */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "common/file_io.h"
#include "common/hex.h"
#include "kinds/pce_cache.h"
#include "engine/log.h"
#include "groth16/bellperson_params.h"

struct pce_cache_entry {
    cs_pce_identity id;
    pce_cache_state state;
    cs_pce pce;
    uint64_t charged; /* budget bytes held for the mapping */
    uint32_t refs;
    bool rejected;    /* FAILED by a row check: unload at the last put */
    bool counts_known;
    cs_counts counts; /* of the CS_SHAPE pass, kept for retries */
    uint64_t recorded, loaded;
    double record_ms, load_ms;
    char error[256];
    pce_cache_entry *next;
};

struct pce_cache {
    char *cache_dir;
    cuzk_budget *budget;
    bool background, record;
    unsigned eval_threads;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* tasks reached 0 */
    unsigned tasks;
    pce_cache_entry *entries;
};

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

const char *pce_cache_state_name(pce_cache_state s)
{
    switch (s) {
    case PCE_CACHE_ABSENT: return "absent";
    case PCE_CACHE_BUSY: return "busy";
    case PCE_CACHE_READY: return "ready";
    case PCE_CACHE_FAILED: return "failed";
    }
    return "unknown";
}

static void unload(pce_cache *m, pce_cache_entry *e);

/* The budget's reclaimer: unmap ready PCEs that no partition holds (they map again from
 * their file on the next use). */
static uint64_t reclaim(void *ctx, uint64_t want)
{
    pce_cache *m = ctx;
    uint64_t freed = 0;
    pthread_mutex_lock(&m->mu);
    for (pce_cache_entry *e = m->entries; e && freed < want; e = e->next) {
        if (e->state != PCE_CACHE_READY || e->refs || !e->charged)
            continue;
        freed += e->charged;
        cuzk_log(CUZK_LOG_INFO, "pce: %s idle, unmapped for room in the memory budget (%llu bytes)", e->id.circuit,
                 (unsigned long long)e->charged);
        unload(m, e);
        e->state = PCE_CACHE_ABSENT;
    }
    pthread_mutex_unlock(&m->mu);
    return freed;
}

cuzk_status pce_cache_create(const pce_cache_config *cfg, pce_cache **out, cuzk_error *err)
{
    *out = NULL;
    if (!cfg || !cfg->cache_dir || !*cfg->cache_dir)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "pce: no cache directory");
    pce_cache *m = calloc(1, sizeof *m);
    if (!m || !(m->cache_dir = strdup(cfg->cache_dir))) {
        free(m);
        return cuzk_fail(err, CUZK_E_NOMEM, "pce: out of memory");
    }
    m->budget = cfg->budget;
    m->background = cfg->background;
    m->record = cfg->record;
    m->eval_threads = cfg->eval_threads ? cfg->eval_threads : 1;
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->cv, NULL);
    if (m->budget) {
        cuzk_status st = cuzk_budget_add_reclaimer(m->budget, reclaim, m, err);
        if (st) {
            m->budget = NULL;
            pce_cache_destroy(m);
            return st;
        }
    }
    *out = m;
    return CUZK_OK;
}

static void unload(pce_cache *m, pce_cache_entry *e)
{
    cs_pce_free(&e->pce);
    if (m->budget && e->charged)
        cuzk_budget_release(m->budget, e->charged);
    e->charged = 0;
}

void pce_cache_destroy(pce_cache *m)
{
    if (!m)
        return;
    pce_cache_wait_idle(m);
    if (m->budget)
        cuzk_budget_remove_reclaimer(m->budget, reclaim, m);
    for (pce_cache_entry *e = m->entries, *n; e; e = n) {
        n = e->next;
        unload(m, e);
        free(e);
    }
    free(m->cache_dir);
    pthread_mutex_destroy(&m->mu);
    pthread_cond_destroy(&m->cv);
    free(m);
}

void pce_cache_key_id(const groth16_params_t *pk, uint8_t out[32])
{
    size_t n = (size_t)bp_vk_size(&pk->vk);
    uint8_t *buf = malloc(n);
    unsigned dl = 0;
    bool ok = buf != NULL;
    if (ok) {
        bp_vk_encode(buf, &pk->vk);
        ok = EVP_Digest(buf, n, out, &dl, EVP_sha256(), NULL) == 1 && dl == 32;
    }
    if (!ok)
        memset(out, 0xff, 32); /* no key id: no PCE file will ever match it */
    free(buf);
}

unsigned pce_cache_eval_threads(const pce_cache *m) { return m->eval_threads; }
const cs_pce *pce_cache_data(const pce_cache_entry *e) { return &e->pce; }

/* ---- the work: map the file, or record it and map it ---- */

typedef enum { W_READY, W_RETRY, W_FAILED } work_result;

typedef struct {
    pce_cache *m;
    pce_cache_entry *e;
    pce_cache_circuit c;
} task;

static bool name_ok(const char *s)
{
    if (!*s)
        return false;
    for (; *s; s++)
        if (!((*s >= 'a' && *s <= 'z') || (*s >= '0' && *s <= '9') || *s == '-' || *s == '_'))
            return false;
    return true;
}

/* Map `path` (charging the budget); W_RETRY when the budget has no room now. */
static work_result map_file(task *t, const char *path, struct stat *st, cuzk_error *err)
{
    pce_cache *m = t->m;
    uint64_t size = (uint64_t)st->st_size;
    if (m->budget && !cuzk_budget_try_acquire(m->budget, size)) {
        cuzk_fail(err, CUZK_E_NOMEM, "%s: no room in the memory budget for %llu bytes now", path,
                  (unsigned long long)size);
        return W_RETRY;
    }
    double t0 = now_ms();
    cs_pce p;
    if (cs_pce_map(path, &t->c.id, 0, &p, err) != CUZK_OK) {
        if (m->budget)
            cuzk_budget_release(m->budget, size);
        return W_FAILED;
    }
    pthread_mutex_lock(&m->mu);
    t->e->pce = p;
    t->e->charged = m->budget ? size : 0;
    t->e->loaded++;
    t->e->load_ms = now_ms() - t0;
    pthread_mutex_unlock(&m->mu);
    return W_READY;
}

/* Record the circuit into `path`. */
static work_result record(task *t, const char *path, cuzk_error *err)
{
    pce_cache *m = t->m;
    pce_cache_entry *e = t->e;
    double t0 = now_ms();
    cs_t cs;
    cuzk_status st;
    if (!e->counts_known) { /* the entry is BUSY: only this task touches counts */
        if ((st = cs_init(&cs, CS_SHAPE, 0))) {
            cuzk_fail(err, st, "%s", cs.err.msg);
            return W_RETRY;
        }
        st = t->c.synthesize(t->c.shape, &cs, err);
        cs_get_counts(&cs, &e->counts);
        cs_free(&cs);
        if (st)
            return W_FAILED;
        e->counts_known = true;
    }
    /* the compact arrays, the cs's three density bitmaps and the two full ones */
    uint64_t need = cs_pce_bytes(&e->counts) + (e->counts.inputs + e->counts.aux) / 2;
    if (m->budget && !cuzk_budget_try_acquire(m->budget, need)) {
        cuzk_fail(err, CUZK_E_NOMEM, "recording %s needs %llu bytes of the memory budget; none free now",
                  t->c.id.circuit, (unsigned long long)need);
        return W_RETRY;
    }
    cs_pce p;
    work_result r = W_FAILED;
    if ((st = cs_init_record_pce(&cs, &e->counts))) {
        cuzk_fail(err, st, "%s", cs.err.msg);
        r = W_RETRY;
    } else {
        st = t->c.synthesize(t->c.shape, &cs, err);
        if (!st && (st = cs_take_pce(&cs, &t->c.id, &p)))
            cuzk_fail(err, st, "%s", cs.err.msg);
        cs_free(&cs);
        if (!st) {
            st = cs_pce_write(&p, path, 0, err);
            cs_pce_free(&p);
            r = st ? W_FAILED : W_READY;
        }
    }
    if (m->budget)
        cuzk_budget_release(m->budget, need);
    if (r == W_READY) {
        pthread_mutex_lock(&m->mu);
        e->recorded++;
        e->record_ms = now_ms() - t0;
        pthread_mutex_unlock(&m->mu);
        cuzk_log(CUZK_LOG_INFO, "pce: recorded %s in %.0f ms (%s)", t->c.id.circuit, e->record_ms, path);
    }
    return r;
}

/* "<cache_dir>/<circuit>-<first 8 bytes of the key id in hex>.cuzkpce"; false when the
 * circuit id is not a plain file name or the path is too long. */
static bool file_of(const pce_cache *m, const cs_pce_identity *id, char *path, size_t cap)
{
    if (!name_ok(id->circuit))
        return false;
    char key[17];
    cuzk_hex(key, id->key_id, 8);
    return snprintf(path, cap, "%s/%s-%s.cuzkpce", m->cache_dir, id->circuit, key) < (int)cap;
}

static work_result work(task *t, cuzk_error *err)
{
    pce_cache *m = t->m;
    char path[4096];
    if (!file_of(m, &t->c.id, path, sizeof path)) {
        cuzk_fail(err, CUZK_E_INVALID_ARG, "pce: circuit id '%.32s' is not a file name, or the path is too long",
                  t->c.id.circuit);
        return W_FAILED;
    }
    struct stat st;
    if (stat(path, &st) == 0) {
        work_result r = map_file(t, path, &st, err);
        if (r != W_FAILED)
            return r;
        /* stale, corrupt or foreign: never used; record it again */
        cuzk_log(CUZK_LOG_WARN, "pce: %s refused (%s); recording it again", path, err->msg);
    }
    if (!m->record) {
        cuzk_fail(err, CUZK_E_IO, "%s: no PCE and recording is off", path);
        return W_RETRY;
    }
    if (cuzk_ensure_dir(m->cache_dir, err))
        return W_FAILED;
    work_result r = record(t, path, err);
    if (r != W_READY)
        return r;
    if (stat(path, &st) != 0) {
        cuzk_fail(err, CUZK_E_IO, "%s: %s", path, strerror(errno));
        return W_FAILED;
    }
    return map_file(t, path, &st, err);
}

/* Run a task and settle its entry; frees the task. */
static void run_task(task *t)
{
    cuzk_error err = {0};
    work_result r = work(t, &err);
    pce_cache *m = t->m;
    pce_cache_entry *e = t->e;
    pthread_mutex_lock(&m->mu);
    e->state = r == W_READY ? PCE_CACHE_READY : r == W_RETRY ? PCE_CACHE_ABSENT : PCE_CACHE_FAILED;
    snprintf(e->error, sizeof e->error, "%s", r == W_READY ? "" : err.msg);
    if (r == W_FAILED)
        cuzk_log(CUZK_LOG_WARN, "pce: %s: %s; partitions are synthesized directly", t->c.id.circuit, err.msg);
    else if (r == W_RETRY)
        CUZK_LOGD("pce: %s not ready: %s", t->c.id.circuit, err.msg);
    m->tasks--;
    pthread_cond_broadcast(&m->cv);
    pthread_mutex_unlock(&m->mu);
    free(t);
}

static void *task_thread(void *arg)
{
    run_task(arg);
    return NULL;
}

static pce_cache_entry *find(pce_cache *m, const cs_pce_identity *id)
{
    for (pce_cache_entry *e = m->entries; e; e = e->next)
        if (!strncmp(e->id.circuit, id->circuit, sizeof id->circuit) && !memcmp(e->id.key_id, id->key_id, 32))
            return e;
    return NULL;
}

pce_cache_entry *pce_cache_get(pce_cache *m, const pce_cache_circuit *c)
{
    pthread_mutex_lock(&m->mu);
    pce_cache_entry *e = find(m, &c->id);
    if (!e && (e = calloc(1, sizeof *e))) {
        e->id = c->id;
        e->next = m->entries;
        m->entries = e;
    }
    task *t = NULL;
    if (e && e->state == PCE_CACHE_ABSENT && (t = malloc(sizeof *t))) {
        *t = (task){m, e, *c};
        e->state = PCE_CACHE_BUSY;
        m->tasks++;
    }
    pthread_mutex_unlock(&m->mu);
    if (t) {
        pthread_t tid;
        pthread_attr_t attr;
        bool started = false;
        if (m->background && !pthread_attr_init(&attr)) {
            pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
            started = pthread_create(&tid, &attr, task_thread, t) == 0;
            pthread_attr_destroy(&attr);
        }
        if (!started)
            run_task(t);
    }
    if (!e)
        return NULL;
    pthread_mutex_lock(&m->mu);
    pce_cache_entry *r = e->state == PCE_CACHE_READY && !e->rejected ? e : NULL;
    if (r)
        r->refs++;
    pthread_mutex_unlock(&m->mu);
    return r;
}

void pce_cache_put(pce_cache *m, pce_cache_entry *e)
{
    if (!e)
        return;
    pthread_mutex_lock(&m->mu);
    if (e->refs)
        e->refs--;
    if (!e->refs && e->rejected && e->pce.map)
        unload(m, e);
    pthread_mutex_unlock(&m->mu);
}

void pce_cache_reject(pce_cache *m, pce_cache_entry *e, const char *why)
{
    char path[4096];
    bool have_path = file_of(m, &e->id, path, sizeof path);
    pthread_mutex_lock(&m->mu);
    if (!e->rejected) {
        e->rejected = true;
        e->state = PCE_CACHE_FAILED;
        snprintf(e->error, sizeof e->error, "rejected: %s", why);
        if (have_path)
            remove(path);
        cuzk_log(CUZK_LOG_ERROR, "pce: %s rejected and deleted: %s", path, why);
    }
    pthread_mutex_unlock(&m->mu);
}

void pce_cache_wait_idle(pce_cache *m)
{
    pthread_mutex_lock(&m->mu);
    while (m->tasks)
        pthread_cond_wait(&m->cv, &m->mu);
    pthread_mutex_unlock(&m->mu);
}

cuzk_status pce_cache_evict(pce_cache *m, const char *circuit, uint64_t *freed_bytes, cuzk_error *err)
{
    *freed_bytes = 0;
    cuzk_status st = CUZK_OK;
    pthread_mutex_lock(&m->mu);
    for (pce_cache_entry *e = m->entries; e; e = e->next) {
        if (strncmp(e->id.circuit, circuit, sizeof e->id.circuit) || e->state != PCE_CACHE_READY)
            continue;
        if (e->refs) {
            st = cuzk_fail(err, CUZK_E_INVALID_ARG, "the PCE of %s is in use by %u partition(s); not evicted", circuit,
                           e->refs);
            continue;
        }
        *freed_bytes += e->pce.map_len;
        unload(m, e);
        e->state = PCE_CACHE_ABSENT;
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

cuzk_status pce_cache_list(pce_cache *m, pce_cache_status **out, size_t *n, cuzk_error *err)
{
    pthread_mutex_lock(&m->mu);
    size_t cnt = 0;
    for (pce_cache_entry *e = m->entries; e; e = e->next)
        cnt++;
    pce_cache_status *a = calloc(cnt ? cnt : 1, sizeof *a);
    if (!a) {
        pthread_mutex_unlock(&m->mu);
        return cuzk_fail(err, CUZK_E_NOMEM, "pce: out of memory");
    }
    size_t i = cnt;
    for (pce_cache_entry *e = m->entries; e; e = e->next) { /* oldest first */
        pce_cache_status *s = &a[--i];
        memcpy(s->circuit, e->id.circuit, sizeof s->circuit);
        s->state = e->state;
        s->size_bytes = e->pce.map ? e->pce.map_len : 0;
        s->ref_count = e->refs;
        s->recorded = e->recorded;
        s->loaded = e->loaded;
        s->record_ms = e->record_ms;
        s->load_ms = e->load_ms;
        snprintf(s->error, sizeof s->error, "%s", e->error);
    }
    pthread_mutex_unlock(&m->mu);
    *out = a;
    *n = cnt;
    return CUZK_OK;
}
