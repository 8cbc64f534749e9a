/* Unit tests of the parameter manager (engine/params_mgr.h) with two fake providers whose
 * loads count calls and hand out fixed byte counts: one load per entry however many
 * acquirers, the budget charged with exactly the provider's bytes while HOT, the idle entry
 * least recently released reclaimed (WARM) for room, a held entry never unloaded, evict
 * refused while held and COLD after, a failed load listed with its error, a preload that
 * does not wait, an entry larger than the budget, the unknown id's message (every provider's
 * describe), remove_provider unloading its entries, and the evict hook told of an evicted
 * entry's prover parameters (not of a reclaimed one's). Expected values are worked out by
 * hand from the header's contract. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "engine/budget.h"
#include "engine/params_mgr.h"

typedef struct {
    const char *prefix; /* claims ids starting with it */
    uint64_t bytes;     /* per load */
    int loads, unloads, cold_unloads;
    const char *fail_id; /* load of this id fails */
} fake;

static bool fake_claims(void *ctx, const char *id)
{
    fake *f = ctx;
    return !strncmp(id, f->prefix, strlen(f->prefix));
}

static void fake_describe(void *ctx, char *out, size_t cap)
{
    fake *f = ctx;
    snprintf(out, cap, "fake: %s*", f->prefix);
}

static cuzk_status fake_load(void *ctx, const char *id, void **handle, uint64_t *bytes, cuzk_error *err)
{
    fake *f = ctx;
    if (f->fail_id && !strcmp(id, f->fail_id))
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: bad file", id);
    f->loads++;
    *handle = strdup(id);
    *bytes = f->bytes;
    return CUZK_OK;
}

static void fake_unload(void *ctx, void *handle, bool cold)
{
    fake *f = ctx;
    f->unloads++;
    f->cold_unloads += cold;
    free(handle);
}

/* The fake's prover parameters are its handle, the id string. */
static const void *fake_prover_params(void *ctx, const void *handle)
{
    (void)ctx;
    return handle;
}

typedef struct {
    int calls;
    char last[32];
} evicted;

static void on_evict(void *ctx, const void *params)
{
    evicted *ev = ctx;
    ev->calls++;
    snprintf(ev->last, sizeof ev->last, "%s", (const char *)params);
}

static const cuzk_params_status *row(const cuzk_params_status *a, size_t n, const char *id)
{
    for (size_t i = 0; i < n; i++)
        if (!strcmp(a[i].id, id))
            return &a[i];
    return NULL;
}

