#include "engine/budget.h"

#include <string.h>

#include "engine/log.h"

struct cuzk_budget_waiter {
    cuzk_budget_waiter *next;
};

cuzk_status cuzk_budget_init(cuzk_budget *b, uint64_t total, cuzk_gauge *used_gauge, cuzk_error *err)
{
    if (total == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "memory budget total must be >= 1 byte, got 0");
    if (pthread_mutex_init(&b->mu, NULL))
        return cuzk_fail(err, CUZK_E_INTERNAL, "memory budget: pthread_mutex_init failed");
    if (cuzk_cond_init_monotonic(&b->cv)) {
        pthread_mutex_destroy(&b->mu);
        return cuzk_fail(err, CUZK_E_INTERNAL, "memory budget: pthread_cond_init failed");
    }
    b->total = total;
    b->used = 0;
    b->head = b->tail = NULL;
    b->waiting = 0;
    b->used_gauge = used_gauge;
    b->releases = 0;
    b->n_reclaim = 0;
    b->wakes = 0;
    b->hope = NULL;
    b->hope_ctx = NULL;
    return CUZK_OK;
}

void cuzk_budget_destroy(cuzk_budget *b)
{
    pthread_cond_destroy(&b->cv);
    pthread_mutex_destroy(&b->mu);
}

cuzk_status cuzk_budget_add_reclaimer(cuzk_budget *b, cuzk_budget_reclaim_fn fn, void *ctx, cuzk_error *err)
{
    pthread_mutex_lock(&b->mu);
    bool ok = b->n_reclaim < CUZK_BUDGET_MAX_RECLAIMERS;
    if (ok) {
        b->reclaim[b->n_reclaim].fn = fn;
        b->reclaim[b->n_reclaim].ctx = ctx;
        b->n_reclaim++;
    }
    pthread_mutex_unlock(&b->mu);
    return ok ? CUZK_OK
              : cuzk_fail(err, CUZK_E_INVALID_ARG, "memory budget: at most %d reclaimers",
                          CUZK_BUDGET_MAX_RECLAIMERS);
}

void cuzk_budget_remove_reclaimer(cuzk_budget *b, cuzk_budget_reclaim_fn fn, void *ctx)
{
    pthread_mutex_lock(&b->mu);
    for (size_t i = 0; i < b->n_reclaim; i++)
        if (b->reclaim[i].fn == fn && b->reclaim[i].ctx == ctx) {
            memmove(&b->reclaim[i], &b->reclaim[i + 1], (b->n_reclaim - i - 1) * sizeof b->reclaim[0]);
            b->n_reclaim--;
            break;
        }
    pthread_mutex_unlock(&b->mu);
}

uint64_t cuzk_budget_reclaim(cuzk_budget *b, uint64_t want)
{
    pthread_mutex_lock(&b->mu);
    size_t n = b->n_reclaim;
    cuzk_budget_reclaimer r[CUZK_BUDGET_MAX_RECLAIMERS];
    memcpy(r, b->reclaim, n * sizeof r[0]);
    pthread_mutex_unlock(&b->mu);
    uint64_t freed = 0;
    for (size_t i = 0; i < n && freed < want; i++)
        freed += r[i].fn(r[i].ctx, want - freed);
    return freed;
}

void cuzk_budget_set_hope(cuzk_budget *b, cuzk_budget_hope_fn fn, void *ctx)
{
    pthread_mutex_lock(&b->mu);
    b->hope = fn;
    b->hope_ctx = ctx;
    pthread_mutex_unlock(&b->mu);
}

uint64_t cuzk_budget_total(const cuzk_budget *b) { return b->total; }

static void unlink_waiter(cuzk_budget *b, cuzk_budget_waiter *w)
{
    cuzk_budget_waiter **link = &b->head, *prev = NULL;
    while (*link != w) {
        prev = *link;
        link = &(*link)->next;
    }
    *link = w->next;
    if (b->tail == w)
        b->tail = prev;
    b->waiting--;
}

