/* FallbackPoSt on generated data (src/filecoin/core/seal): the sealed 2 KiB sector of
 * docs/vectors.md#worked-2-kib-example (StackedDrg2KiBV1_1, miner 1000, sector 1, ticket 32 x 01)
 * and its SnapDeals-updated replica, and the sparse 32 / 64 GiB fixtures (docs/fixtures.md#post).
 * The per-sector vanilla proofs, written to bincode and read back, are assembled into a partition;
 * the circuit is satisfied in CS_CHECK and its inputs equal the public inputs computed from public
 * data; the 2 KiB example's WindowPoSt V1_2 leaves are the public leaf inputs; WinningPoSt is
 * unrolled into 66 circuit sectors; the partition index k enters the challenges for API 1.0 and not
 * for API 1.2; sectors out of order are refused for API 1.0 (their challenges depend on the
 * position) and accepted for API 1.2. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/post/post.h"
#include "filecoin/testkit/fixtures.h"
#include "filecoin/testkit/seal.h"
#include "filecoin/testkit/snap_gen.h"

#define MAXS 4

typedef struct {
    uint32_t n;
    uint8_t *blob[MAXS];
    size_t len[MAXS];
} blobs;

static void add_proof(blobs *b, const fc_post_proof *p, const uint8_t rnd[32], uint32_t k, uint32_t pos,
                      const fc_post_sector *s)
{
    fc_post_vanilla v;
    cuzk_error e;
    CHECK(fc_post_generate(p, rnd, k, pos, s, &v, &e) == CUZK_OK, "%s generate: %s", p->name, e.msg);
    CHECK(fc_post_vanilla_write(&v, &b->blob[b->n], &b->len[b->n], &e) == CUZK_OK, "write: %s", e.msg);
    b->n++;
    fc_post_vanilla_free(&v);
}

static void free_blobs(blobs *b)
{
    for (uint32_t i = 0; i < b->n; i++)
        free(b->blob[i]);
    b->n = 0;
}

/* Assemble, synthesize `sectors` circuit sectors (0: the proof's sector_count) in CS_CHECK,
 * and compare the circuit's inputs with fc_post_partition_public_inputs. Returns the public
 * inputs (caller frees) when `keep`. */
static fr_t *prove_check(const fc_post_proof *p, const uint8_t rnd[32], uint32_t k, const blobs *b,
                         uint32_t sectors, uint64_t want_constraints, const char *what)
{
    fc_post_partition part;
    cuzk_error e;
    cuzk_status st =
        fc_post_partition_from_bytes(&part, p, rnd, 1000, k, (const uint8_t *const *)b->blob, b->len, b->n, &e);
    CHECK(st == CUZK_OK, "%s assembled: %s", what, st ? e.msg : "");
    if (st)
        return NULL;
    fc_post_shape s = part.shape;
    if (sectors)
        s.sector_count = sectors;
    cs_t cs;
    cs_init(&cs, CS_CHECK, 0);
    st = fc_post_synthesize(&cs, &s, part.sectors, part.nsectors, &e);
    uint64_t bad = 0;
    char name[256] = "";
    CHECK(st == CUZK_OK && cs_check_satisfied(&cs, &bad, name, sizeof name), "%s satisfied (first failure %llu %s)",
          what, (unsigned long long)bad, name);
    CHECK(cs.num_constraints == want_constraints, "%s: %llu constraints", what, (unsigned long long)cs.num_constraints);
    fr_t *in, *aux, *pub = malloc(fc_post_public_input_count(p) * sizeof *pub);
    uint64_t nin, naux;
    CHECK(cs_take_witness(&cs, &in, &nin, &aux, &naux) == CUZK_OK, "witness");
    CHECK(fc_post_partition_public_inputs(&part, pub, &e) == CUZK_OK, "%s public inputs: %s", what, e.msg);
    bool ok = nin == 1 + (uint64_t)s.sector_count * (1 + s.challenge_count);
    for (uint64_t i = 1; i < nin && ok; i++)
        ok = fr_eq(&in[i], &pub[i - 1]);
    CHECK(ok, "%s: the circuit's inputs are the public inputs", what);
    free(in);
    free(aux);
    cs_free(&cs);
    fc_post_partition_free(&part);
    return pub;
}

