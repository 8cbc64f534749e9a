/* Filecoin jobs: the kind-independent part (engine plumbing, assignments, verification).
 * Contracts in fc_job.h. */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "kinds/builtin/builtin.h"
#include "kinds/filecoin/fc_job_internal.h"
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

cuzk_status fc_job_vanilla_arrays(const fc_job_request *req, const uint8_t ***blobs, size_t **lens, cuzk_error *err)
{
    size_t n = req->n_vanilla_proofs ? req->n_vanilla_proofs : 1;
    *blobs = malloc(n * sizeof **blobs);
    *lens = malloc(n * sizeof **lens);
    if (!*blobs || !*lens) {
        free(*blobs), free(*lens);
        *blobs = NULL, *lens = NULL;
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for %zu vanilla proofs", n);
    }
    for (size_t i = 0; i < req->n_vanilla_proofs; i++) {
        (*blobs)[i] = req->vanilla_proofs[i].data;
        (*lens)[i] = req->vanilla_proofs[i].len;
    }
    return CUZK_OK;
}

/* ---- assignments: builtin_assignment plus the compact witness and density bitmaps it owns ---- */

typedef struct {
    builtin_assignment base; /* first: the CPU backend reads it through this type (base.w NULL:
                                base.compact points at the witness below) */
    fr_t *inputs;
    cs_witness aux;
    uint64_t *a_density, *b_density;
} fc_assignment;

static void free_assignment(void *ctx, void *assignment)
{
    fc_assignment *as = assignment;
    if (!as)
        return;
    builtin_release_abc(ctx, &as->base);
    free(as->inputs);
    cs_witness_free(&as->aux);
    free(as->a_density);
    free(as->b_density);
    free(as);
}

static uint64_t rows_of(const fc_job *j) { return j->hint.rows; }

/* Aux values other than 0 and 1 seen per circuit (the largest share so far), for the
 * working-set estimate: the compact witness and the prover's sparse form scale with them. */
#define BIG_SLOTS 32
static struct {
    pthread_mutex_t mu;
    char name[BIG_SLOTS][32];
    uint64_t big[BIG_SLOTS], aux[BIG_SLOTS];
} g_big = {PTHREAD_MUTEX_INITIALIZER, {{0}}, {0}, {0}};

static void big_observe(const fc_job *j, uint64_t big, uint64_t aux)
{
    char name[32];
    fc_circuit_id_name(&j->circuit, name, sizeof name);
    pthread_mutex_lock(&g_big.mu);
    for (int i = 0; i < BIG_SLOTS; i++) {
        if (!g_big.name[i][0] || !strcmp(g_big.name[i], name)) {
            memcpy(g_big.name[i], name, sizeof name);
            if (!g_big.aux[i] || (unsigned __int128)big * g_big.aux[i] > (unsigned __int128)g_big.big[i] * aux) {
                g_big.big[i] = big;
                g_big.aux[i] = aux;
            }
            break;
        }
    }
    pthread_mutex_unlock(&g_big.mu);
}

/* Big values of a partition: the largest share seen for the circuit, or half the aux before
 * any synthesis of it; `margin` adds an eighth of the aux to a seen share (the budget's
 * reservation: a later partition may have more). */
static uint64_t big_expected(const fc_job *j, uint64_t aux, bool margin)
{
    char name[32];
    fc_circuit_id_name(&j->circuit, name, sizeof name);
    uint64_t big = aux / 2;
    pthread_mutex_lock(&g_big.mu);
    for (int i = 0; i < BIG_SLOTS && g_big.name[i][0]; i++)
        if (!strcmp(g_big.name[i], name) && g_big.aux[i])
            big = (uint64_t)((unsigned __int128)g_big.big[i] * aux / g_big.aux[i]) + (margin ? aux / 8 : 0);
    pthread_mutex_unlock(&g_big.mu);
    return big < aux ? big : aux;
}

/* A partition's working set beside a/b/c with `big` big values (inputs included) of nv
 * variables: the compact witness (two bitmaps and ranks: 5 bits a variable, 32 bytes a big
 * value) and the densities (2 bits), held from synthesis to prove_finish; the prover's
 * sparse form (3 bitmaps, the big values) with its lists (4 bytes a one, 36 a big value),
 * made by prove_start and kept by the pending handle but for the lists. */
