/* The StackedDrg partition circuit with values, on the tiny custom shapes of
 * rust-fil-proofs' stacked_circuit.rs tests (their constraint
 * and input counts are the oracle) and an 11-layer one: a consistent C1 (tiny_c1.h)
 * satisfies every constraint in CS_CHECK, the allocated inputs are the generate_public_inputs
 * layout (replica_id, comm_d, comm_r, then per challenge c, 6 DRG parents, 8 expander parents, c,
 * c, c), CS_WITNESS, CS_RECORD and CS_PROVE (rows verified) agree with it, and tampered copies are
 * unsatisfied at the constraint that ties the changed value, or refused before synthesis. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "tiny_c1.h"

typedef struct {
    const char *name;
    fc_porep_circuit_params cp;
    uint64_t constraints; /* reference count, 0 when there is none */
} shape;

typedef struct {
    cuzk_status st;
    cs_counts counts;
    bool satisfied;
    char fail[256];
    fr_t *inputs; /* value modes, ONE first; caller frees */
    uint64_t ninputs;
    cuzk_error err;
} result;

/* Synthesize partition 0 of cp with c1 in `mode`. */
static void run(cs_mode mode, const fc_porep_circuit_params *cp, const fc_c1_output *c1, result *r)
{
    memset(r, 0, sizeof *r);
    cs_t cs;
    if ((r->st = mode == CS_PROVE ? cs_init_prove(&cs, NULL, CS_VERIFY_ROWS) : cs_init(&cs, mode, 0)))
        return;
    r->st = fc_porep_synthesize(&cs, cp, c1, 0, &r->err);
    cs_get_counts(&cs, &r->counts);
    uint64_t idx;
    r->satisfied = cs_check_satisfied(&cs, &idx, r->fail, sizeof r->fail);
    if (r->st == CUZK_OK && (mode == CS_CHECK || mode == CS_WITNESS)) {
        fr_t *aux;
        uint64_t naux;
        if (cs_take_witness(&cs, &r->inputs, &r->ninputs, &aux, &naux) == CUZK_OK)
            free(aux);
    }
    if (r->st == CUZK_OK && mode == CS_RECORD) {
        cs_matrices m;
        CHECK(cs_take_matrices(&cs, &m) == CUZK_OK, "record mode: matrices");
        CHECK(m.num_constraints == r->counts.constraints && m.num_inputs == r->counts.inputs,
              "record mode: matrices %llu x %llu", (unsigned long long)m.num_constraints,
              (unsigned long long)m.num_inputs);
        cs_matrices_free(&m);
    }
    if (r->st == CUZK_OK && mode == CS_PROVE) {
        cs_assignment as;
        cuzk_status st = cs_take_assignment(&cs, r->counts.constraints + r->counts.inputs, &as);
        CHECK(st == CUZK_OK, "prove mode: assignment %s (unsatisfied rows are refused)", cuzk_status_name(st));
        if (st == CUZK_OK && (r->inputs = malloc(as.num_inputs * sizeof(fr_t)))) {
            memcpy(r->inputs, as.w, as.num_inputs * sizeof(fr_t));
            r->ninputs = as.num_inputs;
        }
        if (st == CUZK_OK)
            cs_assignment_free(&as);
    }
    cs_free(&cs);
}

/* generate_public_inputs from the values the C1 was built from (not from the circuit). */
static void expected_inputs(const fc_c1_output *c1, unsigned C, const uint64_t *ch,
                            const uint32_t (*par)[FC_POREP_PARENTS], fr_t *out)
{
    fr_from_bytes_le(&out[0], c1->replica_id);
    fr_from_bytes_le(&out[1], c1->comm_d);
    fr_from_bytes_le(&out[2], c1->comm_r);
    fr_t *o = out + 3;
    for (unsigned i = 0; i < C; i++) {
        fr_from_u64(o++, ch[i]);
        for (unsigned j = 0; j < FC_POREP_PARENTS; j++)
            fr_from_u64(o++, par[i][j]);
        for (unsigned j = 0; j < 3; j++)
            fr_from_u64(o++, ch[i]);
    }
}

