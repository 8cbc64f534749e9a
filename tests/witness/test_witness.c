/* Compact witnesses end to end (cs/witness.h, CS_COMPACT_AUX, msm_*_witness_sparse, the
 * Groth16 prover's compact path):
 *   - cs_witness: every value read back as pushed (0, 1, others, across word boundaries),
 *     the expanded array, the counts and bytes;
 *   - CS_WITNESS and CS_PROVE with CS_COMPACT_AUX on Filecoin gadget circuits (Poseidon /
 *     SHA-256 PoR, create_label): the same witness values, and a/b/c, densities byte for
 *     byte equal to the plain back ends (with and without size hints);
 *   - the sparse MSM on linear bases [t0 + i step]G against the closed form [sum s_i t_i]G
 *     (msm_testdata.h): G1 and G2, with and without density, ranges starting inside a
 *     word (the prover's L query), bases at infinity, big scalars of value 0 and 1;
 *     malformed sparse inputs refused;
 *   - a Groth16 proof made from the compact assignment equals, byte for byte, the one made
 *     from the plain assignment with the same r, s, and verifies.
 * Timing is printed, not asserted. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs/witness.h"
#include "gadgets/circuits.h"
#include "groth16/groth16.h"
#include "msm/msm.h"
#include "msm_testdata.h"

static void test_vector(void)
{
    cs_witness w = {0};
    msm_rng rng = {0x1234};
    enum { N = 1000 };
    fr_t *want = malloc(N * sizeof *want);
    uint64_t big = 0;
    for (int i = 0; i < N; i++) {
        uint64_t r = msm_rng_next(&rng) % 8;
        if (r < 3)
            want[i] = FR_ZERO;
        else if (r < 6)
            want[i] = FR_ONE;
        else {
            uint64_t l[4];
            msm_rng_scalar(&rng, l);
            fr_from_limbs_reduce(&want[i], l);
            big += !fr_is_zero(&want[i]) && !fr_is_one(&want[i]);
        }
        CHECK(cs_witness_push(&w, &want[i]), "push %d", i);
    }
    CHECK(w.n == N && w.n_big == big, "counts %llu / %llu, big %llu", (unsigned long long)w.n,
          (unsigned long long)w.n_big, (unsigned long long)big);
    int bad = 0;
    for (int i = 0; i < N; i++)
        bad += memcmp(cs_witness_at(&w, i), &want[i], sizeof(fr_t)) != 0;
    CHECK(!bad, "%d values read back wrong", bad);
    fr_t *out = malloc(N * sizeof *out);
    cs_witness_expand(&w, out);
    CHECK(!memcmp(out, want, N * sizeof *out), "expand");
    CHECK(cs_witness_bytes(&w) >= big * sizeof(fr_t) && cs_witness_bytes(&w) < N * sizeof(fr_t),
          "bytes %llu for %d values", (unsigned long long)cs_witness_bytes(&w), N);
    cs_witness_free(&w);
    CHECK(w.n == 0 && !w.vals, "free zeroes");
    free(out);
    free(want);
}

typedef struct {
    const char *name;
    const char *params[4];
    size_t np;
} circuit;

static const circuit CIRCUITS[] = {
    {"por", {"hasher=poseidon", "base=8", "leaves=512"}, 3},
    {"por", {"hasher=sha256", "arity=2", "leaves=4"}, 3},
    {"create-label", {"layer=3"}, 1},
};

static bool prove_mode(const circuit *c, const cs_prove_hint *h, unsigned flags, uint64_t rows, cs_assignment *as)
{
    cs_t cs;
    cuzk_error err = {0};
    bool ok = cs_init_prove(&cs, h, flags) == CUZK_OK &&
              gadgets_circuit_synthesize(&cs, c->name, c->params, c->np, 7, &err) == CUZK_OK;
    if (ok && !rows)
        for (rows = 1; rows < cs.num_constraints + cs.num_inputs; rows *= 2)
            ;
    ok = ok && cs_take_assignment(&cs, rows, as) == CUZK_OK;
    CHECK(ok, "%s: CS_PROVE (flags %u): %s %s", c->name, flags, err.msg, cs.err.msg);
    cs_free(&cs);
    return ok;
}

static void test_modes(const circuit *c)
{
    cs_assignment plain, compact;
    if (!prove_mode(c, NULL, 0, 0, &plain))
        return;
    uint64_t ni = plain.num_inputs, na = plain.num_aux, nv = ni + na, m = plain.rows;
    cs_prove_hint exact = {m, ni, na, NULL};
    for (int hint = 0; hint < 2; hint++) {
        if (!prove_mode(c, hint ? &exact : NULL, CS_COMPACT_AUX, m, &compact))
            continue;
        CHECK(!compact.w && compact.inputs && compact.aux.n == na, "%s: compact form", c->name);
        CHECK(!memcmp(compact.a, plain.a, m * 32) && !memcmp(compact.b, plain.b, m * 32) &&
                  !memcmp(compact.c, plain.c, m * 32),
              "%s hint %d: a/b/c differ", c->name, hint);
        uint64_t words = nv / 64 + 1;
        CHECK(!memcmp(compact.a_density, plain.a_density, words * 8) &&
                  !memcmp(compact.b_density, plain.b_density, words * 8) && compact.a_count == plain.a_count &&
                  compact.b_count == plain.b_count,
              "%s: densities differ", c->name);
        fr_t *aux = malloc(na * sizeof *aux);
        cs_witness_expand(&compact.aux, aux);
        CHECK(!memcmp(compact.inputs, plain.w, ni * 32) && !memcmp(aux, plain.w + ni, na * 32), "%s: witness differs",
              c->name);
        if (hint)
            printf("  %s: %llu aux, %llu not 0/1; compact %llu bytes, plain %llu\n", c->name, (unsigned long long)na,
                   (unsigned long long)compact.aux.n_big, (unsigned long long)cs_witness_bytes(&compact.aux),
                   (unsigned long long)(na * 32));
        free(aux);
        cs_assignment_free(&compact);
    }
    /* CS_WITNESS, compact vs packed */
    cs_t cs;
    cuzk_error err = {0};
    fr_t *w = NULL, *in = NULL;
    uint64_t wi = 0, wa = 0, ci = 0;
    cs_witness cw;
    bool ok = cs_init_witness(&cs, &exact, 0) == CUZK_OK &&
              gadgets_circuit_synthesize(&cs, c->name, c->params, c->np, 7, &err) == CUZK_OK &&
              cs_take_witness_packed(&cs, &w, &wi, &wa) == CUZK_OK;
    cs_free(&cs);
    ok = ok && cs_init_witness(&cs, &exact, CS_COMPACT_AUX) == CUZK_OK &&
         gadgets_circuit_synthesize(&cs, c->name, c->params, c->np, 7, &err) == CUZK_OK &&
         cs_take_witness_compact(&cs, &in, &ci, &cw) == CUZK_OK;
    cs_free(&cs);
    CHECK(ok && wi == ni && wa == na && ci == ni && cw.n == na, "%s: CS_WITNESS: %s", c->name, err.msg);
    if (ok) {
        fr_t *aux = malloc(na * sizeof *aux);
        cs_witness_expand(&cw, aux);
        CHECK(!memcmp(w, plain.w, nv * 32) && !memcmp(in, plain.w, ni * 32) && !memcmp(aux, plain.w + ni, na * 32),
              "%s: CS_WITNESS values", c->name);
        free(aux);
        cs_witness_free(&cw);
    }
    free(w), free(in);
    cs_assignment_free(&plain);
}

