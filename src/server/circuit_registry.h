/* Circuit registry: the named circuits the daemon can prove (ProofKind CIRCUIT) and their
 * parameters (the "SRS" entries of GetStatus; PreloadSRS / EvictSRS reach them through the
 * parameter manager).
 *
 * Names: every [[circuits]] entry of the config (a circom .r1cs + snarkjs .zkey, proved
 * by the engine's "r1cs" kind), and "synthetic-<k>" for 2 <= k <= CUZK_SYNTHETIC_MAX_K (the
 * engine's built-in "synthetic" kind of 2^k constraints; its parameters come from a
 * test-only setup with random toxic waste made when the entry is loaded).
 *
 * The entries live in the parameter manager (engine/params_mgr.h): this file is its "circuit"
 * provider. An entry is loaded on first use (acquire) or by preload, charged to the
 * manager's memory budget while loaded, stays loaded while idle until the budget needs its
 * bytes (tier WARM; reloaded on next use: a synthetic setup then draws new random toxic
 * waste) or an evict once no job holds it (ref_count 0). acquire/release bracket a job. A
 * load that fails leaves the entry unloaded and marked failed with its error (listed as
 * such) until a later acquire or preload loads it.
 *
 * Thread-safety: every function may be called from any thread except create/destroy.
 * Loading happens outside any lock (one loader per entry; other acquirers wait for it).
 */
#ifndef CUZK_SERVER_CIRCUIT_REGISTRY_H
#define CUZK_SERVER_CIRCUIT_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "engine/abc_pool.h"
#include "engine/backend.h"
#include "engine/kind.h"
#include "engine/params_mgr.h"
#include "server/config.h"

#define CUZK_SYNTHETIC_MAX_K 20

typedef struct cuzk_registry cuzk_registry;
typedef struct cuzk_circuit cuzk_circuit;

/* Build the registry from the config's [[circuits]] (nothing is loaded yet; the names are
 * copied) as a provider of `params` (borrowed: destroyed after the registry; NULL: an own
 * manager without a budget). `setup_threads` >= 1 is used for synthetic setups. Errors:
 * CUZK_E_NOMEM. */
cuzk_status cuzk_registry_create(const cuzk_server_config *cfg, unsigned setup_threads, cuzk_params_mgr *params,
                                 cuzk_registry **out, cuzk_error *err);
/* Circuits loaded from now on take their partitions' a/b/c from `pool` (the engine's,
 * borrowed; NULL: malloc). Call before the first acquire. */
void cuzk_registry_use_abc_pool(cuzk_registry *r, cuzk_abc_pool *pool);
/* Unload its entries and free everything. All acquired circuits must have been released.
 * NULL is a no-op. */
void cuzk_registry_destroy(cuzk_registry *r);

/* True if `name` is a circuit id this registry knows (loaded or not). */
bool cuzk_registry_knows(cuzk_registry *r, const char *name);

/* Take a reference on circuit `name`, loading it first if needed (blocking: reads the
 * .r1cs/.zkey or runs the synthetic setup, then waits for budget room until abort(abort_ctx)
 * turns true; abort may be NULL). *load_ms receives the time this call spent loading and
 * waiting (0 on a hit). Errors: CUZK_E_UNSUPPORTED for an unknown name (message lists what
 * is known, cuzk_params_unknown), the load errors of r1cs_read_file / zkey_read_file /
 * builtin_*_create (path and offset named), CUZK_E_NOMEM (also: larger than the whole
 * budget), CUZK_E_CANCELLED. */
cuzk_status cuzk_registry_acquire(cuzk_registry *r, const char *name, cuzk_abort_fn abort, void *abort_ctx,
                                  cuzk_circuit **out, uint64_t *load_ms, cuzk_error *err);
/* Drop a reference taken by acquire. */
void cuzk_registry_release(cuzk_registry *r, cuzk_circuit *c);

/* Accessors of an acquired circuit (valid until release). */
const char *cuzk_circuit_name(const cuzk_circuit *c);
bool cuzk_circuit_is_synthetic(const cuzk_circuit *c);
const cuzk_circuit_kind *cuzk_circuit_kind_of(const cuzk_circuit *c);
const void *cuzk_circuit_params(const cuzk_circuit *c);
const cuzk_verify_hook *cuzk_circuit_verify_hook(const cuzk_circuit *c);
/* r1cs circuits: wires per witness (n_wires of the .r1cs); 0 for synthetic ones. */
uint32_t cuzk_circuit_n_wires(const cuzk_circuit *c);

/* One SRS entry as shown by GetStatus and /status. */
typedef struct {
    char name[64];
    bool loaded;            /* parameters resident and charged (tier HOT), else COLD / WARM */
    bool load_failed;       /* not loaded because the last load failed (tier FAILED) */
    bool warm;              /* not loaded, unloaded for budget room: fast reload (tier WARM) */
    char load_error[1024];   /* that load's error message; "" unless load_failed */
    uint64_t size_bytes;    /* parameters held in memory (0 when not loaded) */
    uint32_t ref_count;     /* jobs holding the entry */
    double idle_ms;         /* since the last release (0 while in use or never used) */
} cuzk_srs_entry;

/* Snapshot: every configured circuit plus every loaded synthetic one, malloc'ed array in
 * *out (free()), count in *n. Errors: CUZK_E_NOMEM. */
cuzk_status cuzk_registry_list(cuzk_registry *r, cuzk_srs_entry **out, size_t *n, cuzk_error *err);

#endif
