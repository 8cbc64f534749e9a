/* The synthetic fixtures of docs/fixtures.md (sparse trees, no sealing) for every size,
 * 2 KiB to 64 GiB: C1 outputs of the interactive seal proofs, PoSt vanilla proofs of every
 * PoSt proof, SnapDeals partition proofs. Each must pass the docs/fixtures.md#self-checks (C1:
 * fc_c1_validate; PoSt: the daemon's partition assembly; SnapDeals: fc_snap_partition_check),
 * have the byte sizes of docs/formats.md, and survive write -> read -> write unchanged
 * through the vanilla readers; known roots (Z_30, Y_9 / Y_10 ladders of docs/vectors.md)
 * must appear where the recipe says. Corrupted outputs must fail the self-checks. */
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check.h"
#include "filecoin/porep/vanilla.h"
#include "filecoin/post/vanilla.h"
#include "filecoin/snap/vanilla.h"
#include "filecoin/porep/porep.h"
#include "filecoin/post/post.h"
#include "filecoin/testkit/c1_gen.h"
#include "filecoin/testkit/fixtures.h"
#include "filecoin/testkit/post_gen.h"
#include "filecoin/testkit/snap_gen.h"

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static bool eq_hex(const uint8_t b[32], const char *hex)
{
    uint8_t want[32];
    return hex_decode(want, 32, hex) == 32 && !memcmp(b, want, 32);
}

static void roundtrip_c1(const fc_c1_output *c1, fc_c1_format f, const char *what)
{
    uint8_t *a = NULL, *b = NULL;
    size_t la = 0, lb = 0;
    fc_c1_output back = {0};
    cuzk_error e = {0};
    CHECK(fc_c1_write(c1, f, &a, &la, &e) == CUZK_OK, "%s write: %s", what, e.msg);
    CHECK(fc_c1_read(&back, a, la, f, false, &e) == CUZK_OK, "%s read: %s", what, e.msg);
    CHECK(fc_c1_write(&back, f, &b, &lb, &e) == CUZK_OK && la == lb && !memcmp(a, b, la), "%s write-read-write", what);
    free(a);
    free(b);
    fc_c1_free(&back);
}

static void test_porep(unsigned id)
{
    const fc_seal_proof *p;
    fc_seal_proof_get(id, &p, NULL);
    uint8_t prover[32], ticket[32], seed[32];
    fc_prover_id_from_actor(1000, prover);
    memset(ticket, 1, 32);
    memset(seed, 2, 32);
    double t0 = now();
    fc_sparse_porep *sp;
    cuzk_error e = {0};
    CHECK(fc_sparse_porep_create(&sp, p, prover, 7, ticket, seed, &e) == CUZK_OK, "%s fixture: %s", p->name, e.msg);
    fc_porep_view v;
    fc_sparse_porep_view(sp, &v);
    fc_c1_output c1;
    CHECK(fc_c1_generate(&v, seed, &c1, &e) == CUZK_OK, "%s C1: %s", p->name, e.msg);
    CHECK(fc_c1_validate(&c1, &e) == CUZK_OK, "%s self-check: %s", p->name, e.msg);
    printf("%s synthetic C1: %.2f s\n", p->name, now() - t0);
    if (p->shape->size == FC_SIZE_32GIB)
        CHECK(eq_hex(c1.comm_d, "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e"), "comm_d = Z_30");
    roundtrip_c1(&c1, FC_C1_JSON, p->name);
    roundtrip_c1(&c1, FC_C1_BINCODE_C2IN, p->name);
    /* corruptions the self-check must see */
    uint8_t keep = c1.proofs[0].c_x.rows[0][0];
    c1.proofs[0].c_x.rows[0][0] ^= 1;
    CHECK(fc_c1_validate(&c1, &e) == CUZK_E_VERIFY_FAILED, "%s: changed label accepted", p->name);
    c1.proofs[0].c_x.rows[0][0] = keep;
    c1.seed[0] ^= 1;
    CHECK(fc_c1_validate(&c1, &e) == CUZK_E_VERIFY_FAILED, "%s: other seed accepted", p->name);
    c1.seed[0] ^= 1;
    c1.proofs[c1.partitions * c1.challenges - 1].exp[7].proof.sib[0][3] ^= 1;
    CHECK(fc_c1_validate(&c1, &e) == CUZK_E_VERIFY_FAILED, "%s: changed sibling accepted", p->name);
    fc_c1_free(&c1);
    fc_sparse_porep_free(sp);
}

