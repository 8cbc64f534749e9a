/* The a/b/c buffer pool (engine/abc_pool.h) against its budget: reuse of the same buffer
 * for consecutive partitions with the charge moving between partition and pool (budget
 * `used` and the pool gauges checked at each step against the sums expected from the
 * operations), reclaim when a reservation needs the pool's room, the idle trimmer, the
 * "no transparent huge pages" path (madvise refused) and the pinning hooks. */
#include <string.h>
#include <sys/mman.h>

#include "check.h"
#include "engine/abc_pool.h"
#include "engine/sync.h"

enum { G_TOTAL, G_IN_USE, G_FREE };

typedef struct {
    cuzk_budget budget;
    cuzk_gauge used;
    cuzk_gauge g[3];
    cuzk_abc_pool *pool;
} rig;

static void rig_init(rig *r, uint64_t total, const cuzk_abc_pool_config *cfg)
{
    cuzk_error err = {0};
    cuzk_gauge_init(&r->used);
    for (int i = 0; i < 3; i++)
        cuzk_gauge_init(&r->g[i]);
    CHECK(cuzk_budget_init(&r->budget, total, &r->used, &err) == CUZK_OK, "budget: %s", err.msg);
    CHECK(cuzk_abc_pool_create(cfg, &r->budget, r->g, &r->pool, &err) == CUZK_OK, "pool: %s", err.msg);
}

static void rig_destroy(rig *r)
{
    cuzk_abc_pool_destroy(r->pool);
    CHECK(cuzk_budget_used(&r->budget) == 0, "budget holds %llu bytes after the pool went",
          (unsigned long long)cuzk_budget_used(&r->budget));
    cuzk_budget_destroy(&r->budget);
}

/* What a partition does with the engine: reserve, take a/b/c, give them back at
 * release_abc, then release the reservation (the a/b/c share adopted by the pool). */
static void *partition_take(rig *r, uint64_t reserve, size_t abc)
{
    cuzk_error err = {0};
    void *mem = NULL;
    CHECK(cuzk_budget_acquire(&r->budget, reserve, NULL, NULL, &err) == CUZK_OK, "acquire %llu: %s",
          (unsigned long long)reserve, err.msg);
    CHECK(cuzk_abc_pool_get(r->pool, abc, &mem, &err) == CUZK_OK && mem, "get %zu: %s", abc, err.msg);
    return mem;
}

static void partition_give_back(rig *r, void *mem, uint64_t reserve, uint64_t abc_share)
{
    cuzk_abc_pool_put(r->pool, mem);
    uint64_t adopted = cuzk_abc_pool_adopt(r->pool, abc_share);
    cuzk_budget_release(&r->budget, abc_share - adopted);
    cuzk_budget_release(&r->budget, reserve - abc_share);
}

static void expect(rig *r, const char *when, uint64_t used, uint64_t total, uint64_t in_use, uint64_t free_b)
{
    cuzk_abc_pool_stats s;
    cuzk_abc_pool_stats_get(r->pool, &s);
    CHECK(cuzk_budget_used(&r->budget) == used, "%s: budget used %llu, want %llu", when,
          (unsigned long long)cuzk_budget_used(&r->budget), (unsigned long long)used);
    CHECK(s.total_bytes == total && s.in_use_bytes == in_use && s.free_bytes == free_b,
          "%s: pool total/in use/free %llu/%llu/%llu, want %llu/%llu/%llu", when, (unsigned long long)s.total_bytes,
          (unsigned long long)s.in_use_bytes, (unsigned long long)s.free_bytes, (unsigned long long)total,
          (unsigned long long)in_use, (unsigned long long)free_b);
    CHECK(cuzk_gauge_read(&r->g[G_TOTAL]).current == (int64_t)total &&
              cuzk_gauge_read(&r->g[G_IN_USE]).current == (int64_t)in_use &&
              cuzk_gauge_read(&r->g[G_FREE]).current == (int64_t)free_b,
          "%s: pool gauges %lld/%lld/%lld disagree with the pool", when,
          (long long)cuzk_gauge_read(&r->g[G_TOTAL]).current, (long long)cuzk_gauge_read(&r->g[G_IN_USE]).current,
          (long long)cuzk_gauge_read(&r->g[G_FREE]).current);
}

/* The default pool config with the given idle time. */
static cuzk_abc_pool_config pool_cfg(uint64_t idle_ms)
{
    cuzk_abc_pool_config cfg;
    cuzk_abc_pool_config_default(&cfg);
    cfg.idle_ms = idle_ms;
    return cfg;
}

#define ABC ((size_t)3 << 20) /* 3 MiB of a/b/c, plus 1 MiB of witness: a 4 MiB partition */
#define PART ((uint64_t)4 << 20)

