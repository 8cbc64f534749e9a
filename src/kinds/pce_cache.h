/* PCE cache: the pre-compiled constraint evaluators (cs/pce.h) of any circuit kind's
 * circuits (today the Filecoin kinds, kinds/filecoin/fc_job.h; a circom circuit can use it
 * as well), one per (circuit id, parameters), kept as files in the cache directory ([srs]
 * cache_dir, never the parameter directory) and mapped read-only while in use
 * (docs/engine.md#pce, fixing the reference's unused PCE: here it is used by partition
 * synthesis, loaded from disk after a restart, fingerprinted, and charged to the budget).
 *
 * Life of an entry:
 *   ABSENT   nothing loaded. A get (the first proof of a shape, or any later one) starts
 *            the work: map "<cache_dir>/<circuit>-<key>.cuzkpce" (key: the first 8 bytes
 *            of the key id in hex) if it exists and passes every
 *            check of cs_pce_map against the expected identity (circuit id and the
 *            parameters' key id: a PCE of another circuit or parameter set is refused);
 *            otherwise (missing, stale, corrupt) record it: a CS_SHAPE pass for the exact
 *            sizes, then CS_RECORD into the compact form, written atomically, then mapped.
 *   BUSY     that work is running (on a thread of its own when `background`, else in the
 *            caller); gets return no PCE meanwhile, so synthesis never waits for it.
 *   READY    mapped; gets return it with a reference.
 *   FAILED   recording is impossible (e.g. more coefficients than the dictionary holds) or
 *            the PCE was rejected by a row check; gets return no PCE (direct synthesis).
 * Budget (optional): the mapping of a READY entry is charged at its file size, and a
 * recording reserves its exact working set (cs_pce_bytes plus the density bitmaps) for its
 * duration. Both use cuzk_budget_try_acquire: when the room is not there the entry stays
 * ABSENT and a later get tries again, so the PCE never delays or blocks proving.
 * An entry with references is never unloaded; pce_cache_evict unloads an idle one.
 *
 * Errors of the background work are logged (a refused file at WARN with the reason) and kept
 * in the entry (pce_cache_list).
 * Thread-safety: every function may be called from any thread. Lock order: the manager's
 * mutex, then the budget's.
 */
#ifndef CUZK_KINDS_PCE_CACHE_H
#define CUZK_KINDS_PCE_CACHE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "cs/pce.h"
#include "engine/budget.h"
#include "groth16/groth16.h"

#define PCE_CACHE_SHAPE_MAX 128

/* How to (re)build the PCE of one circuit, independent of any job: its identity and a
 * synthesis of the circuit without values (CS_SHAPE / CS_RECORD) from a copied plain-data
 * description of its shape (e.g. the Filecoin kind's fc_porep_circuit_params). */
typedef struct {
    cs_pce_identity id;
    cuzk_status (*synthesize)(const void *shape, cs_t *cs, cuzk_error *err);
    uint8_t shape[PCE_CACHE_SHAPE_MAX];
} pce_cache_circuit;

typedef struct {
    const char *cache_dir; /* required; created when missing */
    cuzk_budget *budget;   /* optional (NULL: nothing charged) */
    bool background;       /* load / record on a thread of its own (daemon); else in the caller */
    bool record;           /* record missing PCEs (else only existing files are used) */
    unsigned eval_threads; /* threads of one partition's products (0 = 1: partitions run in parallel) */
} pce_cache_config;

typedef struct pce_cache pce_cache;
typedef struct pce_cache_entry pce_cache_entry;

/* Errors: CUZK_E_INVALID_ARG (no cache_dir), CUZK_E_NOMEM. Strings are copied. */
cuzk_status pce_cache_create(const pce_cache_config *cfg, pce_cache **out, cuzk_error *err);
/* Wait for background work, unmap and release everything. No entry may be held. NULL is a
 * no-op. */
void pce_cache_destroy(pce_cache *m);

/* The parameters' key id: SHA-256 of the bellperson encoding of the verifying key. */
void pce_cache_key_id(const groth16_params_t *pk, uint8_t out[32]);

/* The READY PCE of circuit c with a reference (release with pce_cache_put), or NULL: then, if
 * the entry is ABSENT, its loading / recording is started (in the background, or done here
 * when !background, and returned when it succeeded). Never fails: errors are kept in the
 * entry (pce_cache_list) and logged. */
pce_cache_entry *pce_cache_get(pce_cache *m, const pce_cache_circuit *c);
void pce_cache_put(pce_cache *m, pce_cache_entry *e);
const cs_pce *pce_cache_data(const pce_cache_entry *e);

/* Products threads of a partition (the configuration's eval_threads, at least 1). */
unsigned pce_cache_eval_threads(const pce_cache *m);

/* The PCE of a held entry gave a/b/c that fail a constraint while direct synthesis of the
 * same witness satisfies it: the PCE does not describe the circuit. Marks the entry FAILED
 * with `why`, deletes its file, and unloads it once the last reference is put. */
void pce_cache_reject(pce_cache *m, pce_cache_entry *e, const char *why);

/* Block until no load or recording is running (tests, benchmarks, shutdown). */
void pce_cache_wait_idle(pce_cache *m);

/* Unload the idle READY entry named `circuit` (all its key ids). *freed_bytes: the mapping
 * bytes released. Errors: CUZK_E_INVALID_ARG when it is in use (reference count named). */
cuzk_status pce_cache_evict(pce_cache *m, const char *circuit, uint64_t *freed_bytes, cuzk_error *err);

typedef enum { PCE_CACHE_ABSENT = 0, PCE_CACHE_BUSY, PCE_CACHE_READY, PCE_CACHE_FAILED } pce_cache_state;
/* "absent", "busy", "ready", "failed". */
const char *pce_cache_state_name(pce_cache_state s);

typedef struct {
    char circuit[32];
    pce_cache_state state;
    uint64_t size_bytes; /* mapped bytes (READY) */
    uint32_t ref_count;
    uint64_t recorded;   /* recordings made by this manager */
    uint64_t loaded;     /* successful mappings */
    double record_ms, load_ms; /* the last recording / mapping */
    char error[256];     /* the last error or refusal, "" when none */
} pce_cache_status;

/* Snapshot of every entry, malloc'ed array (free()). Errors: CUZK_E_NOMEM. */
cuzk_status pce_cache_list(pce_cache *m, pce_cache_status **out, size_t *n, cuzk_error *err);

#endif
