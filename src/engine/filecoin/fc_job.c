/* Filecoin jobs: the kind-independent part (engine plumbing, assignments, verification).
 * Contracts in fc_job.h. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/builtin/builtin.h"
#include "engine/filecoin/fc_job_internal.h"
#include "groth16/groth16.h"

const char *fc_job_type_name(fc_job_type t)
{
    switch (t) {
    case FC_JOB_POREP: return "porep-c2";
    case FC_JOB_SNAP: return "snap-update";
    case FC_JOB_WINDOW_POST: return "window-post";
    case FC_JOB_WINNING_POST: return "winning-post";
    }
    return "unknown";
}

cuzk_priority fc_job_default_priority(fc_job_type t)
{
    return t == FC_JOB_WINNING_POST ? CUZK_PRIORITY_CRITICAL
           : t == FC_JOB_WINDOW_POST ? CUZK_PRIORITY_HIGH
                                     : CUZK_PRIORITY_NORMAL;
}

cuzk_status fc_job_bytes32(const fc_bytes *b, const char *field, uint8_t out[32], cuzk_error *err)
{
    if (!b->data || b->len != 32)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s must be 32 bytes, got %zu", field, b->data ? b->len : 0);
    memcpy(out, b->data, 32);
    return CUZK_OK;
}

/* ---- assignments: builtin_assignment plus the density bitmaps it owns ---- */

typedef struct {
    builtin_assignment base; /* first: the CPU backend reads it through this type */
    uint64_t *a_density, *b_density;
} fc_assignment;

static void release_abc(void *ctx, void *assignment)
{
    (void)ctx;
    fc_assignment *as = assignment;
    free(as->base.g.a);
    free(as->base.g.b);
    free(as->base.g.c);
    as->base.g.a = as->base.g.b = as->base.g.c = NULL;
}

static void free_assignment(void *ctx, void *assignment)
{
    fc_assignment *as = assignment;
    if (!as)
        return;
    release_abc(ctx, as);
    free(as->base.w);
    free(as->a_density);
    free(as->b_density);
    free(as);
}

static uint64_t rows_of(const fc_job *j) { return j->hint.rows; }

static cuzk_status estimate(void *ctx, const void *input, cuzk_partition_estimate *out, cuzk_error *err)
{
    (void)ctx, (void)err;
    const fc_job *j = input;
    const groth16_params_t *pk = fc_srs_params(j->entry);
    uint64_t m = rows_of(j), nv = pk->n_inputs + pk->n_aux;
    out->abc_bytes = m * 3 * sizeof(fr_t);
    /* a/b/c + witness + the prover's canonical scalar copy + B scalars + densities */
    out->total_bytes = out->abc_bytes + nv * 2 * sizeof(fr_t) + (uint64_t)pk->n_b * 32 + nv / 4;
    return CUZK_OK;
}

static cuzk_status synthesize(void *ctx, const void *input, uint32_t partition, const atomic_bool *cancel,
                              void **assignment, cuzk_error *err)
{
    (void)ctx;
    const fc_job *j = input;
    *assignment = NULL;
    if (atomic_load(cancel))
        return cuzk_fail(err, CUZK_E_CANCELLED, "%s partition %u: cancelled", fc_job_type_name(j->type), partition);
    fc_assignment *fa = calloc(1, sizeof *fa);
    if (!fa)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    cs_t cs;
    cuzk_status st = cs_init_prove(&cs, &j->hint, 0);
    if (st) {
        free(fa);
        if (err)
            *err = cs.err;
        return st;
    }
    st = j->ops->synthesize(j, &cs, partition, err);
    cs_assignment as;
    if (!st && (st = cs_take_assignment(&cs, rows_of(j), &as)) && err)
        *err = cs.err;
    cs_free(&cs);
    if (st) {
        free(fa);
        return st;
    }
    const groth16_params_t *pk = fc_srs_params(j->entry);
    if (as.num_inputs != pk->n_inputs || as.num_aux != pk->n_aux || as.a_count != pk->n_a || as.b_count != pk->n_b) {
        char name[32];
        fc_circuit_id_name(&j->circuit, name, sizeof name);
        st = cuzk_fail(err, CUZK_E_INVALID_ARG,
                       "partition %u: the circuit (%llu inputs, %llu aux, A-dense %llu, B-dense %llu) does not match "
                       "the %s parameters (%zu, %zu, %zu, %zu): parameters of another circuit version?",
                       partition, (unsigned long long)as.num_inputs, (unsigned long long)as.num_aux,
                       (unsigned long long)as.a_count, (unsigned long long)as.b_count, name, pk->n_inputs, pk->n_aux,
                       pk->n_a, pk->n_b);
        cs_assignment_free(&as);
        free(fa);
        return st;
    }
    fa->base.g = (groth16_assignment_t){as.a, as.b, as.c, as.w, as.a_density, as.b_density};
    fa->base.w = as.w;
    fa->a_density = as.a_density;
    fa->b_density = as.b_density;
    *assignment = fa;
    return CUZK_OK;
}

