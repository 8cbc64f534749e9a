/* Constraint and input counts of the FallbackPoSt and EmptySectorUpdate circuits against
 * the reference (values asserted by storage-proofs-post
 * tests/fallback_circuit.rs, storage-proofs-update tests/circuit.rs, circuit_poseidon.rs
 * and src/gadgets.rs; docs/circuits.md#production-sizes, whose 32 GiB WinningPoSt / WindowPoSt
 * values come from rust-fil-proofs' circuitinfo tool). Aux counts are checked where the table
 * has them. Shape-mode CPU time here: EmptySectorUpdate 512 MiB / 32 GiB / 64 GiB 5-7 s each
 * (in every run); with the argument "long" also WindowPoSt 32 / 64 GiB (125 M / 130 M
 * constraints, about 170 s each) and EmptySectorUpdate-Poseidon 32 / 64 GiB (about 30 s each). */
#include <string.h>

#include "check.h"
#include "filecoin/core/circuit_info.h"
#include "filecoin/snap/snap.h"
#include "filecoin/snap/snap_gadgets.h"

typedef struct {
    const char *circuit, *params;
    uint64_t constraints, inputs, aux; /* aux 0: not asserted */
    int long_only;
} row;

static const row ROWS[] = {
    /* fallback_circuit.rs test circuits (5 challenges per sector, 3 or 2 sectors) */
    {"window-post", "tree=8-0-0,leaves=64,challenges=5,sectors=3", 16869, 19, 0, 0},
    {"window-post", "tree=8-4-0,leaves=256,challenges=5,sectors=3", 22674, 19, 0, 0},
    {"window-post", "tree=8-4-2,leaves=512,challenges=5,sectors=3", 27384, 19, 0, 0},
    {"window-post", "tree=8-0-0,leaves=64,challenges=5,sectors=2", 11246, 13, 0, 0},
    {"winning-post", "leaves=64,challenges=5,sectors=3", 16869, 19, 0, 0},
    /* fallback_circuit.rs blank FallbackPoSt, 32 GiB sector as an 8-0-0 tree, 10 challenges, 5
     * sectors */
    {"window-post", "tree=8-0-0,leaves=1073741824,challenges=10,sectors=5", 266665, 0, 0, 0},
    /* docs/circuits.md#production-sizes */
    {"winning-post", "sector-size=2KiB", 90750, 133, 91674, 0},
    {"winning-post", "sector-size=8MiB", 230670, 133, 233442, 0},
    {"winning-post", "sector-size=512MiB", 300630, 133, 304326, 0},
    {"winning-post", "sector-size=32GiB", 370590, 133, 375210, 0},
    {"winning-post", "sector-size=64GiB", 391314, 133, 396000, 0},
    {"window-post", "sector-size=2KiB", 21866, 23, 22128, 0},
    {"window-post", "sector-size=8MiB", 64266, 23, 65088, 0},
    {"window-post", "sector-size=512MiB", 85466, 23, 86568, 0},
    {"window-post", "sector-size=32GiB", 125279217, 25840, 126902376, 1},
    {"window-post", "sector-size=64GiB", 129887900, 25301, 131500200, 1},
    /* tests/circuit.rs EmptySectorUpdate test sizes, then production */
    {"snap", "sector-size=1KiB", 1248389, 5, 0, 0},
    {"snap", "sector-size=2KiB", 1705039, 5, 1703569, 0},
    {"snap", "sector-size=4KiB", 2165109, 5, 0, 0},
    {"snap", "sector-size=8KiB", 2620359, 5, 0, 0},
    {"snap", "sector-size=16KiB", 6300021, 5, 0, 0},
    {"snap", "sector-size=32KiB", 6760091, 5, 0, 0},
    {"snap", "sector-size=8MiB", 10007503, 5, 9998039, 0},
    {"snap", "sector-size=512MiB", 57450479, 5, 57401314, 0},
    {"snap", "sector-size=32GiB", 81049499, 5, 80978488, 0},
    {"snap", "sector-size=64GiB", 85006101, 5, 84931220, 0},
    /* tests/circuit_poseidon.rs / production EmptySectorUpdate-Poseidon */
    {"snap-poseidon", "sector-size=1KiB", 32164, 5, 0, 0},
    {"snap-poseidon", "sector-size=8KiB", 47974, 5, 0, 0},
    {"snap-poseidon", "sector-size=32GiB", 22305906, 5, 22593319, 1},
    {"snap-poseidon", "sector-size=64GiB", 23597970, 5, 23889511, 1},
};

