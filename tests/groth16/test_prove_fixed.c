/* Groth16 proofs with fixed r, s on a witness shaped like Filecoin's (mostly booleans, some
 * packed small numbers, a few full field elements), in both H forms: the proof bytes must
 * equal those of Groth16's defining formulas (groth16.h) evaluated naively, one scalar
 * multiplication (g1_mul / g2_mul, tested against @noble/curves in tests/curve) per
 * query point, so every MSM path of the prover (witness-aware A, B, L; plain H) is checked
 * point for point; and the proof must verify.
 *
 * Circuit, for NB booleans, NS packed numbers of 8 bits and NF squares:
 *   b_i * b_i = b_i                         (boolean constraints)
 *   (sum_k 2^k b_{8j+k}) * ONE = v_j         (packing: v_j < 2^8)
 *   y_k * y_k = z_k                          (y_k random field elements)
 *   (sum_j v_j + sum_k z_k) * ONE = out      (out public)
 * Variables: ONE, out | b_0 .. b_{NB-1}, v_0 .., y_0 .., z_0 ..
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field/cpu.h"
#include "groth16/groth16.h"

#define NB 400
#define NS (NB / 8)
#define NF 40
#define NINPUTS 2
#define NAUX (NB + NS + 2 * NF)
#define NVARS (NINPUTS + NAUX)
#define NCONS (NB + NS + NF + 1)
#define V0 (NINPUTS + NB)
#define Y0 (V0 + NS)
#define Z0 (Y0 + NF)

typedef struct {
    uint64_t *row_ptr;
    uint32_t *col;
    fr_t *val;
    size_t nnz;
    cs_csr m;
} csr_builder;

static void csr_init(csr_builder *b, size_t max_nnz)
{
    b->row_ptr = calloc(NCONS + 1, sizeof *b->row_ptr);
    b->col = calloc(max_nnz, sizeof *b->col);
    b->val = calloc(max_nnz, sizeof *b->val);
    b->nnz = 0;
}

static void csr_add(csr_builder *b, size_t row, uint32_t col, uint64_t coeff)
{
    b->col[b->nnz] = col;
    fr_from_u64(&b->val[b->nnz], coeff);
    b->nnz++;
    b->row_ptr[row + 1] = b->nnz;
}

static void csr_finish(csr_builder *b)
{
    for (size_t r = 1; r <= NCONS; r++)
        if (b->row_ptr[r] < b->row_ptr[r - 1])
            b->row_ptr[r] = b->row_ptr[r - 1];
    b->m = (cs_csr){NCONS, NVARS, b->row_ptr, b->col, b->val};
}

static void csr_free(csr_builder *b)
{
    free(b->row_ptr);
    free(b->col);
    free(b->val);
}

static void eval_rows(fr_t *out, const cs_csr *m, const fr_t *w)
{
    for (size_t i = 0; i < NCONS; i++) {
        out[i] = FR_ZERO;
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            fr_t t;
            fr_mul(&t, &m->val[k], &w[m->col[k]]);
            fr_add(&out[i], &out[i], &t);
        }
    }
}

static uint64_t rng_next(uint64_t *s)
{
    *s ^= *s << 13, *s ^= *s >> 7, *s ^= *s << 17;
    return *s;
}

static void build_circuit(csr_builder *a, csr_builder *b, csr_builder *c)
{
    csr_init(a, NB + NB + NF + NS + NF + 8);
    csr_init(b, NCONS + 8);
    csr_init(c, NCONS + 8);
    size_t row = 0;
    for (uint32_t i = 0; i < NB; i++, row++) {
        csr_add(a, row, NINPUTS + i, 1);
        csr_add(b, row, NINPUTS + i, 1);
        csr_add(c, row, NINPUTS + i, 1);
    }
    for (uint32_t j = 0; j < NS; j++, row++) {
        for (uint32_t k = 0; k < 8; k++)
            csr_add(a, row, NINPUTS + 8 * j + k, (uint64_t)1 << k);
        csr_add(b, row, 0, 1);
        csr_add(c, row, V0 + j, 1);
    }
    for (uint32_t k = 0; k < NF; k++, row++) {
        csr_add(a, row, Y0 + k, 1);
        csr_add(b, row, Y0 + k, 1);
        csr_add(c, row, Z0 + k, 1);
    }
    for (uint32_t j = 0; j < NS; j++)
        csr_add(a, row, V0 + j, 1);
    for (uint32_t k = 0; k < NF; k++)
        csr_add(a, row, Z0 + k, 1);
    csr_add(b, row, 0, 1);
    csr_add(c, row, 1, 1);
    csr_finish(a);
    csr_finish(b);
    csr_finish(c);
}

static void make_witness(fr_t *w)
{
    uint64_t seed = 0x9E3779B97F4A7C15ULL;
    w[0] = FR_ONE;
    for (size_t i = 0; i < NB; i++)
        fr_from_u64(&w[NINPUTS + i], rng_next(&seed) % 5 < 2); /* 40% ones, 60% zeros */
    fr_t out = FR_ZERO;
    for (size_t j = 0; j < NS; j++) {
        uint64_t v = 0;
        for (size_t k = 0; k < 8; k++)
            v |= (uint64_t)fr_is_one(&w[NINPUTS + 8 * j + k]) << k;
        fr_from_u64(&w[V0 + j], v);
        fr_add(&out, &out, &w[V0 + j]);
    }
    for (size_t k = 0; k < NF; k++) {
        uint64_t l[4] = {rng_next(&seed), rng_next(&seed), rng_next(&seed), rng_next(&seed) >> 2};
        fr_from_limbs_reduce(&w[Y0 + k], l);
        fr_sqr(&w[Z0 + k], &w[Y0 + k]);
        fr_add(&out, &out, &w[Z0 + k]);
    }
    w[1] = out;
}