static void test_porep_refused(void)
{
    const fc_seal_proof *p;
    fc_seal_proof_get(13, &p, NULL);
    fc_sparse_porep *sp;
    uint8_t z[32] = {0};
    cuzk_error e = {0};
    CHECK(fc_sparse_porep_create(&sp, p, z, 1, z, z, &e) == CUZK_E_UNSUPPORTED, "synthetic PoRep fixture refused");
}

static cuzk_status post_check(const fc_post_proof *p, const uint8_t rnd[32], uint32_t k, const fc_post_vanilla *pv,
                              uint32_t n, cuzk_error *e)
{
    fc_post_partition part;
    cuzk_status st = fc_post_partition_assemble(&part, p, rnd, 1000, k, pv, n, e);
    fc_post_partition_free(&part);
    return st;
}

/* Two sectors at positions 0 and 1 of partition 1 (WinningPoSt: each alone). */
static void test_post(unsigned id, size_t want_bytes)
{
    const fc_post_proof *p;
    fc_post_proof_get(id, &p, NULL);
    uint8_t rnd[32];
    memset(rnd, 3, 32);
    rnd[31] &= 0x3f;
    fc_sparse_post *sp[2] = {NULL, NULL};
    fc_post_vanilla pv[2] = {{0}}, back;
    cuzk_error e = {0};
    for (uint32_t pos = 0; pos < 2; pos++) {
        CHECK(fc_sparse_post_create(&sp[pos], p, rnd, 1, pos, 40 + pos, &e) == CUZK_OK, "%s fixture: %s", p->name,
              e.msg);
        fc_post_sector v;
        fc_sparse_post_view(sp[pos], &v);
        CHECK(fc_post_generate(p, rnd, 1, pos, &v, &pv[pos], &e) == CUZK_OK, "%s generate: %s", p->name, e.msg);
        if (p->winning)
            CHECK(post_check(p, rnd, 1, &pv[pos], 1, &e) == CUZK_OK, "%s check: %s", p->name, e.msg);
        uint8_t *a = NULL, *b = NULL;
        size_t la = 0, lb = 0;
        CHECK(fc_post_vanilla_write(&pv[pos], &a, &la, &e) == CUZK_OK && la == want_bytes,
              "%s: %zu bytes, expected %zu", p->name, la, want_bytes);
        CHECK(fc_post_vanilla_read(&back, p->shape, a, la, &e) == CUZK_OK, "%s read: %s", p->name, e.msg);
        CHECK(fc_post_vanilla_write(&back, &b, &lb, &e) == CUZK_OK && la == lb && !memcmp(a, b, la),
              "%s write-read-write", p->name);
        free(a);
        free(b);
        fc_post_vanilla_free(&back);
    }
    if (!p->winning) {
        CHECK(post_check(p, rnd, 1, pv, 2, &e) == CUZK_OK, "%s partition 1: %s", p->name, e.msg);
        /* the partition index moves API 1.0 challenges, never API 1.2 ones */
        cuzk_status other = post_check(p, rnd, 0, pv, 2, &e);
        CHECK((other == CUZK_OK) == (p->api == FC_API_1_2), "%s: partition dependence", p->name);
        pv[1].sectors[0].comm_c[0] ^= 1;
        CHECK(post_check(p, rnd, 1, pv, 2, &e) == CUZK_E_VERIFY_FAILED, "%s: changed comm_c accepted", p->name);
    }
    for (int i = 0; i < 2; i++) {
        fc_post_vanilla_free(&pv[i]);
        fc_sparse_post_free(sp[i]);
    }
}

