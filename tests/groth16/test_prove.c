/* Groth16 prover/verifier round trip on a hand-written R1CS, in both H forms:
 *   x * x = y1;  y1 * x = y2;  (y2 + x + 5) * 1 = out       (out public, x private)
 * Variables: ONE, out | x, y1, y2. A wrong prover (any error in H, the MSMs or the
 * assembly) fails the pairing check, which is itself tested against @noble/curves in
 * tests/pairing; tampered inputs and proofs must be rejected. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "groth16/groth16.h"

enum { ONE, OUT, X, Y1, Y2, NV };

typedef struct {
    uint64_t row_ptr[4];
    uint32_t col[4];
    fr_t val[4];
    cs_csr m;
} mat3;

static void set_fr(fr_t *r, uint64_t v) { fr_from_u64(r, v); }

static void count_release(void *ctx) { ++*(int *)ctx; }

/* rows: list of (row, col, value) */
static void build(mat3 *m, const int (*e)[3], int n)
{
    memset(m, 0, sizeof *m);
    for (int i = 0; i < n; i++) {
        m->col[i] = (uint32_t)e[i][1];
        set_fr(&m->val[i], (uint64_t)e[i][2]);
        m->row_ptr[e[i][0] + 1]++;
    }
    for (int r = 0; r < 3; r++)
        m->row_ptr[r + 1] += m->row_ptr[r];
    m->m = (cs_csr){3, NV, m->row_ptr, m->col, m->val};
}

static void eval_rows(fr_t *out, const cs_csr *m, const fr_t *w, size_t rows)
{
    for (size_t i = 0; i < rows; i++) {
        out[i] = FR_ZERO;
        for (uint64_t k = m->row_ptr[i]; k < m->row_ptr[i + 1]; k++) {
            fr_t t;
            fr_mul(&t, &m->val[k], &w[m->col[k]]);
            fr_add(&out[i], &out[i], &t);
        }
    }
}

