/* Parameters (SRS) of the Filecoin circuits: the official v28 `.params` / `.vk` files found
 * by name in the parameter cache, served through the mapped point cache
 * (groth16/params_cache.h) with a reference count per circuit.
 *
 * Files: `<param_cache>/<stem>.params` and `<stem>.vk`, stem from registry.h fc_param_stem
 * (docs/formats.md#parameter-file-names-and-digests). param_cache is the configured directory
 * ([srs] param_cache), overridden by the environment variable FIL_PROOFS_PARAMETER_CACHE when
 * it is set and not empty, as rust-fil-proofs and the reference daemon read it (default
 * /var/tmp/filecoin-proof-parameters). The converted point caches live in cache_dir ([srs]
 * cache_dir), never in the parameter directory.
 *
 * Optional integrity check (verify_digests): before a point cache is (re)built, the
 * BLAKE2b-512 of the .params file must start with the manifest digest (parameters.json; and the .vk
 * likewise when it is read); test parameters made by `cuzk params gen` do not match it, so
 * the check is off by default.
 *
 * The entries live in a parameter manager (engine/params_mgr.h): this file is its "filecoin"
 * provider (ids "porep-32g", ... as fc_circuit_id_name writes them), over the manager shared
 * with the daemon's other circuits (fc_srs_config.params; prover/stack.h makes it so for the
 * daemon, the CLI and the benchmarks) or one of its own (tests; `cuzk daemon --check-config`,
 * which only names the files).
 *
 * Residency tiers (the proto's SRSStatus.Tier):
 *   HOT  - the point cache is mapped and its whole size is charged to the memory budget
 *          (the prover reads every point of it); mlock'ed when `lock` is set;
 *   WARM - unmapped to make room for another circuit (the budget's reclaim of an idle
 *          entry): the point cache is on disk and likely still in the page cache, so the
 *          next acquire maps it again without decoding anything;
 *   COLD - on disk only: never loaded, or evicted by fc_srs_evict, which also drops the
 *          cache file's pages from the page cache (posix_fadvise DONTNEED).
 * An entry is loaded on first acquire (or preload) and stays HOT while idle, until the
 * budget needs its bytes (a partition or another circuit's parameters that do not fit:
 * idle entries go at once, least recently used first) or fc_srs_evict. An entry that a job
 * holds is never unloaded. Budget charge = mapped point-cache bytes (resident bytes, not the
 * .params file size); building a missing point cache is not charged (it streams).
 *
 * Thread-safety: every function may be called from any thread; loading runs outside the
 * manager lock (one loader per entry, others wait); waiting for budget room holds no lock.
 */
#ifndef CUZK_KINDS_FILECOIN_FC_SRS_H
#define CUZK_KINDS_FILECOIN_FC_SRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/budget.h"
#include "engine/params_mgr.h"
#include "engine/sync.h"
#include "filecoin/core/registry.h"
#include "groth16/groth16.h"

#define FC_DEFAULT_PARAM_CACHE "/var/tmp/filecoin-proof-parameters"

typedef struct {
    const char *param_cache; /* NULL = FC_DEFAULT_PARAM_CACHE (the environment still wins) */
    const char *cache_dir;   /* where point caches are written; NULL = $XDG_CACHE_HOME/cuzk, else
                                $HOME/.cache/cuzk, else /var/tmp/cuzk-cache */
    bool verify_digests;     /* BLAKE2b manifest check before building a cache */
    bool verify_checksums;   /* hash every section of an existing point cache when loading */
    unsigned threads;        /* decoding / hashing threads, 0 = online CPUs */
    cuzk_budget *budget;     /* without `params`: charged by HOT entries (NULL: no accounting);
                                the own manager registers a reclaimer on it (released at
                                destroy, which must come before the budget's) */
    bool lock;               /* mlock HOT entries ([srs] lock_memory); a failure is logged */
    cuzk_params_mgr *params; /* the parameter manager to register with (borrowed; it must
                                outlive this fc_srs and be destroyed after it), or NULL: an
                                own one over `budget` */
} fc_srs_config;

typedef struct fc_srs fc_srs;
typedef struct fc_srs_entry fc_srs_entry;

/* Errors: CUZK_E_NOMEM (also: the manager's providers are full), the budget's reclaimer
 * limit. The strings of cfg are copied. */
