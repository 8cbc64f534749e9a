/* EmptySectorUpdate on generated data (src/filecoin/core/seal): the worked 2 KiB example of
 * docs/vectors.md#worked-2-kib-example (a CC sector sealed here with StackedDrg2KiBV1_1, miner
 * 1000, sector 1, ticket 32 x 01, new data Fr32(2,032 x 01)) and the sparse 32 / 64 GiB fixtures
 * (docs/fixtures.md#snapdeals). The PartitionProofs, written to bincode and read back, are
 * assembled and validated; the 2 KiB partition circuit is satisfied in CS_CHECK and its public
 * inputs are the example's commitments; the EmptySectorUpdate-Poseidon circuit is satisfied on a
 * Poseidon tree D_new built here; tampered requests are refused with a located error. With the
 * argument "long": partition 0 of the sparse 32 GiB fixture in CS_CHECK (81 M constraints). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/snap/challenges.h"
#include "filecoin/snap/snap.h"
#include "filecoin/testkit/fixtures.h"
#include "filecoin/testkit/seal.h"
#include "filecoin/testkit/snap_gen.h"
#include "tree_util.h"

static bool eq_hex(const uint8_t b[32], const char *hex)
{
    uint8_t x[32];
    return hex_decode(x, 32, hex) == 32 && !memcmp(b, x, 32);
}

/* The partition proofs of view v, written to bincode (as Curio sends them). */
typedef struct {
    uint32_t n;
    uint8_t *blob[16];
    size_t len[16];
} blobs;

static void make_blobs(const fc_snap_view *v, blobs *b)
{
    cuzk_error e;
    b->n = v->proof->partitions;
    for (uint32_t k = 0; k < b->n; k++) {
        fc_snap_partition_proof pp;
        CHECK(fc_snap_partition_generate(v, k, &pp, &e) == CUZK_OK, "%s partition %u: %s", v->proof->name, k, e.msg);
        CHECK(fc_snap_partition_write(&pp, &b->blob[k], &b->len[k], &e) == CUZK_OK, "write: %s", e.msg);
        fc_snap_partition_free(&pp);
    }
}

static void free_blobs(blobs *b)
{
    for (uint32_t k = 0; k < b->n; k++)
        free(b->blob[k]);
}

static cuzk_status assemble(fc_snap_request *r, const fc_snap_view *v, const blobs *b, const uint8_t *comm_d_new,
                            cuzk_error *e)
{
    return fc_snap_request_from_bytes(r, v->proof, false, v->comm_r_old, comm_d_new ? comm_d_new : v->comm_d_new,
                                      v->comm_r_new, (const uint8_t *const *)b->blob, b->len, b->n, e);
}

/* Partition k in CS_CHECK: satisfied, `want` constraints, inputs = the public inputs. */
static void check_partition(const fc_snap_request *r, uint32_t k, uint64_t want)
{
    cs_t cs;
    cuzk_error e;
    cs_init(&cs, CS_CHECK, 0);
    cuzk_status st = fc_snap_request_synthesize(&cs, r, k, &e);
    CHECK(st == CUZK_OK, "%s partition %u: %s", r->proof->name, k, st ? e.msg : "");
    uint64_t bad;
    char name[256];
    CHECK(cs_check_satisfied(&cs, &bad, name, sizeof name), "%s partition %u satisfied (first failure %llu %s)",
          r->proof->name, k, (unsigned long long)bad, name);
    CHECK(cs.num_constraints == want && cs.num_inputs == 5, "%s partition %u: %llu constraints",
          r->proof->name, k, (unsigned long long)cs.num_constraints);
    fr_t *in, *aux, pub[4];
    uint64_t nin, naux;
    CHECK(cs_take_witness(&cs, &in, &nin, &aux, &naux) == CUZK_OK, "witness");
    CHECK(fc_snap_request_public_inputs(r, k, pub, &e) == CUZK_OK && fr_eq(&pub[0], &in[1]) &&
              fr_eq(&pub[1], &in[2]) && fr_eq(&pub[2], &in[3]) && fr_eq(&pub[3], &in[4]),
          "%s partition %u: circuit inputs = public inputs", r->proof->name, k);
    free(in);
    free(aux);
    cs_free(&cs);
}