static void sealed_2k(void)
{
    fc_sector s;
    fc_seal_params sp = {.sector_id = 1, .threads = 1};
    fc_seal_proof_get(5, &sp.proof, NULL);
    fc_prover_id_from_actor(1000, sp.prover_id);
    memset(sp.ticket, 1, 32);
    cuzk_error e;
    if (fc_seal(&s, &sp, &e) != CUZK_OK) {
        CHECK(0, "seal: %s", e.msg);
        return;
    }
    fc_post_sector v;
    fc_sector_post_view(&s, &v);
    uint8_t rnd[32];
    memset(rnd, 3, 32);
    rnd[31] &= 0x3f;
    const fc_post_proof *p;
    blobs b = {0};
    /* WindowPoSt V1_2 (id 10), one sector padded to 2: the 2 KiB example's leaves */
    fc_post_proof_get(10, &p, NULL);
    add_proof(&b, p, rnd, 0, 0, &v);
    CHECK(b.len[0] == 5680, "2 KiB WindowPoSt vanilla proof: 5,680 bytes");
    fr_t *pub = prove_check(p, rnd, 0, &b, 0, 21866, "2 KiB WindowPoSt V1_2");
    if (pub) {
        static const uint64_t leaves[10] = {15, 30, 60, 40, 31, 45, 14, 18, 34, 2};
        bool ok = true;
        for (int rep = 0; rep < 2; rep++)
            for (int n = 0; n < 10; n++) {
                fr_t want;
                fr_from_u64(&want, leaves[n]);
                ok &= fr_eq(&pub[11 * rep + 1 + n], &want);
            }
        CHECK(ok, "public leaf inputs are the 2 KiB leaves 15, 30, 60, 40, 31, 45, 14, 18, 34, 2 (twice)");
        free(pub);
    }
    free_blobs(&b);
    /* WindowPoSt V1 (id 5, API 1.0), partition 3, the sector at both positions: the
     * challenges depend on k and the position */
    fc_post_proof_get(5, &p, NULL);
    add_proof(&b, p, rnd, 3, 0, &v);
    add_proof(&b, p, rnd, 3, 1, &v);
    free(prove_check(p, rnd, 3, &b, 0, 21866, "2 KiB WindowPoSt V1, partition 3"));
    fc_post_partition part;
    CHECK(fc_post_partition_from_bytes(&part, p, rnd, 1000, 0, (const uint8_t *const *)b.blob, b.len, 2, &e) ==
                  CUZK_E_VERIFY_FAILED &&
              strstr(e.msg, "vanilla proof 0 (sector 1) inclusion proof 0: leaf index"),
          "partition 3's proofs refused as partition 0: %s", e.msg);
    free_blobs(&b);
    /* WinningPoSt (id 0): 66 challenges unrolled into the 66 circuit sectors */
    fc_post_proof_get(0, &p, NULL);
    add_proof(&b, p, rnd, 0, 0, &v);
    CHECK(b.len[0] == 36816, "2 KiB WinningPoSt vanilla proof: 36,816 bytes");
    free(prove_check(p, rnd, 0, &b, 0, 90750, "2 KiB WinningPoSt"));
    add_proof(&b, p, rnd, 0, 0, &v);
    CHECK(fc_post_partition_from_bytes(&part, p, rnd, 1000, 0, (const uint8_t *const *)b.blob, b.len, 2, &e) ==
                  CUZK_E_INVALID_ARG &&
              strstr(e.msg, "exactly one"),
          "two winning proofs refused: %s", e.msg);
    free_blobs(&b);
    /* the SnapDeals-updated replica proves WindowPoSt with comm_r_new */
    const fc_snap_proof *u;
    fc_snap_proof_get(0, &u, NULL);
    uint8_t data[2032];
    memset(data, 1, sizeof data);
    fc_snap_sector ns;
    CHECK(fc_snap_encode(&ns, &s, u, data, sizeof data, NULL, NULL, 1, &e) == CUZK_OK, "encode: %s", e.msg);
    fc_post_sector nv;
    fc_snap_sector_post_view(&ns, &nv);
    fc_post_proof_get(10, &p, NULL);
    add_proof(&b, p, rnd, 0, 0, &nv);
    free(prove_check(p, rnd, 0, &b, 0, 21866, "2 KiB WindowPoSt of the updated replica"));
    free_blobs(&b);
    fc_snap_sector_free(&ns);
    fc_sector_free(&s);
}

