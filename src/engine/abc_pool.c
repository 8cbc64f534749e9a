/* The a/b/c buffer pool; contracts in abc_pool.h. */
#define _GNU_SOURCE
#include "engine/abc_pool.h"

#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "engine/log.h"
#include "engine/sync.h"

typedef enum { BUF_IN_USE, BUF_FREE, BUF_RETURNED } buf_state; /* RETURNED: free, not yet charged */

typedef struct {
    void *mem;
    size_t bytes;
    buf_state state;
    int64_t last_used_ns;
} pool_buf;

struct cuzk_abc_pool {
    cuzk_abc_pool_config cfg;
    cuzk_budget *budget;
    cuzk_gauge *gauges; /* total, in use, free; may be NULL */
    cuzk_abc_pool_hooks hooks;

    pthread_mutex_t mu;
    pthread_cond_t cv; /* trimmer: stop */
    pool_buf *bufs;    /* mu */
    size_t n, cap;     /* mu */
    cuzk_abc_pool_stats st; /* mu */
    bool stopping;          /* mu */
    bool trimmer_started;
    pthread_t trimmer;
};

void cuzk_abc_pool_config_default(cuzk_abc_pool_config *cfg)
{
    cfg->idle_ms = 60000;
    cfg->hugepages = true;
    cfg->advise = NULL;
}

/* mu held: mirror st into the gauges (as deltas from what they show). */
static void publish(cuzk_abc_pool *p)
{
    if (!p->gauges)
        return;
    const uint64_t v[3] = {p->st.total_bytes, p->st.in_use_bytes, p->st.free_bytes};
    for (int i = 0; i < 3; i++) {
        cuzk_counter_value now = cuzk_gauge_read(&p->gauges[i]);
        cuzk_gauge_add(&p->gauges[i], (int64_t)v[i] - now.current);
    }
}

/* mu held: unmap buffer i (free or returned) and drop it from the table; returns the
 * pool charge it had (0 for a returned one). */
static uint64_t unmap_locked(cuzk_abc_pool *p, size_t i)
{
    pool_buf b = p->bufs[i];
    if (p->hooks.on_unmap)
        p->hooks.on_unmap(p->hooks.ctx, b.mem, b.bytes);
    munmap(b.mem, b.bytes);
    p->bufs[i] = p->bufs[--p->n];
    p->st.total_bytes -= b.bytes;
    p->st.free_bytes -= b.bytes;
    p->st.buffers--;
    p->st.released++;
    return b.state == BUF_FREE ? b.bytes : 0;
}

/* mu held: unmap free buffers, least recently used first, that pass `take` until `want`
 * charged bytes are freed; returns the charged bytes freed (to release to the budget). */
static uint64_t drop_locked(cuzk_abc_pool *p, uint64_t want, int64_t idle_before_ns)
{
    uint64_t freed = 0;
    while (freed < want) {
        size_t best = SIZE_MAX;
        for (size_t i = 0; i < p->n; i++)
            if (p->bufs[i].state != BUF_IN_USE && p->bufs[i].last_used_ns <= idle_before_ns &&
                (best == SIZE_MAX || p->bufs[i].last_used_ns < p->bufs[best].last_used_ns))
                best = i;
        if (best == SIZE_MAX)
            break;
        freed += unmap_locked(p, best);
    }
    publish(p);
    return freed;
}

uint64_t cuzk_abc_pool_reclaim(void *pool, uint64_t want)
{
    cuzk_abc_pool *p = pool;
    pthread_mutex_lock(&p->mu);
    uint64_t freed = drop_locked(p, want ? want : 1, INT64_MAX);
    pthread_mutex_unlock(&p->mu);
    if (freed) {
        cuzk_log(CUZK_LOG_DEBUG, "abc pool: %llu bytes given back for the memory budget", (unsigned long long)freed);
        cuzk_budget_release(p->budget, freed);
    }
    return freed;
}

