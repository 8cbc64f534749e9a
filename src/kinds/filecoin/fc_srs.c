/* Filecoin parameter manager; contracts in fc_srs.h. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "kinds/filecoin/fc_srs.h"
#include "engine/log.h"
#include "groth16/bellperson_params.h"
#include "groth16/params_cache.h"

struct fc_srs_entry {
    fc_circuit_id id;
    bool loaded, loading, failed;
    bool warm;        /* unloaded by a budget reclaim (point cache on disk, likely in page cache) */
    bool locked;      /* mlock'ed */
    uint64_t charged; /* budget bytes held for the mapping */
    char error[1024];
    uint32_t refs;
    double released_at;
    groth16_mapped_params mp;
    groth16_pvk_t pvk;
    fc_srs_entry *next;
};

struct fc_srs {
    char *param_cache, *cache_dir;
    bool verify_digests, verify_checksums;
    unsigned threads;
    cuzk_budget *budget;
    bool lock;
    pthread_mutex_t mu;
    pthread_cond_t cv; /* a load ended, or an entry was released (room may be reclaimable) */
    fc_srs_entry *entries;
};

const char *fc_srs_tier_name(fc_srs_tier t)
{
    return t == FC_SRS_HOT ? "hot" : t == FC_SRS_WARM ? "warm" : "cold";
}

static double now_ms(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec * 1e3 + (double)t.tv_nsec * 1e-6;
}

static char *default_cache_dir(void)
{
    const char *x = getenv("XDG_CACHE_HOME"), *h = getenv("HOME");
    char buf[4096];
    if (x && *x)
        snprintf(buf, sizeof buf, "%s/cuzk", x);
    else if (h && *h)
        snprintf(buf, sizeof buf, "%s/.cache/cuzk", h);
    else
        snprintf(buf, sizeof buf, "/var/tmp/cuzk-cache");
    return strdup(buf);
}

/* With mu held (or at destroy): unmap e and return its charge. */
static void unload(fc_srs *m, fc_srs_entry *e)
{
    if (e->locked && e->mp.map)
        munlock(e->mp.map, e->mp.map_len);
    groth16_mapped_params_close(&e->mp);
    if (m->budget && e->charged)
        cuzk_budget_release(m->budget, e->charged);
    e->charged = 0;
    e->locked = false;
    e->loaded = false;
}

/* The budget's reclaimer: unload idle HOT entries, least recently released first, until
 * `want` bytes are freed. They become WARM. */
static uint64_t reclaim(void *ctx, uint64_t want)
{
    fc_srs *m = ctx;
    uint64_t freed = 0;
    pthread_mutex_lock(&m->mu);
    while (freed < want) {
        fc_srs_entry *lru = NULL;
        for (fc_srs_entry *e = m->entries; e; e = e->next)
            if (e->loaded && !e->refs && e->charged && (!lru || e->released_at < lru->released_at))
                lru = e;
        if (!lru)
            break;
        char name[32];
        fc_circuit_id_name(&lru->id, name, sizeof name);
        uint64_t n = lru->charged;
        cuzk_log(CUZK_LOG_INFO, "srs: %s idle, unloaded for %llu bytes of the memory budget (%llu bytes freed)", name,
                 (unsigned long long)want, (unsigned long long)n);
        unload(m, lru);
        lru->warm = true;
        freed += n;
    }
    pthread_mutex_unlock(&m->mu);
    return freed;
}