cuzk_status cuzk_budget_acquire(cuzk_budget *b, uint64_t bytes, cuzk_abort_fn abort, void *ctx,
                                cuzk_error *err)
{
    if (bytes > b->total)
        return cuzk_fail(err, CUZK_E_NOMEM,
                         "memory budget: a reservation of %llu bytes can never fit in the total budget "
                         "of %llu bytes",
                         (unsigned long long)bytes, (unsigned long long)b->total);
    if (bytes == 0)
        return CUZK_OK;
    cuzk_budget_waiter w = {.next = NULL};
    uint64_t reclaimed_at = UINT64_MAX;
    int64_t hopeless_since = -1; /* monotonic ns since when nothing could give way */
    pthread_mutex_lock(&b->mu);
    if (b->tail)
        b->tail->next = &w;
    else
        b->head = &w;
    b->tail = &w;
    b->waiting++;
    for (;;) {
        if (abort && abort(ctx)) {
            unlink_waiter(b, &w);
            pthread_cond_broadcast(&b->cv); /* the next waiter may now be at the head */
            pthread_mutex_unlock(&b->mu);
            return CUZK_E_CANCELLED;
        }
        if (b->head == &w && b->used + bytes <= b->total)
            break;
        if (b->head == &w && b->n_reclaim && b->releases != reclaimed_at) {
            /* idle cached data gives way to the pipeline; asked again only after a release */
            reclaimed_at = b->releases;
            uint64_t want = b->used + bytes - b->total;
            pthread_mutex_unlock(&b->mu);
            cuzk_budget_reclaim(b, want);
            pthread_mutex_lock(&b->mu);
            continue;
        }
        if (b->head == &w && b->hope) {
            uint64_t wakes = b->wakes;
            cuzk_budget_hope_fn hope = b->hope;
            void *hope_ctx = b->hope_ctx;
            pthread_mutex_unlock(&b->mu);
            bool hoping = hope(hope_ctx);
            pthread_mutex_lock(&b->mu);
            if (b->wakes != wakes)
                continue; /* a release or wake came meanwhile: evaluate again */
            if (hoping) {
                hopeless_since = -1;
            } else {
                int64_t now = cuzk_now_ns();
                if (hopeless_since < 0)
                    hopeless_since = now;
                if (now - hopeless_since >= (int64_t)CUZK_BUDGET_HOPELESS_MS * 1000000) {
                    uint64_t used = b->used;
                    unlink_waiter(b, &w);
                    pthread_cond_broadcast(&b->cv);
                    pthread_mutex_unlock(&b->mu);
                    return cuzk_fail(err, CUZK_E_NOMEM,
                                     "memory budget: a reservation of %llu bytes can never fit: %llu of the %llu "
                                     "bytes ([memory] total_budget) stay in use and nothing in flight can free "
                                     "them",
                                     (unsigned long long)bytes, (unsigned long long)used,
                                     (unsigned long long)b->total);
                }
                reclaimed_at = UINT64_MAX; /* ask the reclaimers again after the pause */
                cuzk_cond_wait_until(&b->cv, &b->mu, now + (int64_t)CUZK_BUDGET_HOPELESS_MS * 100000);
                continue;
            }
        }
        pthread_cond_wait(&b->cv, &b->mu);
    }
    b->used += bytes;
    if (b->used_gauge)
        cuzk_gauge_add(b->used_gauge, (int64_t)bytes);
    unlink_waiter(b, &w);
    pthread_cond_broadcast(&b->cv); /* the next waiter may fit as well */
    pthread_mutex_unlock(&b->mu);
    return CUZK_OK;
}

bool cuzk_budget_try_acquire(cuzk_budget *b, uint64_t bytes)
{
    if (bytes == 0)
        return true;
    pthread_mutex_lock(&b->mu);
    bool ok = !b->head && bytes <= b->total && b->used + bytes <= b->total;
    if (ok) {
        b->used += bytes;
        if (b->used_gauge)
            cuzk_gauge_add(b->used_gauge, (int64_t)bytes);
    }
    pthread_mutex_unlock(&b->mu);
    return ok;
}

void cuzk_budget_release(cuzk_budget *b, uint64_t bytes)
{
    if (bytes == 0)
        return;
    pthread_mutex_lock(&b->mu);
    if (bytes > b->used) {
        cuzk_log(CUZK_LOG_ERROR, "memory budget: release of %llu bytes exceeds the %llu bytes reserved",
                 (unsigned long long)bytes, (unsigned long long)b->used);
        b->used = 0;
    } else {
        b->used -= bytes;
    }
    if (b->used_gauge)
        cuzk_gauge_add(b->used_gauge, -(int64_t)bytes);
    b->releases++;
    b->wakes++;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

void cuzk_budget_wake(cuzk_budget *b)
{
    pthread_mutex_lock(&b->mu);
    b->wakes++;
    pthread_cond_broadcast(&b->cv);
    pthread_mutex_unlock(&b->mu);
}

uint64_t cuzk_budget_used(cuzk_budget *b)
{
    pthread_mutex_lock(&b->mu);
    uint64_t u = b->used;
    pthread_mutex_unlock(&b->mu);
    return u;
}

size_t cuzk_budget_waiting(cuzk_budget *b)
{
    pthread_mutex_lock(&b->mu);
    size_t n = b->waiting;
    pthread_mutex_unlock(&b->mu);
    return n;
}