/* acc += [k] p, naively */
static void add_mul_g1(g1_jac_t *acc, const g1_affine_t *p, const fr_t *k)
{
    g1_jac_t t;
    g1_jac_from_affine(&t, p);
    g1_mul_fr(&t, &t, k);
    g1_add(acc, acc, &t);
}

static void add_mul_g2(g2_jac_t *acc, const g2_affine_t *p, const fr_t *k)
{
    g2_jac_t t;
    g2_jac_from_affine(&t, p);
    g2_mul_fr(&t, &t, k);
    g2_add(acc, acc, &t);
}

static bool bit(const uint64_t *d, size_t i) { return !d || (d[i / 64] >> (i % 64) & 1); }

/* The proof by the defining formulas (groth16.h), h the H scalars (Montgomery). */
static void naive_proof(groth16_proof_t *out, const groth16_params_t *pk, const fr_t *w, const uint64_t *ad,
                        const uint64_t *bd, const fr_t *h, const fr_t *r, const fr_t *s)
{
    g1_jac_t a, b1, c;
    g2_jac_t b2;
    g1_jac_from_affine(&a, &pk->vk.alpha_g1);
    g1_jac_from_affine(&b1, &pk->vk.beta_g1);
    g2_jac_from_affine(&b2, &pk->vk.beta_g2);
    for (size_t i = 0, ka = 0, kb = 0; i < NVARS; i++) {
        if (bit(ad, i))
            add_mul_g1(&a, &pk->a[ka++], &w[i]);
        if (bit(bd, i)) {
            add_mul_g1(&b1, &pk->b_g1[kb], &w[i]);
            add_mul_g2(&b2, &pk->b_g2[kb++], &w[i]);
        }
    }
    add_mul_g1(&a, &pk->vk.delta_g1, r);
    add_mul_g1(&b1, &pk->vk.delta_g1, s);
    add_mul_g2(&b2, &pk->vk.delta_g2, s);
    g1_jac_set_infinity(&c);
    for (size_t i = 0; i < pk->n_h; i++)
        add_mul_g1(&c, &pk->h[i], &h[i]);
    for (size_t j = 0; j < pk->n_aux; j++)
        add_mul_g1(&c, &pk->l[j], &w[NINPUTS + j]);
    g1_jac_t t;
    g1_mul_fr(&t, &a, s);
    g1_add(&c, &c, &t);
    g1_mul_fr(&t, &b1, r);
    g1_add(&c, &c, &t);
    fr_t rs;
    fr_mul(&rs, r, s);
    fr_neg(&rs, &rs);
    add_mul_g1(&c, &pk->vk.delta_g1, &rs);
    g1_affine_from_jac(&out->a, &a);
    g2_affine_from_jac(&out->b, &b2);
    g1_affine_from_jac(&out->c, &c);
}

