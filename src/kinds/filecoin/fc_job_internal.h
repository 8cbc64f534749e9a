/* Private to fc_job*.c: the per-kind operations behind fc_job. */
#ifndef CUZK_KINDS_FILECOIN_FC_JOB_INTERNAL_H
#define CUZK_KINDS_FILECOIN_FC_JOB_INTERNAL_H

#include <stdatomic.h>

#include "cs/cs.h"
#include "kinds/filecoin/fc_job.h"
#include "kinds/pce_cache.h"

typedef struct {
    /* Synthesize partition k into cs (any mode). */
    cuzk_status (*synthesize)(const fc_job *j, cs_t *cs, uint32_t k, cuzk_error *err);
    /* Public inputs of partition k, ONE excluded (out holds cap values). */
    cuzk_status (*public_inputs)(const fc_job *j, uint32_t k, fr_t *out, size_t cap, size_t *n, cuzk_error *err);
    /* Free the kind's data. */
    void (*free_data)(void *data);
    /* For the PCE (may be NULL: the kind then always synthesizes directly): copy the
     * circuit's plain-data shape (at most PCE_CACHE_SHAPE_MAX bytes) into `out`, and
     * synthesize the circuit of such a shape without values (CS_SHAPE / CS_RECORD). */
    void (*shape_of)(const fc_job *j, void *out);
    cuzk_status (*synth_shape)(const void *shape, cs_t *cs, cuzk_error *err);
    /* Whether the daemon's [srs] pce = "auto" synthesizes this family through its PCE
     * (fc_job_pce_faster): false where direct synthesis measured faster. */
    bool pce_faster;
} fc_job_ops;

struct fc_job {
    fc_job_type type;
    const fc_job_ops *ops;
    void *data;
    fc_circuit_id circuit;
    uint32_t partitions;
    size_t public_inputs; /* per partition, ONE excluded */
    fc_srs *srs;
    fc_srs_entry *entry; /* NULL for a check-only job */
    uint64_t srs_load_ms; /* time fc_job_create spent loading the parameters (0: already resident) */
    cs_prove_hint hint;
    cuzk_circuit_kind kind;
    cuzk_verify_hook hook;
    cuzk_abc_pool *abc_pool;     /* partitions' a/b/c from the engine's pool; NULL: malloc */
    cuzk_region_alloc abc_alloc; /* abc_pool as the cs's region allocator */
    pce_cache *pce; /* NULL: direct synthesis only */
    pce_cache_circuit pce_circuit;
    _Atomic uint32_t pce_partitions; /* partitions synthesized through the PCE */
};

/* Kind constructors: parse and validate req, fill j->ops, data, circuit, partitions,
 * public_inputs. */
cuzk_status fc_job_init_porep(fc_job *j, const fc_job_request *req, cuzk_error *err);
cuzk_status fc_job_init_post(fc_job *j, const fc_job_request *req, cuzk_error *err);
cuzk_status fc_job_init_snap(fc_job *j, const fc_job_request *req, cuzk_error *err);

/* A 32-byte request field, or an error naming it. */
cuzk_status fc_job_bytes32(const fc_bytes *b, const char *field, uint8_t out[32], cuzk_error *err);
/* The request's vanilla_proofs as the parallel arrays the filecoin readers take: *blobs and
 * *lens, n_vanilla_proofs entries each (at least one allocated), pointing into the request;
 * the caller frees both arrays. Errors: CUZK_E_NOMEM. */
cuzk_status fc_job_vanilla_arrays(const fc_job_request *req, const uint8_t ***blobs, size_t **lens, cuzk_error *err);

#endif