static void test_counts(bool run_long)
{
    for (size_t i = 0; i < sizeof ROWS / sizeof ROWS[0]; i++) {
        const row *r = &ROWS[i];
        if (r->long_only && !run_long)
            continue;
        const char *p[1] = {r->params};
        cs_counts c;
        cuzk_error e;
        cuzk_status st = fc_circuit_info(r->circuit, p, 1, &c, &e);
        CHECK(st == CUZK_OK, "%s %s: %s", r->circuit, r->params, st ? e.msg : "");
        if (st)
            continue;
        CHECK(c.constraints == r->constraints && (!r->inputs || c.inputs == r->inputs) && (!r->aux || c.aux == r->aux),
              "%s %s: constraints %llu inputs %llu aux %llu (want %llu / %llu / %llu)", r->circuit, r->params,
              (unsigned long long)c.constraints, (unsigned long long)c.inputs, (unsigned long long)c.aux,
              (unsigned long long)r->constraints, (unsigned long long)r->inputs, (unsigned long long)r->aux);
    }
}

static uint64_t constraints_of(cs_t *cs, uint64_t before) { return cs->num_constraints - before; }

/* gadgets.rs test_gen_challenge_bits_gadget: 568 per digest (1 KiB .. 16 MiB: 1 digest;
 * 512 MiB: 8; 32 / 64 GiB: 10) and test_apex_por_gadget_*: 317,654 (8 apex leaves, one
 * partition), 5,808,515 (128 leaves, two partitions), 771,448 / 453,797 (16 KiB with 4
 * partitions of 16 leaves / 8 partitions of 8). */
static void test_gadgets(void)
{
    static const struct {
        uint64_t nodes, want;
    } GEN[] = {{1u << 5, 568},  {1u << 6, 568},  {1u << 7, 568},   {1u << 8, 568},    {1u << 9, 568},
               {1u << 10, 568}, {1u << 18, 568}, {1u << 19, 568}, {1u << 24, 4544}, {1ull << 30, 5680},
               {1ull << 31, 5680}};
    for (size_t i = 0; i < sizeof GEN / sizeof GEN[0]; i++) {
        fc_snap_shape s;
        cuzk_error e;
        CHECK(fc_snap_shape_for_nodes(GEN[i].nodes, false, &s, &e) == CUZK_OK, "shape %llu",
              (unsigned long long)GEN[i].nodes);
        cs_t cs;
        cs_init(&cs, CS_SHAPE, 0);
        anum comm_r_new = anum_alloc(&cs, NULL), partition = anum_alloc(&cs, NULL);
        gbool bits[86 * 31];
        uint64_t before = cs.num_constraints;
        snap_gen_challenge_bits(&cs, &comm_r_new, &partition, s.challenges, s.challenge_bits - s.partition_bits,
                                bits);
        CHECK(cs.status == CUZK_OK && constraints_of(&cs, before) == GEN[i].want, "gen_challenge_bits %llu nodes: %llu",
              (unsigned long long)GEN[i].nodes, (unsigned long long)constraints_of(&cs, before));
        cs_free(&cs);
    }
    static const struct {
        unsigned ab, pb;
        uint64_t want;
    } APEX[] = {{3, 0, 317654}, {7, 1, 5808515}, {4, 2, 771448}, {3, 3, 453797}};
    for (size_t i = 0; i < sizeof APEX / sizeof APEX[0]; i++) {
        cs_t cs;
        cs_init(&cs, CS_SHAPE, 0);
        anum apex[128], path[8], comm_d = anum_alloc(&cs, NULL);
        gbool pbits[8];
        for (unsigned j = 0; j < (1u << APEX[i].ab); j++)
            apex[j] = anum_alloc(&cs, NULL);
        for (unsigned j = 0; j < APEX[i].pb; j++) {
            path[j] = anum_alloc(&cs, NULL);
            pbits[j] = gb_alloc(&cs, false);
        }
        uint64_t before = cs.num_constraints;
        snap_apex_por(&cs, apex, APEX[i].ab, pbits, APEX[i].pb, path, &comm_d);
        CHECK(cs.status == CUZK_OK && constraints_of(&cs, before) == APEX[i].want, "apex_por 2^%u leaves, %u partition bits: %llu",
              APEX[i].ab, APEX[i].pb, (unsigned long long)constraints_of(&cs, before));
        cs_free(&cs);
    }
}

/* Shapes against the registry's RegisteredUpdateProof table and storage-proofs-update
 * constants.rs. */
