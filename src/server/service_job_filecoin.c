/* The Filecoin request family (service_internal.h svc_job_filecoin_ops): POREP_SEAL_COMMIT,
 * SNAP_DEALS_UPDATE, WINDOW_POST_PARTITION and WINNING_POST, parsed, validated and bound to
 * their parameters once by kinds/filecoin/fc_job.h; job->src is the fc_job. */
#include <grpc/status.h>
#include <stdio.h>
#include <stdlib.h>

#include "server/service_internal.h"

int svc_fc_status_code(cuzk_status st)
{
    switch (st) {
    case CUZK_E_IO: return GRPC_STATUS_FAILED_PRECONDITION;
    case CUZK_E_NOMEM: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CUZK_E_INTERNAL: return GRPC_STATUS_INTERNAL;
    case CUZK_E_CANCELLED: return GRPC_STATUS_CANCELLED;
    default: return GRPC_STATUS_INVALID_ARGUMENT;
    }
}

static cuzk_rpc_status check(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req)
{
    (void)s;
    (void)req;
    return svc_ok(); /* the request's fields are checked when the job is built */
}

static void kind_name(const Cuzk__V1__SubmitProofRequest *req, char *out, size_t cap)
{
    snprintf(out, cap, "%s", fc_job_type_name((fc_job_type)req->proof_kind));
}

static fc_bytes pb_bytes(ProtobufCBinaryData b) { return (fc_bytes){b.data, b.len}; }

/* Parse, validate and bind a Filecoin request (outside the lock). */
static cuzk_rpc_status prepare(cuzk_service *s, svc_job *job, const Cuzk__V1__SubmitProofRequest *req)
{
    fc_job_request r = {0};
    svc_abort_ctx actx = {s, job};
    r.abort = svc_job_aborted;
    r.abort_ctx = &actx;
    r.type = (fc_job_type)req->proof_kind;
    r.vanilla_proof = pb_bytes(req->vanilla_proof);
    fc_bytes *v = NULL;
    if (req->n_vanilla_proofs) {
        v = calloc(req->n_vanilla_proofs, sizeof *v);
        if (!v)
            return svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
        for (size_t i = 0; i < req->n_vanilla_proofs; i++)
            v[i] = pb_bytes(req->vanilla_proofs[i]);
    }
    r.vanilla_proofs = v;
    r.n_vanilla_proofs = req->n_vanilla_proofs;
    r.registered_proof = req->registered_proof;
    /* proto3 scalars have no presence: Curio always sets both for PoRep
     * (docs/engine.md#what-curio-sends); 0 / 0 means "not given" */
    r.has_miner = req->miner_id != 0 || r.type != FC_JOB_POREP;
    r.miner_id = req->miner_id;
    r.has_sector = req->sector_number != 0;
    r.sector_number = req->sector_number;
    r.randomness = pb_bytes(req->randomness);
    r.partition_index = req->partition_index;
    r.comm_r_old = pb_bytes(req->comm_r_old);
    r.comm_r_new = pb_bytes(req->comm_r_new);
    r.comm_d_new = pb_bytes(req->comm_d_new);
    cuzk_error e = {0};
    fc_job *fc = NULL;
    cuzk_status st = fc_job_create(&r, prover_stack_fc_srs(s->stack), &fc, &e);
    free(v);
    job->src = fc;
    pce_cache *pce = prover_stack_pce(s->stack);
    if (!st && pce && (s->pce_mode == CUZK_PCE_ON || fc_job_pce_faster(fc)))
        st = fc_job_use_pce(fc, pce, &e);
    if (!st)
        fc_job_use_abc_pool(fc, cuzk_engine_abc_pool(s->engine));
    if (st)
        return svc_fail(svc_fc_status_code(st), "%s: %s", fc_job_type_name(r.type), e.msg);
    if (req->sector_size) {
        fc_circuit_id c = fc_job_circuit(fc);
        if (req->sector_size != c.shape->sector_bytes)
            return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "sector_size %llu does not match the %s proof's %llu bytes",
                            (unsigned long long)req->sector_size, c.shape->name,
                            (unsigned long long)c.shape->sector_bytes);
    }
    job->num_partitions = fc_job_partitions(fc);
    job->srs_load_ms = fc_job_srs_load_ms(fc);
    return svc_ok();
}

static cuzk_job_request engine_request(const svc_job *job, const Cuzk__V1__SubmitProofRequest *req)
{
    fc_job *fc = job->src;
    return (cuzk_job_request){
        .kind = fc_job_kind(fc),
        .kind_input = fc,
        .params = fc_job_params(fc),
        .num_partitions = job->num_partitions,
        .priority = req->priority ? svc_map_priority((int)req->priority)
                                  : fc_job_default_priority(fc_job_type_of(fc)),
        .verify = fc_job_verify_hook(fc),
    };
}

static void release(cuzk_service *s, svc_job *job)
{
    (void)s;
    fc_job_free(job->src);
    job->src = NULL;
}

const svc_job_ops svc_job_filecoin_ops = {"filecoin", check, kind_name, prepare, engine_request, release};