static uint64_t witness_bytes(uint64_t nv, uint64_t big) { return nv * 5 / 8 + big * sizeof(fr_t) + nv / 4; }
static uint64_t prover_bytes(uint64_t nv, uint64_t big) { return nv * 3 / 8 + big * 32 + nv * 4 + big * 36; }

static cuzk_status estimate(void *ctx, const void *input, cuzk_partition_estimate *out, cuzk_error *err)
{
    (void)ctx, (void)err;
    const fc_job *j = input;
    const groth16_params_t *pk = fc_srs_params(j->entry);
    uint64_t m = rows_of(j), nv = pk->n_inputs + pk->n_aux;
    uint64_t reserve = big_expected(j, pk->n_aux, true) + pk->n_inputs;
    uint64_t expect = big_expected(j, pk->n_aux, false) + pk->n_inputs;
    out->abc_bytes = m * 3 * sizeof(fr_t);
    out->total_bytes = out->abc_bytes + witness_bytes(nv, reserve) + prover_bytes(nv, reserve);
    out->synthesized_bytes = out->abc_bytes + witness_bytes(nv, expect);
    out->expected_bytes = out->synthesized_bytes + prover_bytes(nv, expect);
    out->resident_bytes = fc_srs_charged(j->entry); /* held (in use) until the job is freed */
    return CUZK_OK;
}

/* The synthesized sizes must be those of the parameters (else they belong to another
 * circuit version: bellperson's prover would fail the same way). */
static cuzk_status check_sizes(const fc_job *j, uint32_t partition, uint64_t ni, uint64_t na, uint64_t a_count,
                               uint64_t b_count, cuzk_error *err)
{
    const groth16_params_t *pk = fc_srs_params(j->entry);
    if (ni == pk->n_inputs && na == pk->n_aux && a_count == pk->n_a && b_count == pk->n_b)
        return CUZK_OK;
    char name[32];
    fc_circuit_id_name(&j->circuit, name, sizeof name);
    return cuzk_fail(err, CUZK_E_INVALID_ARG,
                     "partition %u: the circuit (%llu inputs, %llu aux, A-dense %llu, B-dense %llu) does not match "
                     "the %s parameters (%zu, %zu, %zu, %zu): parameters of another circuit version?",
                     partition, (unsigned long long)ni, (unsigned long long)na, (unsigned long long)a_count,
                     (unsigned long long)b_count, name, pk->n_inputs, pk->n_aux, pk->n_a, pk->n_b);
}

/* a/b/c of the assignment: three vectors of rows_of(j) in `region` (the job's pool's, put
 * back by builtin_release_abc) or, with region NULL, in three malloc blocks. */
static void set_abc(const fc_job *j, fc_assignment *fa, fr_t *a, fr_t *b, fr_t *c, void *region)
{
    fa->base.g = (groth16_assignment_t){.a = a, .b = b, .c = c, .a_density = fa->a_density,
                                        .b_density = fa->b_density};
    fa->base.pool = region ? j->abc_pool : NULL;
    fa->base.abc_mem = region;
}

/* Direct synthesis: CS_PROVE sized from the parameters (flags: CS_VERIFY_ROWS or 0), a/b/c
 * in the job's pool when it has one. */
static cuzk_status synth_direct(const fc_job *j, uint32_t partition, unsigned flags, fc_assignment *fa,
                                cuzk_error *err)
{
    cs_t cs;
    cs_prove_hint hint = j->hint;
    hint.abc_alloc = j->abc_pool ? &j->abc_alloc : NULL;
    cuzk_status st = cs_init_prove(&cs, &hint, flags | CS_COMPACT_AUX);
    if (st) {
        if (err)
            *err = cs.err;
        return st;
    }
    st = j->ops->synthesize(j, &cs, partition, err);
    cs_assignment as;
    if (!st && (st = cs_take_assignment(&cs, rows_of(j), &as)) && err)
        *err = cs.err;
    cs_free(&cs);
    if (st)
        return st;
    if ((st = check_sizes(j, partition, as.num_inputs, as.num_aux, as.a_count, as.b_count, err))) {
        cs_assignment_free(&as);
        return st;
    }
    fa->inputs = as.inputs;
    fa->aux = as.aux;
    fa->a_density = as.a_density;
    fa->b_density = as.b_density;
    set_abc(j, fa, as.a, as.b, as.c, as.abc_region);
    fa->base.compact = (groth16_compact_witness_t){fa->inputs, &fa->aux};
    big_observe(j, fa->aux.n_big, fa->aux.n);
    return CUZK_OK;
}