cuzk_status fc_srs_create(const fc_srs_config *cfg, fc_srs **out, cuzk_error *err)
{
    *out = NULL;
    fc_srs *m = calloc(1, sizeof *m);
    if (!m)
        return cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    const char *env = getenv("FIL_PROOFS_PARAMETER_CACHE");
    const char *pc = env && *env ? env : cfg && cfg->param_cache && *cfg->param_cache ? cfg->param_cache
                                                                                    : FC_DEFAULT_PARAM_CACHE;
    m->param_cache = strdup(pc);
    m->cache_dir = cfg && cfg->cache_dir && *cfg->cache_dir ? strdup(cfg->cache_dir) : default_cache_dir();
    if (!m->param_cache || !m->cache_dir) {
        fc_srs_destroy(m);
        return cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    }
    if (cfg) {
        m->verify_digests = cfg->verify_digests;
        m->verify_checksums = cfg->verify_checksums;
        m->threads = cfg->threads;
        m->lock = cfg->lock;
    }
    pthread_mutex_init(&m->mu, NULL);
    if (cuzk_cond_init_monotonic(&m->cv)) {
        pthread_mutex_destroy(&m->mu);
        free(m->param_cache);
        free(m->cache_dir);
        free(m);
        return cuzk_fail(err, CUZK_E_INTERNAL, "srs: pthread_cond_init failed");
    }
    if (cfg && cfg->budget) {
        cuzk_status st = cuzk_budget_add_reclaimer(cfg->budget, reclaim, m, err);
        if (st) {
            fc_srs_destroy(m);
            return st;
        }
        m->budget = cfg->budget;
    }
    *out = m;
    return CUZK_OK;
}

void fc_srs_destroy(fc_srs *m)
{
    if (!m)
        return;
    if (m->budget)
        cuzk_budget_remove_reclaimer(m->budget, reclaim, m);
    for (fc_srs_entry *e = m->entries, *n; e; e = n) {
        n = e->next;
        unload(m, e);
        free(e);
    }
    free(m->param_cache);
    free(m->cache_dir);
    pthread_mutex_destroy(&m->mu);
    pthread_cond_destroy(&m->cv);
    free(m);
}

const char *fc_srs_param_cache(const fc_srs *m) { return m->param_cache; }
const char *fc_srs_cache_dir(const fc_srs *m) { return m->cache_dir; }

char *fc_srs_file(const fc_srs *m, const fc_circuit_id *c, bool vk)
{
    char stem[FC_PARAM_STEM_MAX];
    fc_param_stem(c, stem);
    size_t n = strlen(m->param_cache) + strlen(stem) + 16;
    char *p = malloc(n);
    if (p)
        snprintf(p, n, "%s/%s.%s", m->param_cache, stem, vk ? "vk" : "params");
    return p;
}

/* BLAKE2b-512 of a file, first 16 bytes as 32 hex characters. */
static cuzk_status file_digest(const char *path, char hex[33], cuzk_error *err)
{
    int fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC);
    if (fd < 0)
        return cuzk_fail(err, CUZK_E_IO, "%s: %s", path, strerror(errno));
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    uint8_t *buf = malloc(1 << 20);
    cuzk_status st = CUZK_OK;
    if (!ctx || !buf || EVP_DigestInit_ex(ctx, EVP_blake2b512(), NULL) != 1) {
        st = cuzk_fail(err, CUZK_E_INTERNAL, "%s: BLAKE2b-512 unavailable", path);
    } else {
        ssize_t r;
        while ((r = read(fd, buf, 1 << 20)) > 0)
            EVP_DigestUpdate(ctx, buf, (size_t)r);
        uint8_t d[64];
        unsigned dl = 0;
        if (r < 0)
            st = cuzk_fail(err, CUZK_E_IO, "%s: read: %s", path, strerror(errno));
        else if (EVP_DigestFinal_ex(ctx, d, &dl) != 1)
            st = cuzk_fail(err, CUZK_E_INTERNAL, "%s: BLAKE2b-512 failed", path);
        for (int i = 0; i < 16; i++)
            snprintf(hex + 2 * i, 3, "%02x", d[i]);
    }
    free(buf);
    EVP_MD_CTX_free(ctx);
    close(fd);
    return st;
}