/* Expect an unsatisfied CHECK run whose failing constraint name contains `where`. */
static void expect_unsatisfied(const shape *s, const fc_c1_output *c1, const char *what, const char *where)
{
    result r;
    run(CS_CHECK, &s->cp, c1, &r);
    CHECK(r.st == CUZK_OK, "%s, %s: synthesis %s", s->name, what, r.err.msg);
    CHECK(!r.satisfied, "%s, %s: still satisfied", s->name, what);
    CHECK(strstr(r.fail, where) != NULL, "%s, %s: failed at '%s', want '%s'", s->name, what, r.fail, where);
    free(r.inputs);
}

static void test_shape(const shape *s, uint64_t seed, bool tamper)
{
    const fc_porep_circuit_params *cp = &s->cp;
    unsigned C = cp->challenges;
    fc_c1_output c1;
    uint64_t ch[8];
    uint32_t par[8][FC_POREP_PARENTS];
    if (!tiny_c1_build(cp, seed, &c1, ch, par)) {
        CHECK(false, "%s: building the C1 failed", s->name);
        return;
    }
    size_t nin = fc_porep_public_input_count(cp);
    CHECK(nin == 3 + 18u * C, "%s: %zu public inputs", s->name, nin);

    result shp, chk, wit, rec, prv;
    run(CS_SHAPE, cp, NULL, &shp);
    run(CS_CHECK, cp, &c1, &chk);
    run(CS_WITNESS, cp, &c1, &wit);
    run(CS_RECORD, cp, NULL, &rec);
    run(CS_PROVE, cp, &c1, &prv);
    CHECK(shp.st == CUZK_OK && chk.st == CUZK_OK && wit.st == CUZK_OK && rec.st == CUZK_OK && prv.st == CUZK_OK,
          "%s: %s %s %s %s %s", s->name, shp.err.msg, chk.err.msg, wit.err.msg, rec.err.msg, prv.err.msg);
    if (s->constraints)
        CHECK(chk.counts.constraints == s->constraints, "%s: %llu constraints, reference %llu", s->name,
              (unsigned long long)chk.counts.constraints, (unsigned long long)s->constraints);
    CHECK(chk.counts.inputs == nin + 1 && shp.counts.inputs == nin + 1, "%s: %llu / %llu inputs, want %zu", s->name,
          (unsigned long long)chk.counts.inputs, (unsigned long long)shp.counts.inputs, nin + 1);
    CHECK(shp.counts.constraints == chk.counts.constraints && shp.counts.aux == chk.counts.aux &&
              wit.counts.aux == chk.counts.aux && rec.counts.constraints == chk.counts.constraints &&
              prv.counts.constraints == chk.counts.constraints && prv.counts.aux == chk.counts.aux &&
              shp.counts.nnz_a == chk.counts.nnz_a,
          "%s: modes disagree on counts", s->name);
    CHECK(chk.satisfied, "%s: unsatisfied at %s", s->name, chk.fail);

    fr_t want[3 + 18 * 8];
    expected_inputs(&c1, C, ch, (const uint32_t(*)[FC_POREP_PARENTS])par, want);
    bool same = chk.inputs && wit.inputs && prv.inputs && chk.ninputs == nin + 1 && wit.ninputs == nin + 1 &&
                prv.ninputs == nin + 1;
    for (size_t i = 0; same && i < nin; i++)
        same = fr_eq(&chk.inputs[i + 1], &want[i]) && fr_eq(&wit.inputs[i + 1], &want[i]) &&
               fr_eq(&prv.inputs[i + 1], &want[i]);
    CHECK(same, "%s: allocated inputs differ from the generate_public_inputs layout", s->name);
    free(chk.inputs);
    free(wit.inputs);
    free(prv.inputs);
    if (!tamper) {
        tiny_c1_free(&c1);
        return;
    }

    /* tampering: each change is caught by the constraint that ties it */
    fc_porep_challenge_proof *pr = &c1.proofs[C - 1];
    char ns[64];
    uint8_t save[32];
    memcpy(save, pr->drg[3].rows[0], 32);
    pr->drg[3].rows[0][0] ^= 1; /* one label of a parent column */
    snprintf(ns, sizeof ns, "challenge_%u/drg_parent_3_inclusion", C - 1);
    expect_unsatisfied(s, &c1, "changed DRG parent row", ns);
    memcpy(pr->drg[3].rows[0], save, 32);

    memcpy(save, pr->exp[7].rows[cp->layers - 1], 32);
    pr->exp[7].rows[cp->layers - 1][5] ^= 0x10; /* the expander row no label reads */
    snprintf(ns, sizeof ns, "challenge_%u/exp_parent_7_inclusion", C - 1);
    expect_unsatisfied(s, &c1, "changed expander parent row", ns);
    memcpy(pr->exp[7].rows[cp->layers - 1], save, 32);

    pr->comm_d_proof.index[0] ^= 1; /* the challenge's tree D path */
    snprintf(ns, sizeof ns, "challenge_%u/comm_d_inclusion", C - 1);
    expect_unsatisfied(s, &c1, "changed tree D index", ns);
    pr->comm_d_proof.index[0] ^= 1;

    pr->comm_r_last_proof.sib[0][0] ^= 1; /* a tree R sibling */
    snprintf(ns, sizeof ns, "challenge_%u/comm_r_last_data_inclusion", C - 1);
    expect_unsatisfied(s, &c1, "changed tree R sibling", ns);
    pr->comm_r_last_proof.sib[0][0] ^= 1;

    pr->labeling[0].node ^= 2; /* the challenge the labels (hence the replica node) are computed for */
    snprintf(ns, sizeof ns, "challenge_%u/comm_r_last_data_inclusion", C - 1);
    expect_unsatisfied(s, &c1, "changed labeling node", ns);
    pr->labeling[0].node ^= 2;

    c1.comm_r[0] ^= 1;
    expect_unsatisfied(s, &c1, "changed comm_r", "enforce comm_r = H(comm_c || comm_r_last)");
    c1.comm_r[0] ^= 1;

    /* refused before synthesis: a non-canonical value, a wrong shape, no C1 */
    result r;
    memcpy(save, pr->exp[2].rows[1], 32);
    memset(pr->exp[2].rows[1], 0xff, 32);
    run(CS_CHECK, cp, &c1, &r);
    char want_where[96];
    snprintf(want_where, sizeof want_where, "vanilla_proofs[0][%u].replica_column_proofs.exp_parents[2].column.rows[1]",
             C - 1);
    CHECK(r.st == CUZK_E_FIELD_NONCANONICAL && strstr(r.err.msg, want_where), "%s: non-canonical row: %s", s->name,
          r.err.msg);
    memcpy(pr->exp[2].rows[1], save, 32);
    pr->c_x.nrows--;
    run(CS_CHECK, cp, &c1, &r);
    snprintf(want_where, sizeof want_where, "vanilla_proofs[0][%u].replica_column_proofs.c_x.column.rows", C - 1);
    CHECK(r.st == CUZK_E_INVALID_ARG && strstr(r.err.msg, want_where), "%s: short column: %s", s->name, r.err.msg);
    pr->c_x.nrows++;
    pr->comm_r_last_proof.nlevels--;
    run(CS_WITNESS, cp, &c1, &r);
    CHECK(r.st == CUZK_E_INVALID_ARG && strstr(r.err.msg, "comm_r_last_proof"), "%s: short path: %s", s->name,
          r.err.msg);
    pr->comm_r_last_proof.nlevels++;
    run(CS_CHECK, cp, NULL, &r);
    CHECK(r.st == CUZK_E_INVALID_ARG, "%s: CHECK without a C1: %s", s->name, r.err.msg);
    fc_porep_circuit_params other = *cp;
    other.challenges = C + 1;
    run(CS_CHECK, &other, &c1, &r);
    CHECK(r.st == CUZK_E_INVALID_ARG, "%s: C1 of another challenge count: %s", s->name, r.err.msg);
    tiny_c1_free(&c1);
}

