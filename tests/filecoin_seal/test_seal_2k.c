/* The worked 2 KiB example (docs/vectors.md#worked-2-kib-example): a CC StackedDrg2KiBV1_1
 * sector of miner 1000, sector 1, ticket 32 x 01 sealed here (in memory and in temporary
 * files, 1 and 2 threads) must give its comm_d, replica_id, labels, comm_c, comm_r_last,
 * comm_r and column hash of node 28; its C1 for seed 32 x 02 its JSON bytes (100,111, SHA-256
 * f576e7eb...); its WindowPoSt V1_2 vanilla proof for randomness 32 x 03 (byte 31 & 0x3f) its
 * leaves and bytes (5,680, SHA-256 f5427fff...); SnapDeals with new data Fr32(2,032 x 01) its
 * comm_d_new, phi, rho, root_r_new, comm_r_new, challenges and PartitionProof bytes (15,064,
 * SHA-256 38535709...). Every output also passes the self-checks. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/porep/vanilla.h"
#include "filecoin/post/vanilla.h"
#include "filecoin/snap/vanilla.h"
#include "filecoin/porep/porep.h"
#include "filecoin/post/post.h"
#include "filecoin/snap/challenges.h"
#include "filecoin/testkit/c1_gen.h"
#include "filecoin/testkit/post_gen.h"
#include "filecoin/testkit/seal.h"
#include "filecoin/testkit/snap_gen.h"
#include "gadgets/sha256_native.h"

static bool eq_hex(const uint8_t b[32], const char *hex)
{
    uint8_t want[32];
    return hex_decode(want, 32, hex) == 32 && !memcmp(b, want, 32);
}

static bool sha_is(const uint8_t *buf, size_t len, const char *hex)
{
    uint8_t d[32];
    sha256_native(buf, len, d);
    return eq_hex(d, hex);
}

static void seal_id(fc_sector *s, unsigned id, uint64_t sector_id, const char *dir, unsigned threads)
{
    fc_seal_params p = {.sector_id = sector_id, .dir = dir, .threads = threads};
    fc_seal_proof_get(id, &p.proof, NULL);
    fc_prover_id_from_actor(1000, p.prover_id);
    memset(p.ticket, 1, 32);
    cuzk_error e = {0};
    CHECK(fc_seal(s, &p, &e) == CUZK_OK, "seal %u (%s, %u threads): %s", id, dir ? dir : "memory", threads, e.msg);
}

static void seal_2k(fc_sector *s, const char *dir, unsigned threads)
{
    seal_id(s, 5, 1, dir, threads);
}

static void check_commitments(const fc_sector *s, const char *what)
{
    CHECK(eq_hex(s->comm_d, "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833"), "%s comm_d", what);
    CHECK(eq_hex(s->replica_id, "3e75e87332cd5d60132c1f9f9a8362e2e4cf190b46f4fd636fd8864b842d170b"), "%s replica_id",
          what);
    CHECK(eq_hex(s->comm_c, "341fe7b18303170f67577d8e825f09e2cf6cf4c2b65d4fa2eaf4e2b70eeeb365"), "%s comm_c", what);
    CHECK(eq_hex(s->comm_r_last, "90e693754e3cd7d23b1cbb26a69183485d04d7a96e8b0c2fef039a0f09bfef05"), "%s comm_r_last",
          what);
    CHECK(eq_hex(s->comm_r, "77424390b36f74acd595c40d0e341f4fbff18623feaf8ad72fe73d7490d0d65c"), "%s comm_r", what);
}

static void test_labels(const fc_sector *s)
{
    uint8_t rows[2][32];
    fc_sector_column(s, 0, rows, NULL);
    CHECK(eq_hex(rows[0], "a7cc1fe75634063bb01dba191aeb0256505eb56d24b67027b44989c8c0d2680e") &&
              eq_hex(rows[1], "63fe55454ef7b6681b3e1c1458777606c5bda7ce33fa78aa3b3fb7412df68f29"),
          "labels of node 0");
    fc_sector_column(s, 1, rows, NULL);
    CHECK(eq_hex(rows[0], "814c7f0921580b8b1ea6792e947beb21437c84d03aa972109456cfb20e88142b"), "label(1, 1)");
    fc_sector_column(s, 63, rows, NULL);
    CHECK(eq_hex(rows[1], "f403883c85fbf18f7bdd78a5dbd27fbc1cb985e24b0e691290376f5f4cbab33e"), "label(2, 63)");
    fc_sector_column(s, 28, rows, NULL);
    CHECK(eq_hex(rows[0], "1acde4c3c3b505141a413bcd72f9ae4ac5e3d9e424ed637ea707ae60c17ad817") &&
              eq_hex(rows[1], "bcadd86479ff6517f5b3ced0451f31177cb16631eaa0cb383a4bf1e37bdcae20"),
          "labels of node 28");
    uint8_t leaf[32];
    fc_tree c = fc_full_tree_view(&s->tree_c);
    c.node(c.ctx, 0, 28, leaf, NULL);
    CHECK(eq_hex(leaf, "280f0e84ab6614ca4fa869aa7d66dc29f84268adac6800ada591c97bbd228c2b"), "column hash of node 28");
    /* CC: the replica is the last layer */
    fc_tree r = fc_full_tree_view(&s->tree_r);
    r.node(r.ctx, 0, 63, leaf, NULL);
    CHECK(eq_hex(leaf, "f403883c85fbf18f7bdd78a5dbd27fbc1cb985e24b0e691290376f5f4cbab33e"), "replica node 63 = key");
}

