/* Unit tests of the proving stack (prover/stack.h) with the CPU backend, a small engine and a
 * fake parameter provider added through the providers hook: the configurations that cannot
 * work are refused before anything is made; the hook runs after the manager and the engine
 * exist and before the Filecoin provider, so an unknown id's message names the hook's
 * provider first; charge_params charges the engine's budget exactly the provider's bytes
 * (and nothing without it); destroy removes the hook's providers after the Filecoin provider
 * and the PCE cache and before the manager; a later step that fails (a PCE cache without a
 * directory) undoes the hook once and returns that step's message unchanged; a failing hook
 * is never undone; a verifier's stack has neither backend nor engine. Expected values come
 * from the header's contract (order, charges) and the fake's own byte count. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "prover/stack.h"

#define FAKE_BYTES 4096

typedef struct {
    cuzk_params_provider p;
    cuzk_params_mgr *mgr;             /* where it was added */
    int loads, unloads;
    int adds, removes;
    bool saw_engine, saw_no_fc_srs;   /* the stack as the hook saw it */
    bool fc_gone_at_remove;           /* the Filecoin provider was gone when remove ran */
    bool fail_add;
} fake;

static bool fake_claims(void *ctx, const char *id)
{
    (void)ctx;
    return !strncmp(id, "fake-", 5);
}

static void fake_describe(void *ctx, char *out, size_t cap)
{
    (void)ctx;
    snprintf(out, cap, "fake: fake-*");
}

static cuzk_status fake_load(void *ctx, const char *id, void **handle, uint64_t *bytes, cuzk_error *err)
{
    fake *f = ctx;
    (void)err;
    f->loads++;
    *handle = strdup(id);
    *bytes = FAKE_BYTES;
    return CUZK_OK;
}

static void fake_unload(void *ctx, void *handle, bool cold)
{
    fake *f = ctx;
    (void)cold;
    f->unloads++;
    free(handle);
}

static cuzk_status add_fake(void *ctx, prover_stack *st, void **added, cuzk_error *err)
{
    fake *f = ctx;
    f->adds++;
    if (f->fail_add)
        return cuzk_fail(err, CUZK_E_FORMAT, "fake: refused");
    f->saw_engine = prover_stack_engine(st) != NULL && prover_stack_backend(st) != NULL;
    f->saw_no_fc_srs = prover_stack_fc_srs(st) == NULL && prover_stack_pce(st) == NULL;
    f->mgr = prover_stack_params(st);
    f->p = (cuzk_params_provider){"fake", f, fake_claims, fake_describe, fake_load, fake_unload, NULL};
    cuzk_status rc = cuzk_params_add_provider(f->mgr, &f->p, err);
    if (!rc)
        *added = f;
    return rc;
}

static void remove_fake(void *added)
{
    fake *f = added;
    f->removes++;
    f->fc_gone_at_remove = cuzk_params_provider_of(f->mgr, "porep-2k", NULL) == NULL;
    cuzk_params_remove_provider(f->mgr, &f->p);
}

typedef struct {
    backend_config bc;
    cuzk_engine_config ec;
    fc_srs_config sc;
    pce_cache_config pc;
    prover_stack_config cfg;
} setup;

/* A full stack's configuration: CPU backend, engine of 1/1/1 workers and a 1 GiB budget, the
 * fake provider, Filecoin parameters in `dir`, a PCE cache in their cache directory. */
static void full(setup *s, fake *f, const char *dir)
{
    memset(s, 0, sizeof *s);
    backend_config_default(&s->bc);
    s->bc.kind = BACKEND_CPU;
    cuzk_engine_config_default(&s->ec);
    s->ec.partition_workers = 1;
    s->ec.finalizer_threads = 1;
    s->ec.memory_budget_auto = false;
    s->ec.memory_budget_bytes = 1ull << 30;
    s->sc = (fc_srs_config){.param_cache = dir, .cache_dir = dir, .threads = 1};
    s->pc = (pce_cache_config){.record = true, .eval_threads = 1};
    s->cfg = (prover_stack_config){.backend = &s->bc, .engine = &s->ec, .charge_params = true,
                                   .add_providers = add_fake, .remove_providers = remove_fake,
                                   .providers_ctx = f, .filecoin = &s->sc, .pce = &s->pc};
}

static uint64_t budget_used(prover_stack *st)
{
    cuzk_counter_value c[CUZK_COUNTER_COUNT];
    cuzk_engine_counters(prover_stack_engine(st), c);
    return (uint64_t)c[CUZK_CTR_MEMORY_USED_BYTES].current;
}

static void refused(const setup *s, const char *want, const char *what)
{
    prover_stack *st = (prover_stack *)1;
    cuzk_error err = {0};
    cuzk_status rc = prover_stack_create(&s->cfg, &st, &err);
    CHECK(rc == CUZK_E_INVALID_ARG && !st && strstr(err.msg, want), "%s: rc %d, %s", what, rc, err.msg);
}