static cuzk_status verify_proof_with(const fc_job *j, const groth16_pvk_t *pvk, uint32_t k, const uint8_t *proof,
                                     cuzk_error *err)
{
    groth16_proof_t pr;
    cuzk_error e;
    cuzk_status st = groth16_proof_from_bytes(&pr, proof, &e);
    if (st)
        return cuzk_fail(err, st, "partition %u: %s", k, e.msg);
    size_t cap = j->public_inputs, n = 0;
    fr_t *in = malloc((cap ? cap : 1) * sizeof *in);
    if (!in)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    st = j->ops->public_inputs(j, k, in, cap, &n, &e);
    if (!st) {
        st = groth16_verify(pvk, in, n, &pr, &e);
        if (st == CUZK_E_VERIFY_FAILED)
            st = cuzk_fail(err, st, "partition %u: the proof does not verify", k);
        else if (st)
            st = cuzk_fail(err, st, "partition %u: %s", k, e.msg);
    } else {
        st = cuzk_fail(err, st, "partition %u: public inputs: %s", k, e.msg);
    }
    free(in);
    return st;
}

static cuzk_status verify_hook(void *ctx, const void *kind_input, const void *params, uint32_t partition,
                               const uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    (void)ctx, (void)params;
    const fc_job *j = kind_input;
    return verify_proof_with(j, fc_srs_pvk(j->entry), partition, proof, err);
}

cuzk_status fc_job_create(const fc_job_request *req, fc_srs *srs, fc_job **out, cuzk_error *err)
{
    *out = NULL;
    fc_job *j = calloc(1, sizeof *j);
    if (!j)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    j->type = req->type;
    cuzk_status st;
    switch (req->type) {
    case FC_JOB_POREP: st = fc_job_init_porep(j, req, err); break;
    case FC_JOB_SNAP: st = fc_job_init_snap(j, req, err); break;
    case FC_JOB_WINDOW_POST:
    case FC_JOB_WINNING_POST: st = fc_job_init_post(j, req, err); break;
    default: st = cuzk_fail(err, CUZK_E_INVALID_ARG, "unknown proof kind %d", (int)req->type); break;
    }
    if (!st && srs) {
        uint64_t ms;
        j->srs = srs;
        st = fc_srs_acquire(srs, &j->circuit, &j->entry, &ms, err);
        if (!st) {
            const groth16_params_t *pk = fc_srs_params(j->entry);
            j->hint = (cs_prove_hint){(uint64_t)1 << pk->log2_m, pk->n_inputs, pk->n_aux};
            if (pk->n_inputs != j->public_inputs + 1) {
                char name[32];
                fc_circuit_id_name(&j->circuit, name, sizeof name);
                st = cuzk_fail(err, CUZK_E_INVALID_ARG,
                               "the %s parameters have %zu public inputs (vk n_ic), the circuit %zu", name,
                               pk->n_inputs, j->public_inputs + 1);
            }
        }
    }
    if (st) {
        fc_job_free(j);
        return st;
    }
    j->kind = (cuzk_circuit_kind){fc_job_type_name(j->type), NULL, estimate, synthesize, release_abc, free_assignment};
    j->hook = (cuzk_verify_hook){NULL, verify_hook};
    *out = j;
    return CUZK_OK;
}