/* ---- sparse MSM against the closed form ---- */

typedef struct {
    size_t n, first;
    uint64_t *ones, *big, *bigs; /* bitmaps over first + n bits; big scalars */
    size_t n_big;
    uint64_t *dense;             /* the same scalars, 4 limbs each (for the closed form) */
} sparse_case;

static void make_case(sparse_case *c, size_t n, size_t first, msm_rng *rng, bool edge)
{
    memset(c, 0, sizeof *c);
    c->n = n;
    c->first = first;
    size_t words = (first + n) / 64 + 1;
    c->ones = calloc(words, 8);
    c->big = calloc(words, 8);
    c->bigs = malloc((n + 1) * 32);
    c->dense = calloc(n + 1, 32);
    /* bits before `first` are garbage the range must ignore */
    for (size_t i = 0; i < first; i++)
        (msm_rng_next(rng) & 1 ? c->ones : c->big)[i / 64] |= 1ull << (i % 64);
    for (size_t i = 0; i < n; i++) {
        uint64_t r = msm_rng_next(rng) % 16, b = first + i;
        uint64_t *s = c->dense + 4 * i;
        if (r < 7)
            continue;
        if (r < 14) {
            c->ones[b / 64] |= 1ull << (b % 64);
            s[0] = 1;
            continue;
        }
        if (edge && r == 14) { /* a "big" 0 or 1 */
            s[0] = msm_rng_next(rng) & 1;
        } else if (r == 14) {
            s[0] = msm_rng_next(rng) % 1000 + 2; /* short */
        } else {
            msm_rng_scalar(rng, s);
            if (s[3] == 0 && s[2] == 0 && s[1] == 0 && s[0] < 2)
                s[0] = 2;
        }
        c->big[b / 64] |= 1ull << (b % 64);
        memcpy(c->bigs + 4 * c->n_big++, s, 32);
    }
}