/* Flip one byte of partition k's blob at `off`, expect a refusal containing `needle`. */
static void tampered(const fc_snap_view *v, blobs *b, uint32_t k, size_t off, const char *needle, const char *what)
{
    fc_snap_request r;
    cuzk_error e;
    b->blob[k][off] ^= 1;
    cuzk_status st = assemble(&r, v, b, NULL, &e);
    CHECK(st != CUZK_OK && strstr(e.msg, needle), "%s refused (%s): %s", what, needle, e.msg);
    b->blob[k][off] ^= 1;
}

/* The EmptySectorUpdate-Poseidon partition: tree D_new a Poseidon tree of tree R shape over
 * the new data, the new replica encoded against it, the 10 challenges of
 * fc_snap_poseidon_challenges, proofs from full trees built here. */
static void poseidon_variant(const fc_sector *s, const fc_snap_proof *u, const uint8_t (*data)[32])
{
    merkle_shape m = fc_tree_r_shape(u->shape);
    uint64_t n = u->shape->nodes, seed = 1;
    fc_full_tree d, rn;
    uint8_t comm_d_new[32], root_new[32], comm_r_new[32], pair[2][32], (*leaves)[32] = malloc(n * 32);
    cuzk_error e;
    CHECK(tu_tree(&d, &m, &seed, data, comm_d_new) == CUZK_OK, "Poseidon tree D_new");
    fr_t phi;
    CHECK(fc_snap_phi(comm_d_new, s->comm_r, &phi, &e) == CUZK_OK, "phi");
    fc_snap_shape sh;
    fc_snap_shape_for_nodes(n, true, &sh, &e);
    for (uint64_t v = 0; v < n; v++) {
        uint8_t old[32];
        fc_store_read(&s->tree_r.store, v * 32, old, 32, &e);
        fr_t o, dv, rho;
        fr_from_bytes_le(&o, old);
        fr_from_bytes_le(&dv, data[v]);
        fc_snap_rho(&phi, v >> (sh.challenge_bits - sh.h), &rho);
        fr_mul(&dv, &dv, &rho);
        fr_add(&o, &o, &dv);
        fr_to_bytes_le(leaves[v], &o);
    }
    CHECK(tu_tree(&rn, &m, &seed, (const uint8_t(*)[32])leaves, root_new) == CUZK_OK, "tree R_new");
    memcpy(pair[0], s->comm_c, 32);
    memcpy(pair[1], root_new, 32);
    merkle_hash_native(MERKLE_POSEIDON, (const uint8_t(*)[32])pair, 2, comm_r_new, &e);
    uint64_t c[16];
    CHECK(fc_snap_poseidon_challenges(u, comm_r_new, c, &e) == CUZK_OK && u->poseidon_challenges == 10, "challenges");
    fc_snap_partition_proof pp = {.poseidon = true, .nchallenges = 10};
    memcpy(pp.comm_c, s->comm_c, 32);
    pp.challenges = calloc(10, sizeof *pp.challenges);
    fc_tree ro = fc_full_tree_view(&s->tree_r);
    for (int i = 0; i < 10; i++) {
        CHECK(fc_tree_prove(&ro, c[i], &pp.challenges[i].r_old, &e) == CUZK_OK, "r_old");
        CHECK(tu_prove(&d, c[i], &pp.challenges[i].d_new) == CUZK_OK, "d_new");
        CHECK(tu_prove(&rn, c[i], &pp.challenges[i].r_new) == CUZK_OK, "r_new");
    }
    fc_snap_request r;
    cuzk_status st = fc_snap_request_assemble(&r, u, true, s->comm_r, comm_d_new, comm_r_new, &pp, 1, &e);
    CHECK(st == CUZK_OK, "Poseidon variant assembled: %s", st ? e.msg : "");
    if (st == CUZK_OK) {
        fc_snap_shape full;
        fc_snap_shape_for_nodes(n, true, &full, &e);
        cs_t cs;
        cs_init(&cs, CS_SHAPE, 0);
        fc_snap_synthesize(&cs, &full, NULL, NULL, &e);
        uint64_t want = cs.num_constraints;
        cs_free(&cs);
        check_partition(&r, 0, want);
        fc_snap_request_free(&r);
    }
    /* the SHA-256 variant's reader shape does not apply; a SHA request with this proof is refused */
    CHECK(fc_snap_request_assemble(&r, u, false, s->comm_r, comm_d_new, comm_r_new, &pp, 1, &e) == CUZK_E_FORMAT &&
              strstr(e.msg, "a Poseidon PartitionProof, expected SHA-256"),
          "variant mismatch refused: %s", e.msg);
    fc_snap_partition_free(&pp);
    fc_full_tree_free(&d);
    fc_full_tree_free(&rn);
    free(leaves);
}

