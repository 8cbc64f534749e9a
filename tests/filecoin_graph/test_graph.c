/* SDR graph against published data: the parent cache file names of all ten manifest
 * entries and the full-file SHA-256 digests of the 2 KiB (ids 0, 5) and 8 MiB (ids 1, 6)
 * caches (storage-proofs-porep parent_cache.json), 512 MiB (ids 2,
 * 7) with --long; the parents of the 8 MiB V1_1 fixture's challenges (fixtures/README.md) and
 * of nodes 28 and 27 of the 2 KiB V1_1 graph (docs/vectors.md#worked-2-kib-example); the ChaCha8
 * keystream against draft-strombergson-chacha-test-vectors TC1 (8 rounds). */
#include <errno.h>
#include <openssl/sha.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/core/chacha8.h"
#include "filecoin/core/graph.h"

static const struct {
    unsigned id;
    const char *name_hex, *digest;
} MANIFEST[10] = {
    {0, "3f0eef38bb48af1f48ad65e14eb85b4ebfc167cec18cd81764f6d998836c9899",
     "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d"},
    {1, "dcdabb0fbe4364bf0ac28b6a18c66de246409fa1a9020a00f33fb3e3053da6dc",
     "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce"},
    {2, "2aa9c77c3e58259481351cc4be2079cc71e1c9af39700866545c043bfa30fb42",
     "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5"},
    {3, "e1fa5d5b811ddbd118be3412c4a8c329156b8b8acc72632bca459455b5a05a13",
     "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6"},
    {4, "8a99e8d6b6be7ab87a56b632e6739ff201c23ea14e99737c74690f0e265574d6",
     "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c"},
    {5, "494d91dc80f2df5272c4b9e129bc7ade9405225993af9fe34e6542a39a47554b",
     "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97"},
    {6, "5eed212119fd91aa6220a27f31a8966444a9381842bceb3a1ea61525bd47a5b5",
     "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab"},
    {7, "7ba215a1d2345774ab90b8cb1158d296e409d6068819d7b8c7baf0b25d63dc34",
     "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a"},
    {8, "21981246c370f9d76c7a77ab273d94bde0ceb4e938292334960bce05585dc117",
     "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da"},
    {9, "4905486b7af19558ac3649bc6261411858b6add534438878c4ee3b29d8b9de0b",
     "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03"},
};

static void graph_of(unsigned id, fc_graph *g)
{
    const fc_seal_proof *p;
    cuzk_error err;
    CHECK(fc_seal_proof_get(id, &p, &err) == CUZK_OK && fc_graph_init(g, p, &err) == CUZK_OK,
          "graph of seal proof %u", id);
}

static void hex32(const uint8_t h[32], char out[65])
{
    hex_encode(out, h, 32);
}

static void test_chacha8(void)
{
    /* TC1: all-zero key and IV, 8 rounds, first 64 keystream bytes. */
    static const char *tc1 = "3e00ef2f895f40d67f5bb8e81f09a5a12c840ec3ce9a7f3b181be188ef711a1e"
                             "984ce172b9216f419f445367456d5619314a42a3da86b001387bfdb80e0cfe42";
    uint8_t key[32] = {0}, bytes[64];
    uint64_t w[8];
    chacha8_block_u64(key, 0, w);
    for (int i = 0; i < 64; i++)
        bytes[i] = (uint8_t)(w[i / 8] >> (8 * (i % 8)));
    char hex[129];
    hex_encode(hex, bytes, 64);
    CHECK(!strcmp(hex, tc1), "ChaCha8 TC1 block 0: %s", hex);
}

