/* The "synthetic" circuit kind; contract in builtin.h.
 *
 * Variables: ONE, x (public) | y_1 .. y_n (aux), n = 2^k - 2, y_0 := x.
 * Constraint i < n:  (y_i + (i + 1) ONE) * y_i = y_{i+1}.
 * Rows: n constraints + 2 input rows = 2^k, so the evaluation domain is exactly 2^k. */
#include <stdlib.h>
#include <string.h>

#include "kinds/builtin/builtin_internal.h"

struct builtin_synthetic {
    unsigned log2_rows;
    size_t n; /* constraints = aux variables */
    groth16_params_t pk;
    uint64_t *a_density, *b_density;
    groth16_pvk_t pvk;
    fr_t *consts; /* i + 1 for i < n, Montgomery */
    cuzk_circuit_kind kind;
    cuzk_verify_hook hook;
    cuzk_abc_pool *pool; /* NULL: malloc */
};

enum { ONE = 0, X = 1, N_INPUTS = 2 };

static uint64_t splitmix64(uint64_t x)
{
    x += 0x9e3779b97f4a7c15ULL;
    x = (x ^ (x >> 30)) * 0xbf58476d1ce4e5b9ULL;
    x = (x ^ (x >> 27)) * 0x94d049bb133111ebULL;
    return x ^ (x >> 31);
}

static void public_input(fr_t *x, uint64_t seed, uint32_t partition)
{
    uint64_t l[4];
    uint64_t s = seed + partition;
    for (int i = 0; i < 4; i++)
        l[i] = s = splitmix64(s);
    fr_from_limbs_reduce(x, l);
}

/* CSR of the circuit (n rows; the input rows are appended by setup). */
typedef struct {
    cs_csr a, b, c;
    uint64_t *rp2, *rp1;
    uint32_t *ca, *cb, *cc;
    fr_t *va, *vb, *vc;
} synth_csr;

static void csr_free(synth_csr *m)
{
    free(m->rp2), free(m->rp1), free(m->ca), free(m->cb), free(m->cc), free(m->va), free(m->vb), free(m->vc);
}

static cuzk_status csr_build(synth_csr *m, size_t n, const fr_t *consts)
{
    memset(m, 0, sizeof *m);
    m->rp2 = malloc((n + 1) * sizeof *m->rp2);
    m->rp1 = malloc((n + 1) * sizeof *m->rp1);
    m->ca = malloc(2 * n * sizeof *m->ca);
    m->va = malloc(2 * n * sizeof *m->va);
    m->cb = malloc(n * sizeof *m->cb);
    m->vb = malloc(n * sizeof *m->vb);
    m->cc = malloc(n * sizeof *m->cc);
    m->vc = malloc(n * sizeof *m->vc);
    if (!m->rp2 || !m->rp1 || !m->ca || !m->va || !m->cb || !m->vb || !m->cc || !m->vc) {
        csr_free(m);
        return CUZK_E_NOMEM;
    }
    for (size_t i = 0; i < n; i++) {
        uint32_t yi = i == 0 ? X : (uint32_t)(N_INPUTS + i - 1), yn = (uint32_t)(N_INPUTS + i);
        m->rp2[i] = 2 * i;
        m->rp1[i] = i;
        m->ca[2 * i] = ONE, m->va[2 * i] = consts[i];
        m->ca[2 * i + 1] = yi, m->va[2 * i + 1] = FR_ONE;
        m->cb[i] = yi, m->vb[i] = FR_ONE;
        m->cc[i] = yn, m->vc[i] = FR_ONE;
    }
    m->rp2[n] = 2 * n;
    m->rp1[n] = n;
    uint64_t cols = N_INPUTS + n;
    m->a = (cs_csr){n, cols, m->rp2, m->ca, m->va};
    m->b = (cs_csr){n, cols, m->rp1, m->cb, m->vb};
    m->c = (cs_csr){n, cols, m->rp1, m->cc, m->vc};
    return CUZK_OK;
}

static cuzk_status estimate(void *ctx, const void *input, cuzk_partition_estimate *out, cuzk_error *err)
{
    builtin_synthetic *s = ctx;
    (void)input, (void)err;
    size_t m = (size_t)1 << s->log2_rows;
    out->total_bytes = builtin_synthetic_partition_bytes(s);
    out->abc_bytes = (uint64_t)m * 3 * sizeof(fr_t);
    return CUZK_OK;
}