static void worked_2k(void)
{
    fc_sector s;
    fc_seal_params p = {.sector_id = 1, .threads = 1};
    fc_seal_proof_get(5, &p.proof, NULL);
    fc_prover_id_from_actor(1000, p.prover_id);
    memset(p.ticket, 1, 32);
    cuzk_error e;
    if (fc_seal(&s, &p, &e) != CUZK_OK) {
        CHECK(0, "seal 2 KiB: %s", e.msg);
        return;
    }
    const fc_snap_proof *u;
    fc_snap_proof_get(0, &u, NULL);
    uint8_t data[2032];
    memset(data, 1, sizeof data);
    fc_snap_sector ns;
    CHECK(fc_snap_encode(&ns, &s, u, data, sizeof data, NULL, NULL, 1, &e) == CUZK_OK, "encode: %s", e.msg);
    fc_snap_view v;
    fc_snap_sector_view(&ns, &v);
    blobs b;
    make_blobs(&v, &b);
    CHECK(b.n == 1 && b.len[0] == 15064, "one 15,064-byte PartitionProof");
    fc_snap_request r;
    cuzk_status st = assemble(&r, &v, &b, NULL, &e);
    CHECK(st == CUZK_OK, "2 KiB request assembled: %s", st ? e.msg : "");
    if (st == CUZK_OK) {
        /* public inputs: k_and_h_select = 0 | 1 << 0, then the example's commitments */
        fr_t pub[4], one;
        uint8_t x[3][32];
        fc_snap_request_public_inputs(&r, 0, pub, &e);
        for (int i = 0; i < 3; i++)
            fr_to_bytes_le(x[i], &pub[1 + i]);
        fr_from_u64(&one, 1);
        CHECK(fr_eq(&pub[0], &one) &&
                  eq_hex(x[0], "77424390b36f74acd595c40d0e341f4fbff18623feaf8ad72fe73d7490d0d65c") &&
                  eq_hex(x[1], "243ebe6979949215ad224bfd4ba3f1d5826a3460c045a06761e1a5020866a02e") &&
                  eq_hex(x[2], "fdc65092682f315495a8b600a28e6209d173c4cbdb945e4575525000aa1eaf71"),
              "public inputs: 1, comm_r_old, comm_d_new, comm_r_new of the 2 KiB example");
        check_partition(&r, 0, 1705039);
        /* a wrong leaf_d_new in the witness: the tree R_new PoR of that challenge fails */
        fc_snap_challenge_witness *cw = (fc_snap_challenge_witness *)&r.witness[0].challenges[3];
        fr_add(&cw->leaf_d_new, &cw->leaf_d_new, &FR_ONE);
        cs_t cs;
        cs_init(&cs, CS_CHECK, 0);
        fc_snap_request_synthesize(&cs, &r, 0, &e);
        uint64_t bad;
        char name[256];
        CHECK(!cs_check_satisfied(&cs, &bad, name, sizeof name) && strstr(name, "challenge 3/por tree_r_new"),
              "wrong leaf_d_new caught in %s", name);
        cs_free(&cs);
        fc_snap_request_free(&r);
    }
    /* refusals, each located */
    uint8_t other[32];
    memcpy(other, v.comm_d_new, 32);
    other[0] ^= 1;
    CHECK(assemble(&r, &v, &b, other, &e) == CUZK_E_VERIFY_FAILED && strstr(e.msg, "partition 0"),
          "other comm_d_new refused: %s", e.msg);
    memset(other, 0xff, 32);
    CHECK(assemble(&r, &v, &b, other, &e) == CUZK_E_FIELD_NONCANONICAL && strstr(e.msg, "comm_d_new"),
          "non-canonical comm_d_new refused: %s", e.msg);
    tampered(&v, &b, 0, 0, "Poseidon_2(comm_c, root_r_old)", "comm_c");
    tampered(&v, &b, 0, 40 + 5 * 32, "apex", "apex leaf 5");
    CHECK(fc_snap_request_from_bytes(&r, u, false, v.comm_r_old, v.comm_d_new, v.comm_r_new,
                                     (const uint8_t *const *)b.blob, b.len, 0, &e) == CUZK_E_INVALID_ARG,
          "no partition proofs refused: %s", e.msg);
    /* an unencoded replica: tree R_new = tree R_old, so comm_r_new = comm_r_old and every
     * leaf_r_new misses the data * rho term */
    fc_snap_view bad = v;
    bad.tree_r_new = bad.tree_r_old;
    memcpy(bad.comm_r_new, bad.comm_r_old, 32);
    blobs bb;
    make_blobs(&bad, &bb);
    CHECK(assemble(&r, &bad, &bb, NULL, &e) == CUZK_E_VERIFY_FAILED &&
              strstr(e.msg, "proof_r_new leaf is") && strstr(e.msg, "leaf_r_old + leaf_d_new * rho"),
          "unencoded replica refused: %s", e.msg);
    free_blobs(&bb);
    free_blobs(&b);

    /* Poseidon variant over the same sector, with the new data's nodes */
    uint8_t(*nodes)[32] = malloc(u->shape->nodes * 32);
    for (uint64_t i = 0; i < u->shape->nodes; i++)
        fc_store_read(&ns.tree_d_new.store, i * 32, nodes[i], 32, &e);
    poseidon_variant(&s, u, (const uint8_t(*)[32])nodes);
    free(nodes);
    fc_snap_sector_free(&ns);
    fc_sector_free(&s);
}

