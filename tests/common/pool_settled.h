/* Test helper: an engine with an a/b/c pool (engine/abc_pool.h) has settled: it went idle,
 * every flight counter is back at zero and never went negative, except the pool's total and
 * free bytes (the free buffers it keeps), no pool buffer is in use, and the memory budget
 * holds the pool's free buffers plus `other_charged` bytes (parameters, PCEs charged to the
 * same budget), or anything when other_charged is negative. */
#ifndef CUZK_TESTS_POOL_SETTLED_H
#define CUZK_TESTS_POOL_SETTLED_H

#include "check.h"
#include "engine/engine.h"

static inline void check_pool_settled(cuzk_engine *e, const char *when, int64_t other_charged)
{
    cuzk_error err = {0};
    CHECK(cuzk_engine_wait_idle(e, 60000, &err) == CUZK_OK, "%s: wait_idle: %s", when, err.msg);
    cuzk_abc_pool_stats ps;
    cuzk_abc_pool_stats_get(cuzk_engine_abc_pool(e), &ps);
    cuzk_counter_value v[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(e, v);
    for (int i = 0; i < CUZK_COUNTER_COUNT; i++) {
        int64_t want = 0;
        if (i == CUZK_CTR_POOL_TOTAL_BYTES || i == CUZK_CTR_POOL_FREE_BYTES)
            want = (int64_t)ps.total_bytes;
        if (i == CUZK_CTR_MEMORY_USED_BYTES) {
            if (other_charged < 0)
                continue;
            want = (int64_t)ps.total_bytes + other_charged;
        }
        CHECK(v[i].current == want && v[i].low >= 0, "%s: counter %s is %lld (low %lld), want %lld", when,
              cuzk_counter_name((cuzk_counter_id)i), (long long)v[i].current, (long long)v[i].low, (long long)want);
    }
    CHECK(ps.in_use_bytes == 0 && ps.free_bytes == ps.total_bytes, "%s: pool in use %llu, free %llu of %llu", when,
          (unsigned long long)ps.in_use_bytes, (unsigned long long)ps.free_bytes, (unsigned long long)ps.total_bytes);
}

#endif