static cuzk_status synthesize(void *ctx, const void *input, uint32_t partition, const atomic_bool *cancel,
                              void **assignment, cuzk_error *err)
{
    builtin_synthetic *s = ctx;
    const builtin_synthetic_input *in = input;
    size_t m = (size_t)1 << s->log2_rows, n = s->n;
    *assignment = NULL;
    builtin_assignment *as = builtin_assignment_new(m, N_INPUTS + n, s->pool);
    if (!as)
        return cuzk_fail(err, CUZK_E_NOMEM, "synthetic: out of memory for a partition of 2^%u rows", s->log2_rows);
    fr_t *w = as->w, *a = as->g.a, *b = as->g.b, *c = as->g.c;
    w[ONE] = FR_ONE;
    public_input(&w[X], in->seed, partition);
    fr_t y = w[X];
    for (size_t i = 0; i < n; i++) {
        if ((i & 0xffff) == 0 && atomic_load(cancel)) {
            builtin_assignment_free(NULL, as);
            return cuzk_fail(err, CUZK_E_CANCELLED, "synthetic: cancelled");
        }
        fr_add(&a[i], &y, &s->consts[i]);
        b[i] = y;
        fr_mul(&y, &a[i], &y);
        c[i] = y;
        w[N_INPUTS + i] = y;
    }
    a[n] = w[ONE], a[n + 1] = w[X]; /* input rows: input_i * 0 = 0 */
    b[n] = b[n + 1] = c[n] = c[n + 1] = FR_ZERO;
    as->g.a_density = s->a_density;
    as->g.b_density = s->b_density;
    *assignment = as;
    return CUZK_OK;
}

static cuzk_status verify(void *ctx, const void *kind_input, const void *params, uint32_t partition,
                          const uint8_t proof[CUZK_PROOF_BYTES], cuzk_error *err)
{
    builtin_synthetic *s = ctx;
    const builtin_synthetic_input *in = kind_input;
    (void)params;
    groth16_proof_t pr;
    cuzk_status st = groth16_proof_from_bytes(&pr, proof, err);
    if (st)
        return st;
    fr_t x;
    public_input(&x, in->seed, partition);
    return groth16_verify(&s->pvk, &x, 1, &pr, err);
}

cuzk_status builtin_synthetic_create(unsigned log2_rows, unsigned threads, builtin_synthetic **out, cuzk_error *err)
{
    *out = NULL;
    if (log2_rows < 2 || log2_rows > 26)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "synthetic: log2 rows must be in 2..26, got %u", log2_rows);
    builtin_synthetic *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_fail(err, CUZK_E_NOMEM, "synthetic: out of memory");
    s->log2_rows = log2_rows;
    s->n = ((size_t)1 << log2_rows) - N_INPUTS;
    s->consts = malloc(s->n * sizeof *s->consts);
    if (!s->consts) {
        free(s);
        return cuzk_fail(err, CUZK_E_NOMEM, "synthetic: out of memory");
    }
    for (size_t i = 0; i < s->n; i++)
        fr_from_u64(&s->consts[i], i + 1);
    synth_csr m;
    if (csr_build(&m, s->n, s->consts)) {
        free(s->consts), free(s);
        return cuzk_fail(err, CUZK_E_NOMEM, "synthetic: out of memory for the matrices");
    }
    groth16_circuit_t circ = {&m.a, &m.b, &m.c, s->n, N_INPUTS, s->n};
    groth16_toxic_t tw;
    cuzk_status st = groth16_toxic_random(&tw, err);
    if (!st)
        st = groth16_setup(&circ, &tw, POLY_H_BELLPERSON, threads, &s->pk, &s->a_density, &s->b_density, err);
    csr_free(&m);
    if (st) {
        free(s->consts), free(s);
        return st;
    }
    groth16_prepare_vk(&s->pvk, &s->pk.vk);
    s->kind = (cuzk_circuit_kind){"synthetic", s, estimate, synthesize, builtin_release_abc, builtin_assignment_free};
    s->hook = (cuzk_verify_hook){s, verify};
    *out = s;
    return CUZK_OK;
}

void builtin_synthetic_use_pool(builtin_synthetic *s, cuzk_abc_pool *pool) { s->pool = pool; }

void builtin_synthetic_free(builtin_synthetic *s)
{
    if (!s)
        return;
    groth16_params_free(&s->pk);
    free(s->a_density), free(s->b_density), free(s->consts), free(s);
}

const cuzk_circuit_kind *builtin_synthetic_kind(builtin_synthetic *s) { return &s->kind; }
const groth16_params_t *builtin_synthetic_params(const builtin_synthetic *s) { return &s->pk; }
const cuzk_verify_hook *builtin_synthetic_verify_hook(builtin_synthetic *s) { return &s->hook; }

uint64_t builtin_synthetic_partition_bytes(const builtin_synthetic *s)
{
    return builtin_partition_bytes((size_t)1 << s->log2_rows, N_INPUTS + s->n, s->pk.n_b);
}
