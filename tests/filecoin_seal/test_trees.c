/* Fr32 padding, tree D and Poseidon trees against the published vectors of docs/vectors.md:
 * fr32/src/reader.rs and convert.rs tests, zero commitments Z_0..Z_31, filecoin-proofs
 * pieces.rs and Curio treed_build_test.go, Poseidon ladders Y_k, P_2(0,0), P_11(0..0), the
 * all-zero 64 GiB root, and Curio TestPoseidonHashMulti. Sparse trees are checked against full
 * trees of the same leaves and against those ladders; every proof is recomputed with
 * fc_merkle_proof_verify. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field/fr.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/seal/tree.h"
#include "filecoin/testkit/fr32.h"
#include "filecoin/testkit/sparse.h"

static void hex32(uint8_t out[32], const char *hex)
{
    CHECK(hex_decode(out, 32, hex) == 32, "bad test vector %s", hex);
}

static bool eq_hex(const uint8_t b[32], const char *hex)
{
    uint8_t want[32];
    hex32(want, hex);
    return !memcmp(b, want, 32);
}

/* prefix/suffix form "aabbcc…ddee" of the document: compare the given ends. */
static bool eq_ends(const uint8_t b[32], const char *pre, const char *suf)
{
    char h[65];
    hex_encode(h, b, 32);
    return !strncmp(h, pre, strlen(pre)) && !strcmp(h + 64 - strlen(suf), suf);
}

static void test_fr32(void)
{
    uint8_t in[256], out[512];
    /* test_simple_short */
    memset(in, 3, 30);
    CHECK(fc_fr32_padded_nodes(30) == 1, "30 bytes -> 1 node");
    fc_fr32_pad(in, 30, out);
    bool ok = true;
    for (int i = 0; i < 32; i++)
        ok &= out[i] == (i < 30 ? 3 : 0);
    CHECK(ok, "test_simple_short");
    /* test_simple_single */
    memset(in, 0xff, 32);
    CHECK(fc_fr32_padded_nodes(32) == 2, "32 bytes -> 2 nodes");
    fc_fr32_pad(in, 32, out);
    ok = out[31] == 0x3f && out[32] == 0x03;
    for (int i = 0; i < 31; i++)
        ok &= out[i] == 0xff;
    CHECK(ok, "test_simple_single");
    /* test_simple_127 */
    memset(in, 0xff, 127);
    CHECK(fc_fr32_padded_nodes(127) == 4, "127 bytes -> 4 nodes");
    fc_fr32_pad(in, 127, out);
    ok = out[31] == 0x3f && out[32] == 0xff;
    for (int i = 0; i < 31; i++)
        ok &= out[i] == 0xff;
    CHECK(ok, "test_simple_127");
    /* test_exotic */
    size_t n = 0;
    for (int i = 1; i <= 31; i++)
        in[n++] = (uint8_t)i;
    in[n++] = 0xff;
    for (int i = 1; i <= 31; i++)
        in[n++] = (uint8_t)i;
    in[n++] = 0xff;
    in[n++] = 9, in[n++] = 9, in[n++] = 9, in[n++] = 0xff;
    fc_fr32_pad(in, n, out);
    ok = out[31] == 63 && out[32] == 7 && out[63] == 0x3c && out[64] == 0x9f && out[65] == 0x90 &&
         out[66] == 0x90 && out[67] == 0xf0 && out[68] == 0x0f;
    for (int i = 0; i < 31; i++)
        ok &= out[i] == i + 1;
    for (int i = 33; i < 63; i++)
        ok &= out[i] == (uint8_t)((i - 31) << 2);
    CHECK(ok, "test_exotic");
    uint8_t back[256];
    fc_fr32_unpad(out, n, back);
    CHECK(!memcmp(back, in, n), "test_exotic unpads to its input");
    /* [derived] bytes 0x00..0x7e */
    for (int i = 0; i < 127; i++)
        in[i] = (uint8_t)i;
    fc_fr32_pad(in, 127, out);
    CHECK(eq_hex(out, "000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f") &&
              eq_hex(out + 32, "8084888c9094989ca0a4a8acb0b4b8bcc0c4c8ccd0d4d8dce0e4e8ecf0f4f83c") &&
              eq_hex(out + 64, "03142434445464748494a4b4c4d4e4f404152535455565758595a5b5c5d5e535") &&
              eq_hex(out + 96, "175898d8185999d9195a9ada1a5b9bdb1b5c9cdc1c5d9ddd1d5e9ede1e5f9f1f"),
          "fr32 of 0x00..0x7e");
    fc_fr32_unpad(out, 127, back);
    CHECK(!memcmp(back, in, 127), "unpad 0x00..0x7e");
    /* capacities of fr32 padding.rs to_unpadded_bytes */
    CHECK(fc_fr32_unpadded_capacity(64) == 2032 && fc_fr32_unpadded_capacity(1u << 18) == 8323072 &&
              fc_fr32_unpadded_capacity(1u << 24) == 532676608 &&
              fc_fr32_unpadded_capacity(1ull << 30) == 34091302912ull &&
              fc_fr32_unpadded_capacity(1ull << 31) == 68182605824ull,
          "unpadded capacities");
    /* test_bytes_into_fr_into_bytes: the canonical check every node passes */
    static const struct {
        const char *hex;
        bool valid;
    } fr[] = {
        {"000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f", true},
        {"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff73", false},
        {"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffff72", true},
        {"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffec73", true},
        {"ffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffed73", false},
    };
    for (size_t i = 0; i < sizeof fr / sizeof fr[0]; i++) {
        uint8_t b[32];
        fr_t x;
        hex32(b, fr[i].hex);
        CHECK((fr_from_bytes_le(&x, b) == CUZK_OK) == fr[i].valid, "bytes_into_fr %s", fr[i].hex);
    }
}