static void free_case(sparse_case *c)
{
    free(c->ones), free(c->big), free(c->bigs), free(c->dense);
}

static void test_sparse_msm(void)
{
    msm_rng rng = {0x5eed};
    fr_t t0, step;
    fr_from_u64(&t0, 12345);
    fr_from_u64(&step, 678910);
    const size_t sizes[] = {1, 63, 64, 1000, 5000};
    const size_t firsts[] = {0, 5, 64, 200};
    for (size_t si = 0; si < sizeof sizes / sizeof *sizes; si++) {
        for (size_t fi = 0; fi < sizeof firsts / sizeof *firsts; fi++) {
            for (int dens = 0; dens < 2; dens++) {
                size_t n = sizes[si];
                sparse_case c;
                make_case(&c, n, firsts[fi], &rng, si % 2 == 1);
                uint64_t *density = NULL;
                size_t nb = n;
                if (dens) {
                    density = calloc(n / 64 + 1, 8);
                    nb = 0;
                    for (size_t i = 0; i < n; i++)
                        if (msm_rng_next(&rng) % 4) {
                            density[i / 64] |= 1ull << (i % 64);
                            nb++;
                        }
                }
                g1_affine_t *b1 = malloc((nb + 1) * sizeof *b1);
                g2_affine_t *b2 = malloc((nb + 1) * sizeof *b2);
                msm_linear_g1(b1, nb, &t0, &step);
                msm_linear_g2(b2, nb, &t0, &step);
                /* a base at infinity contributes nothing: expected from the dense scalars with
                 * that pair's scalar cleared */
                size_t inf = nb > 3 ? nb / 3 : nb;
                if (inf < nb) {
                    g1_affine_set_infinity(&b1[inf]);
                    g2_affine_set_infinity(&b2[inf]);
                    for (size_t i = 0, k = 0; i < n; i++) {
                        if (density && !(density[i / 64] >> (i % 64) & 1))
                            continue;
                        if (k++ == inf)
                            memset(c.dense + 4 * i, 0, 32);
                    }
                }
                /* the closed form over the base logs t0 + k step (k counts selected pairs) */
                uint64_t *sel = calloc(nb + 1, 32);
                for (size_t i = 0, k = 0; i < n; i++)
                    if (!density || (density[i / 64] >> (i % 64) & 1))
                        memcpy(sel + 4 * k++, c.dense + 4 * i, 32);
                fr_t e;
                msm_expected_log(&e, sel, nb, NULL, &t0, &step);
                g1_jac_t want1, got1;
                g2_jac_t want2, got2;
                msm_g1_from_log(&want1, &e);
                msm_g2_from_log(&want2, &e);
                msm_sparse_scalars_t s = {n, c.first, c.ones, c.big, c.bigs, c.n_big};
                msm_opts_t o = {.threads = 2};
                msm_witness_stats_t st1;
                cuzk_error err = {0};
                CHECK(msm_g1_witness_sparse(&got1, b1, nb, density, &s, &o, &st1, &err) == CUZK_OK &&
                          g1_jac_eq(&got1, &want1),
                      "G1 sparse n %zu first %zu density %d: %s", n, c.first, dens, err.msg);
                CHECK(msm_g2_witness_sparse(&got2, b2, nb, density, &s, &o, NULL, &err) == CUZK_OK &&
                          g2_jac_eq(&got2, &want2),
                      "G2 sparse n %zu first %zu density %d: %s", n, c.first, dens, err.msg);
                CHECK(st1.zeros + st1.ones + st1.small + st1.full == nb, "stats add up: %zu+%zu+%zu+%zu vs %zu",
                      st1.zeros, st1.ones, st1.small, st1.full, nb);
                free(sel), free(b1), free(b2), free(density);
                free_case(&c);
            }
        }
    }
    /* malformed: a value marked both 1 and big; too few big scalars; wrong base count */
    sparse_case c;
    make_case(&c, 200, 0, &rng, false);
    g1_affine_t *b1 = malloc(200 * sizeof *b1);
    msm_linear_g1(b1, 200, &t0, &step);
    g1_jac_t out;
    cuzk_error err = {0};
    msm_sparse_scalars_t s = {200, 0, c.ones, c.big, c.bigs, c.n_big};
    size_t both = 0;
    while (both < 200 && !(c.big[both / 64] >> (both % 64) & 1))
        both++;
    c.ones[both / 64] |= 1ull << (both % 64);
    CHECK(msm_g1_witness_sparse(&out, b1, 200, NULL, &s, NULL, NULL, &err) == CUZK_E_INVALID_ARG &&
              strstr(err.msg, "both"),
          "1-and-big refused: %s", err.msg);
    c.ones[both / 64] &= ~(1ull << (both % 64));
    s.n_big = c.n_big ? c.n_big - 1 : 0;
    CHECK(c.n_big == 0 || msm_g1_witness_sparse(&out, b1, 200, NULL, &s, NULL, NULL, &err) == CUZK_E_INVALID_ARG,
          "too few big scalars refused: %s", err.msg);
    s.n_big = c.n_big;
    CHECK(msm_g1_witness_sparse(&out, b1, 199, NULL, &s, NULL, NULL, &err) == CUZK_E_INVALID_ARG,
          "base count refused: %s", err.msg);
    free(b1);
    free_case(&c);
}

