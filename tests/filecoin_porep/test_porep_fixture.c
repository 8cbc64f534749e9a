/* The StackedDrg circuit, public inputs and C1 validation on the real 8 MiB C1 made by the
 * reference (shared/fixtures/porep-8MiB-c1.bincode; its README lists the challenges, their
 * parents and the commitments, recomputed independently). The C1 validates, its public
 * inputs are the README's values in the generate_public_inputs layout (39 values), its
 * partition circuit has the docs/circuits.md size (3,844,929 constraints, 40 inputs) and is
 * satisfied in CS_CHECK and CS_PROVE with exactly those inputs allocated; copies with one
 * changed column row, seed, comm_r, path index, labeling slot or sector id are refused by
 * fc_c1_validate naming the field, and where the circuit sees the change it is unsatisfied at
 * the named constraint.
 * Prints the CS_SHAPE / CS_CHECK / CS_PROVE throughput (informational, not asserted).
 * Usage: test_porep_fixture <fixtures dir> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "common/file_io.h"
#include "filecoin/porep/porep.h"

static const uint64_t CHALLENGES[2] = {151786, 237493};
static const uint32_t PARENTS[2][14] = {
    {151785, 151785, 151785, 151740, 151616, 151785, 156850, 185828, 128537, 121364, 183781, 164990, 92372, 230258},
    {237492, 104173, 237492, 237480, 237298, 237475, 237273, 150456, 245980, 93652, 11259, 20305, 245589, 106071}};
static const char *const REPLICA_ID = "d8e715a429fe04db59c9bed5c97464e661870a39d8adf930142576d01f58af3e";
static const char *const COMM_D = "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c";
static const char *const COMM_R = "7c990c5ee4d86658bf25a7acc38592559d6bde484b733719235bfa36ad69bd4b";

static double cpu_now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

typedef struct {
    cuzk_status st;
    cuzk_error err;
    cs_counts counts;
    bool satisfied;
    char fail[256];
    fr_t *inputs;
    uint64_t ninputs;
    double seconds;
} result;

static void run(cs_mode mode, const fc_porep_circuit_params *cp, const fc_c1_output *c1, result *r)
{
    memset(r, 0, sizeof *r);
    cs_t cs;
    double t0 = cpu_now();
    if ((r->st = mode == CS_PROVE ? cs_init_prove(&cs, NULL, CS_VERIFY_ROWS) : cs_init(&cs, mode, 0)))
        return;
    r->st = fc_porep_synthesize(&cs, cp, c1, 0, &r->err);
    r->seconds = cpu_now() - t0;
    cs_get_counts(&cs, &r->counts);
    uint64_t idx;
    r->satisfied = cs_check_satisfied(&cs, &idx, r->fail, sizeof r->fail);
    if (r->st == CUZK_OK && mode == CS_CHECK) {
        fr_t *aux;
        uint64_t naux;
        if (cs_take_witness(&cs, &r->inputs, &r->ninputs, &aux, &naux) == CUZK_OK)
            free(aux);
    }
    if (r->st == CUZK_OK && mode == CS_PROVE) {
        cs_assignment as;
        cuzk_status st = cs_take_assignment(&cs, r->counts.constraints + r->counts.inputs, &as);
        r->satisfied = st == CUZK_OK;
        if (st == CUZK_OK && (r->inputs = malloc(as.num_inputs * sizeof(fr_t)))) {
            memcpy(r->inputs, as.w, as.num_inputs * sizeof(fr_t));
            r->ninputs = as.num_inputs;
        }
        if (st == CUZK_OK)
            cs_assignment_free(&as);
    }
    cs_free(&cs);
}

static void fr_hex(fr_t *out, const char *hex)
{
    uint8_t b[32];
    CHECK(hex_decode(b, 32, hex) == 32, "hex %s", hex);
    CHECK(fr_from_bytes_le(out, b) == CUZK_OK, "canonical %s", hex);
}

/* The README's public inputs of partition 0 in the generate_public_inputs layout. */
static void readme_inputs(fr_t want[39])
{
    fr_hex(&want[0], REPLICA_ID);
    fr_hex(&want[1], COMM_D);
    fr_hex(&want[2], COMM_R);
    fr_t *o = want + 3;
    for (int i = 0; i < 2; i++) {
        fr_from_u64(o++, CHALLENGES[i]);
        for (int j = 0; j < 14; j++)
            fr_from_u64(o++, PARENTS[i][j]);
        for (int j = 0; j < 3; j++)
            fr_from_u64(o++, CHALLENGES[i]);
    }
}

static bool same_inputs(const fr_t *a, const fr_t *b, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!fr_eq(&a[i], &b[i]))
            return false;
    return true;
}