/* PCE synthesis: witness only (CS_WITNESS into one buffer sized from the parameters), then
 * a, b, c = A·w, B·w, C·w from the PCE, the densities copied from it. Returns the witness
 * synthesis errors as they are, and CUZK_E_VERIFY_FAILED when the PCE does not fit the
 * witness or the parameters, or its products fail a constraint (the caller then asks
 * direct synthesis whom to blame). */
static cuzk_status synth_pce(const fc_job *j, const cs_pce *pce, uint32_t partition, fc_assignment *fa,
                             cuzk_error *err)
{
    cs_t cs;
    cuzk_status st = cs_init_witness(&cs, &j->hint, CS_COMPACT_AUX);
    if (st) {
        if (err)
            *err = cs.err;
        return st;
    }
    fr_t *inputs = NULL;
    cs_witness aux = {0};
    uint64_t ni = 0;
    st = j->ops->synthesize(j, &cs, partition, err);
    if (!st && (st = cs_take_witness_compact(&cs, &inputs, &ni, &aux)) && err)
        *err = cs.err;
    cs_free(&cs);
    if (st)
        return st;
    uint64_t na = aux.n;
    uint64_t m = rows_of(j), words = (ni + na) / 64 + 1, bad_row = 0;
    if (ni != pce->num_inputs || na != pce->num_aux || m < pce->rows)
        st = cuzk_fail(err, CUZK_E_VERIFY_FAILED,
                       "partition %u: the witness has %llu inputs and %llu aux for %llu rows, the PCE %llu, %llu and %llu",
                       partition, (unsigned long long)ni, (unsigned long long)na, (unsigned long long)m,
                       (unsigned long long)pce->num_inputs, (unsigned long long)pce->num_aux,
                       (unsigned long long)pce->rows);
    else if (check_sizes(j, partition, ni, na, pce->a_count, pce->b_count, err))
        st = CUZK_E_VERIFY_FAILED;
    fr_t *v[3] = {NULL, NULL, NULL}, *region = NULL;
    uint64_t *ad = NULL, *bd = NULL;
    if (!st) {
        if (j->abc_pool && (region = j->abc_alloc.get(j->abc_alloc.ctx, (size_t)m * 3 * sizeof(fr_t))))
            for (int k = 0; k < 3; k++)
                v[k] = region + (size_t)k * m;
        else if (!j->abc_pool)
            for (int k = 0; k < 3; k++)
                v[k] = malloc(m * sizeof(fr_t));
        ad = malloc(words * 8);
        bd = malloc(words * 8);
        if (!v[0] || !v[1] || !v[2] || !ad || !bd)
            st = cuzk_fail(err, CUZK_E_NOMEM, "partition %u: out of memory for a/b/c of %llu rows", partition,
                           (unsigned long long)m);
    }
    if (!st)
        st = cs_pce_eval_compact(pce, inputs, ni, &aux, v[0], v[1], v[2], pce_cache_eval_threads(j->pce), err);
    if (!st && !cs_pce_rows_hold(pce, v[0], v[1], v[2], pce_cache_eval_threads(j->pce), &bad_row))
        st = cuzk_fail(err, CUZK_E_VERIFY_FAILED, "partition %u: the PCE's a/b/c fail constraint %llu", partition,
                       (unsigned long long)bad_row);
    if (st) {
        if (region)
            j->abc_alloc.put(j->abc_alloc.ctx, region);
        else
            for (int k = 0; k < 3; k++)
                free(v[k]);
        free(ad);
        free(bd);
        free(inputs);
        cs_witness_free(&aux);
        return st;
    }
    for (int k = 0; k < 3; k++)
        memset(v[k] + pce->rows, 0, (size_t)(m - pce->rows) * sizeof(fr_t));
    memcpy(ad, pce->a_density, words * 8);
    memcpy(bd, pce->b_density, words * 8);
    fa->inputs = inputs;
    fa->aux = aux;
    fa->a_density = ad;
    fa->b_density = bd;
    set_abc(j, fa, v[0], v[1], v[2], region);
    fa->base.compact = (groth16_compact_witness_t){fa->inputs, &fa->aux};
    big_observe(j, aux.n_big, aux.n);
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
    pce_cache_entry *pe = j->pce ? pce_cache_get(j->pce, &j->pce_circuit) : NULL;
    cuzk_status st;
    if (pe) {
        cuzk_error pe_err = {0};
        st = synth_pce(j, pce_cache_data(pe), partition, fa, &pe_err);
        if (!st) {
            atomic_fetch_add(&((fc_job *)j)->pce_partitions, 1); /* a counter: the job is otherwise immutable */
        } else if (st == CUZK_E_VERIFY_FAILED) {
            /* direct synthesis with the row check decides: the witness or the PCE */
            st = synth_direct(j, partition, CS_VERIFY_ROWS, fa, err);
            if (!st)
                pce_cache_reject(j->pce, pe, pe_err.msg);
        } else if (st && err) {
            *err = pe_err;
        }
        pce_cache_put(j->pce, pe);
    } else {
        st = synth_direct(j, partition, 0, fa, err);
    }
    if (st) {
        free(fa);
        return st;
    }
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

cuzk_status fc_job_use_pce(fc_job *j, pce_cache *m, cuzk_error *err)
{
    if (!j->entry)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "the job has no parameters: no PCE for a check-only job");
    j->pce = NULL;
    if (!m || !j->ops->shape_of || !j->ops->synth_shape)
        return CUZK_OK;
    pce_cache_circuit *c = &j->pce_circuit;
    memset(c, 0, sizeof *c);
    fc_circuit_id_name(&j->circuit, c->id.circuit, sizeof c->id.circuit);
    pce_cache_key_id(fc_srs_params(j->entry), c->id.key_id);
    c->synthesize = j->ops->synth_shape;
    j->ops->shape_of(j, c->shape);
    j->pce = m;
    pce_cache_put(m, pce_cache_get(m, c)); /* the first proof of a shape starts its PCE */
    return CUZK_OK;
}