/* A proof from the compact assignment equals the plain one's for the same r, s. */
static void test_proof(void)
{
    const circuit *c = &CIRCUITS[0];
    cs_t rec;
    cuzk_error err = {0};
    cs_matrices mx;
    bool ok = cs_init(&rec, CS_RECORD, 0) == CUZK_OK &&
              gadgets_circuit_synthesize(&rec, c->name, c->params, c->np, 7, &err) == CUZK_OK &&
              cs_take_matrices(&rec, &mx) == CUZK_OK;
    cs_free(&rec);
    CHECK(ok, "record: %s", err.msg);
    if (!ok)
        return;
    groth16_circuit_t circ = {&mx.a, &mx.b, &mx.c, mx.num_constraints, mx.num_inputs, mx.num_aux};
    groth16_toxic_t tw;
    groth16_params_t pk;
    ok = groth16_toxic_random(&tw, &err) == CUZK_OK &&
         groth16_setup(&circ, &tw, POLY_H_BELLPERSON, 2, &pk, NULL, NULL, &err) == CUZK_OK;
    CHECK(ok, "setup: %s", err.msg);
    if (!ok) {
        cs_matrices_free(&mx);
        return;
    }
    uint64_t m = (uint64_t)1 << pk.log2_m;
    cs_assignment plain, compact;
    fr_t r, s;
    fr_from_u64(&r, 1111);
    fr_from_u64(&s, 2222);
    uint8_t bytes[2][GROTH16_PROOF_BYTES];
    groth16_pvk_t pvk;
    groth16_prepare_vk(&pvk, &pk.vk);
    for (int k = 0; k < 2; k++) {
        cs_assignment *as = k ? &compact : &plain;
        if (!prove_mode(c, NULL, k ? CS_COMPACT_AUX : 0, m, as))
            continue;
        groth16_assignment_t g = {.a = as->a, .b = as->b, .c = as->c, .w = as->w, .a_density = as->a_density,
                                  .b_density = as->b_density};
        groth16_compact_witness_t cw = {as->inputs, &as->aux};
        groth16_pending_t *p = NULL;
        groth16_proof_t proof;
        ok = (k ? groth16_prove_start_compact(&pk, &g, &cw, &r, &s, 2, &p, &err)
                : groth16_prove_start(&pk, &g, &r, &s, 2, &p, &err)) == CUZK_OK &&
             groth16_prove_finish(p, 2, &proof, &err) == CUZK_OK;
        CHECK(ok, "prove (%s): %s", k ? "compact" : "plain", err.msg);
        groth16_proof_to_bytes(bytes[k], &proof);
        const fr_t *inputs = k ? as->inputs : as->w;
        CHECK(ok && groth16_verify(&pvk, inputs + 1, mx.num_inputs - 1, &proof, &err) == CUZK_OK,
              "%s proof verifies: %s", k ? "compact" : "plain", err.msg);
    }
    CHECK(!memcmp(bytes[0], bytes[1], GROTH16_PROOF_BYTES), "compact and plain proofs differ");
    cs_assignment_free(&plain);
    cs_assignment_free(&compact);
    groth16_params_free(&pk);
    cs_matrices_free(&mx);
}

int main(void)
{
    test_vector();
    for (size_t i = 0; i < sizeof CIRCUITS / sizeof *CIRCUITS; i++)
        test_modes(&CIRCUITS[i]);
    test_sparse_msm();
    test_proof();
    return check_summary("witness");
}