static void test_names(void)
{
    for (unsigned i = 0; i < 10; i++) {
        fc_graph g;
        graph_of(MANIFEST[i].id, &g);
        char name[FC_PARENT_CACHE_NAME_MAX], want[FC_PARENT_CACHE_NAME_MAX];
        fc_graph_cache_name(&g, NULL, name);
        snprintf(want, sizeof want, "v28-sdr-parent-%s.cache", MANIFEST[i].name_hex);
        CHECK(!strcmp(name, want), "cache name of id %u: %s", MANIFEST[i].id, name);
        const char *d = fc_graph_cache_digest(MANIFEST[i].id);
        CHECK(d && !strcmp(d, MANIFEST[i].digest), "published digest of id %u", MANIFEST[i].id);
    }
    CHECK(fc_graph_cache_digest(10) == NULL && fc_graph_cache_digest(19) == NULL && fc_graph_cache_digest(20) == NULL,
          "no published digest for API 1.2.0 ids");
}

typedef struct {
    uint64_t bytes;
    uint64_t last_progress;
    int fail_at_call; /* sink returns EIO on this call (1-based), 0 = never */
    int calls;
} sink_ctx;

static int sink(void *ctx, const uint8_t *buf, size_t len)
{
    sink_ctx *s = ctx;
    (void)buf;
    s->bytes += len;
    return ++s->calls == s->fail_at_call ? EIO : 0;
}

static void progress(void *ctx, uint64_t done)
{
    sink_ctx *s = ctx;
    CHECK(done > s->last_progress, "progress increases");
    s->last_progress = done;
}

/* The cache of id through the stream (threads), and through fc_graph_cache_fill. */
static void test_digest(unsigned id, unsigned threads)
{
    fc_graph g;
    graph_of(id, &g);
    const char *want = MANIFEST[id].digest;
    uint8_t h[32];
    char hex[65];
    sink_ctx s = {0};
    cuzk_error err;
    CHECK(fc_graph_cache_stream(&g, threads, sink, &s, h, progress, &err) == CUZK_OK, "stream id %u", id);
    hex32(h, hex);
    CHECK(!strcmp(hex, want), "cache SHA-256 of id %u (%u threads): %s", id, threads, hex);
    CHECK(s.bytes == fc_graph_cache_bytes(&g) && s.bytes == g.nodes * 56, "stream length of id %u", id);
    CHECK(s.last_progress == g.nodes, "final progress of id %u", id);

    uint32_t *rows = malloc(fc_graph_cache_bytes(&g));
    CHECK(rows && fc_graph_cache_fill(&g, threads, rows, &err) == CUZK_OK, "fill id %u", id);
    if (rows) {
        SHA256((const uint8_t *)rows, fc_graph_cache_bytes(&g), h); /* little-endian host */
        hex32(h, hex);
        CHECK(!strcmp(hex, want), "filled cache SHA-256 of id %u: %s", id, hex);
    }
    free(rows);
}

/* The per-node calls without a table (BLAKE2b for every round) over the whole 2 KiB graph. */
static void test_plain_calls(unsigned id)
{
    fc_graph g;
    graph_of(id, &g);
    uint32_t rows[64 * FC_GRAPH_PARENTS];
    CHECK(g.nodes == 64, "a 2 KiB graph");
    for (uint64_t v = 0; v < 64; v++) {
        uint32_t *row = rows + FC_GRAPH_PARENTS * v, drg[6], exp[8];
        fc_graph_parents(&g, v, row);
        fc_graph_drg_parents(&g, v, drg);
        fc_graph_exp_parents(&g, v, exp);
        CHECK(!memcmp(row, drg, sizeof drg) && !memcmp(row + 6, exp, sizeof exp), "row = drg ++ exp at %llu",
              (unsigned long long)v);
    }
    uint8_t h[32];
    char hex[65];
    SHA256((const uint8_t *)rows, sizeof rows, h); /* little-endian host */
    hex32(h, hex);
    CHECK(!strcmp(hex, MANIFEST[id].digest), "per-node parents of id %u hash to the published digest", id);
}