static const char *ZK[32] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb0b",
    "3731bb99ac689f66eef5973e4a94da188f4ddcae580724fc6f3fd60dfd488333",
    "642a607ef886b004bf2c1978463ae1d4693ac0f410eb2d1b7a47fe205e5e750f",
    "57a2381a28652bf47f6bef7aca679be4aede5871ab5cf3eb2c08114488cb8526",
    "1f7ac9595510e09ea41c460b176430bb322cd6fb412ec57cb17d989a4310372f",
    "fc7e928296e516faade986b28f92d44a4f24b935485223376a799027bc18f833",
    "08c47b38ee13bc43f41b915c0eed9911a26086b3ed62401bf9d58b8d19dff624",
    "b2e47bfb11facd941f62af5c750f3ea5cc4df517d5c4f16db2b4d77baec1a32f",
    "f9226160c8f927bfdcc418cdf203493146008eaefb7d02194d5e548189005108",
    "2c1a964bb90b59ebfe0f6da29ad65ae3e417724a8f7c11745a40cac1e5e74011",
    "fee378cef16404b199ede0b13e11b624ff9d784fbbed878d83297e795e024f02",
    "8e9e2403fa884cf6237f60df25f83ee40dca9ed879eb6f6352d15084f5ad0d3f",
    "752d9693fa167524395476e317a98580f00947afb7a30540d625a9291cc12a07",
    "7022f60f7ef6adfa17117a52619e30cea82c68075adf1c667786ec506eef2d19",
    "d99887b973573a96e11393645236c17b1f4c7034d723c7a99f709bb4da61162b",
    "d0b530dbb0b4f25c5d2f2a28dfee808b53412a02931f18c499f5a254086b1326",
    "84c0421ba0685a01bf795a2344064fe424bd52a9d24377b394ff4c4b4568e811",
    "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c",
    "a2247508285850965b7e334b3127b0c042b1d046dc54402137627cd8799ce13a",
    "dafdab6da9364453c26d33726b9fefe343be8f81649ec009aad3faff50617508",
    "d941d5e0d6314a995c33ffbd4fbe69118d73d4e5fd2cd31f0f7c86ebdd14e706",
    "514c435c3d04d349a5365fbd59ffc713629111785991c1a3c53af22079741a2f",
    "ad06853969d37d34ff08e09f56930a4ad19a89def60cbfee7e1d3381c1e71c37",
    "39560e7b13a93b07a243fd2720ffa7cb3e1d2e505ab3629e79f46313512cda06",
    "ccc3c012f5b05e811a2bbfdd0f6833b84275b47bf229c0052a82484f3c1a5b3d",
    "7df29b69773199e8f2b40b77919d048509eed768e2c7297b1f1437034fc3c62c",
    "66ce05a3667552cf45c02bcc4e8392919bdeac35de2ff56271848e9f7b675107",
    "d8610218425ab5e95b1ca6239d29a2e420d706a96f373e2f9c9a91d759d19b01",
    "6d364b1ef846441a5a4a68862314acc0a46f016717e53443e839eedf83c2853c",
    "077e5fde35c50a9303a55009e3498a4ebedff39c42b710b730d8ec7ac7afa63e",
    "e64005a6bfe3777953b8ad6ef93f0fca1049b2041654f2a411f7702799cece02",
};