static cuzk_status check_digest(const fc_circuit_id *c, const char *path, bool vk, cuzk_error *err)
{
    const char *want = fc_param_digest(c, vk);
    if (!want)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: the manifest has no digest for this file", path);
    char got[33];
    cuzk_status st = file_digest(path, got, err);
    if (st)
        return st;
    if (strcmp(got, want))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED,
                         "%s: BLAKE2b digest %s does not match the v28 manifest's %s (not the official file; test "
                         "parameters need [srs] verify_params = false)",
                         path, got, want);
    return CUZK_OK;
}

static cuzk_status load(fc_srs *m, fc_srs_entry *e, cuzk_error *err)
{
    char *params = fc_srs_file(m, &e->id, false);
    if (!params)
        return cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    char name[32];
    fc_circuit_id_name(&e->id, name, sizeof name);
    cuzk_status st;
    if (access(params, R_OK) != 0) {
        int why = errno;
        if (why != ENOENT && why != ENOTDIR) /* there but not readable (permissions, I/O): not a missing file */
            st = cuzk_fail(err, CUZK_E_IO,
                           "parameters of %s not readable: %s (%s); the daemon's user needs read access to it", name,
                           params, strerror(why));
        else
            st = cuzk_fail(err, CUZK_E_IO,
                           "parameters of %s not found: %s (%s); point [srs] param_cache (daemon), --param-cache "
                           "(CLI) or FIL_PROOFS_PARAMETER_CACHE at the directory holding the v28 files, or make "
                           "test-only ones with `cuzk params gen %s --sector-size %s --out DIR`",
                           name, params, strerror(why), fc_circuit_family_name(e->id.family), e->id.shape->name);
        free(params);
        return st;
    }
    unsigned flags = m->verify_checksums ? GROTH16_PC_VERIFY_CHECKSUMS : 0;
    groth16_pc_report rep;
    /* the digest is checked only when the point cache has to be built from the file */
    st = groth16_params_cache_load(params, m->cache_dir, flags | GROTH16_PC_NO_BUILD, m->threads, &e->mp, &rep, err);
    if (st) {
        st = m->verify_digests ? check_digest(&e->id, params, false, err) : CUZK_OK;
        if (!st)
            st = groth16_params_cache_load(params, m->cache_dir, flags, m->threads, &e->mp, &rep, err);
    }
    if (!st && rep.built)
        cuzk_log(CUZK_LOG_INFO, "srs: %s: point cache %s built from %s (%s) in %.1f s", name, e->mp.cache_path, params,
                 rep.rebuild_reason, rep.build_ms / 1e3);
    if (st && st != CUZK_E_NOMEM && st != CUZK_E_CANCELLED && st != CUZK_E_IO) {
        /* a damaged or foreign file (bad point, layout, digest) is the daemon's setup, not the
         * request's fault: CUZK_E_IO (FAILED_PRECONDITION over gRPC), naming the file */
        cuzk_error inner = *err;
        st = cuzk_fail(err, CUZK_E_IO, "parameters of %s unusable (%s)%s%s: %s", name, cuzk_status_name(st),
                       strstr(inner.msg, params) ? "" : ": ", strstr(inner.msg, params) ? "" : params, inner.msg);
    }
    free(params);
    if (!st)
        groth16_prepare_vk(&e->pvk, &e->mp.pk.vk);
    return st;
}

static fc_srs_entry *find(fc_srs *m, const fc_circuit_id *c)
{
    for (fc_srs_entry *e = m->entries; e; e = e->next)
        if (e->id.family == c->family && e->id.shape == c->shape)
            return e;
    return NULL;
}

/* With mu held: the entry of c, created if missing (NULL when out of memory). */
static fc_srs_entry *get_entry(fc_srs *m, const fc_circuit_id *c)
{
    fc_srs_entry *e = find(m, c);
    if (e)
        return e;
    e = calloc(1, sizeof *e);
    if (!e)
        return NULL;
    e->id = *c;
    e->next = m->entries;
    m->entries = e;
    return e;
}

/* Without mu: charge the budget `n` bytes for e (mapped, not yet loaded), reclaiming idle
 * caches; wait for releases unless `no_wait`. */