static void test_real(const fc_c1_output *c1)
{
    cuzk_error err = {0};
    double t0 = cpu_now();
    CHECK(fc_c1_validate(c1, &err) == CUZK_OK, "validate: %s", err.msg);
    double t1 = cpu_now();
    fc_c1_validate(c1, &err); /* again, warm (constants and contexts made) */
    printf("fc_c1_validate: %.1f ms CPU for %u challenges (first call %.1f ms)\n", (cpu_now() - t1) * 1e3,
           c1->partitions * c1->challenges, (t1 - t0) * 1e3);

    uint64_t ch[2];
    uint32_t par[2][FC_POREP_PARENTS];
    CHECK(fc_porep_partition_nodes(c1, 0, ch, par, &err) == CUZK_OK, "nodes: %s", err.msg);
    CHECK(ch[0] == CHALLENGES[0] && ch[1] == CHALLENGES[1], "challenges %llu %llu", (unsigned long long)ch[0],
          (unsigned long long)ch[1]);
    CHECK(memcmp(par, PARENTS, sizeof par) == 0, "parents differ from the README");

    fr_t want[39], got[39];
    readme_inputs(want);
    size_t n = 0;
    CHECK(fc_porep_public_inputs(c1, 0, got, 39, &n, &err) == CUZK_OK, "public inputs: %s", err.msg);
    CHECK(n == 39 && same_inputs(got, want, 39), "public inputs differ from the README (%zu)", n);
    CHECK(fc_porep_public_inputs(c1, 0, got, 38, &n, &err) == CUZK_E_INVALID_ARG, "cap 38 accepted");
    CHECK(fc_porep_public_inputs(c1, 1, got, 39, &n, &err) == CUZK_E_INVALID_ARG, "partition 1 accepted");

    fc_porep_circuit_params cp;
    fc_porep_circuit_params_of(c1->registered_proof, &cp);
    result shp, chk, prv;
    run(CS_SHAPE, &cp, NULL, &shp);
    run(CS_CHECK, &cp, c1, &chk);
    run(CS_PROVE, &cp, c1, &prv);
    CHECK(chk.st == CUZK_OK && prv.st == CUZK_OK, "synthesis: %s %s", chk.err.msg, prv.err.msg);
    CHECK(chk.counts.constraints == 3844929 && chk.counts.inputs == 40 && prv.counts.constraints == 3844929,
          "8 MiB circuit: %llu constraints, %llu inputs", (unsigned long long)chk.counts.constraints,
          (unsigned long long)chk.counts.inputs);
    CHECK(chk.satisfied, "the real C1 does not satisfy the circuit: first failure at %s", chk.fail);
    CHECK(prv.satisfied, "CS_PROVE rows not satisfied");
    CHECK(chk.ninputs == 40 && same_inputs(chk.inputs + 1, want, 39), "CS_CHECK allocated inputs differ");
    CHECK(prv.ninputs == 40 && same_inputs(prv.inputs + 1, want, 39), "CS_PROVE allocated inputs differ");
    printf("8 MiB partition circuit (%llu constraints), one core, CPU time:\n", (unsigned long long)chk.counts.constraints);
    const result *rs[3] = {&shp, &chk, &prv};
    const char *names[3] = {"CS_SHAPE", "CS_CHECK", "CS_PROVE"};
    for (int i = 0; i < 3; i++)
        printf("  %-8s %6.2f s  %5.2f M constraints/s\n", names[i], rs[i]->seconds,
               (double)chk.counts.constraints / rs[i]->seconds / 1e6);
    free(chk.inputs);
    free(prv.inputs);
}

/* A copy of the C1 changed by `change`; fc_c1_validate must refuse it with `code` and a
 * message containing `where`; when `constraint` is set, CS_CHECK must fail there, when it
 * is "" the circuit must stay satisfied (the change is invisible to it). */
typedef void (*change_fn)(fc_c1_output *c1);

static const uint8_t *FIX;
static size_t FIXLEN;

static void expect_refused(const char *what, change_fn change, cuzk_status code, const char *where,
                           const char *constraint)
{
    fc_c1_output c1;
    cuzk_error err = {0};
    if (fc_c1_read(&c1, FIX, FIXLEN, FC_C1_BINCODE_C2IN, false, &err) != CUZK_OK) {
        CHECK(false, "%s: read: %s", what, err.msg);
        return;
    }
    change(&c1);
    cuzk_status st = fc_c1_validate(&c1, &err);
    CHECK(st == code, "%s: validate gave %s (%s), want %s", what, cuzk_status_name(st), err.msg,
          cuzk_status_name(code));
    CHECK(strstr(err.msg, where) != NULL, "%s: message '%s' does not name '%s'", what, err.msg, where);
    if (constraint) {
        fc_porep_circuit_params cp;
        fc_porep_circuit_params_of(c1.registered_proof, &cp);
        result r;
        run(CS_CHECK, &cp, &c1, &r);
        CHECK(r.st == CUZK_OK, "%s: synthesis %s", what, r.err.msg);
        if (*constraint)
            CHECK(!r.satisfied && strstr(r.fail, constraint), "%s: circuit failed at '%s', want '%s'", what,
                  r.satisfied ? "(satisfied)" : r.fail, constraint);
        else
            CHECK(r.satisfied, "%s: circuit unsatisfied at %s", what, r.fail);
        free(r.inputs);
    }
    fc_c1_free(&c1);
}