static void shape_d(fc_tree_shape *s, unsigned log2)
{
    merkle_shape m = {MERKLE_SHA256, 2, log2, 0, 0};
    CHECK(fc_tree_shape_init(s, &m, NULL) == CUZK_OK, "tree D shape 2^%u", log2);
}

/* A full tree D over 2^log2 leaves, all zero but leaf 0 = first (may be NULL). */
static void build_d(fc_full_tree *t, unsigned log2, const uint8_t *first, unsigned threads, uint8_t root[32])
{
    fc_tree_shape s;
    shape_d(&s, log2);
    cuzk_error e = {0};
    CHECK(fc_full_tree_create(t, &s, NULL, "tree-d", &e) == CUZK_OK, "create: %s", e.msg);
    if (first)
        fc_full_tree_put_leaves(t, 0, 1, (const uint8_t(*)[32])first, &e);
    CHECK(fc_full_tree_build(t, threads, root, &e) == CUZK_OK, "build: %s", e.msg);
}

static void check_proofs(const fc_tree *t, const uint64_t *leaves, size_t n, const char *what)
{
    for (size_t i = 0; i < n; i++) {
        fc_merkle_proof p;
        cuzk_error e = {0};
        cuzk_status st = fc_tree_prove(t, leaves[i], &p, &e);
        CHECK(st == CUZK_OK, "%s prove %llu: %s", what, (unsigned long long)leaves[i], e.msg);
        if (st != CUZK_OK)
            continue;
        CHECK(fc_merkle_proof_node(&p) == leaves[i], "%s proof index", what);
        CHECK(fc_merkle_proof_verify(&p, t->shape.m.hasher, what, &e) == CUZK_OK, "%s verify: %s", what, e.msg);
        fc_merkle_proof_free(&p);
    }
}

