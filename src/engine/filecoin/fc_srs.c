/* Filecoin parameter manager; contracts in fc_srs.h. */
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "engine/filecoin/fc_srs.h"
#include "groth16/bellperson_params.h"
#include "groth16/params_cache.h"

struct fc_srs_entry {
    fc_circuit_id id;
    bool loaded, loading, failed;
    char error[256];
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
    pthread_mutex_t mu;
    pthread_cond_t cv;
    fc_srs_entry *entries;
};

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
    }
    pthread_mutex_init(&m->mu, NULL);
    pthread_cond_init(&m->cv, NULL);
    *out = m;
    return CUZK_OK;
}

void fc_srs_destroy(fc_srs *m)
{
    if (!m)
        return;
    for (fc_srs_entry *e = m->entries, *n; e; e = n) {
        n = e->next;
        groth16_mapped_params_close(&e->mp);
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
        st = cuzk_fail(err, CUZK_E_IO,
                       "parameters of %s not found: %s (%s); set [srs] param_cache or FIL_PROOFS_PARAMETER_CACHE to "
                       "the directory holding the v28 files, or make test-only ones with `cuzk params gen %s "
                       "--sector-size %s --out DIR`",
                       name, params, strerror(errno), fc_circuit_family_name(e->id.family), e->id.shape->name);
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

/* With mu held on entry and exit: make e loaded (or report why not). */
static cuzk_status ensure_loaded(fc_srs *m, fc_srs_entry *e, uint64_t *load_ms, bool *was_loaded, cuzk_error *err)
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
    double ms = now_ms() - t0;
    pthread_mutex_lock(&m->mu);
    e->loading = false;
    e->loaded = st == CUZK_OK;
    e->failed = st != CUZK_OK;
    snprintf(e->error, sizeof e->error, "%s", st ? le.msg : "");
    if (load_ms)
        *load_ms = (uint64_t)ms;
    pthread_cond_broadcast(&m->cv);
    if (st && err)
        *err = le;
    return st;
}

cuzk_status fc_srs_acquire(fc_srs *m, const fc_circuit_id *c, fc_srs_entry **out, uint64_t *load_ms, cuzk_error *err)
{
    *out = NULL;
    if (load_ms)
        *load_ms = 0;
    pthread_mutex_lock(&m->mu);
    fc_srs_entry *e = get_entry(m, c);
    cuzk_status st = e ? ensure_loaded(m, e, load_ms, NULL, err) : cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
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
    pthread_mutex_unlock(&m->mu);
}

const groth16_params_t *fc_srs_params(const fc_srs_entry *e) { return &e->mp.pk; }
const groth16_pvk_t *fc_srs_pvk(const fc_srs_entry *e) { return &e->pvk; }
fc_circuit_id fc_srs_circuit(const fc_srs_entry *e) { return e->id; }

cuzk_status fc_srs_preload(fc_srs *m, const fc_circuit_id *c, bool *already_loaded, uint64_t *load_ms,
                           cuzk_error *err)
{
    if (load_ms)
        *load_ms = 0;
    pthread_mutex_lock(&m->mu);
    fc_srs_entry *e = get_entry(m, c);
    cuzk_status st =
        e ? ensure_loaded(m, e, load_ms, already_loaded, err) : cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    if (!st)
        e->released_at = now_ms();
    pthread_mutex_unlock(&m->mu);
    return st;
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
            groth16_mapped_params_close(&e->mp);
            e->loaded = false;
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