static void test_params(void)
{
    fc_porep_circuit_params cp = {8, 2, 1, {MERKLE_POSEIDON, 8, 1, 0, 0}};
    cuzk_error err;
    CHECK(fc_porep_circuit_params_check(&cp, &err) == CUZK_OK, "8-node params: %s", err.msg);
    fc_porep_circuit_params bad[] = {
        {12, 2, 1, {MERKLE_POSEIDON, 8, 1, 0, 0}},  {8, 3, 1, {MERKLE_POSEIDON, 8, 1, 0, 0}},
        {8, 2, 0, {MERKLE_POSEIDON, 8, 1, 0, 0}},   {8, 2, 1, {MERKLE_SHA256, 8, 1, 0, 0}},
        {8, 2, 1, {MERKLE_POSEIDON, 2, 2, 0, 0}},   {1ull << 33, 2, 1, {MERKLE_POSEIDON, 2, 33, 0, 0}},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        cs_t cs;
        cs_init(&cs, CS_SHAPE, 0);
        CHECK(fc_porep_synthesize(&cs, &bad[i], NULL, 0, &err) == CUZK_E_INVALID_ARG, "bad params %zu accepted", i);
        cs_free(&cs);
    }
    /* the registered proofs' circuits: constants.rs shapes, parameters.rs challenges */
    static const struct {
        unsigned id;
        uint64_t nodes;
        unsigned layers, challenges, base_levels, sub, top;
    } reg[] = {{0, 64, 2, 2, 2, 0, 0},          {6, 262144, 2, 2, 6, 0, 0},      {12, 1u << 24, 2, 2, 8, 0, 0},
               {8, 1ull << 30, 11, 18, 9, 8, 0}, {19, 1ull << 31, 11, 18, 9, 8, 2}};
    for (size_t i = 0; i < sizeof reg / sizeof reg[0]; i++) {
        const fc_seal_proof *p;
        CHECK(fc_seal_proof_get(reg[i].id, &p, &err) == CUZK_OK, "seal proof %u", reg[i].id);
        fc_porep_circuit_params_of(p, &cp);
        CHECK(cp.nodes == reg[i].nodes && cp.layers == reg[i].layers && cp.challenges == reg[i].challenges &&
                  cp.tree_rc.hasher == MERKLE_POSEIDON && cp.tree_rc.base_arity == 8 &&
                  cp.tree_rc.base_levels == reg[i].base_levels && cp.tree_rc.sub_arity == reg[i].sub &&
                  cp.tree_rc.top_arity == reg[i].top,
              "params of seal proof %u", reg[i].id);
        CHECK(fc_porep_circuit_params_check(&cp, &err) == CUZK_OK, "seal proof %u: %s", reg[i].id, err.msg);
    }
}

