/* The FallbackPoSt circuit in CS_CHECK / CS_WITNESS mode on real trees (full Poseidon trees
 * over random leaves, filecoin/core/seal/tree.h): satisfied, the public inputs it allocates equal
 * comm_r and the challenged leaf indices, counts equal to shape mode (and to
 * fallback_circuit.rs), padding repeats the last sector; a wrong comm_r or a wrong sibling is
 * caught at the expected constraint. CS_RECORD's matrices hold for that witness under an
 * independent evaluator (tests/gadgets/gadget_util.h) and CS_PROVE verifies its rows. */
#include <string.h>

#include "../gadgets/gadget_util.h"
#include "check.h"
#include "filecoin/post/post.h"
#include "tree_util.h"

#define MAXC 8

typedef struct {
    fr_t leaf[MAXC], sib[MAXC * 64];
    unsigned index[MAXC * 16];
    uint64_t node[MAXC];
    fc_post_sector_witness w;
} sector_data;

/* One sector over a fresh random tree: comm_c random, comm_r = Poseidon_2(comm_c, root). */
static void make_sector(const fc_post_shape *s, uint64_t *seed, sector_data *d)
{
    fc_full_tree t;
    uint8_t root[32], comm_c[32], comm_r[32], pair[2][32];
    CHECK(tu_tree(&t, &s->tree, seed, NULL, root) == CUZK_OK, "tree built");
    tu_rand_node(seed, comm_c);
    memcpy(pair[0], comm_c, 32);
    memcpy(pair[1], root, 32);
    cuzk_error e;
    merkle_hash_native(MERKLE_POSEIDON, (const uint8_t(*)[32])pair, 2, comm_r, &e);
    fr_from_bytes_le(&d->w.comm_r, comm_r);
    fr_from_bytes_le(&d->w.comm_c, comm_c);
    fr_from_bytes_le(&d->w.comm_r_last, root);
    unsigned levels = merkle_shape_levels(&s->tree), nsib = merkle_shape_siblings(&s->tree);
    for (uint32_t c = 0; c < s->challenge_count; c++) {
        fc_merkle_proof p;
        d->node[c] = tu_next(seed) % merkle_shape_leaves(&s->tree);
        CHECK(tu_prove(&t, d->node[c], &p) == CUZK_OK, "proof");
        fr_t r;
        CHECK(fc_merkle_proof_to_fr(&p, "test", d->index + c * levels, d->sib + c * nsib, &d->leaf[c], &r, &e) ==
                  CUZK_OK, "witness form");
        fc_merkle_proof_free(&p);
    }
    d->w.leaf = d->leaf;
    d->w.index = d->index;
    d->w.sib = d->sib;
    fc_full_tree_free(&t);
}