static void fill_abc(groth16_assignment_t *asg, const csr_builder *A, const csr_builder *B, const csr_builder *C,
                     const fr_t *w, size_t m)
{
    asg->a = calloc(m, sizeof(fr_t));
    asg->b = calloc(m, sizeof(fr_t));
    asg->c = calloc(m, sizeof(fr_t));
    eval_rows(asg->a, &A->m, w);
    eval_rows(asg->b, &B->m, w);
    eval_rows(asg->c, &C->m, w);
    for (size_t i = 0; i < NINPUTS; i++) /* the input rows input_i * 0 = 0 setup appends */
        asg->a[NCONS + i] = w[i];
}

static void run_form(poly_h_form form, const char *name)
{
    csr_builder A, B, C;
    build_circuit(&A, &B, &C);
    groth16_circuit_t circ = {&A.m, &B.m, &C.m, NCONS, NINPUTS, NAUX};
    groth16_toxic_t tw;
    fr_from_u64(&tw.tau, 987654321), fr_from_u64(&tw.alpha, 23), fr_from_u64(&tw.beta, 29),
        fr_from_u64(&tw.gamma, 31), fr_from_u64(&tw.delta, 37);
    groth16_params_t pk;
    uint64_t *ad = NULL, *bd = NULL;
    cuzk_error err = {0};
    cuzk_status st = groth16_setup(&circ, &tw, form, 2, &pk, &ad, &bd, &err);
    CHECK(st == CUZK_OK, "%s: setup failed: %s", name, err.msg);
    if (st)
        return;
    fr_t *w = calloc(NVARS, sizeof *w);
    make_witness(w);
    size_t m = (size_t)1 << pk.log2_m;

    /* expected: H scalars from the same evaluations, then the formulas */
    groth16_assignment_t ref = {0};
    fill_abc(&ref, &A, &B, &C, w, m);
    st = poly_h_compute(ref.a, ref.b, ref.c, pk.log2_m, form, 1, &err);
    CHECK(st == CUZK_OK, "%s: H failed: %s", name, err.msg);
    fr_t r, s;
    fr_from_u64(&r, 0x1234567890abcdefULL);
    fr_from_u64(&s, 0xfedcba0987654321ULL);
    fr_sqr(&r, &r); /* full-size randomness */
    fr_sqr(&s, &s);
    groth16_proof_t want;
    naive_proof(&want, &pk, w, ad, bd, ref.a, &r, &s);
    uint8_t want_bytes[GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(want_bytes, &want);
    groth16_assignment_free_abc(&ref);

    groth16_pvk_t pvk;
    groth16_prepare_vk(&pvk, &pk.vk);
    int runs = 0;
    for (int cpu = 0; cpu < CUZK_CPU_COUNT; cpu++)
    for (unsigned threads = 1; threads <= 2; threads++) {
        if (!cuzk_cpu_supported((cuzk_cpu_backend)cpu))
            continue;
        CHECK(cuzk_cpu_select((cuzk_cpu_backend)cpu, &err) == CUZK_OK, "select %s", cuzk_cpu_name(cpu));
        groth16_assignment_t asg = {0};
        fill_abc(&asg, &A, &B, &C, w, m);
        asg.w = w;
        asg.a_density = ad;
        asg.b_density = bd;
        groth16_pending_t *p = NULL;
        groth16_proof_t proof;
        st = groth16_prove_start(&pk, &asg, &r, &s, threads, &p, &err);
        groth16_assignment_free_abc(&asg);
        if (!st)
            st = groth16_prove_finish(p, threads, &proof, &err);
        CHECK(st == CUZK_OK, "%s %s threads=%u: prove failed: %s", name, cuzk_cpu_name(cpu), threads, err.msg);
        if (st)
            continue;
        uint8_t got[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(got, &proof);
        CHECK(memcmp(got, want_bytes, sizeof got) == 0, "%s %s threads=%u: proof bytes differ from the formulas",
              name, cuzk_cpu_name(cpu), threads);
        CHECK(groth16_verify(&pvk, &w[1], 1, &proof, &err) == CUZK_OK, "%s %s threads=%u: proof rejected: %s", name,
              cuzk_cpu_name(cpu), threads, err.msg);
        runs++;
    }
    CHECK(runs >= 2, "%s: proved on %d back end/thread combinations only", name, runs);
    (void)cuzk_cpu_select(cuzk_cpu_best(), NULL);
    free(w);
    free(ad);
    free(bd);
    groth16_params_free(&pk);
    csr_free(&A), csr_free(&B), csr_free(&C);
}

int main(void)
{
    run_form(POLY_H_BELLPERSON, "bellperson");
    run_form(POLY_H_SNARKJS, "snarkjs");
    return check_summary("groth16_prove_fixed");
}