/* Trimmer thread: every quarter of idle_ms, unmap buffers idle longer than idle_ms. */
static void *trimmer_main(void *arg)
{
    cuzk_abc_pool *p = arg;
    const int64_t period_ns = (int64_t)p->cfg.idle_ms * 1000000 / 4 + 1;
    pthread_mutex_lock(&p->mu);
    while (!p->stopping) {
        struct timespec ts;
        clock_gettime(CLOCK_REALTIME, &ts);
        int64_t at = (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec + period_ns;
        ts.tv_sec = at / 1000000000, ts.tv_nsec = at % 1000000000;
        pthread_cond_timedwait(&p->cv, &p->mu, &ts);
        if (p->stopping)
            break;
        uint64_t freed = drop_locked(p, UINT64_MAX, cuzk_now_ns() - (int64_t)p->cfg.idle_ms * 1000000);
        if (freed) {
            pthread_mutex_unlock(&p->mu);
            cuzk_log(CUZK_LOG_DEBUG, "abc pool: %llu idle bytes given back", (unsigned long long)freed);
            cuzk_budget_release(p->budget, freed);
            pthread_mutex_lock(&p->mu);
        }
    }
    pthread_mutex_unlock(&p->mu);
    return NULL;
}

cuzk_status cuzk_abc_pool_create(const cuzk_abc_pool_config *cfg, cuzk_budget *budget, cuzk_gauge *gauges,
                                 cuzk_abc_pool **out, cuzk_error *err)
{
    *out = NULL;
    cuzk_abc_pool *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_fail(err, CUZK_E_NOMEM, "abc pool: out of memory");
    p->cfg = *cfg;
    p->budget = budget;
    p->gauges = gauges;
    pthread_mutex_init(&p->mu, NULL);
    pthread_cond_init(&p->cv, NULL);
    cuzk_status st = cuzk_budget_add_reclaimer(budget, cuzk_abc_pool_reclaim, p, err);
    if (st) {
        pthread_cond_destroy(&p->cv);
        pthread_mutex_destroy(&p->mu);
        free(p);
        return st;
    }
    if (cfg->idle_ms) {
        int rc = pthread_create(&p->trimmer, NULL, trimmer_main, p);
        if (rc) {
            cuzk_abc_pool_destroy(p);
            return cuzk_fail(err, CUZK_E_INTERNAL, "abc pool: cannot start the idle trimmer: %s", strerror(rc));
        }
        p->trimmer_started = true;
    }
    *out = p;
    return CUZK_OK;
}

void cuzk_abc_pool_destroy(cuzk_abc_pool *p)
{
    if (!p)
        return;
    cuzk_budget_remove_reclaimer(p->budget, cuzk_abc_pool_reclaim, p);
    pthread_mutex_lock(&p->mu);
    p->stopping = true;
    pthread_cond_broadcast(&p->cv);
    pthread_mutex_unlock(&p->mu);
    if (p->trimmer_started)
        pthread_join(p->trimmer, NULL);
    uint64_t charged = 0;
    for (size_t i = 0; i < p->n; i++)
        if (p->bufs[i].state == BUF_IN_USE) {
            cuzk_log(CUZK_LOG_ERROR, "abc pool: buffer of %zu bytes still in use at destroy", p->bufs[i].bytes);
            p->bufs[i].state = BUF_RETURNED;
            p->st.in_use_bytes -= p->bufs[i].bytes;
            p->st.free_bytes += p->bufs[i].bytes;
        }
    while (p->n)
        charged += unmap_locked(p, p->n - 1);
    publish(p);
    if (charged)
        cuzk_budget_release(p->budget, charged);
    free(p->bufs);
    pthread_cond_destroy(&p->cv);
    pthread_mutex_destroy(&p->mu);
    free(p);
}

void cuzk_abc_pool_set_hooks(cuzk_abc_pool *p, const cuzk_abc_pool_hooks *hooks)
{
    pthread_mutex_lock(&p->mu);
    p->hooks = hooks ? *hooks : (cuzk_abc_pool_hooks){0};
    pthread_mutex_unlock(&p->mu);
}

/* A new anonymous mapping of `bytes`, advised for huge pages and faulted in. */
static void *map_buffer(cuzk_abc_pool *p, size_t bytes, bool *huge_refused)
{
    void *mem = mmap(NULL, bytes, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
    if (mem == MAP_FAILED)
        return NULL;
    *huge_refused = false;
    if (p->cfg.hugepages) {
        int (*advise)(void *, size_t, int) = p->cfg.advise ? p->cfg.advise : madvise;
        /* before the first touch, so the faults below can take huge pages */
        *huge_refused = advise(mem, bytes, MADV_HUGEPAGE) != 0;
    }
    long page = sysconf(_SC_PAGESIZE);
    if (page <= 0)
        page = 4096;
    for (size_t off = 0; off < bytes; off += (size_t)page)
        ((volatile char *)mem)[off] = 0;
    return mem;
}

cuzk_status cuzk_abc_pool_get(cuzk_abc_pool *p, size_t bytes, void **mem, cuzk_error *err)
{
    *mem = NULL;
    if (bytes == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "abc pool: a buffer of 0 bytes");
    pthread_mutex_lock(&p->mu);
    size_t best = SIZE_MAX;
    for (size_t i = 0; i < p->n; i++)
        if (p->bufs[i].state == BUF_FREE && p->bufs[i].bytes == bytes &&
            (best == SIZE_MAX || p->bufs[i].last_used_ns > p->bufs[best].last_used_ns))
            best = i; /* the most recently used: its pages are the likeliest still in cache/TLB */
    if (best != SIZE_MAX) {
        pool_buf *b = &p->bufs[best];
        b->state = BUF_IN_USE;
        p->st.free_bytes -= bytes;
        p->st.in_use_bytes += bytes;
        p->st.reused++;
        *mem = b->mem;
        publish(p);
        pthread_mutex_unlock(&p->mu);
        cuzk_budget_release(p->budget, bytes); /* now charged through the partition's reservation */
        return CUZK_OK;
    }
    pthread_mutex_unlock(&p->mu);

    bool huge_refused = false;
    void *m = map_buffer(p, bytes, &huge_refused);
    if (!m)
        return cuzk_fail(err, CUZK_E_NOMEM, "abc pool: cannot map a buffer of %zu bytes: %s", bytes, strerror(errno));
    pthread_mutex_lock(&p->mu);
    if (p->hooks.on_map)
        p->hooks.on_map(p->hooks.ctx, m, bytes);
    if (p->n == p->cap) {
        size_t cap = p->cap ? p->cap * 2 : 16;
        pool_buf *nb = realloc(p->bufs, cap * sizeof *nb);
        if (!nb) {
            pthread_mutex_unlock(&p->mu);
            munmap(m, bytes);
            return cuzk_fail(err, CUZK_E_NOMEM, "abc pool: out of memory for the buffer table");
        }
        p->bufs = nb;
        p->cap = cap;
    }
    p->bufs[p->n++] = (pool_buf){m, bytes, BUF_IN_USE, cuzk_now_ns()};
    p->st.total_bytes += bytes;
    p->st.in_use_bytes += bytes;
    p->st.buffers++;
    p->st.created++;
    p->st.hugepage_refused += huge_refused;
    publish(p);
    pthread_mutex_unlock(&p->mu);
    *mem = m;
    return CUZK_OK;
}

void cuzk_abc_pool_put(cuzk_abc_pool *p, void *mem)
{
    if (!mem)
        return;
    pthread_mutex_lock(&p->mu);
    for (size_t i = 0; i < p->n; i++)
        if (p->bufs[i].mem == mem && p->bufs[i].state == BUF_IN_USE) {
            p->bufs[i].state = BUF_RETURNED;
            p->bufs[i].last_used_ns = cuzk_now_ns();
            p->st.in_use_bytes -= p->bufs[i].bytes;
            p->st.free_bytes += p->bufs[i].bytes;
            publish(p);
            pthread_mutex_unlock(&p->mu);
            return;
        }
    pthread_mutex_unlock(&p->mu);
    cuzk_log(CUZK_LOG_ERROR, "abc pool: put of a buffer the pool did not hand out (%p)", mem);
}

uint64_t cuzk_abc_pool_adopt(cuzk_abc_pool *p, uint64_t bytes)
{
    uint64_t taken = 0;
    pthread_mutex_lock(&p->mu);
    for (size_t i = 0; i < p->n; i++)
        if (p->bufs[i].state == BUF_RETURNED && p->bufs[i].bytes <= bytes - taken) {
            p->bufs[i].state = BUF_FREE;
            taken += p->bufs[i].bytes;
        }
    pthread_mutex_unlock(&p->mu);
    return taken;
}

void cuzk_abc_pool_stats_get(cuzk_abc_pool *p, cuzk_abc_pool_stats *out)
{
    pthread_mutex_lock(&p->mu);
    *out = p->st;
    pthread_mutex_unlock(&p->mu);
}

static void *region_get(void *ctx, size_t bytes)
{
    void *mem = NULL;
    cuzk_error err = {0};
    if (cuzk_abc_pool_get(ctx, bytes, &mem, &err) != CUZK_OK) {
        cuzk_log(CUZK_LOG_WARN, "abc pool: %s", err.msg);
        return NULL;
    }
    return mem;
}

static void region_put(void *ctx, void *mem) { cuzk_abc_pool_put(ctx, mem); }

void cuzk_abc_pool_region(cuzk_abc_pool *p, cuzk_region_alloc *out)
{
    *out = (cuzk_region_alloc){region_get, region_put, p};
}