static cuzk_status charge(fc_srs *m, fc_srs_entry *e, uint64_t n, bool no_wait, cuzk_abort_fn abort, void *ctx,
                          bool *transient, cuzk_error *err)
{
    *transient = true;
    char name[32];
    fc_circuit_id_name(&e->id, name, sizeof name);
    uint64_t total = cuzk_budget_total(m->budget);
    if (n > total) {
        *transient = false;
        return cuzk_fail(err, CUZK_E_NOMEM,
                         "parameters of %s need %llu bytes resident; the whole memory budget is %llu bytes "
                         "([memory] total_budget)",
                         name, (unsigned long long)n, (unsigned long long)total);
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
                             (unsigned long long)n, name, (unsigned long long)used, (unsigned long long)total);
        if (abort && abort(ctx))
            return cuzk_fail(err, CUZK_E_CANCELLED, "cancelled while waiting for memory for the parameters of %s",
                             name);
        if (!logged) {
            cuzk_log(CUZK_LOG_INFO, "srs: %s waits for %llu bytes of the memory budget (%llu of %llu in use)", name,
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
static cuzk_status ensure_loaded(fc_srs *m, fc_srs_entry *e, uint64_t *load_ms, bool *was_loaded, bool no_wait,
                                 cuzk_abort_fn abort, void *abort_ctx, cuzk_error *err)
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
    cuzk_status st = load(m, e, &le);
    bool room = false; /* waiting for room (or cancelled then) is not a failed load */
    if (!st && m->budget) {
        st = charge(m, e, e->mp.map_len, no_wait, abort, abort_ctx, &room, &le);
        if (st)
            groth16_mapped_params_close(&e->mp);
        else
            e->charged = e->mp.map_len;
    }
    if (!st && m->lock) {
        if (mlock(e->mp.map, e->mp.map_len) == 0)
            e->locked = true;
        else
            cuzk_log(CUZK_LOG_WARN, "srs: mlock of %zu bytes failed (%s); the parameters stay unlocked "
                     "(raise RLIMIT_MEMLOCK / LimitMEMLOCK)", e->mp.map_len, strerror(errno));
    }
    double ms = now_ms() - t0;
    pthread_mutex_lock(&m->mu);
    e->loading = false;
    e->loaded = st == CUZK_OK;
    e->failed = st != CUZK_OK && !room;
    if (!st)
        e->warm = false;
    snprintf(e->error, sizeof e->error, "%s", e->failed ? le.msg : "");
    if (e->failed && st != CUZK_E_CANCELLED) {
        char name[32];
        fc_circuit_id_name(&e->id, name, sizeof name);
        cuzk_log(CUZK_LOG_ERROR, "srs: %s: loading the parameters failed: %s", name, le.msg);
    }
    if (load_ms)
        *load_ms = (uint64_t)ms;
    pthread_cond_broadcast(&m->cv);
    if (st && err)
        *err = le;
    return st;
}

cuzk_status fc_srs_acquire(fc_srs *m, const fc_circuit_id *c, cuzk_abort_fn abort, void *abort_ctx,
                           fc_srs_entry **out, uint64_t *load_ms, cuzk_error *err)
{
    *out = NULL;
    if (load_ms)
        *load_ms = 0;
    pthread_mutex_lock(&m->mu);
    fc_srs_entry *e = get_entry(m, c);
    cuzk_status st = e ? ensure_loaded(m, e, load_ms, NULL, false, abort, abort_ctx, err)
                       : cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    if (!st) {
        e->refs++;
        *out = e;
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

void fc_srs_release(fc_srs *m, fc_srs_entry *e)
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

const groth16_params_t *fc_srs_params(const fc_srs_entry *e) { return &e->mp.pk; }
const groth16_pvk_t *fc_srs_pvk(const fc_srs_entry *e) { return &e->pvk; }
fc_circuit_id fc_srs_circuit(const fc_srs_entry *e) { return e->id; }

uint64_t fc_srs_charged(const fc_srs_entry *e) { return e->charged; }

cuzk_status fc_srs_preload(fc_srs *m, const fc_circuit_id *c, bool *already_loaded, uint64_t *load_ms,
                           cuzk_error *err)
{
    if (load_ms)
        *load_ms = 0;
    pthread_mutex_lock(&m->mu);
    fc_srs_entry *e = get_entry(m, c);
    cuzk_status st =
        e ? ensure_loaded(m, e, load_ms, already_loaded, true, NULL, NULL, err)
          : cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    if (!st)
        e->released_at = now_ms();
    pthread_mutex_unlock(&m->mu);
    return st;
}

/* Ask the kernel to drop a file's pages from the page cache (best effort). */
static void drop_page_cache(const char *path)
{
    int fd = path ? open(path, O_RDONLY | O_CLOEXEC) : -1;
    if (fd < 0)
        return;
    posix_fadvise(fd, 0, 0, POSIX_FADV_DONTNEED);
    close(fd);
}

cuzk_status fc_srs_evict(fc_srs *m, const fc_circuit_id *c, bool *was_loaded, uint64_t *freed_bytes, cuzk_error *err)
{
    *was_loaded = false;
    *freed_bytes = 0;
    pthread_mutex_lock(&m->mu);
    fc_srs_entry *e = find(m, c);
    while (e && e->loading)
        pthread_cond_wait(&m->cv, &m->mu);
    cuzk_status st = CUZK_OK;
    if (e && e->loaded) {
        if (e->refs) {
            char name[32];
            fc_circuit_id_name(c, name, sizeof name);
            st = cuzk_fail(err, CUZK_E_INVALID_ARG, "%s is in use by %u job(s); not evicted", name, e->refs);
        } else {
            *was_loaded = true;
            *freed_bytes = e->mp.map_len;
            char *path = e->mp.cache_path ? strdup(e->mp.cache_path) : NULL;
            unload(m, e);
            drop_page_cache(path); /* after the unmap: mapped pages are not dropped */
            free(path);
            e->warm = false;
        }
    }
    pthread_mutex_unlock(&m->mu);
    return st;
}

cuzk_status fc_srs_list(fc_srs *m, fc_srs_status **out, size_t *n, cuzk_error *err)
{
    pthread_mutex_lock(&m->mu);
    size_t cnt = 0;
    for (fc_srs_entry *e = m->entries; e; e = e->next)
        cnt++;
    fc_srs_status *a = calloc(cnt ? cnt : 1, sizeof *a);
    if (!a) {
        pthread_mutex_unlock(&m->mu);
        return cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    }
    double now = now_ms();
    size_t i = cnt;
    for (fc_srs_entry *e = m->entries; e; e = e->next) { /* oldest first */
        fc_srs_status *s = &a[--i];
        fc_circuit_id_name(&e->id, s->name, sizeof s->name);
        s->loaded = e->loaded;
        s->tier = e->loaded ? FC_SRS_HOT : e->warm ? FC_SRS_WARM : FC_SRS_COLD;
        s->failed = e->failed;
        snprintf(s->error, sizeof s->error, "%s", e->error);
        s->size_bytes = e->loaded ? e->mp.map_len : 0;
        s->ref_count = e->refs;
        s->idle_ms = e->refs || !e->released_at ? 0 : now - e->released_at;
    }
    pthread_mutex_unlock(&m->mu);
    *out = a;
    *n = cnt;
    return CUZK_OK;
}

cuzk_status fc_srs_read_vk(const fc_srs *m, const fc_circuit_id *c, groth16_vk_t *vk, cuzk_error *err)
{
    memset(vk, 0, sizeof *vk);
    char *path = fc_srs_file(m, c, true);
    if (!path)
        return cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    cuzk_status st = m->verify_digests ? check_digest(c, path, true, err) : CUZK_OK;
    if (!st)
        st = bp_vk_read_file(vk, path, BP_CHECK_POINTS, err);
    free(path);
    return st;
}