cuzk_status fc_srs_create(const fc_srs_config *cfg, fc_srs **out, cuzk_error *err);
/* All entries must have been released. Every entry is unloaded (its budget charge returned):
 * the provider leaves a shared manager (cuzk_params_remove_provider), or the own manager is
 * destroyed. NULL is a no-op. */
void fc_srs_destroy(fc_srs *m);

/* The parameter directory in effect (environment applied) and the cache directory. */
const char *fc_srs_param_cache(const fc_srs *m);
const char *fc_srs_cache_dir(const fc_srs *m);

/* Path of a circuit's file: "<param_cache>/<stem>.params" (vk false) or ".vk"; malloc'ed. */
char *fc_srs_file(const fc_srs *m, const fc_circuit_id *c, bool vk);

/* Take a reference on circuit c, loading it first when needed. Loading charges the budget:
 * when the entry does not fit, idle entries (of any circuit) and other reclaimable caches
 * are unloaded; when it still does not fit (the room is held by running jobs) the call
 * waits, without any lock, until a release makes room or abort(abort_ctx) turns true
 * (abort may be NULL). *load_ms (may be NULL) is the time this call spent loading and
 * waiting (0 on a hit). Errors: CUZK_E_IO naming the missing file and the directory
 * searched (and `cuzk params gen` for test parameters), the .params / cache errors,
 * CUZK_E_VERIFY_FAILED (manifest digest mismatch: both digests), CUZK_E_NOMEM (out of
 * memory, or parameters larger than the whole budget: both sizes named), CUZK_E_CANCELLED. */
cuzk_status fc_srs_acquire(fc_srs *m, const fc_circuit_id *c, cuzk_abort_fn abort, void *abort_ctx,
                           fc_srs_entry **out, uint64_t *load_ms, cuzk_error *err);
void fc_srs_release(fc_srs *m, fc_srs_entry *e);

/* Accessors of an acquired entry (valid until release). */
const groth16_params_t *fc_srs_params(const fc_srs_entry *e);
const groth16_pvk_t *fc_srs_pvk(const fc_srs_entry *e);
fc_circuit_id fc_srs_circuit(const fc_srs_entry *e);
/* Budget bytes the acquired entry holds (its mapped point cache; 0 without a budget).
 * They cannot give way while the entry is acquired. */
uint64_t fc_srs_charged(const fc_srs_entry *e);

/* Load without keeping a reference; *already_loaded / *load_ms as the reference's
 * PreloadSRS. Idle entries are reclaimed for room as by acquire, but a preload never waits
 * for running jobs: CUZK_E_NOMEM "no room in the memory budget now" instead. Errors as
 * acquire. */
cuzk_status fc_srs_preload(fc_srs *m, const fc_circuit_id *c, bool *already_loaded, uint64_t *load_ms,
                           cuzk_error *err);
/* Unload c (tier COLD: unmapped, budget released, page cache dropped). Errors:
 * CUZK_E_INVALID_ARG when jobs still hold it (count named). */
cuzk_status fc_srs_evict(fc_srs *m, const fc_circuit_id *c, bool *was_loaded, uint64_t *freed_bytes, cuzk_error *err);

/* One loaded or failed circuit, for GetStatus and /status. */
typedef enum { FC_SRS_COLD, FC_SRS_WARM, FC_SRS_HOT } fc_srs_tier;
const char *fc_srs_tier_name(fc_srs_tier t); /* "cold" "warm" "hot" */

typedef struct {
    char name[32];       /* "porep-32g" */
    fc_srs_tier tier;    /* HOT exactly when loaded */
    bool loaded;
    bool failed;         /* the last load failed (error in `error`) */
    char error[1024];
    uint64_t size_bytes; /* mapped point cache bytes */
    uint32_t ref_count;
    double idle_ms;
} fc_srs_status;

/* Snapshot of every entry ever acquired, malloc'ed array (free()). Errors: CUZK_E_NOMEM. */
cuzk_status fc_srs_list(fc_srs *m, fc_srs_status **out, size_t *n, cuzk_error *err);

/* Read only the verifying key of c from "<stem>.vk" (verifiers need no proving key): *vk
 * owns its ic array (bp_vk_free). Errors: the .vk reader's (path named), manifest digest
 * mismatch when verify_digests. */
cuzk_status fc_srs_read_vk(const fc_srs *m, const fc_circuit_id *c, groth16_vk_t *vk, cuzk_error *err);

#endif