/* Sparse fixtures: every partition assembled and validated; partition count and the
 * partition order enforced; partition `check_k` in CS_CHECK when want_constraints != 0. */
static void sparse(unsigned id, uint32_t check_k, uint64_t want_constraints)
{
    const fc_snap_proof *u;
    fc_snap_proof_get(id, &u, NULL);
    uint8_t w[32];
    memset(w, 0x5a, 32);
    w[31] &= 0x3f;
    fc_sparse_snap *sp;
    cuzk_error e;
    if (fc_sparse_snap_create(&sp, u, 5, w, &e) != CUZK_OK) {
        CHECK(0, "%s fixture: %s", u->name, e.msg);
        return;
    }
    fc_snap_view v;
    fc_sparse_snap_view(sp, &v);
    blobs b;
    make_blobs(&v, &b);
    fc_snap_request r;
    cuzk_status st = assemble(&r, &v, &b, NULL, &e);
    CHECK(st == CUZK_OK && r.npartitions == u->partitions, "%s: %u partitions assembled: %s", u->name,
          u->partitions, st ? e.msg : "");
    if (st == CUZK_OK && want_constraints)
        check_partition(&r, check_k, want_constraints);
    fc_snap_request_free(&r);
    /* partitions 1 and 2 swapped: the challenges of partition 1 are not those of proof 2 */
    uint8_t *t = b.blob[1];
    size_t tl = b.len[1];
    b.blob[1] = b.blob[2], b.len[1] = b.len[2];
    b.blob[2] = t, b.len[2] = tl;
    CHECK(assemble(&r, &v, &b, NULL, &e) == CUZK_E_VERIFY_FAILED && strstr(e.msg, "partition 1 challenge 0") &&
              strstr(e.msg, "leaf index"),
          "%s: swapped partitions refused: %s", u->name, e.msg);
    b.n--;
    CHECK(assemble(&r, &v, &b, NULL, &e) == CUZK_E_INVALID_ARG && strstr(e.msg, "partition proofs, expected"),
          "%s: a missing partition refused: %s", u->name, e.msg);
    b.n++;
    free_blobs(&b);
    fc_sparse_snap_free(sp);
}

int main(int argc, char **argv)
{
    bool run_long = argc > 1 && !strcmp(argv[1], "long");
    worked_2k();
    /* 8 MiB: partition 3 of 4 (partition bits 11) in CS_CHECK, 10,007,503 constraints */
    sparse(1, 3, 10007503);
    sparse(3, 0, run_long ? 81049499 : 0);
    sparse(4, 15, run_long ? 85006101 : 0);
    return check_summary(run_long ? "snap_check_long" : "snap_check");
}