static void test_reuse(void)
{
    cuzk_abc_pool_config cfg = pool_cfg(0);
    rig r;
    rig_init(&r, 64 << 20, &cfg);
    void *first = partition_take(&r, PART, ABC);
    memset(first, 0xab, ABC); /* writable, whole */
    expect(&r, "first partition", PART, ABC, ABC, 0);
    partition_give_back(&r, first, PART, ABC);
    expect(&r, "first returned", ABC, ABC, 0, ABC); /* the pool keeps the a/b/c share as its charge */
    for (int i = 0; i < 5; i++) {
        void *mem = partition_take(&r, PART, ABC);
        CHECK(mem == first, "partition %d got a new buffer instead of the pooled one", i + 2);
        expect(&r, "reused partition", PART, ABC, ABC, 0);
        partition_give_back(&r, mem, PART, ABC);
    }
    /* two at once: the second needs a second buffer; both come back */
    void *a = partition_take(&r, PART, ABC), *b = partition_take(&r, PART, ABC);
    CHECK(a != b, "two partitions share one buffer");
    expect(&r, "two in flight", 2 * PART, 2 * ABC, 2 * ABC, 0);
    partition_give_back(&r, a, PART, ABC);
    partition_give_back(&r, b, PART, ABC);
    expect(&r, "two returned", 2 * ABC, 2 * ABC, 0, 2 * ABC);
    /* another size is another buffer */
    void *c = partition_take(&r, PART * 2, ABC * 2);
    expect(&r, "other size", 2 * ABC + 2 * PART, 4 * ABC, 2 * ABC, 2 * ABC);
    partition_give_back(&r, c, PART * 2, ABC * 2);
    cuzk_abc_pool_stats s;
    cuzk_abc_pool_stats_get(r.pool, &s);
    CHECK(s.created == 3 && s.reused == 6 && s.buffers == 3, "created %llu (want 3), reused %llu (want 6)",
          (unsigned long long)s.created, (unsigned long long)s.reused);
    rig_destroy(&r);
}

/* The budget fits the pool's free buffers or a new partition, not both: the acquire gets
 * the room from the pool's reclaimer instead of waiting forever. */
static void test_reclaim(void)
{
    cuzk_abc_pool_config cfg = pool_cfg(0);
    rig r;
    rig_init(&r, 2 * PART, &cfg);
    void *a = partition_take(&r, PART, ABC), *b = partition_take(&r, PART, ABC);
    partition_give_back(&r, a, PART, ABC);
    partition_give_back(&r, b, PART, ABC);
    expect(&r, "pool full", 2 * ABC, 2 * ABC, 0, 2 * ABC);
    /* parameters of another circuit needing a partition's size: 2 MiB missing, so one free
     * buffer (3 MiB) must go, not both */
    cuzk_error err = {0};
    CHECK(cuzk_budget_acquire(&r.budget, PART, NULL, NULL, &err) == CUZK_OK, "acquire: %s", err.msg);
    cuzk_abc_pool_stats s;
    cuzk_abc_pool_stats_get(r.pool, &s);
    CHECK(s.buffers == 1 && s.released == 1, "after reclaim: %llu buffers, %llu released (want 1, 1)",
          (unsigned long long)s.buffers, (unsigned long long)s.released);
    expect(&r, "after reclaim", ABC + PART, ABC, 0, ABC);
    cuzk_budget_release(&r.budget, PART);
    rig_destroy(&r);
}

static bool idle_gone(rig *r)
{
    cuzk_abc_pool_stats s;
    int64_t deadline = cuzk_now_ns() + 20000 * (int64_t)1000000;
    do {
        cuzk_abc_pool_stats_get(r->pool, &s);
        if (s.buffers == 0)
            return true;
        struct timespec ts = {0, 2000000};
        nanosleep(&ts, NULL);
    } while (cuzk_now_ns() < deadline);
    return false;
}

static void test_idle_trim(void)
{
    cuzk_abc_pool_config cfg = pool_cfg(20);
    rig r;
    rig_init(&r, 64 << 20, &cfg);
    void *a = partition_take(&r, PART, ABC);
    partition_give_back(&r, a, PART, ABC);
    CHECK(idle_gone(&r), "an idle buffer stayed mapped past idle_ms");
    expect(&r, "after idle", 0, 0, 0, 0);
    rig_destroy(&r);
}

static int refuse_advice(void *addr, size_t len, int advice)
{
    (void)addr, (void)len, (void)advice;
    return -1; /* EINVAL: a kernel without transparent huge pages */
}

static int maps, unmaps;
static void on_map(void *ctx, void *mem, size_t bytes) { (void)ctx, (void)mem, (void)bytes, maps++; }
static void on_unmap(void *ctx, void *mem, size_t bytes) { (void)ctx, (void)mem, (void)bytes, unmaps++; }

static void test_no_thp_and_hooks(void)
{
    cuzk_abc_pool_config cfg = pool_cfg(0);
    cfg.advise = refuse_advice;
    rig r;
    rig_init(&r, 64 << 20, &cfg);
    cuzk_abc_pool_set_hooks(r.pool, &(cuzk_abc_pool_hooks){on_map, on_unmap, NULL});
    for (int i = 0; i < 3; i++) {
        void *a = partition_take(&r, PART, ABC);
        memset(a, i, ABC);
        partition_give_back(&r, a, PART, ABC);
    }
    cuzk_abc_pool_stats s;
    cuzk_abc_pool_stats_get(r.pool, &s);
    CHECK(s.hugepage_refused == 1 && s.created == 1 && s.reused == 2,
          "no THP: refused %llu (want 1), created %llu, reused %llu", (unsigned long long)s.hugepage_refused,
          (unsigned long long)s.created, (unsigned long long)s.reused);
    CHECK(maps == 1 && unmaps == 0, "pinning hooks: %d maps, %d unmaps before destroy (want 1, 0)", maps, unmaps);
    rig_destroy(&r);
    CHECK(unmaps == 1, "pinning hooks: %d unmaps at destroy (want 1)", unmaps);
}

int main(void)
{
    test_reuse();
    test_reclaim();
    test_idle_trim();
    test_no_thp_and_hooks();
    return check_summary("engine_pool");
}
