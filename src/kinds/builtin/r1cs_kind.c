/* The "r1cs" circuit kind (circom .r1cs + snarkjs .zkey); contract in builtin.h. */
#include <stdlib.h>
#include <string.h>

#include "cs/spmv.h"
#include "kinds/builtin/builtin_internal.h"
#include "groth16/zkey_params.h"

struct builtin_r1cs {
    const r1cs_t *r1cs;
    groth16_params_t pk; /* borrows the zkey's arrays */
    groth16_pvk_t pvk;
    cuzk_circuit_kind kind;
    cuzk_verify_hook hook;
    cuzk_abc_pool *pool; /* NULL: malloc */
};

void builtin_r1cs_use_pool(builtin_r1cs *c, cuzk_abc_pool *pool) { c->pool = pool; }

static size_t domain(const builtin_r1cs *c)
{
    return (size_t)1 << c->pk.log2_m;
}

static cuzk_status estimate(void *ctx, const void *input, cuzk_partition_estimate *out, cuzk_error *err)
{
    builtin_r1cs *c = ctx;
    (void)input, (void)err;
    out->total_bytes = builtin_partition_bytes(domain(c), c->r1cs->n_wires, c->pk.n_b);
    out->abc_bytes = (uint64_t)domain(c) * 3 * sizeof(fr_t);
    return CUZK_OK;
}

static cuzk_status synthesize(void *ctx, const void *input, uint32_t partition, const atomic_bool *cancel,
                              void **assignment, cuzk_error *err)
{
    builtin_r1cs *c = ctx;
    const builtin_r1cs_input *in = input;
    (void)cancel;
    *assignment = NULL;
    if (partition >= in->count)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "r1cs: partition %u has no witness (job has %u)", partition,
                         in->count);
    size_t m = domain(c), nw = c->r1cs->n_wires, rows = c->r1cs->n_constraints, ni = c->pk.n_inputs;
    builtin_assignment *as = builtin_assignment_new(m, nw, c->pool);
    if (!as)
        return cuzk_fail(err, CUZK_E_NOMEM, "r1cs: out of memory for a partition (domain %zu)", m);
    memcpy(as->w, in->witnesses[partition], nw * sizeof(fr_t));
    cuzk_status st = cs_spmv_abc(as->g.a, as->g.b, as->g.c, &c->r1cs->a, &c->r1cs->b, &c->r1cs->c, as->w, nw, 1, err);
    if (st) {
        builtin_assignment_free(NULL, as);
        return st;
    }
    /* snarkjs's input rows A[rows + s][s] = 1, then zero padding */
    for (size_t i = rows; i < m; i++) {
        as->g.a[i] = i - rows < ni ? as->w[i - rows] : FR_ZERO;
        as->g.b[i] = as->g.c[i] = FR_ZERO;
    }
    *assignment = as;
    return CUZK_OK;
}

static cuzk_status verify(void *ctx, const void *kind_input, const void *params, uint32_t partition,
                          const uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    builtin_r1cs *c = ctx;
    const builtin_r1cs_input *in = kind_input;
    (void)params;
    groth16_proof_t pr;
    cuzk_status st = groth16_proof_from_bytes(&pr, proof, err);
    if (st)
        return st;
    return groth16_verify(&c->pvk, in->witnesses[partition] + 1, c->pk.n_inputs - 1, &pr, err);
}

cuzk_status builtin_r1cs_create(const r1cs_t *r1cs, const zkey_t *zkey, builtin_r1cs **out, cuzk_error *err)
{
    *out = NULL;
    if (r1cs->n_wires != zkey->n_vars)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "r1cs has %u wires but the zkey has %u variables", r1cs->n_wires,
                         zkey->n_vars);
    if (r1cs_n_public(r1cs) != zkey->n_public)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "r1cs has %u public signals but the zkey has %u",
                         r1cs_n_public(r1cs), zkey->n_public);
    if ((uint64_t)r1cs->n_constraints + zkey->n_public + 1 > zkey->domain_size)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "r1cs has %u constraints: too many for the zkey's domain of %u",
                         r1cs->n_constraints, zkey->domain_size);
    builtin_r1cs *c = calloc(1, sizeof *c);
    if (!c)
        return cuzk_fail(err, CUZK_E_NOMEM, "r1cs: out of memory");
    c->r1cs = r1cs;
    groth16_params_from_zkey(&c->pk, zkey);
    groth16_prepare_vk(&c->pvk, &c->pk.vk);
    c->kind = (cuzk_circuit_kind){"r1cs", c, estimate, synthesize, builtin_release_abc, builtin_assignment_free};
    c->hook = (cuzk_verify_hook){c, verify};
    *out = c;
    return CUZK_OK;
}

void builtin_r1cs_free(builtin_r1cs *c)
{
    free(c);
}

const cuzk_circuit_kind *builtin_r1cs_kind(builtin_r1cs *c) { return &c->kind; }
const groth16_params_t *builtin_r1cs_params(const builtin_r1cs *c) { return &c->pk; }
const cuzk_verify_hook *builtin_r1cs_verify_hook(builtin_r1cs *c) { return &c->hook; }