int main(void)
{
    char dir[] = "/tmp/cuzk-stack-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    setup s;
    fake f;
    cuzk_error err = {0};

    /* combinations that cannot work, refused before anything is made */
    memset(&f, 0, sizeof f);
    full(&s, &f, dir);
    s.cfg.backend = NULL;
    refused(&s, "an engine needs a backend", "engine without backend");
    full(&s, &f, dir);
    s.cfg.engine = NULL;
    refused(&s, "charge_params needs an engine", "charge without engine");
    full(&s, &f, dir);
    s.cfg.filecoin = NULL;
    refused(&s, "needs a cache_dir", "PCE without a directory");
    CHECK(f.adds == 0, "nothing made on a refused configuration: %d adds", f.adds);

    /* the full stack */
    memset(&f, 0, sizeof f);
    full(&s, &f, dir);
    prover_stack *st = NULL;
    cuzk_status rc = prover_stack_create(&s.cfg, &st, &err);
    CHECK(rc == CUZK_OK && st, "full stack: %s", err.msg);
    if (st) {
        CHECK(f.adds == 1 && f.saw_engine && f.saw_no_fc_srs,
              "the hook ran once after the engine, before the Filecoin parameters (%d, %d, %d)", f.adds,
              f.saw_engine, f.saw_no_fc_srs);
        CHECK(prover_stack_backend(st) && prover_stack_engine(st) && prover_stack_fc_srs(st) && prover_stack_pce(st),
              "every part made");
        CHECK(!strcmp(fc_srs_cache_dir(prover_stack_fc_srs(st)), dir), "the Filecoin cache directory");
        cuzk_params_mgr *m = prover_stack_params(st);
        cuzk_params_unknown(m, "zz", &err);
        const char *fk = strstr(err.msg, "fake: fake-*"), *fc = strstr(err.msg, "Filecoin");
        CHECK(fk && fc && fk < fc, "unknown id names the hook's provider first: %s", err.msg);
        const cuzk_params_provider *p = cuzk_params_provider_of(m, "porep-2k", &err);
        CHECK(p && !strcmp(p->name, "filecoin"), "porep-2k belongs to the Filecoin provider");
        CHECK(budget_used(st) == 0, "nothing charged before a load: %llu", (unsigned long long)budget_used(st));
        bool already = true;
        rc = cuzk_params_preload(m, &f.p, "fake-a", &already, NULL, &err);
        CHECK(rc == CUZK_OK && !already && f.loads == 1, "preload: %s", err.msg);
        CHECK(budget_used(st) == FAKE_BYTES, "charge_params: the engine's budget holds the %d bytes: %llu", FAKE_BYTES,
              (unsigned long long)budget_used(st));
        prover_stack_destroy(st);
        CHECK(f.removes == 1 && f.fc_gone_at_remove, "remove ran once, after the Filecoin provider went (%d, %d)",
              f.removes, f.fc_gone_at_remove);
        CHECK(f.unloads == 1, "the loaded entry unloaded at destroy: %d", f.unloads);
    }

    /* parameters not charged */
    memset(&f, 0, sizeof f);
    full(&s, &f, dir);
    s.cfg.charge_params = false;
    st = NULL;
    rc = prover_stack_create(&s.cfg, &st, &err);
    CHECK(rc == CUZK_OK, "uncharged stack: %s", err.msg);
    if (st) {
        rc = cuzk_params_preload(prover_stack_params(st), &f.p, "fake-a", NULL, NULL, &err);
        CHECK(rc == CUZK_OK && f.loads == 1 && budget_used(st) == 0, "not charged: %llu",
              (unsigned long long)budget_used(st));
        prover_stack_destroy(st);
    }

    /* the last step fails: its message, and the hook undone once */
    memset(&f, 0, sizeof f);
    full(&s, &f, dir);
    s.pc.cache_dir = "";
    st = (prover_stack *)1;
    rc = prover_stack_create(&s.cfg, &st, &err);
    CHECK(rc == CUZK_E_INVALID_ARG && !st && !strcmp(err.msg, "pce: no cache directory"), "failed PCE step: %d %s",
          rc, err.msg);
    CHECK(f.adds == 1 && f.removes == 1 && f.fc_gone_at_remove, "the hook undone once after a later failure (%d, %d)",
          f.adds, f.removes);

    /* a failing hook: its error, never undone */
    memset(&f, 0, sizeof f);
    full(&s, &f, dir);
    f.fail_add = true;
    st = (prover_stack *)1;
    rc = prover_stack_create(&s.cfg, &st, &err);
    CHECK(rc == CUZK_E_FORMAT && !st && !strcmp(err.msg, "fake: refused") && f.removes == 0, "failing hook: %d %s",
          rc, err.msg);

    /* a verifier's stack: the parameters alone */
    prover_stack_config vc = {.filecoin = &s.sc};
    st = NULL;
    rc = prover_stack_create(&vc, &st, &err);
    CHECK(rc == CUZK_OK && st && !prover_stack_backend(st) && !prover_stack_engine(st) && prover_stack_params(st) &&
              prover_stack_fc_srs(st) && !prover_stack_pce(st),
          "verifier stack: %s", err.msg);
    prover_stack_destroy(st);
    prover_stack_destroy(NULL);

    rmdir(dir);
    return check_summary("prover_stack");
}