static void test_c1(const fc_sector *s)
{
    fc_porep_view v;
    fc_sector_porep_view(s, &v);
    uint8_t seed[32];
    memset(seed, 2, 32);
    fc_c1_output c1;
    cuzk_error e = {0};
    CHECK(fc_c1_generate(&v, seed, &c1, &e) == CUZK_OK, "C1: %s", e.msg);
    CHECK(fc_c1_validate(&c1, &e) == CUZK_OK, "C1 self-check: %s", e.msg);
    CHECK(c1.proofs[0].labeling[0].node == 28 && c1.proofs[1].labeling[0].node == 27, "challenges 28, 27");
    static const uint32_t drg28[6] = {27, 17, 7, 1, 27, 27}, exp28[8] = {27, 9, 10, 16, 28, 52, 46, 54};
    bool ok = true;
    for (int i = 0; i < 6; i++)
        ok &= c1.proofs[0].drg[i].index == drg28[i];
    for (int i = 0; i < 8; i++)
        ok &= c1.proofs[0].exp[i].index == exp28[i];
    CHECK(ok, "parents of node 28");
    uint8_t *json = NULL;
    size_t len = 0;
    CHECK(fc_c1_write(&c1, FC_C1_JSON, &json, &len, &e) == CUZK_OK, "C1 JSON: %s", e.msg);
    CHECK(len == 100111, "C1 JSON is %zu bytes, expected 100,111", len);
    CHECK(sha_is(json, len, "f576e7ebf7ccbfa3fe059fa4a365a75daa1416258ff17c2de8b4755bf03bddf4"), "C1 JSON SHA-256");
    free(json);
    fc_c1_free(&c1);
}

/* The daemon's partition assembly and validation (post/post.h) of n vanilla proofs. */
static cuzk_status post_check(const fc_post_proof *p, const uint8_t rnd[32], uint32_t k, const fc_post_vanilla *pv,
                              uint32_t n, cuzk_error *e)
{
    fc_post_partition part;
    cuzk_status st = fc_post_partition_assemble(&part, p, rnd, 1000, k, pv, n, e);
    if (st == CUZK_OK)
        fc_post_partition_free(&part);
    return st;
}

static void test_post(const fc_sector *s)
{
    const fc_post_proof *p;
    fc_post_proof_get(10, &p, NULL);
    uint8_t rnd[32];
    memset(rnd, 3, 32);
    rnd[31] &= 0x3f;
    fc_post_sector v;
    fc_sector_post_view(s, &v);
    fc_post_vanilla pv;
    cuzk_error e = {0};
    CHECK(fc_post_generate(p, rnd, 0, 0, &v, &pv, &e) == CUZK_OK, "PoSt: %s", e.msg);
    CHECK(post_check(p, rnd, 0, &pv, 1, &e) == CUZK_OK, "PoSt partition check: %s", e.msg);
    static const uint64_t leaves[10] = {15, 30, 60, 40, 31, 45, 14, 18, 34, 2};
    bool ok = pv.sectors[0].ninclusion == 10;
    for (int i = 0; ok && i < 10; i++)
        ok &= fc_merkle_proof_node(&pv.sectors[0].inclusion[i]) == leaves[i];
    CHECK(ok, "PoSt leaves");
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK(fc_post_vanilla_write(&pv, &buf, &len, &e) == CUZK_OK && len == 5680, "PoSt: %zu bytes, expected 5,680", len);
    CHECK(sha_is(buf, len, "f5427fff291e1103a8a6f45059916c63d37b8c9586db8e41613e7a5ae98ce321"), "PoSt SHA-256");
    free(buf);
    fc_post_vanilla_free(&pv);
}