static void ch_drg_row(fc_c1_output *c1) { c1->proofs[0].drg[3].rows[0][4] ^= 1; }
static void ch_cx_row(fc_c1_output *c1) { c1->proofs[1].c_x.rows[1][0] ^= 1; }
static void ch_seed(fc_c1_output *c1) { c1->seed[7] ^= 0x20; }
static void ch_comm_r(fc_c1_output *c1) { c1->comm_r[3] ^= 1; }
static void ch_index(fc_c1_output *c1) { c1->proofs[0].comm_r_last_proof.index[2] ^= 1; }
static void ch_exp_index(fc_c1_output *c1) { c1->proofs[1].exp[5].index ^= 4; }
static void ch_slot(fc_c1_output *c1) { c1->proofs[1].labeling[1].parents[20][9] ^= 1; }
static void ch_sector(fc_c1_output *c1) { c1->sector_id++; }
static void ch_zero_seed(fc_c1_output *c1) { memset(c1->seed, 0, 32); }
static void ch_comm_d_big(fc_c1_output *c1) { memset(c1->comm_d, 0xff, 32); }
static void ch_tree_d_sib(fc_c1_output *c1) { c1->proofs[1].comm_d_proof.sib[5][0] ^= 1; }

static void test_tampered(void)
{
    expect_refused("DRG parent row", ch_drg_row, CUZK_E_VERIFY_FAILED,
                   "vanilla_proofs[0][0].replica_column_proofs.drg_parents[3].inclusion_proof.data.Single.leaf",
                   "challenge_0/drg_parent_3_inclusion");
    /* the circuit recomputes the challenged labels and never reads c_x.rows */
    expect_refused("c_x row", ch_cx_row, CUZK_E_VERIFY_FAILED,
                   "vanilla_proofs[0][1].replica_column_proofs.c_x.inclusion_proof.data.Single.leaf", "");
    /* another seed gives other challenges: the vanilla proofs no longer open them (the
     * circuit alone cannot see it: its inputs are then not the public inputs) */
    expect_refused("seed", ch_seed, CUZK_E_VERIFY_FAILED, "vanilla_proofs[0][0].comm_d_proofs.data.Single.path.path[",
                   "");
    expect_refused("comm_r", ch_comm_r, CUZK_E_VERIFY_FAILED, "comm_r: expected Poseidon_2(comm_c, comm_r_last)",
                   "enforce comm_r = H(comm_c || comm_r_last)");
    expect_refused("tree R path index", ch_index, CUZK_E_VERIFY_FAILED,
                   "vanilla_proofs[0][0].comm_r_last_proof.data.Single.path.path[2].index",
                   "challenge_0/comm_r_last_data_inclusion");
    expect_refused("column index", ch_exp_index, CUZK_E_VERIFY_FAILED,
                   "vanilla_proofs[0][1].replica_column_proofs.exp_parents[5].column.index: expected expander parent "
                   "20305",
                   "");
    expect_refused("labeling slot", ch_slot, CUZK_E_VERIFY_FAILED, "vanilla_proofs[0][1].labeling_proofs[1].parents[20]",
                   "");
    expect_refused("sector id", ch_sector, CUZK_E_VERIFY_FAILED, "replica_id: expected SHA-256(", NULL);
    expect_refused("all-zero seed", ch_zero_seed, CUZK_E_INVALID_ARG, "seed: all zero", NULL);
    expect_refused("non-canonical comm_d", ch_comm_d_big, CUZK_E_FIELD_NONCANONICAL, "comm_d:", NULL);
    expect_refused("tree D sibling", ch_tree_d_sib, CUZK_E_VERIFY_FAILED, "vanilla_proofs[0][1].comm_d_proofs: path hashes to",
                   "challenge_1/comm_d_inclusion");
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_porep_fixture <fixtures dir>\n");
        return 2;
    }
    char path[4096];
    cuzk_error err = {0};
    cuzk_mapped_file f = {0};
    snprintf(path, sizeof path, "%s/porep-8MiB-c1.bincode", argv[1]);
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK, "%s", err.msg);
    if (!f.data)
        return check_summary("filecoin_porep_fixture");
    fc_c1_output c1;
    cuzk_status st = fc_c1_read(&c1, f.data, f.len, FC_C1_BINCODE_C2IN, false, &err);
    CHECK(st == CUZK_OK, "read: %s", err.msg);
    if (st == CUZK_OK) {
        CHECK(c1.has_sector && c1.registered_proof->id == 6, "C2Input of StackedDrg8MiBV1_1");
        test_real(&c1);
        FIX = f.data;
        FIXLEN = f.len;
        test_tampered();
        fc_c1_free(&c1);
    }
    cuzk_file_unmap(&f);
    return check_summary("filecoin_porep_fixture");
}
