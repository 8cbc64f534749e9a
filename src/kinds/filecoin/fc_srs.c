/* Filecoin parameter manager; contracts in fc_srs.h. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include <openssl/evp.h>

#include "kinds/filecoin/fc_srs.h"
#include "engine/params_mgr.h"
#include "engine/log.h"
#include "groth16/bellperson_params.h"
#include "groth16/params_cache.h"

/* The provider's handle of a loaded circuit; fc_srs_entry pointers are the manager's
 * cuzk_params_entry pointers (fc_srs_entry is never defined). */
typedef struct {
    fc_circuit_id id;
    bool locked; /* mlock'ed */
    groth16_mapped_params mp;
    groth16_pvk_t pvk;
} loaded;

struct fc_srs {
    char *param_cache, *cache_dir;
    bool verify_digests, verify_checksums;
    unsigned threads;
    bool lock;
    cuzk_params_mgr *params; /* the shared manager, or own_params */
    cuzk_params_mgr *own_params;
    cuzk_params_provider provider;
};

static const loaded *handle_of(const fc_srs_entry *e)
{
    return cuzk_params_handle((const cuzk_params_entry *)e);
}

const char *fc_srs_tier_name(fc_srs_tier t)
{
    return cuzk_params_tier_name((cuzk_params_tier)t);
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

static bool provider_claims(void *ctx, const char *id)
{
    (void)ctx;
    fc_circuit_id c;
    return fc_circuit_id_parse(id, &c, NULL) == CUZK_OK;
}

static void provider_describe(void *ctx, char *out, size_t cap)
{
    (void)ctx;
    snprintf(out, cap, "Filecoin parameters: porep-, winning-, wpost-, snap-, snap-poseidon- + 2k 8m 512m 32g 64g");
}

static cuzk_status provider_load(void *ctx, const char *id, void **handle, uint64_t *bytes, cuzk_error *err);
static void provider_unload(void *ctx, void *handle, bool cold);

/* A loaded circuit's proving key, the params its jobs give the backend (fc_srs_params). */
static const void *provider_prover_params(void *ctx, const void *handle)
{
    (void)ctx;
    return &((const loaded *)handle)->mp.pk;
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
    m->provider = (cuzk_params_provider){"filecoin", m, provider_claims, provider_describe, provider_load,
                                         provider_unload, provider_prover_params};
    cuzk_status st = CUZK_OK;
    if (cfg && cfg->params)
        m->params = cfg->params;
    else if (!(st = cuzk_params_mgr_create(cfg ? cfg->budget : NULL, &m->own_params, err)))
        m->params = m->own_params;
    if (!st)
        st = cuzk_params_add_provider(m->params, &m->provider, err);
    if (st) {
        fc_srs_destroy(m);
        return st;
    }
    *out = m;
    return CUZK_OK;
}

void fc_srs_destroy(fc_srs *m)
{
    if (!m)
        return;
    if (m->params)
        cuzk_params_remove_provider(m->params, &m->provider);
    cuzk_params_mgr_destroy(m->own_params);
    free(m->param_cache);
    free(m->cache_dir);
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

/* Map the point cache of `id` (built from its .params file when missing or stale). */
static cuzk_status load(fc_srs *m, loaded *e, cuzk_error *err)
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


static cuzk_status provider_load(void *ctx, const char *id, void **handle, uint64_t *bytes, cuzk_error *err)
{
    fc_srs *m = ctx;
    loaded *e = calloc(1, sizeof *e);
    if (!e)
        return cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    cuzk_status st = fc_circuit_id_parse(id, &e->id, err);
    if (!st)
        st = load(m, e, err);
    if (st) {
        free(e);
        return st;
    }
    if (m->lock) {
        if (mlock(e->mp.map, e->mp.map_len) == 0)
            e->locked = true;
        else
            cuzk_log(CUZK_LOG_WARN, "srs: mlock of %zu bytes failed (%s); the parameters stay unlocked "
                     "(raise RLIMIT_MEMLOCK / LimitMEMLOCK)", e->mp.map_len, strerror(errno));
    }
    *handle = e;
    *bytes = e->mp.map_len;
    return CUZK_OK;
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

static void provider_unload(void *ctx, void *handle, bool cold)
{
    (void)ctx;
    loaded *e = handle;
    if (e->locked && e->mp.map)
        munlock(e->mp.map, e->mp.map_len);
    char *path = cold && e->mp.cache_path ? strdup(e->mp.cache_path) : NULL;
    groth16_mapped_params_close(&e->mp);
    drop_page_cache(path); /* after the unmap: mapped pages are not dropped */
    free(path);
    free(e);
}

cuzk_status fc_srs_acquire(fc_srs *m, const fc_circuit_id *c, cuzk_abort_fn abort, void *abort_ctx,
                           fc_srs_entry **out, uint64_t *load_ms, cuzk_error *err)
{
    char name[32];
    fc_circuit_id_name(c, name, sizeof name);
    cuzk_params_entry *e;
    cuzk_status st = cuzk_params_acquire(m->params, &m->provider, name, abort, abort_ctx, &e, load_ms, err);
    *out = st ? NULL : (fc_srs_entry *)e;
    return st;
}

void fc_srs_release(fc_srs *m, fc_srs_entry *e)
{
    cuzk_params_release(m->params, (cuzk_params_entry *)e);
}

const groth16_params_t *fc_srs_params(const fc_srs_entry *e) { return provider_prover_params(NULL, handle_of(e)); }
const groth16_pvk_t *fc_srs_pvk(const fc_srs_entry *e) { return &handle_of(e)->pvk; }
fc_circuit_id fc_srs_circuit(const fc_srs_entry *e) { return handle_of(e)->id; }

uint64_t fc_srs_charged(const fc_srs_entry *e) { return cuzk_params_charged((const cuzk_params_entry *)e); }

cuzk_status fc_srs_preload(fc_srs *m, const fc_circuit_id *c, bool *already_loaded, uint64_t *load_ms,
                           cuzk_error *err)
{
    char name[32];
    fc_circuit_id_name(c, name, sizeof name);
    return cuzk_params_preload(m->params, &m->provider, name, already_loaded, load_ms, err);
}

cuzk_status fc_srs_evict(fc_srs *m, const fc_circuit_id *c, bool *was_loaded, uint64_t *freed_bytes, cuzk_error *err)
{
    char name[32];
    fc_circuit_id_name(c, name, sizeof name);
    return cuzk_params_evict(m->params, name, was_loaded, freed_bytes, err);
}

cuzk_status fc_srs_list(fc_srs *m, fc_srs_status **out, size_t *n, cuzk_error *err)
{
    cuzk_params_status *ps;
    size_t cnt;
    cuzk_status st = cuzk_params_list(m->params, &m->provider, &ps, &cnt, err);
    if (st)
        return st;
    fc_srs_status *a = calloc(cnt ? cnt : 1, sizeof *a);
    if (!a) {
        free(ps);
        return cuzk_fail(err, CUZK_E_NOMEM, "srs: out of memory");
    }
    for (size_t i = 0; i < cnt; i++) {
        fc_srs_status *s = &a[i];
        snprintf(s->name, sizeof s->name, "%s", ps[i].id);
        s->tier = (fc_srs_tier)ps[i].tier;
        s->loaded = ps[i].loaded;
        s->failed = ps[i].failed;
        snprintf(s->error, sizeof s->error, "%s", ps[i].error);
        s->size_bytes = ps[i].size_bytes;
        s->ref_count = ps[i].ref_count;
        s->idle_ms = ps[i].idle_ms;
    }
    free(ps);
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
