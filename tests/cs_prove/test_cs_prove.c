/* CS_PROVE against the other back ends on Filecoin gadget circuits (Poseidon PoR, SHA-256,
 * create_label): the witness equals CS_WITNESS's, a/b/c equal A·w, B·w, C·w from the
 * CS_RECORD matrices (plus bellperson's input rows), the densities equal the columns that
 * occur in A / B, with and without size hints; a Groth16 proof made from the CS_PROVE
 * assignment with parameters set up from the recorded matrices verifies, and a corrupted
 * witness is caught by CS_VERIFY_ROWS at the right constraint. With a region allocator
 * (cs_prove_hint.abc_alloc) a, b, c are written into one region it hands out filled with
 * garbage, with the same values, and the region goes back to it exactly once (through
 * cs_assignment_free, or cs_free when synthesis outgrows it: refused, never reallocated). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs/spmv.h"
#include "gadgets/circuits.h"
#include "groth16/groth16.h"

typedef struct {
    const char *name;
    const char *params[4];
    size_t np;
} circuit;

static const circuit CIRCUITS[] = {
    {"por", {"hasher=poseidon", "base=8", "leaves=512"}, 3},
    {"por", {"hasher=sha256", "arity=2", "leaves=4"}, 3},
    {"poseidon", {"arity=11"}, 1},
    {"sha256", {"bytes=64"}, 1},
};

static bool bit(const uint64_t *bm, uint64_t i) { return (bm[i / 64] >> (i % 64)) & 1; }

/* Variables with a non-zero entry in some circuit row of m (input rows excluded). */
static uint64_t *columns_used(const cs_csr *m, uint64_t circuit_rows, uint64_t nv)
{
    uint64_t *bm = calloc(nv / 64 + 1, sizeof *bm);
    for (uint64_t r = 0; r < circuit_rows; r++)
        for (uint64_t k = m->row_ptr[r]; k < m->row_ptr[r + 1]; k++)
            bm[m->col[k] / 64] |= 1ull << (m->col[k] % 64);
    return bm;
}

/* A region allocator over malloc that fills every region with garbage and counts. */
typedef struct {
    int gets, puts;
    void *last;
} regions;

static void *region_get(void *ctx, size_t bytes)
{
    regions *r = ctx;
    r->gets++;
    r->last = malloc(bytes);
    if (r->last)
        memset(r->last, 0xa5, bytes);
    return r->last;
}

static void region_put(void *ctx, void *mem)
{
    regions *r = ctx;
    r->puts += mem == r->last;
    free(mem);
}

