#include "engine/counters.h"

const char *cuzk_counter_name(cuzk_counter_id id)
{
    static const char *const names[CUZK_COUNTER_COUNT] = {
        [CUZK_CTR_PERMITS_HELD] = "permits_held",
        [CUZK_CTR_SYNTHESIZING] = "synthesizing",
        [CUZK_CTR_AWAITING_SEND] = "awaiting_send",
        [CUZK_CTR_QUEUED] = "queued",
        [CUZK_CTR_PROVING] = "proving",
        [CUZK_CTR_PENDING_FINISH] = "pending_finish",
        [CUZK_CTR_SYNTHESIZING_BYTES] = "synthesizing_bytes",
        [CUZK_CTR_AWAITING_SEND_BYTES] = "awaiting_send_bytes",
        [CUZK_CTR_QUEUED_BYTES] = "queued_bytes",
        [CUZK_CTR_PROVING_BYTES] = "proving_bytes",
        [CUZK_CTR_PENDING_FINISH_BYTES] = "pending_finish_bytes",
        [CUZK_CTR_MEMORY_USED_BYTES] = "memory_used_bytes",
        [CUZK_CTR_POOL_TOTAL_BYTES] = "pool_total_bytes",
        [CUZK_CTR_POOL_IN_USE_BYTES] = "pool_in_use_bytes",
        [CUZK_CTR_POOL_FREE_BYTES] = "pool_free_bytes",
    };
    if ((unsigned)id >= CUZK_COUNTER_COUNT)
        return "unknown";
    return names[id];
}

void cuzk_gauge_init(cuzk_gauge *g)
{
    atomic_init(&g->value, 0);
    atomic_init(&g->peak, 0);
    atomic_init(&g->low, 0);
}

void cuzk_gauge_add(cuzk_gauge *g, int64_t delta)
{
    int64_t v = atomic_fetch_add(&g->value, delta) + delta;
    if (delta > 0) {
        int64_t p = atomic_load(&g->peak);
        while (v > p && !atomic_compare_exchange_weak(&g->peak, &p, v)) {
        }
    } else if (v < 0) {
        int64_t l = atomic_load(&g->low);
        while (v < l && !atomic_compare_exchange_weak(&g->low, &l, v)) {
        }
    }
}

cuzk_counter_value cuzk_gauge_read(const cuzk_gauge *g)
{
    cuzk_counter_value out = {
        .current = atomic_load((_Atomic int64_t *)&g->value),
        .peak = atomic_load((_Atomic int64_t *)&g->peak),
        .low = atomic_load((_Atomic int64_t *)&g->low),
    };
    return out;
}