static void test_tree_d(void)
{
    uint8_t z[32] = {0}, root[32];
    fc_tree_shape s31;
    shape_d(&s31, 31);
    for (unsigned k = 0; k <= 31; k++) {
        CHECK(fc_tree_uniform_node(&s31, z, 0, k, root, NULL) == CUZK_OK && eq_hex(root, ZK[k]), "Z_%u", k);
    }
    /* full zero trees of 1..2^10 leaves: the root is Z_k; two threads */
    for (unsigned k = 1; k <= 10; k++) {
        fc_full_tree t;
        build_d(&t, k, NULL, 2, root);
        CHECK(eq_hex(root, ZK[k]), "full zero tree D 2^%u root", k);
        fc_full_tree_free(&t);
    }
    /* Curio TestHashChunk / TestHashChunk2L / Test2K */
    uint8_t one[32] = {1}, two[64] = {1};
    uint8_t h[32];
    CHECK(fc_tree_hash(MERKLE_SHA256, (const uint8_t(*)[32])two, 2, h, "t", NULL) == CUZK_OK &&
              eq_hex(h, "16abab341fb7f370e27e4dadcf81766dd0dfd0ae64469477bb2cf6614938b22f"),
          "TestHashChunk");
    fc_full_tree t;
    build_d(&t, 2, one, 1, root);
    fc_tree v = fc_full_tree_view(&t);
    uint8_t r1a[32], r1b[32];
    v.node(v.ctx, 1, 0, r1a, NULL);
    v.node(v.ctx, 1, 1, r1b, NULL);
    CHECK(eq_hex(r1a, "16abab341fb7f370e27e4dadcf81766dd0dfd0ae64469477bb2cf6614938b22f") && eq_hex(r1b, ZK[1]) &&
              eq_hex(root, "0dd6dae41c2f75550129594fb644e4a842cfafb316a2d59321e388fe84a1ec2f"),
          "TestHashChunk2L");
    fc_full_tree_free(&t);
    build_d(&t, 6, one, 2, root);
    CHECK(eq_hex(root, "ea995c54784720b449fc92b070adb6cf6635c2619a7a5e0054a24e88f252ec0d"), "Test2K comm_d");
    fc_full_tree_free(&t);
    /* expectD8M: 8 MiB, byte 0 = 1: first and second node of rows 1..6, every row's proofs */
    build_d(&t, 18, one, 2, root);
    v = fc_full_tree_view(&t);
    static const char *pre[6] = {"16abab", "0dd6da", "11b1c480", "ec692555", "3dd2eb19", "ea995c54"};
    static const char *suf[6] = {"b22f", "ec2f", "171d", "181c", "7934", "ec0d"};
    for (unsigned r = 1; r <= 6; r++) {
        uint8_t a[32], b[32];
        v.node(v.ctx, r, 0, a, NULL);
        v.node(v.ctx, r, 1, b, NULL);
        CHECK(eq_ends(a, pre[r - 1], suf[r - 1]) && eq_hex(b, ZK[r]), "expectD8M row %u", r);
    }
    uint64_t leaves[] = {0, 1, 2, 151786, 237493, (1u << 18) - 1};
    check_proofs(&v, leaves, 6, "tree D 8MiB");
    fc_full_tree_free(&t);
}

static const char *YK[11] = {
    "0000000000000000000000000000000000000000000000000000000000000000",
    "3a9bffca31b48234d189b30de60b7c33f529c08b0836a004f98938b614e6793f",
    "643ff4d08bf7d20de2f3cf0506d75cfb763aa239971e24fad179a7970a06ef1f",
    "4b621c74de11ac0ab579dc2f407036f542d689564e5e4bb48b4c70aeaba88435",
    "09be515f7433c609c8ec340bbfc1cb17d16e904ad78a8543ae6fb23bc0242b29",
    "70e790cc8a3732da1688f1681bb0a7114e3000548211c1522df138bcd201ff18",
    "0c235abfbb5cf445d03109e9f54a0eaf5588e8c359193969ea830b7ee4928b63",
    "dc324ae00680eee893a1171c5070be98b290d95312768a8d1211ca4654ab5c2f",
    "7995c84d3fb91b4c0f7466fe0f5373795e808ad7760f63ee203b190596354959",
    "cf5dbdf750b09248cb09c3e8a54d1f8e617c58e8fbc19a4f659651a37f61466f",
    "d5cd408ceb94566b8d39966d406ea4312018f98684ffe630ece1ea0cf3fe7d4d",
};