static void test_snap(const fc_sector *s, const char *dir)
{
    const fc_snap_proof *u;
    fc_snap_proof_get(0, &u, NULL);
    uint8_t data[2032];
    memset(data, 1, sizeof data);
    fc_snap_sector ns;
    cuzk_error e = {0};
    CHECK(fc_snap_encode(&ns, s, u, data, sizeof data, NULL, dir, 2, &e) == CUZK_OK, "SnapDeals encode: %s", e.msg);
    CHECK(eq_hex(ns.comm_d_new, "243ebe6979949215ad224bfd4ba3f1d5826a3460c045a06761e1a5020866a02e"), "comm_d_new");
    fr_t phi, rho;
    uint8_t b[32];
    fc_snap_phi(ns.comm_d_new, s->comm_r, &phi, &e);
    fr_to_bytes_le(b, &phi);
    CHECK(eq_hex(b, "2c3fed11e2b546e4a62b7d3369b06e4454dfc9a848eef5f875766cb363ce6e46"), "phi");
    fc_snap_rho(&phi, 0, &rho);
    fr_to_bytes_le(b, &rho);
    CHECK(eq_hex(b, "d90f9f4e4ab073c3c11f7756b1c99be58056f755131eabdca344b69378001b3e"), "rho(0)");
    fc_snap_rho(&phi, 1, &rho);
    fr_to_bytes_le(b, &rho);
    CHECK(eq_hex(b, "97192dcf8543b513fd0ae4fbbeb9bb2b77ef3a77e871040c7e62880a4076c96c"), "rho(1)");
    CHECK(eq_hex(ns.root_r_new, "d167527bf4daac66172c8e9d352f2be76753b0057e18857a3f5ab4f4e1877c5e"), "root_r_new");
    CHECK(eq_hex(ns.comm_r_new, "fdc65092682f315495a8b600a28e6209d173c4cbdb945e4575525000aa1eaf71"), "comm_r_new");
    fc_snap_view v;
    fc_snap_sector_view(&ns, &v);
    fc_snap_partition_proof pr;
    CHECK(fc_snap_partition_generate(&v, 0, &pr, &e) == CUZK_OK, "partition proof: %s", e.msg);
    CHECK(fc_snap_partition_check(u, 0, v.comm_r_old, v.comm_d_new, v.comm_r_new, &pr, &e) == CUZK_OK,
          "SnapDeals self-check: %s", e.msg);
    static const uint64_t ch[10] = {45, 53, 53, 46, 43, 55, 13, 20, 30, 55};
    bool ok = pr.nchallenges == 10;
    for (int i = 0; ok && i < 10; i++)
        ok &= fc_merkle_proof_node(&pr.challenges[i].d_new) == ch[i];
    CHECK(ok, "SnapDeals challenges");
    uint8_t *buf = NULL;
    size_t len = 0;
    CHECK(fc_snap_partition_write(&pr, &buf, &len, &e) == CUZK_OK && len == 15064, "PartitionProof %zu bytes", len);
    CHECK(sha_is(buf, len, "3853570980c625c94a826de9e1f20f4413edb3163c5fe682c02ea0339e78c824"), "PartitionProof SHA-256");
    free(buf);
    fc_snap_partition_free(&pr);
    fc_snap_sector_free(&ns);
}

/* C1 of every 2 KiB seal proof (V1, synthetic, non-interactive): self-checked, partitions and
 * challenges of the registry, JSON and bincode round trips. */
static void test_variants(void)
{
    static const unsigned ids[] = {0, 10, 15};
    uint8_t seed[32];
    memset(seed, 2, 32);
    for (size_t i = 0; i < sizeof ids / sizeof ids[0]; i++) {
        fc_sector s;
        seal_id(&s, ids[i], 2, NULL, 2);
        fc_porep_view v;
        fc_sector_porep_view(&s, &v);
        fc_c1_output c1, back;
        cuzk_error e = {0};
        CHECK(fc_c1_generate(&v, seed, &c1, &e) == CUZK_OK, "C1 %u: %s", ids[i], e.msg);
        CHECK(fc_c1_validate(&c1, &e) == CUZK_OK, "C1 %u self-check: %s", ids[i], e.msg);
        CHECK(c1.partitions == s.proof->partitions && c1.challenges == 2, "C1 %u: %u x %u", ids[i], c1.partitions,
              c1.challenges);
        for (int f = 0; f < 2; f++) {
            fc_c1_format fmt = f ? FC_C1_BINCODE : FC_C1_JSON;
            uint8_t *a = NULL, *b = NULL;
            size_t la = 0, lb = 0;
            CHECK(fc_c1_write(&c1, fmt, &a, &la, &e) == CUZK_OK && fc_c1_read(&back, a, la, fmt, false, &e) == CUZK_OK &&
                      fc_c1_write(&back, fmt, &b, &lb, &e) == CUZK_OK && la == lb && !memcmp(a, b, la),
                  "C1 %u format %d round trip: %s", ids[i], f, e.msg);
            free(a);
            free(b);
            fc_c1_free(&back);
        }
        fc_c1_free(&c1);
        fc_sector_free(&s);
    }
}

