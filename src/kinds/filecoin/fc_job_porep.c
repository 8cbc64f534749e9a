/* PoRep C2 jobs: C1 parsed once (any wire form), checked against the request's miner and
 * sector, validated (filecoin/porep/porep.h fc_c1_validate), then one StackedDrg
 * partition circuit per partition. Contracts in fc_job.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep/challenges.h"
#include "filecoin/porep/porep.h"
#include "kinds/filecoin/fc_job_internal.h"

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

_Static_assert(sizeof(fc_porep_circuit_params) <= PCE_CACHE_SHAPE_MAX, "PoRep shape fits a PCE circuit");

/* Not pce_faster: direct synthesis writes a/b/c from the gadgets' word-form values at the
 * speed of streaming stores, and the PCE's products, reading a 5.9 GB PCE per 32 GiB
 * partition, measured slower (bench/synth-filecoin.sh --porep --pce --abc-pool, one thread:
 * 2.77 s against 1.87 s at 32 GiB; also slower at 8 MiB). */
static const fc_job_ops OPS = {synth, inputs, free_data, shape_of, synth_shape, false};

static void hex32(const uint8_t b[32], char out[65])
{
    for (int i = 0; i < 32; i++)
        snprintf(out + 2 * i, 3, "%02x", b[i]);
}

/* The request's miner and sector, when either is given, must agree with the C1 (Curio
 * verifies the proof with them, docs/engine.md#what-curio-sends): each against the C1's own
 * prover_id / sector_id where it carries them (C2Input wrapper; the envelope's SectorNum), and
 * together they must reproduce the C1's replica_id = SHA-256(prover_id, sector_id, ticket,
 * comm_d, porep_id) (rust-fil-proofs generate_replica_id). A value the request leaves out is
 * the C1's; a sector the C1 does not carry either is 0 (proto3: absent is 0, which the
 * reference proves and Curio verifies with). A sector alone is compared with the C1's
 * sector (envelope) or, when the C1 carries none, refused: without a prover id it cannot be
 * checked. On success the C1 carries the request's prover_id and sector_id. */
static cuzk_status check_miner_sector(fc_c1_output *c1, const fc_job_request *req, cuzk_error *err)
{
    if (!req->has_miner && !req->has_sector)
        return CUZK_OK;
    const bool c1_sector = c1->has_sector || c1->has_sector_number;
    char want[65], got[65];
    if (req->has_sector && c1_sector && req->sector_number != c1->sector_id)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "sector_number %llu does not match the C1's sector_id %llu (%s)",
                         (unsigned long long)req->sector_number, (unsigned long long)c1->sector_id,
                         c1->has_sector ? "the sector of its replica_id" : "its envelope's SectorNum");
    uint8_t prover_id[32], rid[32];
    if (req->has_miner) {
        fc_prover_id_from_actor(req->miner_id, prover_id);
        if (c1->has_sector && memcmp(prover_id, c1->prover_id, 32)) {
            hex32(prover_id, got);
            hex32(c1->prover_id, want);
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "miner_id %llu (prover_id %s) does not match the C1's prover_id %s (the prover of its replica_id)",
                             (unsigned long long)req->miner_id, got, want);
        }
    } else if (c1->has_sector) {
        memcpy(prover_id, c1->prover_id, 32);
    } else if (c1_sector) {
        return CUZK_OK; /* the sector matches the envelope's; no prover id to check further */
    } else {
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "sector_number %llu cannot be checked against the C1's replica_id without miner_id (the C1 "
                         "carries no prover_id)",
                         (unsigned long long)req->sector_number);
    }
    uint64_t sector = req->has_sector ? req->sector_number : c1_sector ? c1->sector_id : 0;
    fc_replica_id(prover_id, sector, c1->ticket, c1->comm_d, c1->registered_proof->porep_id, rid);
    if (memcmp(rid, c1->replica_id, 32)) {
        hex32(c1->replica_id, want);
        hex32(rid, got);
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "miner_id %llu%s and sector_number %llu%s give replica_id %s with the C1's ticket and "
                         "comm_d, but the C1's replica_id is %s",
                         (unsigned long long)(req->has_miner ? req->miner_id : 0),
                         req->has_miner ? "" : " (the C1's prover_id)", (unsigned long long)sector,
                         req->has_sector ? "" : c1_sector ? " (the C1's)" : " (not given: 0)", got, want);
    }
    memcpy(c1->prover_id, prover_id, 32);
    c1->sector_id = sector;
    c1->has_sector = true;
    return CUZK_OK;
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
    if ((st = check_miner_sector(&d->c1, req, err)))
        return st;
    if ((st = fc_c1_validate(&d->c1, &e)))
        return cuzk_fail(err, st, "vanilla_proof: %s", e.msg);
    fc_porep_circuit_params_of(p, &d->cp);
    j->circuit = fc_seal_circuit(p);
    j->partitions = d->c1.partitions;
    j->public_inputs = fc_porep_public_input_count(&d->cp);
    return CUZK_OK;
}