void fc_job_free(fc_job *j)
{
    if (!j)
        return;
    if (j->entry)
        fc_srs_release(j->srs, j->entry);
    if (j->ops && j->ops->free_data)
        j->ops->free_data(j->data);
    free(j);
}

fc_job_type fc_job_type_of(const fc_job *j) { return j->type; }
uint32_t fc_job_partitions(const fc_job *j) { return j->partitions; }
const cuzk_circuit_kind *fc_job_kind(const fc_job *j) { return &j->kind; }
const void *fc_job_params(const fc_job *j) { return j->entry ? (const void *)fc_srs_params(j->entry) : NULL; }
const cuzk_verify_hook *fc_job_verify_hook(const fc_job *j) { return &j->hook; }
fc_circuit_id fc_job_circuit(const fc_job *j) { return j->circuit; }

void fc_job_circuit_name(const fc_job *j, char *out, size_t cap)
{
    fc_circuit_id_name(&j->circuit, out, cap);
}

cuzk_status fc_job_synthesize(const fc_job *j, uint32_t k, cs_t *cs, cuzk_error *err)
{
    if (k >= j->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "partition %u: the job has %u", k, j->partitions);
    return j->ops->synthesize(j, cs, k, err);
}

cuzk_status fc_job_check_partition(const fc_job *j, uint32_t k, bool *satisfied, uint64_t *constraints,
                                   uint64_t *failed_index, char *where, size_t cap, cuzk_error *err)
{
    *satisfied = false;
    cs_t cs;
    cuzk_status st = cs_init(&cs, CS_CHECK, 0);
    if (st) {
        if (err)
            *err = cs.err;
        return st;
    }
    st = fc_job_synthesize(j, k, &cs, err);
    if (!st) {
        *constraints = cs.num_constraints;
        *satisfied = cs_check_satisfied(&cs, failed_index, where, cap);
    }
    cs_free(&cs);
    return st;
}

static cuzk_status verify_all(const fc_job *j, const groth16_pvk_t *pvk, const uint8_t *proof, size_t len,
                              cuzk_error *err)
{
    if (len != (size_t)j->partitions * CUZK_PROOF_BYTES)
        return cuzk_fail(err, CUZK_E_FORMAT, "the proof is %zu bytes; %u partition(s) x 192 = %zu expected", len,
                         j->partitions, (size_t)j->partitions * CUZK_PROOF_BYTES);
    for (uint32_t k = 0; k < j->partitions; k++) {
        cuzk_status st = verify_proof_with(j, pvk, k, proof + (size_t)k * CUZK_PROOF_BYTES, err);
        if (st)
            return st;
    }
    return CUZK_OK;
}

cuzk_status fc_job_verify_proof(const fc_job *j, const uint8_t *proof, size_t len, cuzk_error *err)
{
    if (!j->entry)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "the job has no parameters to verify with");
    return verify_all(j, fc_srs_pvk(j->entry), proof, len, err);
}

cuzk_status fc_job_verify_with_vk(const fc_job *j, const groth16_vk_t *vk, const uint8_t *proof, size_t len,
                                  cuzk_error *err)
{
    if (vk->n_ic != j->public_inputs + 1)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "the verifying key has %zu inputs, the circuit %zu", vk->n_ic,
                         j->public_inputs + 1);
    groth16_pvk_t *pvk = malloc(sizeof *pvk);
    if (!pvk)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    groth16_prepare_vk(pvk, vk);
    cuzk_status st = verify_all(j, pvk, proof, len, err);
    free(pvk);
    return st;
}