int main(void)
{
    /* all modes on every shape; the tampered copies on the first and the last (keeps the
     * test at about 50 M checked constraints) */
    const shape shapes[] = {
        /* stacked_circuit.rs: 22 inputs each */
        {"2-0-0 / 8 nodes", {8, 2, 1, {MERKLE_POSEIDON, 2, 3, 0, 0}}, 1206212},
        {"8-0-0 / 8 nodes", {8, 2, 1, {MERKLE_POSEIDON, 8, 1, 0, 0}}, 1199620},
        {"8-4-0 / 32 nodes", {32, 2, 1, {MERKLE_POSEIDON, 8, 1, 4, 0}}, 1296576},
        {"8-4-2 / 64 nodes", {64, 2, 1, {MERKLE_POSEIDON, 8, 1, 4, 2}}, 1346982},
        /* 11 layers (the 32 / 64 GiB column hash); two challenges */
        {"8-2-0 / 16 nodes, 11 layers", {16, 11, 1, {MERKLE_POSEIDON, 8, 1, 2, 0}}, 0},
        {"8-2-0 / 16 nodes, 2 challenges", {16, 2, 2, {MERKLE_POSEIDON, 8, 1, 2, 0}}, 0},
    };
    test_params();
    for (size_t i = 0; i < sizeof shapes / sizeof shapes[0]; i++)
        test_shape(&shapes[i], 0x9e3779b97f4a7c15ull + i, i == 0 || i + 1 == sizeof shapes / sizeof shapes[0]);
    return check_summary("filecoin_porep_circuit");
}
