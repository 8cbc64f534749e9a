/* Parameters (SRS) of the Filecoin circuits: the official v28 `.params` / `.vk` files found
 * by name in the parameter cache, served through the mapped point cache
 * (groth16/params_cache.h) with a reference count per circuit.
 *
 * Files: `<param_cache>/<stem>.params` and `<stem>.vk`, stem from registry.h fc_param_stem
 * (filecoin-circuits.md §1.6). param_cache is the configured directory ([srs] param_cache),
 * overridden by the environment variable FIL_PROOFS_PARAMETER_CACHE when it is set and not
 * empty, as rust-fil-proofs and the reference daemon read it (default
 * /var/tmp/filecoin-proof-parameters). The converted point caches live in cache_dir ([srs]
 * cache_dir), never in the parameter directory.
 *
 * Optional integrity check (verify_digests): before a point cache is (re)built, the
 * BLAKE2b-512 of the .params file must start with the manifest digest of §1.6 (and the .vk
 * likewise when it is read); test parameters made by `cuzk params gen` do not match it, so
 * the check is off by default.
 *
 * An entry is loaded on first acquire (or preload), stays resident while idle, and is
 * unloaded by evict once no job holds it. Thread-safety: every function may be called from
 * any thread; loading runs outside the manager lock (one loader per entry, others wait).
 */
#ifndef CUZK_ENGINE_FILECOIN_FC_SRS_H
#define CUZK_ENGINE_FILECOIN_FC_SRS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/registry.h"
#include "groth16/groth16.h"

#define FC_DEFAULT_PARAM_CACHE "/var/tmp/filecoin-proof-parameters"

typedef struct {
    const char *param_cache; /* NULL = FC_DEFAULT_PARAM_CACHE (the environment still wins) */
    const char *cache_dir;   /* where point caches are written; NULL = $XDG_CACHE_HOME/cuzk, else
                                $HOME/.cache/cuzk, else /var/tmp/cuzk-cache */
    bool verify_digests;     /* BLAKE2b manifest check before building a cache */
    bool verify_checksums;   /* hash every section of an existing point cache when loading */
    unsigned threads;        /* decoding / hashing threads, 0 = online CPUs */
} fc_srs_config;

typedef struct fc_srs fc_srs;
typedef struct fc_srs_entry fc_srs_entry;

/* Errors: CUZK_E_NOMEM. The strings of cfg are copied. */
cuzk_status fc_srs_create(const fc_srs_config *cfg, fc_srs **out, cuzk_error *err);
/* All entries must have been released. NULL is a no-op. */
void fc_srs_destroy(fc_srs *m);

/* The parameter directory in effect (environment applied) and the cache directory. */
const char *fc_srs_param_cache(const fc_srs *m);
const char *fc_srs_cache_dir(const fc_srs *m);

/* Path of a circuit's file: "<param_cache>/<stem>.params" (vk false) or ".vk"; malloc'ed. */
char *fc_srs_file(const fc_srs *m, const fc_circuit_id *c, bool vk);

/* Take a reference on circuit c, loading it first when needed. *load_ms (may be NULL) is
 * the time this call spent loading (0 on a hit). Errors: CUZK_E_IO naming the missing file
 * and the directory searched (and `cuzk params gen` for test parameters), the .params /
 * cache errors, CUZK_E_VERIFY_FAILED (manifest digest mismatch: both digests), CUZK_E_NOMEM. */
cuzk_status fc_srs_acquire(fc_srs *m, const fc_circuit_id *c, fc_srs_entry **out, uint64_t *load_ms, cuzk_error *err);
void fc_srs_release(fc_srs *m, fc_srs_entry *e);

/* Accessors of an acquired entry (valid until release). */
const groth16_params_t *fc_srs_params(const fc_srs_entry *e);
const groth16_pvk_t *fc_srs_pvk(const fc_srs_entry *e);
fc_circuit_id fc_srs_circuit(const fc_srs_entry *e);

/* Load without keeping a reference; *already_loaded / *load_ms as the reference's
 * PreloadSRS. Errors as acquire. */
cuzk_status fc_srs_preload(fc_srs *m, const fc_circuit_id *c, bool *already_loaded, uint64_t *load_ms,
                           cuzk_error *err);
/* Unload c. Errors: CUZK_E_INVALID_ARG when jobs still hold it (count named). */
cuzk_status fc_srs_evict(fc_srs *m, const fc_circuit_id *c, bool *was_loaded, uint64_t *freed_bytes, cuzk_error *err);

/* One loaded or failed circuit, for GetStatus and /status. */
typedef struct {
    char name[32];       /* "porep-32g" */
    bool loaded;
    bool failed;         /* the last load failed (error in `error`) */
    char error[256];
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