static void run(const circuit *c, int hint_kind)
{
    const uint64_t seed = 7;
    cuzk_error err = {0};
    cs_t rec, wit, pr;
    CHECK(cs_init(&rec, CS_RECORD, 0) == CUZK_OK, "init record");
    CHECK(gadgets_circuit_synthesize(&rec, c->name, c->params, c->np, seed, &err) == CUZK_OK, "record %s: %s",
          c->name, err.msg);
    cs_matrices mx;
    CHECK(cs_take_matrices(&rec, &mx) == CUZK_OK, "take matrices");
    cs_free(&rec);
    uint64_t nc = mx.num_constraints, ni = mx.num_inputs, na = mx.num_aux, nv = ni + na;
    uint64_t m = 1;
    while (m < nc + ni)
        m *= 2;

    CHECK(cs_init(&wit, CS_WITNESS, 0) == CUZK_OK, "init witness");
    gadgets_circuit_synthesize(&wit, c->name, c->params, c->np, seed, &err);
    fr_t *win, *wax;
    uint64_t wni, wna;
    CHECK(cs_take_witness(&wit, &win, &wni, &wax, &wna) == CUZK_OK && wni == ni && wna == na, "witness counts");
    cs_free(&wit);

    /* hint_kind: 0 none, 1 exact, 2 too small (forces the growth paths), 3 exact with a/b/c
     * in a region, 4 a region too small (refused) */
    regions reg = {0};
    cuzk_region_alloc ra = {region_get, region_put, &reg};
    cs_prove_hint h = {0, 0, 0, NULL};
    if (hint_kind == 1)
        h = (cs_prove_hint){m, ni, na, NULL};
    else if (hint_kind == 2)
        h = (cs_prove_hint){(nc + ni) / 3, 1, na / 2, NULL};
    else if (hint_kind == 3)
        h = (cs_prove_hint){m, ni, na, &ra};
    else if (hint_kind == 4)
        h = (cs_prove_hint){nc / 2, ni, na, &ra};
    CHECK(cs_init_prove(&pr, hint_kind ? &h : NULL, 0) == CUZK_OK, "init prove");
    cuzk_status synth = gadgets_circuit_synthesize(&pr, c->name, c->params, c->np, seed, &err);
    if (hint_kind == 4) {
        CHECK(synth == CUZK_E_INVALID_ARG && strstr(err.msg, "region"), "%s: outgrowing the region refused: %s",
              c->name, err.msg);
        cs_free(&pr);
        CHECK(reg.gets == 1 && reg.puts == 1, "%s: the region given back at cs_free (%d gets, %d puts)", c->name,
              reg.gets, reg.puts);
        cs_matrices_free(&mx);
        free(win), free(wax);
        return;
    }
    CHECK(synth == CUZK_OK, "prove synth");
    cs_assignment as;
    CHECK(cs_take_assignment(&pr, m, &as) == CUZK_OK, "take assignment: %s", pr.err.msg);
    cs_free(&pr);
    if (hint_kind == 3)
        CHECK(reg.gets == 1 && reg.puts == 0 && as.abc_region == reg.last && as.a == reg.last &&
                  as.b == as.a + m && as.c == as.b + m,
              "%s: a/b/c in the region (%d gets, %d puts)", c->name, reg.gets, reg.puts);
    else
        CHECK(as.abc_region == NULL, "%s: no region without an allocator", c->name);
    CHECK(as.num_constraints == nc && as.num_inputs == ni && as.num_aux == na && as.rows == m, "%s counts",
          c->name);
    CHECK(!memcmp(as.w, win, ni * sizeof(fr_t)) && !memcmp(as.w + ni, wax, na * sizeof(fr_t)), "%s w", c->name);

    /* a/b/c against the recorded matrices (whose input rows are A = input, B = C = 0) */
    fr_t *ea = calloc(m, sizeof(fr_t)), *eb = calloc(m, sizeof(fr_t)), *ec = calloc(m, sizeof(fr_t));
    CHECK(cs_spmv_abc(ea, eb, ec, &mx.a, &mx.b, &mx.c, as.w, nv, 1, &err) == CUZK_OK, "spmv");
    CHECK(!memcmp(ea, as.a, m * sizeof(fr_t)), "%s hint %d: a", c->name, hint_kind);
    CHECK(!memcmp(eb, as.b, m * sizeof(fr_t)), "%s hint %d: b", c->name, hint_kind);
    CHECK(!memcmp(ec, as.c, m * sizeof(fr_t)), "%s hint %d: c", c->name, hint_kind);
    free(ea), free(eb), free(ec);

    /* densities: A = every input + aux used in A; B = variables used in B */
    uint64_t *ua = columns_used(&mx.a, nc, nv), *ub = columns_used(&mx.b, nc, nv);
    uint64_t bad = 0, na_cnt = 0, nb_cnt = 0;
    for (uint64_t i = 0; i < nv; i++) {
        bool want_a = i < ni || bit(ua, i), want_b = bit(ub, i);
        na_cnt += want_a, nb_cnt += want_b;
        bad += bit(as.a_density, i) != want_a || bit(as.b_density, i) != want_b;
    }
    CHECK(!bad && as.a_count == na_cnt && as.b_count == nb_cnt, "%s densities (%llu wrong)", c->name,
          (unsigned long long)bad);
    free(ua), free(ub);

    /* a full proof from this assignment (exact-hint run only: setup is the slow part) */
    if (hint_kind == 1) {
        groth16_circuit_t circ = {&mx.a, &mx.b, &mx.c, nc, ni, na};
        groth16_toxic_t tw;
        groth16_params_t pk;
        uint64_t *ad = NULL, *bd = NULL;
        CHECK(groth16_toxic_random(&tw, &err) == CUZK_OK &&
                  groth16_setup(&circ, &tw, POLY_H_BELLPERSON, 2, &pk, &ad, &bd, &err) == CUZK_OK,
              "setup: %s", err.msg);
        CHECK(pk.n_a == as.a_count && pk.n_b == as.b_count, "%s: setup density %zu/%zu vs %llu/%llu", c->name,
              pk.n_a, pk.n_b, (unsigned long long)as.a_count, (unsigned long long)as.b_count);
        CHECK(!memcmp(ad, as.a_density, (nv / 64 + 1) * 8) || nv % 64 == 0, "a density = setup's");
        groth16_assignment_t g = {.a = as.a, .b = as.b, .c = as.c, .w = as.w, .a_density = as.a_density,
                                  .b_density = as.b_density};
        groth16_proof_t proof;
        CHECK(groth16_prove(&pk, &g, 2, &proof, &err) == CUZK_OK, "prove: %s", err.msg);
        groth16_pvk_t pvk;
        groth16_prepare_vk(&pvk, &pk.vk);
        CHECK(groth16_verify(&pvk, as.w + 1, ni - 1, &proof, &err) == CUZK_OK, "%s: proof verifies: %s", c->name,
              err.msg);
        if (ni > 1) {
            fr_t bad_in[8];
            memcpy(bad_in, as.w + 1, (ni - 1) * sizeof(fr_t));
            fr_add(&bad_in[0], &bad_in[0], &FR_ONE);
            CHECK(groth16_verify(&pvk, bad_in, ni - 1, &proof, &err) == CUZK_E_VERIFY_FAILED, "wrong input fails");
        }
        groth16_params_free(&pk);
        free(ad), free(bd);
    }
    cs_assignment_free(&as);
    CHECK(reg.puts == (hint_kind == 3), "%s hint %d: region given back %d times", c->name, hint_kind, reg.puts);
    cs_matrices_free(&mx);
    free(win), free(wax);
}