static void shape_r(fc_tree_shape *s, fc_size_class size)
{
    merkle_shape m = fc_tree_r_shape(fc_sector_shape_of(size));
    CHECK(fc_tree_shape_init(s, &m, NULL) == CUZK_OK, "tree R shape");
}

static void test_poseidon_trees(void)
{
    uint8_t z[32] = {0}, out[32];
    fc_tree_shape s32, s64;
    shape_r(&s32, FC_SIZE_32GIB);
    shape_r(&s64, FC_SIZE_64GIB);
    CHECK(s32.nlevels == 10 && s64.nlevels == 11 && s64.arity[10] == 2 && s32.arity[9] == 8, "32/64 GiB levels");
    for (unsigned k = 0; k <= 10; k++)
        CHECK(fc_tree_uniform_node(&s32, z, 0, k, out, NULL) == CUZK_OK && eq_hex(out, YK[k]), "Y_%u", k);
    CHECK(fc_tree_uniform_node(&s64, z, 0, 11, out, NULL) == CUZK_OK &&
              eq_hex(out, "f99f9b2043f2b35049dc23b9a442d58c69799a910a46bd3d034cae5e1ab82263"),
          "all-zero 64 GiB root");
    uint8_t zeros[11][32] = {{0}};
    CHECK(fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])zeros, 2, out, "t", NULL) == CUZK_OK &&
              eq_hex(out, "d413460e7f14e58b413d1defe188d36fb761afe5c6a733db6c6f1931130bfe48"),
          "P_2(0, 0)");
    CHECK(fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])zeros, 11, out, "t", NULL) == CUZK_OK &&
              eq_hex(out, "94fe4fc1d1b7c885c9538810707ed5691b68a11db65e2118cf928634ea2d1f44"),
          "P_11(0 x 11)");
    static const char *multi[8] = {
        "f743111428ecda9b74a18826f1cc62d48ae1510de17e58645997559f86442f31",
        "197a6efa37086e3a37108f8460c52bc810e2781aff0091bfd7b74e3f6f752f02",
        "01c2c12f7930bbb59e3b36dae1c694b33ac6b3f199ec32a8665fadb8338f4f21",
        "bbe672a853f65cdb2563339ca61d6ad648473b4b4ce44bf3a48486424b865a2d",
        "937d57295f488cea8099f5525958f1af39c6241614b917835292e8e2314cf908",
        "3272570cd8ba38c1183629ca72d5e9149d76786ed22c1d591db3d2bccfa7d308",
        "2d3fc90e11aaf601bd1beae80fc3aba15a9e1f886d8140533ce36cda3dd9f936",
        "0a017e264d0728bfcd2edb3c6c60cc5a05a02af31a71cdd7bb2da27616f5f630",
    };
    uint8_t kids[8][32];
    for (int i = 0; i < 8; i++)
        hex32(kids[i], multi[i]);
    CHECK(fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])kids, 8, out, "t", NULL) == CUZK_OK &&
              eq_hex(out, "0737ca506df7d4544f8512df35aaa07ed8a40691e96ae868c23320220fec6866"),
          "TestPoseidonHashMulti");
    kids[0][31] = 0x74;
    cuzk_error e = {0};
    CHECK(fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])kids, 8, out, "t", &e) == CUZK_E_FIELD_NONCANONICAL,
          "non-canonical child refused");
    /* an all-zero 8 MiB tree R (full, 2 threads) has root Y_6 */
    fc_tree_shape s8;
    shape_r(&s8, FC_SIZE_8MIB);
    fc_full_tree t;
    CHECK(fc_full_tree_create(&t, &s8, NULL, "tree-r", &e) == CUZK_OK, "create");
    CHECK(fc_full_tree_build(&t, 2, out, &e) == CUZK_OK && eq_hex(out, YK[6]), "zero 8 MiB tree R root = Y_6");
    fc_full_tree_free(&t);
}

/* Sparse trees: the same leaves in a full and a sparse tree give the same nodes and proofs;
 * an all-default 32/64 GiB sparse tree has the ladder roots. */