static void test_shapes(void)
{
    for (unsigned id = 0; id < FC_SNAP_PROOF_COUNT; id++) {
        const fc_snap_proof *u;
        fc_snap_shape s, sp;
        cuzk_error e;
        CHECK(fc_snap_proof_get(id, &u, &e) == CUZK_OK, "update proof %u", id);
        CHECK(fc_snap_shape_for_nodes(u->shape->nodes, false, &s, &e) == CUZK_OK &&
                  fc_snap_shape_for_nodes(u->shape->nodes, true, &sp, &e) == CUZK_OK, "shape %u", id);
        CHECK(s.partitions == u->partitions && s.challenges == u->challenges && s.apex_leaves == u->apex_leaves &&
                  s.h == u->h && s.h_select == u->h_select && !memcmp(s.hs, u->hs, sizeof s.hs),
              "update proof %u parameters agree with the registry", id);
        CHECK(s.tree_r.base_levels == u->shape->base_levels && s.tree_r.sub_arity == u->shape->sub_arity &&
                  s.tree_r.top_arity == u->shape->top_arity, "update proof %u tree R shape", id);
        CHECK(sp.partitions == 1 && sp.partition_bits == 0 && sp.challenges == u->poseidon_challenges &&
                  sp.apex_leaves == 0, "update proof %u Poseidon variant", id);
    }
    fc_snap_shape s;
    cuzk_error e;
    fc_snap_shape_for_nodes(1u << 30, false, &s, &e);
    /* storage-proofs-update circuit.rs: 32 GiB cb 30, pb 4, ab 7, 26 random bits, h_select 8 */
    CHECK(s.challenge_bits == 30 && s.partition_bits == 4 && s.apex_bits == 7 && s.h_select == 8 && s.h == 10,
          "32 GiB shape");
    fc_snap_shape_for_nodes(1u << 6, false, &s, &e);
    CHECK(s.h_select == 1 && s.h == 1, "2 KiB: hs all 1, h_select = 2^0");
    fr_t in[4];
    fc_snap_public pub = {5, {{0}}, {{0}}, {{0}}};
    fc_snap_shape_for_nodes(1u << 30, false, &s, &e);
    fr_t want;
    fr_from_u64(&want, 5 + 128);
    CHECK(fc_snap_public_inputs(&s, &pub, in, &e) == CUZK_OK && fr_eq(&in[0], &want), "32 GiB k_and_h_select = k + 128");
    pub.k = 16;
    CHECK(fc_snap_public_inputs(&s, &pub, in, &e) == CUZK_E_INVALID_ARG, "k = 16 refused");
    CHECK(fc_snap_shape_for_nodes(1u << 11, false, &s, &e) == CUZK_E_UNSUPPORTED, "2^11 nodes refused");
    CHECK(fc_snap_shape_for_nodes(3u << 5, false, &s, &e) == CUZK_E_UNSUPPORTED, "96 nodes refused");

    /* circuit-info parameter errors */
    cs_counts c;
    const char *bad[][1] = {{"sector-size=3KiB"}, {"sector-size=2KiB,leaves=4"}, {"sector-size=two"}};
    CHECK(fc_circuit_info("snap", bad[0], 1, &c, &e) == CUZK_E_UNSUPPORTED, "snap 3KiB");
    CHECK(fc_circuit_info("snap", bad[1], 1, &c, &e) == CUZK_E_UNSUPPORTED, "snap unknown key");
    CHECK(fc_circuit_info("snap", bad[2], 1, &c, &e) == CUZK_E_INVALID_ARG, "snap bad size");
    CHECK(fc_circuit_info("window-post", bad[1], 1, &c, &e) == CUZK_E_INVALID_ARG, "post: size and shape");
    const char *badpost[][1] = {{"leaves=100"}, {"tree=8-8,leaves=64"}, {"leaves=64,sectors=0"}, {"sector-size=1KiB"}};
    CHECK(fc_circuit_info("window-post", badpost[0], 1, &c, &e) == CUZK_E_INVALID_ARG, "post leaves=100");
    CHECK(fc_circuit_info("window-post", badpost[1], 1, &c, &e) == CUZK_E_INVALID_ARG, "post tree=8-8");
    CHECK(fc_circuit_info("window-post", badpost[2], 1, &c, &e) == CUZK_E_INVALID_ARG, "post sectors=0");
    CHECK(fc_circuit_info("winning-post", badpost[3], 1, &c, &e) == CUZK_E_UNSUPPORTED, "post 1KiB");
    CHECK(fc_circuit_info("winning-post", NULL, 0, &c, &e) == CUZK_E_INVALID_ARG, "post without parameters");
}

int main(int argc, char **argv)
{
    bool run_long = argc > 1 && !strcmp(argv[1], "long");
    test_shapes();
    test_gadgets();
    test_counts(run_long);
    return check_summary(run_long ? "post_snap_counts_long" : "post_snap_counts");
}