/* CS_VERIFY_ROWS: a wrong value for one allocated variable makes the first constraint that
 * uses it fail, and cs_take_assignment refuses with its index. */
static void verify_rows(void)
{
    cs_t cs;
    CHECK(cs_init_prove(&cs, NULL, CS_VERIFY_ROWS) == CUZK_OK, "init");
    fr_t x, y, z, bad;
    fr_from_u64(&x, 3), fr_from_u64(&y, 9), fr_from_u64(&z, 27), fr_from_u64(&bad, 28);
    cs_var vx = cs_alloc(&cs, &x), vy = cs_alloc(&cs, &y), vz = cs_alloc(&cs, &bad);
    (void)z;
    CS_LC(a, 2);
    CS_LC(b, 2);
    CS_LC(c, 2);
    cs_lc_add_var(&a, vx), cs_lc_add_var(&b, vx), cs_lc_add_var(&c, vy);
    cs_enforce(&cs, "sq", &a, &b, &c); /* 3 * 3 = 9 holds */
    cs_lc_clear(&a), cs_lc_clear(&b), cs_lc_clear(&c);
    cs_lc_add_var(&a, vy), cs_lc_add_var(&b, vx), cs_lc_add_var(&c, vz);
    cs_enforce(&cs, "cube", &a, &b, &c); /* 9 * 3 = 28 fails */
    uint64_t idx = 99;
    CHECK(!cs_check_satisfied(&cs, &idx, NULL, 0) && idx == 1, "failing row 1 (got %llu)", (unsigned long long)idx);
    cs_assignment as;
    CHECK(cs_take_assignment(&cs, 8, &as) == CUZK_E_INVALID_ARG && strstr(cs.err.msg, "constraint 1"),
          "take refuses: %s", cs.err.msg);
    cs_free(&cs);
    /* rows smaller than constraints + inputs */
    CHECK(cs_init_prove(&cs, NULL, 0) == CUZK_OK, "init");
    cs_alloc(&cs, &x);
    CHECK(cs_take_assignment(&cs, 0, &as) == CUZK_E_INVALID_ARG, "rows too small refused");
    cs_free(&cs);
}

int main(void)
{
    for (size_t i = 0; i < sizeof CIRCUITS / sizeof CIRCUITS[0]; i++)
        for (int h = 0; h < 5; h++)
            run(&CIRCUITS[i], h);
    verify_rows();
    return check_summary("cs_prove");
}