/* WinningPoSt (66 challenges, each sector alone) and API 1.0 WindowPoSt of two sectors at
 * positions 0 and 1 of partition 1 (the partition assembled from both, refused as partition
 * 0): the byte sizes of docs/formats.md#fallbackpostsectorproof. */
static void test_post_kinds(void)
{
    uint8_t rnd[32];
    memset(rnd, 9, 32);
    rnd[31] &= 0x3f;
    static const struct {
        unsigned id;
        size_t bytes;
    } kinds[] = {{0, 36816}, {5, 5680}};
    for (size_t i = 0; i < 2; i++) {
        const fc_post_proof *p;
        fc_post_proof_get(kinds[i].id, &p, NULL);
        fc_post_vanilla pv[2];
        cuzk_error e = {0};
        for (uint32_t pos = 0; pos < 2; pos++) {
            fc_sector s;
            seal_id(&s, 5, 10 + pos, NULL, 1);
            fc_post_sector v;
            fc_sector_post_view(&s, &v);
            CHECK(fc_post_generate(p, rnd, 1, pos, &v, &pv[pos], &e) == CUZK_OK, "%s: %s", p->name, e.msg);
            uint8_t *buf = NULL;
            size_t len = 0;
            CHECK(fc_post_vanilla_write(&pv[pos], &buf, &len, &e) == CUZK_OK && len == kinds[i].bytes,
                  "%s: %zu bytes", p->name, len);
            free(buf);
            fc_sector_free(&s);
            if (p->winning)
                CHECK(post_check(p, rnd, 1, &pv[pos], 1, &e) == CUZK_OK, "%s check: %s", p->name, e.msg);
        }
        if (!p->winning) {
            CHECK(post_check(p, rnd, 1, pv, 2, &e) == CUZK_OK, "%s partition 1: %s", p->name, e.msg);
            CHECK(post_check(p, rnd, 0, pv, 2, &e) == CUZK_E_VERIFY_FAILED, "%s as partition 0 accepted", p->name);
        }
        fc_post_vanilla_free(&pv[0]);
        fc_post_vanilla_free(&pv[1]);
    }
}

/* Data: one byte 0x01 (from memory and from a file) gives the comm_d of Curio's Test2K
 * (curio lib/proof/treed_build_test.go); more than the 2,032-byte capacity is refused. */
static void test_data(const char *tmp)
{
    const fc_seal_proof *p;
    fc_seal_proof_get(5, &p, NULL);
    uint8_t one = 1, big[2033] = {0};
    char path[4096];
    snprintf(path, sizeof path, "%s/seal-2k-data.bin", tmp);
    FILE *f = fopen(path, "wb");
    CHECK(f && fwrite(&one, 1, 1, f) == 1 && fclose(f) == 0, "write %s", path);
    for (int i = 0; i < 3; i++) {
        fc_seal_params sp = {.proof = p, .sector_id = 1, .threads = 1};
        if (i == 0)
            sp.data = &one, sp.data_len = 1;
        else if (i == 1)
            sp.data_path = path;
        else
            sp.data = big, sp.data_len = sizeof big;
        fc_sector s;
        cuzk_error e = {0};
        cuzk_status st = fc_seal(&s, &sp, &e);
        if (i < 2) {
            CHECK(st == CUZK_OK && eq_hex(s.comm_d, "ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d"),
                  "data byte 0 = 1 (%s): comm_d %s", i ? "file" : "memory", e.msg);
            fc_sector_free(&s);
        } else {
            CHECK(st == CUZK_E_INVALID_ARG, "2,033 bytes of data refused");
        }
    }
    remove(path);
}

int main(int argc, char **argv)
{
    const char *tmp = argc > 1 ? argv[1] : "/tmp";
    fc_sector s;
    seal_2k(&s, NULL, 1);
    check_commitments(&s, "in memory, 1 thread");
    test_labels(&s);
    test_c1(&s);
    test_post(&s);
    test_snap(&s, NULL);
    fc_sector_free(&s);
    seal_2k(&s, tmp, 2);
    check_commitments(&s, "in files, 2 threads");
    test_labels(&s);
    test_c1(&s);
    test_snap(&s, tmp);
    fc_sector_free(&s);
    test_variants();
    test_data(tmp);
    test_post_kinds();
    return check_summary("filecoin seal 2KiB worked example");
}
