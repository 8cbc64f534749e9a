/* PoRep C2 jobs: C1 parsed once (any wire form), checked against the request's miner and
 * sector, validated (filecoin/circuits/porep.h fc_c1_validate), then one StackedDrg
 * partition circuit per partition. Contracts in fc_job.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/filecoin/fc_job_internal.h"
#include "filecoin/challenges.h"
#include "filecoin/circuits/porep.h"

typedef struct {
    fc_c1_output c1;
    fc_porep_circuit_params cp;
} porep_data;

static cuzk_status synth(const fc_job *j, cs_t *cs, uint32_t k, cuzk_error *err)
{
    const porep_data *d = j->data;
    return fc_porep_synthesize(cs, &d->cp, &d->c1, k, err);
}

static cuzk_status inputs(const fc_job *j, uint32_t k, fr_t *out, size_t cap, size_t *n, cuzk_error *err)
{
    const porep_data *d = j->data;
    return fc_porep_public_inputs(&d->c1, k, out, cap, n, err);
}

static void free_data(void *p)
{
    porep_data *d = p;
    if (!d)
        return;
    fc_c1_free(&d->c1);
    free(d);
}

static void shape_of(const fc_job *j, void *out)
{
    const porep_data *d = j->data;
    memcpy(out, &d->cp, sizeof d->cp);
}

static cuzk_status synth_shape(const void *shape, cs_t *cs, cuzk_error *err)
{
    return fc_porep_synthesize(cs, shape, NULL, 0, err);
}

_Static_assert(sizeof(fc_porep_circuit_params) <= FC_PCE_SHAPE_MAX, "PoRep shape fits a PCE circuit");

static const fc_job_ops OPS = {synth, inputs, free_data, shape_of, synth_shape};

static void hex32(const uint8_t b[32], char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

cuzk_status fc_job_init_porep(fc_job *j, const fc_job_request *req, cuzk_error *err)
{
    if (!req->vanilla_proof.data || !req->vanilla_proof.len)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "vanilla_proof is empty: PoRep needs the C1 output");
    porep_data *d = calloc(1, sizeof *d);
    if (!d)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    j->ops = &OPS;
    j->data = d;
    cuzk_error e;
    cuzk_status st = fc_c1_read(&d->c1, req->vanilla_proof.data, req->vanilla_proof.len, FC_C1_JSON, true, &e);
    if (st)
        return cuzk_fail(err, st, "vanilla_proof: %s", e.msg);
    const fc_seal_proof *p = d->c1.registered_proof;
    /* Curio sends the seal proof type too (the reference ignores it,
     * docs/engine.md#what-curio-sends); proto3 cannot tell 0 from absent, so only a non-zero
     * value that contradicts the C1 is refused */
    if (req->registered_proof && req->registered_proof != p->id) {
        const fc_seal_proof *q = NULL;
        cuzk_error qe;
        if (fc_seal_proof_get(req->registered_proof, &q, &qe))
            q = NULL;
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "registered_proof %llu (%s) does not match the C1's %u (%s)",
                         (unsigned long long)req->registered_proof, q ? q->name : "unknown", p->id, p->name);
    }
    /* The request's miner and sector, when given, must reproduce the C1's replica_id with its
     * ticket and comm_d (Curio verifies the proof with them, docs/engine.md#what-curio-sends).
     * A value the request leaves out is taken from the C1 when the C1 carries it (C2Input
     * wrapper). */
    bool have_prover = req->has_miner || d->c1.has_sector, have_sector = req->has_sector || d->c1.has_sector;
    if ((req->has_miner || req->has_sector) && have_prover && have_sector) {
        uint8_t prover_id[32], rid[32];
        if (req->has_miner)
            fc_prover_id_from_actor(req->miner_id, prover_id);
        else
            memcpy(prover_id, d->c1.prover_id, 32);
        uint64_t sector = req->has_sector ? req->sector_number : d->c1.sector_id;
        fc_replica_id(prover_id, sector, d->c1.ticket, d->c1.comm_d, p->porep_id, rid);
        if (memcmp(rid, d->c1.replica_id, 32)) {
            char want[65], got[65];
            hex32(d->c1.replica_id, want);
            hex32(rid, got);
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "miner_id %llu%s and sector_number %llu%s give replica_id %s with the C1's ticket and "
                             "comm_d, but the C1's replica_id is %s",
                             (unsigned long long)(req->has_miner ? req->miner_id : 0),
                             req->has_miner ? "" : " (the C1's prover_id)", (unsigned long long)sector,
                             req->has_sector ? "" : " (the C1's)", got, want);
        }
        memcpy(d->c1.prover_id, prover_id, 32);
        d->c1.sector_id = sector;
        d->c1.has_sector = true;
    }
    if ((st = fc_c1_validate(&d->c1, &e)))
        return cuzk_fail(err, st, "vanilla_proof: %s", e.msg);
    fc_porep_circuit_params_of(p, &d->cp);
    j->circuit = fc_seal_circuit(p);
    j->partitions = d->c1.partitions;
    j->public_inputs = fc_porep_public_input_count(&d->cp);
    return CUZK_OK;
}