bool fc_job_pce_faster(const fc_job *j) { return j->ops->pce_faster; }

void fc_job_use_abc_pool(fc_job *j, cuzk_abc_pool *pool)
{
    j->abc_pool = pool;
    if (pool)
        cuzk_abc_pool_region(pool, &j->abc_alloc);
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
        st = fc_srs_acquire(srs, &j->circuit, req->abort, req->abort_ctx, &j->entry, &ms, err);
        j->srs_load_ms = ms;
        if (!st) {
            const groth16_params_t *pk = fc_srs_params(j->entry);
            j->hint = (cs_prove_hint){(uint64_t)1 << pk->log2_m, pk->n_inputs, pk->n_aux, NULL};
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
    j->kind = (cuzk_circuit_kind){fc_job_type_name(j->type), NULL, estimate, synthesize, builtin_release_abc,
                                  free_assignment};
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
uint64_t fc_job_srs_load_ms(const fc_job *j) { return j->srs_load_ms; }
const cuzk_circuit_kind *fc_job_kind(const fc_job *j) { return &j->kind; }
const void *fc_job_params(const fc_job *j) { return j->entry ? (const void *)fc_srs_params(j->entry) : NULL; }
const cuzk_verify_hook *fc_job_verify_hook(const fc_job *j) { return &j->hook; }
fc_circuit_id fc_job_circuit(const fc_job *j) { return j->circuit; }
uint32_t fc_job_pce_partitions(const fc_job *j) { return atomic_load(&j->pce_partitions); }

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
