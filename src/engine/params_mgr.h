/* Parameter manager: the proving keys (parameters, "SRS") of every circuit the engine proves,
 * keyed by a string id, loaded by the provider that owns the id, reference counted, tiered
 * and charged to the memory budget. The manager knows no circuit family: what an id means,
 * how it loads and how big it is come from its provider (cuzk_params_provider).
 *
 * Residency tiers (the proto's SRSStatus.Tier):
 *   HOT  - loaded; its bytes (the provider's count of resident bytes) are charged to the
 *          budget;
 *   WARM - unloaded by the budget's reclaim of an idle entry to make room (the provider may
 *          keep a fast way back, e.g. a point cache in the page cache);
 *   COLD - never loaded, or unloaded by cuzk_params_evict (the provider drops its caches).
 * An entry is loaded on first acquire (or preload) and stays HOT while idle, until the budget
 * needs its bytes (a partition or another entry that does not fit: idle entries go at once,
 * least recently released first) or an evict. An entry that a job holds is never unloaded.
 * Loading is charged after the provider's load returns (its byte count); when the charge
 * does not fit, idle entries are reclaimed, then the acquire waits for releases.
 *
 * Thread-safety: every function may be called from any thread except create/destroy; loads
 * run outside the manager's lock (one loader per entry, other acquirers wait for it); waiting
 * for budget room holds no lock; the providers' unload runs under the manager's lock (it must
 * not call back into the manager).
 */
#ifndef CUZK_ENGINE_PARAMS_MGR_H
#define CUZK_ENGINE_PARAMS_MGR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/budget.h"
#include "engine/sync.h"

#define CUZK_PARAMS_ID_MAX 64 /* longest id, NUL included */

/* One family of parameters. The table and its ctx are borrowed by the manager until destroy. */
typedef struct cuzk_params_provider {
    const char *name; /* the family of circuits it loads, for logs */
    void *ctx;
    /* True when `id` names one of this provider's entries (without loading anything). */
    bool (*claims)(void *ctx, const char *id);
    /* What ids this provider knows, for the error of an unknown id ("configured: a, b"). */
    void (*describe)(void *ctx, char *out, size_t cap);
    /* Load `id` (claimed): *handle receives the provider's object, *bytes the bytes it keeps
     * resident (charged to the budget while loaded). Called without any manager lock. */
    cuzk_status (*load)(void *ctx, const char *id, void **handle, uint64_t *bytes, cuzk_error *err);
    /* Free a loaded handle. `cold`: an evict (drop caches too); else a reclaim (tier WARM) or
     * the manager's destroy. */
    void (*unload)(void *ctx, void *handle, bool cold);
    /* Optional (NULL: none): the parameters a loaded handle's jobs pass to the prover
     * backend (cuzk_prover_backend.prove_start's params), for the evict hook below. */
    const void *(*prover_params)(void *ctx, const void *handle);
} cuzk_params_provider;

typedef struct cuzk_params_mgr cuzk_params_mgr;
typedef struct cuzk_params_entry cuzk_params_entry;

/* `budget` (may be NULL: nothing charged) gets the manager's reclaimer, removed at destroy,
 * which must come before the budget's. Errors: CUZK_E_NOMEM, the budget's reclaimer limit. */
cuzk_status cuzk_params_mgr_create(cuzk_budget *budget, cuzk_params_mgr **out, cuzk_error *err);
/* Unload every entry (all must have been released) and free. NULL is a no-op. */
void cuzk_params_mgr_destroy(cuzk_params_mgr *m);

/* Set the evict hook (NULL fn: none): fn(ctx, params) runs in cuzk_params_evict, under the
 * manager's lock (it must not call back into the manager), with the prover parameters of the
 * entry it is about to unload (the provider's prover_params); not on a budget reclaim (tier
 * WARM) nor at destroy. Set it before any evict; ctx is borrowed until it is unset or the
 * manager goes. */
void cuzk_params_set_evict_hook(cuzk_params_mgr *m, void (*fn)(void *ctx, const void *params), void *ctx);
/* Register a provider (at most 8). Errors: CUZK_E_NOMEM when full. */
cuzk_status cuzk_params_add_provider(cuzk_params_mgr *m, const cuzk_params_provider *p, cuzk_error *err);
/* Unload and forget every entry of p (none may be held) and unregister it: its owner calls
 * this before p or its ctx goes. Unknown p: nothing happens. */