static void run_form(poly_h_form form, const char *name)
{
    static const int eb[][3] = {{0, X, 1}, {1, X, 1}, {2, ONE, 1}};
    static const int ec[][3] = {{0, Y1, 1}, {1, Y2, 1}, {2, OUT, 1}};
    mat3 B, C;
    build(&B, eb, 3);
    build(&C, ec, 3);
    /* A: x | y1 | 5*ONE + x + y2 */
    uint64_t rp[4] = {0, 1, 2, 5};
    uint32_t col[5] = {X, Y1, ONE, X, Y2};
    fr_t val[5];
    set_fr(&val[0], 1), set_fr(&val[1], 1), set_fr(&val[2], 5), set_fr(&val[3], 1), set_fr(&val[4], 1);
    cs_csr a = {3, NV, rp, col, val};

    groth16_circuit_t circ = {&a, &B.m, &C.m, 3, 2, 3};
    groth16_toxic_t tw;
    set_fr(&tw.tau, 123456789), set_fr(&tw.alpha, 11), set_fr(&tw.beta, 13), set_fr(&tw.gamma, 17),
        set_fr(&tw.delta, 19);
    groth16_params_t pk;
    uint64_t *ad = NULL, *bd = NULL;
    cuzk_error err = {0};
    cuzk_status st = groth16_setup(&circ, &tw, form, 2, &pk, &ad, &bd, &err);
    CHECK(st == CUZK_OK, "%s: setup failed: %s", name, err.msg);
    if (st)
        return;

    /* witness for x = 3: y1 = 9, y2 = 27, out = 35 */
    fr_t w[NV];
    set_fr(&w[ONE], 1), set_fr(&w[OUT], 35), set_fr(&w[X], 3), set_fr(&w[Y1], 9), set_fr(&w[Y2], 27);
    groth16_pvk_t pvk;
    groth16_prepare_vk(&pvk, &pk.vk);

    for (int round = 0; round < 2; round++) {
        size_t m = (size_t)1 << pk.log2_m;
        groth16_assignment_t asg = {.a = calloc(m, sizeof(fr_t)), .b = calloc(m, sizeof(fr_t)),
                                    .c = calloc(m, sizeof(fr_t)), .w = w, .a_density = ad, .b_density = bd};
        eval_rows(asg.a, &a, w, 3);
        eval_rows(asg.b, &B.m, w, 3);
        eval_rows(asg.c, &C.m, w, 3);
        asg.a[3] = w[ONE], asg.a[4] = w[OUT]; /* input rows */
        groth16_proof_t proof = {0};
        if (round == 0) {
            st = groth16_prove(&pk, &asg, 2, &proof, &err);
        } else {
            fr_t r, s;
            groth16_pending_t *p = NULL;
            set_fr(&r, 0), set_fr(&s, 0); /* zero randomness is allowed, just not hiding */
            /* the release callback runs exactly once inside prove_start; a/b/c stay ours */
            int released = 0;
            asg.release_abc = (cuzk_release_cb){count_release, &released};
            fr_t *a0 = asg.a;
            st = groth16_prove_start(&pk, &asg, &r, &s, 1, &p, &err);
            CHECK(released == 1 && asg.a == a0, "%s: prove_start released a/b/c %d times (want 1), a moved", name,
                  released);
            if (!st)
                st = groth16_prove_finish(p, 1, &proof, &err);
            /* on an error path too: exactly once */
            released = 0;
            groth16_pending_t *q = NULL;
            CHECK(groth16_prove_start(&pk, &asg, &r, &s, 0, &q, &err) == CUZK_E_INVALID_ARG && !q && released == 1,
                  "%s: rejected prove_start released a/b/c %d times (want 1)", name, released);
        }
        groth16_assignment_free_abc(&asg);
        CHECK(st == CUZK_OK, "%s round %d: prove failed: %s", name, round, err.msg);
        fr_t pub = w[OUT];
        st = groth16_verify(&pvk, &pub, 1, &proof, &err);
        CHECK(st == CUZK_OK, "%s round %d: valid proof rejected: %s", name, round, err.msg);
        fr_t bad;
        set_fr(&bad, 36);
        CHECK(groth16_verify(&pvk, &bad, 1, &proof, &err) == CUZK_E_VERIFY_FAILED,
              "%s: tampered input accepted", name);
        CHECK(groth16_verify(&pvk, &pub, 2, &proof, &err) == CUZK_E_INVALID_ARG, "%s: wrong input count", name);

        uint8_t bytes[GROTH16_PROOF_BYTES];
        groth16_proof_to_bytes(bytes, &proof);
        groth16_proof_t back;
        CHECK(groth16_proof_from_bytes(&back, bytes, &err) == CUZK_OK &&
                  groth16_verify(&pvk, &pub, 1, &back, &err) == CUZK_OK,
              "%s: proof bytes round trip", name);
        bytes[100] ^= 1;
        CHECK(groth16_proof_from_bytes(&back, bytes, &err) != CUZK_OK ||
                  groth16_verify(&pvk, &pub, 1, &back, &err) != CUZK_OK,
              "%s: flipped proof byte accepted", name);
        /* swapping A and C breaks the proof */
        groth16_proof_t swapped = proof;
        swapped.a = proof.c, swapped.c = proof.a;
        CHECK(groth16_verify(&pvk, &pub, 1, &swapped, &err) == CUZK_E_VERIFY_FAILED, "%s: swapped proof", name);
    }

    /* an unsatisfied witness gives a proof that does not verify */
    {
        size_t m = (size_t)1 << pk.log2_m;
        fr_t wbad[NV];
        memcpy(wbad, w, sizeof w);
        set_fr(&wbad[Y2], 28);
        groth16_assignment_t asg = {.a = calloc(m, sizeof(fr_t)), .b = calloc(m, sizeof(fr_t)),
                                    .c = calloc(m, sizeof(fr_t)), .w = wbad, .a_density = ad, .b_density = bd};
        eval_rows(asg.a, &a, wbad, 3);
        eval_rows(asg.b, &B.m, wbad, 3);
        eval_rows(asg.c, &C.m, wbad, 3);
        asg.a[3] = wbad[ONE], asg.a[4] = wbad[OUT];
        groth16_proof_t proof;
        st = groth16_prove(&pk, &asg, 2, &proof, &err);
        groth16_assignment_free_abc(&asg);
        fr_t pub = wbad[OUT];
        CHECK(st == CUZK_OK && groth16_verify(&pvk, &pub, 1, &proof, &err) == CUZK_E_VERIFY_FAILED,
              "%s: proof of an unsatisfied witness verified", name);
    }
    free(ad);
    free(bd);
    groth16_params_free(&pk);
}

int main(void)
{
    run_form(POLY_H_BELLPERSON, "bellperson");
    run_form(POLY_H_SNARKJS, "snarkjs");
    return check_summary("groth16_prove");
}