static void test_sparse(void)
{
    cuzk_error e = {0};
    fc_tree_shape s2k;
    shape_r(&s2k, FC_SIZE_2KIB);
    uint64_t idx[5] = {0, 9, 10, 37, 63};
    uint8_t val[5][32] = {{0}};
    for (int i = 0; i < 5; i++)
        val[i][0] = (uint8_t)(11 * i + 1), val[i][5] = (uint8_t)i;
    fc_sparse_leaves sl = {.idx = idx, .val = (const uint8_t(*)[32])val, .n = 5};
    sl.dflt[3] = 7;
    fc_full_tree full;
    CHECK(fc_full_tree_create(&full, &s2k, NULL, "tree", &e) == CUZK_OK, "create");
    for (uint64_t i = 0; i < 64; i++) {
        uint8_t leaf[32];
        fc_leaf_model m = fc_sparse_leaves_model(&sl);
        m.leaf(m.ctx, i, leaf);
        fc_full_tree_put_leaves(&full, i, 1, (const uint8_t(*)[32])leaf, &e);
    }
    uint8_t rf[32], rs[32];
    CHECK(fc_full_tree_build(&full, 1, rf, &e) == CUZK_OK, "build");
    fc_sparse_tree *sp;
    fc_leaf_model m = fc_sparse_leaves_model(&sl);
    CHECK(fc_sparse_tree_create(&sp, &s2k, &m, &e) == CUZK_OK, "sparse create");
    fc_tree vs = fc_sparse_tree_view(sp), vf = fc_full_tree_view(&full);
    CHECK(fc_tree_root(&vs, rs, &e) == CUZK_OK && !memcmp(rf, rs, 32), "sparse root = full root");
    for (uint64_t i = 0; i < 64; i++) {
        fc_merkle_proof a, b;
        fc_tree_prove(&vs, i, &a, &e);
        fc_tree_prove(&vf, i, &b, &e);
        CHECK(!memcmp(a.sib, b.sib, 32 * fc_merkle_proof_siblings(&a)) && !memcmp(a.index, b.index, a.nlevels) &&
                  !memcmp(a.leaf, b.leaf, 32),
              "sparse proof %llu = full proof", (unsigned long long)i);
        fc_merkle_proof_free(&a);
        fc_merkle_proof_free(&b);
    }
    fc_sparse_tree_free(sp);
    fc_full_tree_free(&full);
    /* 64 GiB, all default zero but two leaves: untouched subtrees are ladders, proofs verify */
    fc_tree_shape s64;
    shape_r(&s64, FC_SIZE_64GIB);
    uint64_t bidx[2] = {5, (1ull << 31) - 1};
    uint8_t bval[2][32] = {{1}, {2}};
    fc_sparse_leaves bl = {.idx = bidx, .val = (const uint8_t(*)[32])bval, .n = 2};
    m = fc_sparse_leaves_model(&bl);
    CHECK(fc_sparse_tree_create(&sp, &s64, &m, &e) == CUZK_OK, "sparse create");
    vs = fc_sparse_tree_view(sp);
    uint8_t y[32];
    vs.node(vs.ctx, 9, 3, y, &e);
    CHECK(eq_hex(y, YK[9]), "untouched 64 GiB base tree root = Y_9");
    uint64_t leaves[] = {5, 6, 1ull << 30, (1ull << 31) - 1};
    check_proofs(&vs, leaves, 4, "sparse 64GiB");
    fc_merkle_proof p;
    CHECK(fc_tree_prove(&vs, 1ull << 31, &p, &e) == CUZK_E_INVALID_ARG, "leaf out of range refused");
    fc_sparse_tree_free(sp);
}

int main(void)
{
    test_fr32();
    test_tree_d();
    test_poseidon_trees();
    test_sparse();
    return check_summary("filecoin seal trees");
}