int main(void)
{
    cuzk_budget b;
    cuzk_error err;
    CHECK(cuzk_budget_init(&b, 1000, NULL, &err) == CUZK_OK, "budget init: %s", err.msg);
    cuzk_params_mgr *m;
    CHECK(cuzk_params_mgr_create(&b, &m, &err) == CUZK_OK, "create: %s", err.msg);
    fake fa = {"a-", 400, 0, 0, 0, "a-bad"}, fb = {"b-", 300, 0, 0, 0, NULL};
    cuzk_params_provider pa = {"fa", &fa, fake_claims, fake_describe, fake_load, fake_unload, fake_prover_params};
    cuzk_params_provider pb = {"fb", &fb, fake_claims, fake_describe, fake_load, fake_unload, NULL};
    evicted ev = {0};
    cuzk_params_set_evict_hook(m, on_evict, &ev);
    CHECK(!cuzk_params_add_provider(m, &pa, &err) && !cuzk_params_add_provider(m, &pb, &err), "add providers");
    CHECK(cuzk_params_provider_of(m, "b-1", &err) == &pb && cuzk_params_provider_of(m, "a-1", &err) == &pa,
          "provider_of");
    CHECK(!cuzk_params_provider_of(m, "zz", &err) && err.code == CUZK_E_UNSUPPORTED &&
              !strcmp(err.msg, "unknown circuit \"zz\" (fake: a-*; fake: b-*)"),
          "unknown id: %s", err.msg);

    /* two acquires, one load; charged 400 */
    cuzk_params_entry *e1, *e2;
    uint64_t ms;
    CHECK(!cuzk_params_acquire(m, &pa, "a-1", NULL, NULL, &e1, &ms, &err), "acquire a-1: %s", err.msg);
    CHECK(!cuzk_params_acquire(m, &pa, "a-1", NULL, NULL, &e2, &ms, &err) && e1 == e2 && ms == 0, "second acquire");
    CHECK(fa.loads == 1 && cuzk_budget_used(&b) == 400 && cuzk_params_charged(e1) == 400 &&
              !strcmp(cuzk_params_handle(e1), "a-1") && !strcmp(cuzk_params_id(e1), "a-1"),
          "one load, 400 charged: loads %d used %llu", fa.loads, (unsigned long long)cuzk_budget_used(&b));
    bool was;
    uint64_t freed;
    CHECK(cuzk_params_evict(m, "a-1", &was, &freed, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "2 job(s)"),
          "evict while held: %s", err.msg);

    /* b-1 preloaded (300, idle), a-2 preloaded (400, idle): 1100 > 1000 -> the idle b-1 goes */
    bool already = true;
    CHECK(!cuzk_params_preload(m, &pb, "b-1", &already, &ms, &err) && !already, "preload b-1: %s", err.msg);
    CHECK(cuzk_budget_used(&b) == 700, "700 used");
    CHECK(!cuzk_params_preload(m, &pa, "a-2", &already, &ms, &err) && !already, "preload a-2: %s", err.msg);
    CHECK(fb.unloads == 1 && fb.cold_unloads == 0 && cuzk_budget_used(&b) == 800,
          "b-1 reclaimed for a-2: unloads %d used %llu", fb.unloads, (unsigned long long)cuzk_budget_used(&b));
    cuzk_params_status st;
    CHECK(cuzk_params_status_of(m, "b-1", &st) && st.tier == CUZK_PARAMS_WARM && !st.loaded && st.size_bytes == 0,
          "b-1 WARM");
    /* another 400 with a-1 held and a-2 idle: a-2 goes, never the held a-1 */
    CHECK(!cuzk_params_preload(m, &pa, "a-3", NULL, &ms, &err), "preload a-3: %s", err.msg);
    CHECK(cuzk_params_status_of(m, "a-1", &st) && st.tier == CUZK_PARAMS_HOT && st.ref_count == 2 &&
              st.size_bytes == 400,
          "held a-1 stays HOT");
    CHECK(cuzk_params_status_of(m, "a-2", &st) && st.tier == CUZK_PARAMS_WARM, "a-2 WARM");
    CHECK(ev.calls == 0, "a reclaim (WARM) is no evict: hook called %d times", ev.calls);
    /* nothing idle left but a-3 (400): b-2 (300) takes its place; then with only held entries a
     * preload refuses at once */
    cuzk_params_entry *e3;
    CHECK(!cuzk_params_acquire(m, &pa, "a-3", NULL, NULL, &e3, &ms, &err), "hold a-3");
    CHECK(cuzk_params_preload(m, &pb, "b-2", NULL, &ms, &err) == CUZK_E_NOMEM && strstr(err.msg, "no room"),
          "preload with no idle room: %s", err.msg);
    CHECK(cuzk_params_status_of(m, "b-2", &st) && !st.failed && st.tier == CUZK_PARAMS_COLD,
          "no room is no failed load");
    cuzk_params_release(m, e3);

    /* a failed load: listed with its error, nothing charged */
    CHECK(cuzk_params_acquire(m, &pa, "a-bad", NULL, NULL, &e3, &ms, &err) == CUZK_E_FORMAT, "failed load");
    cuzk_params_status *all;
    size_t n;
    CHECK(!cuzk_params_list(m, NULL, &all, &n, &err), "list");
    const cuzk_params_status *bad = row(all, n, "a-bad");
    CHECK(bad && bad->failed && !strcmp(bad->error, "a-bad: bad file") && bad->provider == &pa, "a-bad FAILED");
    CHECK(n == 6 && !strcmp(all[0].id, "a-1") && !strcmp(all[n - 1].id, "a-bad"), "oldest first: %zu", n);
    free(all);
    CHECK(!cuzk_params_list(m, &pb, &all, &n, &err) && n == 2, "list of one provider: %zu", n);
    free(all);

    /* larger than the whole budget */
    fake fc = {"c-", 2000, 0, 0, 0, NULL};
    cuzk_params_provider pc = {"fc", &fc, fake_claims, fake_describe, fake_load, fake_unload, NULL};
    CHECK(!cuzk_params_add_provider(m, &pc, &err), "add fc");
    CHECK(cuzk_params_acquire(m, &pc, "c-1", NULL, NULL, &e3, &ms, &err) == CUZK_E_NOMEM &&
              strstr(err.msg, "2000 bytes") && strstr(err.msg, "1000 bytes") && fc.unloads == 1,
          "larger than the budget: %s", err.msg);

    /* evict once released: COLD, the provider told to drop its caches */
    cuzk_params_release(m, e1);
    cuzk_params_release(m, e2);
    CHECK(!cuzk_params_evict(m, "a-1", &was, &freed, &err) && was && freed == 400 && fa.cold_unloads == 1,
          "evict a-1");
    CHECK(ev.calls == 1 && !strcmp(ev.last, "a-1"), "evict hook told of a-1's prover params: %d '%s'", ev.calls,
          ev.last);
    CHECK(cuzk_params_status_of(m, "a-1", &st) && st.tier == CUZK_PARAMS_COLD, "a-1 COLD");
    CHECK(!cuzk_params_evict(m, "a-1", &was, &freed, &err) && !was && freed == 0, "evict twice");
    CHECK(!cuzk_params_evict(m, "never", &was, &freed, &err) && !was, "evict of an id never loaded");
    CHECK(ev.calls == 1, "no hook for an entry not loaded: %d", ev.calls);

    /* remove_provider unloads its entries and returns their charge */
    uint64_t before = cuzk_budget_used(&b);
    cuzk_params_remove_provider(m, &pa);
    CHECK(cuzk_budget_used(&b) == before - 400 && !cuzk_params_status_of(m, "a-3", &st) &&
              !cuzk_params_provider_of(m, "a-1", &err),
          "remove_provider: used %llu -> %llu", (unsigned long long)before,
          (unsigned long long)cuzk_budget_used(&b));
    cuzk_params_mgr_destroy(m);
    CHECK(cuzk_budget_used(&b) == 0 && fa.loads == fa.unloads && fb.loads == fb.unloads, "destroy returns all");
    cuzk_budget_destroy(&b);
    return check_summary("engine_params_mgr");
}