static void check_parents(unsigned id, uint64_t node, const uint32_t drg[6], const uint32_t exp[8])
{
    fc_graph g;
    graph_of(id, &g);
    uint32_t d[6], e[8], row[14];
    fc_graph_drg_parents(&g, node, d);
    fc_graph_exp_parents(&g, node, e);
    CHECK(!memcmp(d, drg, sizeof d), "DRG parents of node %llu (id %u)", (unsigned long long)node, id);
    CHECK(!memcmp(e, exp, sizeof e), "expander parents of node %llu (id %u)", (unsigned long long)node, id);
    fc_feistel_table t;
    cuzk_error err;
    CHECK(fc_feistel_table_init(&t, &g, &err) == CUZK_OK, "table id %u", id);
    fc_graph_parents_t(&g, &t, node, row);
    CHECK(!memcmp(row, drg, sizeof d) && !memcmp(row + 6, exp, sizeof e), "tabled parents of node %llu",
          (unsigned long long)node);
    fc_feistel_table_free(&t);
    fc_feistel_table_free(&t); /* a freed table is a no-op */
}

static void test_known_parents(void)
{
    /* fixtures/README.md: the 8 MiB V1_1 fixture's challenges. */
    check_parents(6, 151786, (const uint32_t[]){151785, 151785, 151785, 151740, 151616, 151785},
                  (const uint32_t[]){156850, 185828, 128537, 121364, 183781, 164990, 92372, 230258});
    check_parents(6, 237493, (const uint32_t[]){237492, 104173, 237492, 237480, 237298, 237475},
                  (const uint32_t[]){237273, 150456, 245980, 93652, 11259, 20305, 245589, 106071});
    /* docs/vectors.md#worked-2-kib-example: 2 KiB V1_1. */
    check_parents(5, 28, (const uint32_t[]){27, 17, 7, 1, 27, 27}, (const uint32_t[]){27, 9, 10, 16, 28, 52, 46, 54});
    check_parents(5, 27, (const uint32_t[]){26, 26, 26, 25, 26, 24}, (const uint32_t[]){60, 10, 6, 5, 27, 47, 14, 17});
    /* Nodes 0 and 1 have all DRG parents 0 (storage-proofs-core drgraph.rs). */
    fc_graph g;
    graph_of(5, &g);
    uint32_t d[6];
    fc_graph_drg_parents(&g, 1, d);
    CHECK(!d[0] && !d[1] && !d[2] && !d[3] && !d[4] && !d[5], "DRG parents of node 1");
}

static void test_errors(void)
{
    fc_graph g;
    cuzk_error err;
    uint8_t porep_id[32] = {0};
    CHECK(fc_graph_init_custom(&g, 96, FC_API_1_1, porep_id, &err) == CUZK_E_INVALID_ARG, "96 nodes refused");
    CHECK(fc_graph_init_custom(&g, 1, FC_API_1_1, porep_id, &err) == CUZK_E_INVALID_ARG, "1 node refused");
    CHECK(fc_graph_init_custom(&g, 1ull << 33, FC_API_1_1, porep_id, &err) == CUZK_E_INVALID_ARG,
          "2^33 nodes refused");
    CHECK(fc_graph_init(&g, NULL, &err) == CUZK_E_INVALID_ARG, "NULL proof refused");
    graph_of(6, &g);
    sink_ctx s = {.fail_at_call = 3};
    uint8_t h[32];
    CHECK(fc_graph_cache_stream(&g, 2, sink, &s, h, NULL, &err) == CUZK_E_IO && strstr(err.msg, "node 32768"),
          "a sink error stops the stream: %s", err.msg);
    CHECK(fc_graph_cache_stream(&g, 0, NULL, NULL, h, NULL, &err) == CUZK_E_INVALID_ARG, "0 threads refused");
}

int main(int argc, char **argv)
{
    int long_run = argc > 1 && !strcmp(argv[1], "--long");
    if (long_run) {
        test_digest(2, 2);
        test_digest(7, 2);
        return check_summary("filecoin_graph_long");
    }
    test_chacha8();
    test_names();
    test_known_parents();
    test_plain_calls(0);
    test_plain_calls(5);
    test_digest(0, 1);
    test_digest(5, 3);
    test_digest(1, 2);
    test_digest(6, 1);
    test_errors();
    return check_summary("filecoin_graph");
}
