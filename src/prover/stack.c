/* The proving stack of a process; contracts and order in stack.h. */
#include "prover/stack.h"

#include <stdlib.h>

struct prover_stack {
    backend *backend;
    cuzk_engine *engine;
    cuzk_params_mgr *params;
    void (*remove_providers)(void *added); /* set once add_providers succeeded */
    void *added;                           /* what add_providers set up */
    fc_srs *fc_srs;
    pce_cache *pce;
};

backend *prover_stack_backend(const prover_stack *st) { return st->backend; }
cuzk_engine *prover_stack_engine(const prover_stack *st) { return st->engine; }
cuzk_params_mgr *prover_stack_params(const prover_stack *st) { return st->params; }
fc_srs *prover_stack_fc_srs(const prover_stack *st) { return st->fc_srs; }
pce_cache *prover_stack_pce(const prover_stack *st) { return st->pce; }

void prover_stack_destroy(prover_stack *st)
{
    if (!st)
        return;
    /* the charges on the engine's budget (PCE mappings, parameters) and the manager's
     * reclaimer go before the budget does, with the engine */
    pce_cache_destroy(st->pce);
    fc_srs_destroy(st->fc_srs);
    if (st->remove_providers)
        st->remove_providers(st->added);
    cuzk_params_mgr_destroy(st->params);
    /* the engine's workers call the backend's table until the engine is gone */
    cuzk_engine_destroy(st->engine);
    backend_close(st->backend);
    free(st);
}

/* The configuration's combinations that cannot work, before anything is made. */
static cuzk_status check_config(const prover_stack_config *cfg, cuzk_error *err)
{
    if (cfg->engine && !cfg->backend)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "prover stack: an engine needs a backend");
    if (cfg->charge_params && !cfg->engine)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "prover stack: charge_params needs an engine (its budget)");
    if (cfg->pce && !cfg->pce->cache_dir && !cfg->filecoin)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "prover stack: the PCE cache needs a cache_dir or the Filecoin parameters' one");
    return CUZK_OK;
}

cuzk_status prover_stack_create(const prover_stack_config *cfg, prover_stack **out, cuzk_error *err)
{
    *out = NULL;
    cuzk_status st = check_config(cfg, err);
    if (st)
        return st;
    prover_stack *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_fail(err, CUZK_E_NOMEM, "prover stack: out of memory");
    if (cfg->backend && (st = backend_open(cfg->backend, &s->backend, err)))
        goto fail;
    if (cfg->engine) {
        cuzk_engine_config ec = *cfg->engine;
        ec.backend = backend_table(s->backend);
        if ((st = cuzk_engine_create(&ec, &s->engine, err)))
            goto fail;
    }
    cuzk_budget *budget = s->engine ? cuzk_engine_budget(s->engine) : NULL;
    if ((st = cuzk_params_mgr_create(cfg->charge_params ? budget : NULL, &s->params, err)))
        goto fail;
    /* an evicted parameter set's copies in the backend (device-resident bases) go with it */
    const cuzk_prover_backend *table = s->backend ? backend_table(s->backend) : NULL;
    if (table && table->forget_params)
        cuzk_params_set_evict_hook(s->params, table->forget_params, table->ctx);
    if (cfg->add_providers) {
        void *added = NULL;
        if ((st = cfg->add_providers(cfg->providers_ctx, s, &added, err)))
            goto fail;
        s->remove_providers = cfg->remove_providers;
        s->added = added;
    }
    if (cfg->filecoin) {
        fc_srs_config sc = *cfg->filecoin;
        sc.params = s->params;
        sc.budget = NULL;
        if ((st = fc_srs_create(&sc, &s->fc_srs, err)))
            goto fail;
    }
    if (cfg->pce) {
        pce_cache_config pc = *cfg->pce;
        pc.budget = budget;
        if (!pc.cache_dir)
            pc.cache_dir = fc_srs_cache_dir(s->fc_srs);
        if ((st = pce_cache_create(&pc, &s->pce, err)))
            goto fail;
    }
    *out = s;
    return CUZK_OK;
fail:
    prover_stack_destroy(s);
    return st;
}