static void run(const char *tree, unsigned b, unsigned levels, unsigned sub, unsigned top, uint64_t want_constraints)
{
    fc_post_shape s = {{MERKLE_POSEIDON, b, levels, sub, top}, 3, 5};
    uint64_t seed = 77 + levels + sub;
    static sector_data d[2];
    make_sector(&s, &seed, &d[0]);
    make_sector(&s, &seed, &d[1]);
    fc_post_sector_witness w[2] = {d[0].w, d[1].w};
    cuzk_error e;
    cs_t cs;
    cs_init(&cs, CS_CHECK, 0);
    cuzk_status st = fc_post_synthesize(&cs, &s, w, 2, &e);
    CHECK(st == CUZK_OK, "%s: %s", tree, st ? e.msg : "");
    uint64_t bad;
    char name[256];
    CHECK(cs_check_satisfied(&cs, &bad, name, sizeof name), "%s satisfied (first failure %llu %s)", tree,
          (unsigned long long)bad, name);
    CHECK(cs.num_constraints == want_constraints && cs.num_inputs == 19, "%s: %llu constraints, %llu inputs", tree,
          (unsigned long long)cs.num_constraints, (unsigned long long)cs.num_inputs);
    fr_t *in, *aux;
    uint64_t nin, naux;
    CHECK(cs_take_witness(&cs, &in, &nin, &aux, &naux) == CUZK_OK && nin == 19, "witness taken");
    cs_free(&cs);
    /* record mode: the matrices (with the appended input rows) hold for this witness */
    cs_matrices m;
    cs_init(&cs, CS_RECORD, 0);
    CHECK(fc_post_synthesize(&cs, &s, NULL, 0, &e) == CUZK_OK && cs_take_matrices(&cs, &m) == CUZK_OK &&
              m.num_aux == naux && m.num_constraints == want_constraints,
          "%s record mode", tree);
    CHECK(tu_matrices_check(&m, in, aux) == -1, "%s: recorded matrices satisfied by the witness", tree);
    cs_matrices_free(&m);
    cs_free(&cs);
    /* proving mode with row verification */
    cs_assignment as;
    cs_init_prove(&cs, NULL, CS_VERIFY_ROWS);
    CHECK(fc_post_synthesize(&cs, &s, w, 2, &e) == CUZK_OK && cs_take_assignment(&cs, 1u << 15, &as) == CUZK_OK &&
              as.num_aux == naux && as.num_constraints == want_constraints,
          "%s proving mode", tree);
    cs_assignment_free(&as);
    /* inputs: ONE, then per circuit sector comm_r and 5 leaf indices; sector 2 repeats 1 */
    bool ok = fr_eq(&in[0], &FR_ONE);
    for (unsigned i = 0; i < 3; i++) {
        const sector_data *x = &d[i < 2 ? i : 1];
        ok &= fr_eq(&in[1 + 6 * i], &x->w.comm_r);
        for (unsigned c = 0; c < 5; c++) {
            fr_t want;
            fr_from_u64(&want, x->node[c]);
            ok &= fr_eq(&in[2 + 6 * i + c], &want);
        }
    }
    CHECK(ok, "%s: public inputs are comm_r and the challenged leaves, the last sector repeated", tree);
    free(in);
    free(aux);
    cs_free(&cs);

    /* the same in witness mode: identical assignment sizes */
    cs_init(&cs, CS_WITNESS, 0);
    CHECK(fc_post_synthesize(&cs, &s, w, 2, &e) == CUZK_OK && cs.num_aux == naux && cs.num_inputs == 19,
          "%s witness mode", tree);
    cs_free(&cs);

    /* wrong comm_r in sector 0: `comm_r · ONE = Poseidon_2(comm_c, comm_r_last)` (constraint 312:
     * after the inputize and the 311 Poseidon constraints) */
    fc_post_sector_witness bad_w[2] = {w[0], w[1]};
    fr_add(&bad_w[0].comm_r, &bad_w[0].comm_r, &FR_ONE);
    cs_init(&cs, CS_CHECK, 0);
    fc_post_synthesize(&cs, &s, bad_w, 2, &e);
    CHECK(!cs_check_satisfied(&cs, &bad, name, sizeof name) && bad == 312 && strstr(name, "sector_0/"),
          "%s: wrong comm_r caught at %llu (%s)", tree, (unsigned long long)bad, name);
    cs_free(&cs);

    /* a wrong sibling in sector 1, challenge 2: its PoR root equality fails */
    static sector_data t1;
    t1 = d[1];
    t1.sib[2 * merkle_shape_siblings(&s.tree) + 3] = FR_ONE;
    t1.w.leaf = t1.leaf, t1.w.index = t1.index, t1.w.sib = t1.sib;
    bad_w[0] = w[0];
    bad_w[1] = t1.w;
    uint64_t per_sector = want_constraints / 3, por = (per_sector - 313) / 5;
    uint64_t at = per_sector + 313 + 2 * por + por - 1;
    cs_init(&cs, CS_CHECK, 0);
    fc_post_synthesize(&cs, &s, bad_w, 2, &e);
    CHECK(!cs_check_satisfied(&cs, &bad, name, sizeof name) && bad == at && strstr(name, "sector_1/challenge_inclusion_2"),
          "%s: wrong sibling caught at %llu (want %llu) %s", tree, (unsigned long long)bad, (unsigned long long)at,
          name);
    cs_free(&cs);
}

int main(void)
{
    /* fallback_circuit.rs single_partition tests: 8-0-0 64 leaves 16,869; 8-4-0 256 leaves 22,674;
     * 8-4-2 512 leaves 27,384 */
    run("8-0-0", 8, 2, 0, 0, 16869);
    run("8-4-0", 8, 2, 4, 0, 22674);
    run("8-4-2", 8, 2, 4, 2, 27384);
    cs_t cs;
    cuzk_error e;
    fc_post_shape s = {{MERKLE_POSEIDON, 8, 2, 0, 0}, 3, 5};
    cs_init(&cs, CS_CHECK, 0);
    CHECK(fc_post_synthesize(&cs, &s, NULL, 0, &e) == CUZK_E_INVALID_ARG, "check mode without a witness refused");
    cs_free(&cs);
    return check_summary("post_check");
}
