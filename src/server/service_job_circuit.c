/* The CIRCUIT request family (service_internal.h svc_job_circuit_ops): a named circuit of the
 * registry (circuit_registry.h), circom r1cs (one .wtns per partition) or synthetic (a seed and
 * a partition count). */
#include <grpc/status.h>
#include <stdio.h>
#include <stdlib.h>

#include "cs/wtns.h"
#include "kinds/builtin/builtin.h"
#include "server/service_internal.h"

#define MAX_SYNTHETIC_PARTITIONS 64
#define MAX_WITNESSES 1024

/* job->src of a CIRCUIT job. */
typedef struct {
    cuzk_circuit *circuit;           /* held while in the engine */
    builtin_synthetic_input syn_in;  /* synthetic: the engine input */
    wtns_t *wtns;                    /* r1cs: one per partition */
    const fr_t **wptr;
    uint32_t n_wtns;
    builtin_r1cs_input r1cs_in;      /* r1cs: the engine input */
} circuit_src;

static cuzk_rpc_status check(cuzk_service *s, const Cuzk__V1__SubmitProofRequest *req)
{
    if (!req->circuit)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "proof_kind CIRCUIT needs the circuit field (name and input)");
    if (!req->circuit->name || !*req->circuit->name)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit.name is empty");
    if (!cuzk_registry_knows(s->registry, req->circuit->name)) {
        cuzk_error e;
        cuzk_params_unknown(prover_stack_params(s->stack), req->circuit->name, &e);
        return svc_fail(GRPC_STATUS_NOT_FOUND, "%s", e.msg);
    }
    return svc_ok();
}

static void kind_name(const Cuzk__V1__SubmitProofRequest *req, char *out, size_t cap)
{
    snprintf(out, cap, "%s", req->circuit && req->circuit->name ? req->circuit->name : "");
}

/* The engine input of a synthetic circuit: a seed and a partition count. */
static cuzk_rpc_status prepare_synthetic(svc_job *job, circuit_src *c, const Cuzk__V1__CircuitInput *ci)
{
    if (ci->n_witnesses)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT,
                        "circuit.witnesses: the synthetic circuit %s takes no witnesses (use seed/partitions)",
                        ci->name);
    uint32_t n = ci->partitions ? ci->partitions : 1;
    if (n > MAX_SYNTHETIC_PARTITIONS)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit.partitions = %u: at most %d", n,
                        MAX_SYNTHETIC_PARTITIONS);
    job->num_partitions = n;
    c->syn_in.seed = ci->seed;
    return svc_ok();
}

/* The engine input of an r1cs circuit: one parsed, counted .wtns per partition. */
static cuzk_rpc_status prepare_r1cs(svc_job *job, circuit_src *c, const Cuzk__V1__CircuitInput *ci)
{
    if (ci->n_witnesses == 0)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT,
                        "circuit.witnesses: circuit %s needs one .wtns per partition, got none", ci->name);
    if (ci->n_witnesses > MAX_WITNESSES)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit.witnesses: %zu witnesses, at most %d",
                        ci->n_witnesses, MAX_WITNESSES);
    if (ci->partitions && ci->partitions != ci->n_witnesses)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit.partitions = %u but %zu witnesses were sent",
                        ci->partitions, ci->n_witnesses);
    job->num_partitions = (uint32_t)ci->n_witnesses;
    c->wtns = calloc(ci->n_witnesses, sizeof *c->wtns);
    c->wptr = calloc(ci->n_witnesses, sizeof *c->wptr);
    if (!c->wtns || !c->wptr)
        return svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory for %zu witnesses", ci->n_witnesses);
    c->n_wtns = (uint32_t)ci->n_witnesses;
    for (size_t i = 0; i < ci->n_witnesses; i++) {
        cuzk_error e;
        if (wtns_read_mem(&c->wtns[i], ci->witnesses[i].data, ci->witnesses[i].len, &e) ||
            wtns_check_count(&c->wtns[i], cuzk_circuit_n_wires(c->circuit), cuzk_circuit_name(c->circuit), &e))
            return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit.witnesses[%zu]: %s", i, e.msg);
        c->wptr[i] = c->wtns[i].w;
    }
    c->r1cs_in.witnesses = c->wptr;
    c->r1cs_in.count = job->num_partitions;
    return svc_ok();
}

static cuzk_rpc_status prepare(cuzk_service *s, svc_job *job, const Cuzk__V1__SubmitProofRequest *req)
{
    circuit_src *c = calloc(1, sizeof *c);
    if (!c)
        return svc_fail(GRPC_STATUS_RESOURCE_EXHAUSTED, "out of memory");
    job->src = c;
    cuzk_error e;
    uint64_t load_ms;
    svc_abort_ctx actx = {s, job};
    cuzk_status st =
        cuzk_registry_acquire(s->registry, req->circuit->name, svc_job_aborted, &actx, &c->circuit, &load_ms, &e);
    if (st)
        return svc_fail(svc_params_status_code(st), "%s", e.msg);
    job->srs_load_ms = load_ms;
    return cuzk_circuit_is_synthetic(c->circuit) ? prepare_synthetic(job, c, req->circuit)
                                                 : prepare_r1cs(job, c, req->circuit);
}

static cuzk_job_request engine_request(const svc_job *job, const Cuzk__V1__SubmitProofRequest *req)
{
    const circuit_src *c = job->src;
    return (cuzk_job_request){
        .kind = cuzk_circuit_kind_of(c->circuit),
        .kind_input = cuzk_circuit_is_synthetic(c->circuit) ? (const void *)&c->syn_in : (const void *)&c->r1cs_in,
        .params = cuzk_circuit_params(c->circuit),
        .num_partitions = job->num_partitions,
        .priority = svc_map_priority((int)req->priority),
        .verify = cuzk_circuit_verify_hook(c->circuit),
    };
}

static void release(cuzk_service *s, svc_job *job)
{
    circuit_src *c = job->src;
    if (!c)
        return;
    if (c->circuit)
        cuzk_registry_release(s->registry, c->circuit);
    if (c->wtns)
        for (uint32_t i = 0; i < c->n_wtns; i++)
            wtns_free(&c->wtns[i]);
    free(c->wtns);
    free(c->wptr);
    free(c);
    job->src = NULL;
}

const svc_job_ops svc_job_circuit_ops = {"circuit", check, kind_name, prepare, engine_request, release};
