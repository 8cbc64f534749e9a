/* The proving stack of a process, set up and torn down in one place: the prover backend
 * (backends/backends.h), the engine over it (engine/engine.h), the parameter manager
 * (engine/params_mgr.h), the Filecoin parameters as its "filecoin" provider
 * (kinds/filecoin/fc_srs.h) and the PCE cache (kinds/pce_cache.h). The daemon
 * (server/service.c), `cuzk c2 / post / snap` and their verify-* commands
 * (tools/cuzk/cmd_filecoin.c) and `cuzk-bench batch` (tools/bench/batch.c) each build theirs
 * here from one prover_stack_config.
 *
 * prover_stack_create makes, in this order, the parts its configuration asks for:
 *   1. the backend (backend_open of cfg.backend);
 *   2. the engine over it (cfg.engine, its .backend set to the backend's table);
 *   3. the parameter manager, charging the engine's memory budget when cfg.charge_params
 *      (parameters are then HOT / WARM / COLD under the budget as in the daemon), else
 *      nothing; its evict hook is the backend's forget_params when it has one (an evicted
 *      parameter set's device copy goes with it);
 *   4. the caller's own providers (cfg.add_providers: the daemon's circuit registry),
 *      registered before the Filecoin one so that an unknown id's message names them first;
 *   5. the Filecoin parameters (fc_srs_create of cfg.filecoin over that manager);
 *   6. the PCE cache (pce_cache_create of cfg.pce), charging the engine's budget (none
 *      without an engine), in the Filecoin parameters' cache directory unless cfg.pce names
 *      one. Nothing is recorded or loaded yet: a job's first use does that (fc_job_use_pce),
 *      in the background or in the caller as cfg.pce->background says.
 * prover_stack_destroy undoes them in the reverse order: the PCE cache and the providers
 * give their charges back and the manager its reclaimer before the engine's budget goes,
 * and the engine stops calling the backend's table before the backend closes. A failed
 * create undoes what it made the same way.
 *
 * Which parts: a prover has 1-5 (6 with PCEs); a serial baseline that drives the backend
 * without the pipeline has no engine (then nothing is charged); a verifier has neither
 * backend nor engine, only 3 and 5 (fc_srs_read_vk reads a .vk file, nothing else).
 *
 * Thread-safety: create and destroy on one thread, with no job in the engine and no
 * parameter or PCE entry held (release the jobs' sources first); the accessors from any
 * thread while the stack exists.
 */
#ifndef CUZK_PROVER_STACK_H
#define CUZK_PROVER_STACK_H

#include <stdbool.h>

#include "backends/backends.h"
#include "common/status.h"
#include "engine/engine.h"
#include "engine/params_mgr.h"
#include "kinds/filecoin/fc_srs.h"
#include "kinds/pce_cache.h"

typedef struct prover_stack prover_stack;

typedef struct {
    const backend_config *backend;    /* NULL: no backend and no engine (a verifier) */
    const cuzk_engine_config *engine; /* NULL: no engine (the backend alone); .backend is
                                         ignored (the stack's backend is used) */
    bool charge_params;               /* the manager charges the engine's budget (needs engine) */
    /* The caller's providers (step 4): add_providers(providers_ctx, ...) registers them
     * with the stack as it is then (backend, engine, manager; ctx need live only during
     * create) and sets *added to what remove_providers(added) takes down (e.g. the circuit
     * registry). remove_providers runs once, at destroy or when a later step of create
     * fails, after the PCE cache and the Filecoin provider are gone and before the manager
     * goes; never after a failed add (that cleans up itself). NULL add: none. */
    cuzk_status (*add_providers)(void *ctx, prover_stack *st, void **added, cuzk_error *err);
    void (*remove_providers)(void *added);
    void *providers_ctx;
    const fc_srs_config *filecoin;    /* NULL: no Filecoin parameters; .params and .budget
                                         are ignored (the stack's manager is used) */
    const pce_cache_config *pce;      /* NULL: no PCE cache; .budget is ignored (the engine's
                                         budget, or none), .cache_dir NULL: the Filecoin
                                         parameters' cache directory (fc_srs_cache_dir) */
} prover_stack_config;

/* Make the stack of cfg (see above); *out owns every part. Errors: those of the part that
 * failed, message unchanged (backend_open, cuzk_engine_create, cuzk_params_mgr_create,
 * add_providers, fc_srs_create, pce_cache_create); CUZK_E_INVALID_ARG for an engine without
 * a backend, charge_params without an engine, or a PCE cache with neither cache_dir nor
 * Filecoin parameters; CUZK_E_NOMEM. */
cuzk_status prover_stack_create(const prover_stack_config *cfg, prover_stack **out, cuzk_error *err);
/* Undo create (see above). The engine must be idle and every parameter and PCE entry
 * released. NULL is a no-op. */
void prover_stack_destroy(prover_stack *st);

/* The parts, NULL where the configuration asked for none; borrowed until destroy. */
backend *prover_stack_backend(const prover_stack *st);
cuzk_engine *prover_stack_engine(const prover_stack *st);
cuzk_params_mgr *prover_stack_params(const prover_stack *st);
fc_srs *prover_stack_fc_srs(const prover_stack *st);
pce_cache *prover_stack_pce(const prover_stack *st);

#endif