static void test_snap(unsigned id, size_t want_bytes, const char *root_old_hex)
{
    const fc_snap_proof *u;
    fc_snap_proof_get(id, &u, NULL);
    uint8_t w[32];
    memset(w, 1, 32);
    double t0 = now();
    fc_sparse_snap *sp;
    cuzk_error e = {0};
    CHECK(fc_sparse_snap_create(&sp, u, 5, w, &e) == CUZK_OK, "%s fixture: %s", u->name, e.msg);
    fc_snap_view v;
    fc_sparse_snap_view(sp, &v);
    uint8_t root_old[32];
    fc_tree_root(&v.tree_r_old, root_old, &e);
    if (root_old_hex)
        CHECK(eq_hex(root_old, root_old_hex), "%s: tree R_old root is the zero ladder", u->name);
    for (uint32_t k = 0; k < u->partitions; k++) {
        fc_snap_partition_proof pr, back;
        CHECK(fc_snap_partition_generate(&v, k, &pr, &e) == CUZK_OK, "%s partition %u: %s", u->name, k, e.msg);
        CHECK(fc_snap_partition_check(u, k, v.comm_r_old, v.comm_d_new, v.comm_r_new, &pr, &e) == CUZK_OK,
              "%s partition %u self-check: %s", u->name, k, e.msg);
        uint8_t *a = NULL, *b = NULL;
        size_t la = 0, lb = 0;
        CHECK(fc_snap_partition_write(&pr, &a, &la, &e) == CUZK_OK && la == want_bytes, "%s: %zu bytes, expected %zu",
              u->name, la, want_bytes);
        CHECK(fc_snap_partition_read(&back, u->shape, false, a, la, &e) == CUZK_OK, "%s read: %s", u->name, e.msg);
        CHECK(fc_snap_partition_write(&back, &b, &lb, &e) == CUZK_OK && la == lb && !memcmp(a, b, la),
              "%s write-read-write", u->name);
        if (k == 0) {
            CHECK(fc_snap_partition_check(u, 1 % u->partitions, v.comm_r_old, v.comm_d_new, v.comm_r_new, &pr, &e) ==
                      (u->partitions > 1 ? CUZK_E_VERIFY_FAILED : CUZK_OK),
                  "%s: wrong partition", u->name);
            pr.challenges[0].r_new.leaf[0] ^= 1;
            CHECK(fc_snap_partition_check(u, k, v.comm_r_old, v.comm_d_new, v.comm_r_new, &pr, &e) == CUZK_E_VERIFY_FAILED,
                  "%s: changed new replica leaf accepted", u->name);
        }
        free(a);
        free(b);
        fc_snap_partition_free(&pr);
        fc_snap_partition_free(&back);
    }
    printf("%s synthetic SnapDeals, %u partitions: %.2f s\n", u->name, u->partitions, now() - t0);
    fc_sparse_snap_free(sp);
}

int main(void)
{
    static const unsigned porep_ids[] = {0, 5, 1, 6, 2, 7, 3, 8, 4, 9};
    for (size_t i = 0; i < sizeof porep_ids / sizeof porep_ids[0]; i++)
        test_porep(porep_ids[i]);
    test_porep_refused();
    /* PoSt sizes of docs/formats.md#fallbackpostsectorproof: Window (10 challenges) and
     * Winning (66) */
    static const size_t window[5] = {5680, 15280, 20080, 24960, 25520}, winning[5] = {36816, 100176, 131856, 164064,
                                                                                        167760};
    for (unsigned s = 0; s < 5; s++) {
        test_post(s, winning[s]);
        test_post(5 + s, window[s]);
        test_post(10 + s, window[s]);
    }
    /* SnapDeals sizes of docs/formats.md#snapdeals-partitionproof; zero-ladder roots Y_10 (32
     * GiB) and P_2(Y_10, Y_10) (64 GiB) */
    static const size_t part[5] = {15064, 43864, 453064, 561768, 575528};
    for (unsigned s = 0; s < 5; s++)
        test_snap(s, part[s],
                  s == 3   ? "d5cd408ceb94566b8d39966d406ea4312018f98684ffe630ece1ea0cf3fe7d4d"
                  : s == 4 ? "f99f9b2043f2b35049dc23b9a442d58c69799a910a46bd3d034cae5e1ab82263"
                           : NULL);
    return check_summary("filecoin seal fixtures");
}