/* Sparse 32 / 64 GiB sectors: WindowPoSt with three sectors at partition 2 (a 3-sector
 * circuit, the first 33 public inputs), WinningPoSt in full. */
static void sparse(unsigned window_id, unsigned winning_id, uint64_t winning_constraints, uint64_t sector_constraints)
{
    const fc_post_proof *p;
    uint8_t rnd[32];
    for (int i = 0; i < 32; i++)
        rnd[i] = (uint8_t)(17 * i + 5);
    rnd[31] &= 0x3f;
    cuzk_error e;
    blobs b = {0};
    fc_sparse_post *sp[3];
    fc_post_proof_get(window_id, &p, NULL);
    for (uint32_t pos = 0; pos < 3; pos++) {
        fc_post_sector v;
        CHECK(fc_sparse_post_create(&sp[pos], p, rnd, 2, pos, 40 + pos, &e) == CUZK_OK, "fixture: %s", e.msg);
        fc_sparse_post_view(sp[pos], &v);
        add_proof(&b, p, rnd, 2, pos, &v);
    }
    char what[80];
    snprintf(what, sizeof what, "%s, 3 sectors, partition 2", p->name);
    free(prove_check(p, rnd, 2, &b, 3, 3 * sector_constraints, what));
    /* the same sectors in another order: their challenges were derived for their positions */
    uint8_t *t = b.blob[0];
    size_t tl = b.len[0];
    b.blob[0] = b.blob[1], b.len[0] = b.len[1];
    b.blob[1] = t, b.len[1] = tl;
    fc_post_partition part;
    cuzk_status st =
        fc_post_partition_from_bytes(&part, p, rnd, 1000, 2, (const uint8_t *const *)b.blob, b.len, 3, &e);
    if (p->api == FC_API_1_2) {
        CHECK(st == CUZK_OK, "%s: API 1.2 challenges do not depend on the position: %s", p->name, st ? e.msg : "");
        fc_post_partition_free(&part);
    } else {
        CHECK(st == CUZK_E_VERIFY_FAILED && strstr(e.msg, "vanilla proof 0 (sector 41) inclusion proof 0: leaf index"),
              "%s: sectors out of order refused: %s", p->name, e.msg);
    }
    free_blobs(&b);
    for (int i = 0; i < 3; i++)
        fc_sparse_post_free(sp[i]);
    fc_post_proof_get(winning_id, &p, NULL);
    fc_post_sector v;
    CHECK(fc_sparse_post_create(&sp[0], p, rnd, 0, 0, 7, &e) == CUZK_OK, "fixture: %s", e.msg);
    fc_sparse_post_view(sp[0], &v);
    add_proof(&b, p, rnd, 0, 0, &v);
    free(prove_check(p, rnd, 0, &b, 0, winning_constraints, p->name));
    free_blobs(&b);
    fc_sparse_post_free(sp[0]);
}

int main(void)
{
    sealed_2k();
    /* docs/circuits.md#formulas: per sector 313 + 10 · (PoR 5,302 for 32 GiB, 5,616 for 64 GiB) */
    sparse(8, 3, 370590, 313 + 10 * 5302);
    sparse(14, 4, 391314, 313 + 10 * 5616);
    return check_summary("post_generated");
}