void cuzk_params_remove_provider(cuzk_params_mgr *m, const cuzk_params_provider *p);
/* The provider claiming `id`, or NULL with cuzk_params_unknown's error. */
const cuzk_params_provider *cuzk_params_provider_of(cuzk_params_mgr *m, const char *id, cuzk_error *err);
/* Fill err (may be NULL) with CUZK_E_UNSUPPORTED "unknown circuit "<id>" (<each provider's
 * describe, in registration order, "; "-separated>)" and return CUZK_E_UNSUPPORTED. */
cuzk_status cuzk_params_unknown(cuzk_params_mgr *m, const char *id, cuzk_error *err);

/* Take a reference on `id` of provider p, loading and charging it first when needed. When
 * the charge does not fit, idle entries and the budget's other reclaimable caches go; when
 * it still does not fit, the call waits without any lock until a release makes room or
 * abort(abort_ctx) turns true (abort may be NULL). *load_ms (may be NULL) is the time spent
 * loading and waiting (0 on a hit). Errors: the provider's load errors; CUZK_E_NOMEM (out of
 * memory, or an entry larger than the whole budget: both sizes named); CUZK_E_CANCELLED;
 * CUZK_E_INVALID_ARG for an id of CUZK_PARAMS_ID_MAX bytes or more. */
cuzk_status cuzk_params_acquire(cuzk_params_mgr *m, const cuzk_params_provider *p, const char *id,
                                cuzk_abort_fn abort, void *abort_ctx, cuzk_params_entry **out, uint64_t *load_ms,
                                cuzk_error *err);
void cuzk_params_release(cuzk_params_mgr *m, cuzk_params_entry *e);

/* Accessors of an acquired entry (valid until its release). */
void *cuzk_params_handle(const cuzk_params_entry *e);
const char *cuzk_params_id(const cuzk_params_entry *e);
/* Budget bytes the entry holds (0 without a budget). */
uint64_t cuzk_params_charged(const cuzk_params_entry *e);

/* Load without keeping a reference; *already_loaded (may be NULL) tells whether it was HOT.
 * Idle entries are reclaimed for room as by acquire, but a preload never waits for running
 * jobs: CUZK_E_NOMEM "no room in the memory budget now" instead. Errors as acquire. */
cuzk_status cuzk_params_preload(cuzk_params_mgr *m, const cuzk_params_provider *p, const char *id,
                                bool *already_loaded, uint64_t *load_ms, cuzk_error *err);
/* Unload `id` (tier COLD, budget released; waits for a load in progress). An id never loaded
 * is not loaded (OK). Before the provider's unload, the evict hook (if set, and the provider
 * has prover_params) is told of the entry's prover parameters, so that copies of them
 * elsewhere (a GPU backend's device copy) go too. Errors: CUZK_E_INVALID_ARG when jobs still
 * hold it (count named). */
cuzk_status cuzk_params_evict(cuzk_params_mgr *m, const char *id, bool *was_loaded, uint64_t *freed_bytes,
                              cuzk_error *err);

typedef enum { CUZK_PARAMS_COLD, CUZK_PARAMS_WARM, CUZK_PARAMS_HOT } cuzk_params_tier;
const char *cuzk_params_tier_name(cuzk_params_tier t); /* "cold" "warm" "hot" */

/* One entry, for GetStatus and /status. */
typedef struct {
    char id[CUZK_PARAMS_ID_MAX];
    const cuzk_params_provider *provider;
    cuzk_params_tier tier; /* HOT exactly when loaded */
    bool loaded;
    bool failed;           /* the last load failed (error in `error`) */
    char error[1024];
    uint64_t size_bytes;   /* resident bytes (0 unless loaded) */
    uint32_t ref_count;
    double idle_ms;        /* since the last release or preload (0 while held or never used) */
} cuzk_params_status;

/* Snapshot of every entry ever acquired or preloaded, of provider p (NULL: all), oldest
 * first; malloc'ed array (free()). Errors: CUZK_E_NOMEM. */
cuzk_status cuzk_params_list(cuzk_params_mgr *m, const cuzk_params_provider *p, cuzk_params_status **out,
                             size_t *n, cuzk_error *err);
/* The status of one id; false when it has no entry. */
bool cuzk_params_status_of(cuzk_params_mgr *m, const char *id, cuzk_params_status *out);

#endif
