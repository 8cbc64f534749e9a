/* SDR labels against independent data: the four last-label vectors
 * (upstream create_label/multi.rs test_create_labels and stacked_vanilla.rs: 11 layers at
 * N = 64 and 128, API 1.0 and 1.1); the labels of docs/vectors.md#worked-2-kib-example;
 * the real 8 MiB C1 fixture: its c_x rows (the challenged nodes' labels in both layers) and
 * its labeling proofs' 37 parent slots, both read from the few bytes that hold them.
 * Usage: test_fc_sdr <fixtures dir> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "filecoin/core/seal/sdr.h"

static const char *g_fixtures;

static void hex_in(uint8_t out[32], const char *hex)
{
    CHECK(hex_decode(out, 32, hex) == 32, "hex %s", hex);
}

static uint64_t le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

typedef struct {
    uint32_t layers_seen;
    uint32_t fail_at; /* done fails at this layer (0 = never) */
} done_ctx;

static cuzk_status on_layer(void *ctx, uint32_t layer, const uint8_t *labels, cuzk_error *err)
{
    done_ctx *d = ctx;
    (void)labels;
    CHECK(layer == d->layers_seen + 1, "layers in order");
    d->layers_seen = layer;
    return layer == d->fail_at ? cuzk_fail(err, CUZK_E_IO, "store full at layer %u", layer) : CUZK_OK;
}

/* test_create_labels: label(11, N - 1) of replica_id 32 x 0x09, through the parent cache with
 * 11 buffers and through the pipelined graph with two buffers used in turn. */
static void test_last_labels(void)
{
    static const struct {
        uint64_t nodes;
        uint8_t porep_byte;
        fc_api_version api;
        const char *last;
    } V[4] = {
        {64, 0x00, FC_API_1_0, "04ba0f9a6ba9fad35e4806d183a281eab3c25afa9a1bd5e3378da6f1f4f46204"},
        {128, 0x00, FC_API_1_0, "86daa8c4521e197e48c1fae6c9a1e85ab894a8883b9f23cebe531ddcd1004c23"},
        {64, 0x7b, FC_API_1_1, "cfef0db78bf3b3ab9f1169774d2e7a77bc9054499d954834b51ca7c788110206"},
        {128, 0x7b, FC_API_1_1, "6d67c468cf81ab2289c1c9c72fa8777a232de4c1323dc0c6bd552ccc187c770f"},
    };
    uint8_t replica_id[32];
    memset(replica_id, 9, 32);
    for (int t = 0; t < 4; t++) {
        uint8_t porep_id[32], want[32];
        memset(porep_id, V[t].porep_byte, 32);
        hex_in(want, V[t].last);
        fc_graph g;
        cuzk_error err;
        CHECK(fc_graph_init_custom(&g, V[t].nodes, V[t].api, porep_id, &err) == CUZK_OK, "graph %d", t);
        uint64_t n = V[t].nodes;
        uint32_t *cache = malloc(fc_graph_cache_bytes(&g));
        uint8_t *all = malloc(11 * 32 * n), *out[11];
        for (int l = 0; l < 11; l++)
            out[l] = all + 32 * n * l;
        CHECK(fc_graph_cache_fill(&g, 2, cache, &err) == CUZK_OK, "cache %d", t);
        done_ctx d = {0};
        CHECK(fc_sdr_layers(&g, cache, replica_id, 11, out, on_layer, &d, &err) == CUZK_OK && d.layers_seen == 11,
              "11 layers (cache) %d", t);
        CHECK(!memcmp(out[10] + 32 * (n - 1), want, 32), "label vector %d (N %llu, API %s), parent cache", t,
              (unsigned long long)n, fc_api_version_name(V[t].api));
        uint8_t *two = malloc(2 * 32 * n), *roll[11];
        for (int l = 0; l < 11; l++)
            roll[l] = two + 32 * n * (l % 2);
        CHECK(fc_sdr_layers(&g, NULL, replica_id, 11, roll, NULL, NULL, &err) == CUZK_OK, "11 layers (graph) %d", t);
        CHECK(!memcmp(roll[10] + 32 * (n - 1), want, 32), "label vector %d, two buffers, parents from the graph", t);
        free(two);
        free(all);
        free(cache);
    }
}

static void test_worked_2kib(void)
{
    const fc_seal_proof *p;
    fc_graph g;
    cuzk_error err;
    CHECK(fc_seal_proof_get(5, &p, &err) == CUZK_OK && fc_graph_init(&g, p, &err) == CUZK_OK, "2 KiB V1_1 graph");
    uint8_t replica_id[32], l1[64 * 32], l2[64 * 32], want[32];
    hex_in(replica_id, "3e75e87332cd5d60132c1f9f9a8362e2e4cf190b46f4fd636fd8864b842d170b");
    CHECK(fc_sdr_layer(&g, NULL, replica_id, 1, NULL, l1, &err) == CUZK_OK, "layer 1");
    CHECK(fc_sdr_layer(&g, NULL, replica_id, 2, l1, l2, &err) == CUZK_OK, "layer 2");
    static const struct {
        int layer, node;
        const char *hex;
    } L[6] = {
        {1, 0, "a7cc1fe75634063bb01dba191aeb0256505eb56d24b67027b44989c8c0d2680e"},
        {2, 0, "63fe55454ef7b6681b3e1c1458777606c5bda7ce33fa78aa3b3fb7412df68f29"},
        {1, 1, "814c7f0921580b8b1ea6792e947beb21437c84d03aa972109456cfb20e88142b"},
        {1, 28, "1acde4c3c3b505141a413bcd72f9ae4ac5e3d9e424ed637ea707ae60c17ad817"},
        {2, 28, "bcadd86479ff6517f5b3ced0451f31177cb16631eaa0cb383a4bf1e37bdcae20"},
        {2, 63, "f403883c85fbf18f7bdd78a5dbd27fbc1cb985e24b0e691290376f5f4cbab33e"},
    };
    for (int i = 0; i < 6; i++) {
        hex_in(want, L[i].hex);
        const uint8_t *layer = L[i].layer == 1 ? l1 : l2;
        CHECK(!memcmp(layer + 32 * L[i].node, want, 32), "2 KiB label(%d, %d)", L[i].layer, L[i].node);
    }

    /* Errors. */
    uint32_t cache[64 * FC_GRAPH_PARENTS];
    CHECK(fc_graph_cache_fill(&g, 1, cache, &err) == CUZK_OK, "2 KiB cache");
    CHECK(fc_sdr_layer(&g, cache, replica_id, 0, NULL, l1, &err) == CUZK_E_INVALID_ARG, "layer 0 refused");
    CHECK(fc_sdr_layer(&g, cache, replica_id, 2, NULL, l2, &err) == CUZK_E_INVALID_ARG, "layer 2 without layer 1");
    CHECK(fc_sdr_layer(&g, cache, replica_id, 2, l1 + 32, l1, &err) == CUZK_E_INVALID_ARG, "overlapping buffers");
    cache[FC_GRAPH_PARENTS * 40 + 9] = 64;
    CHECK(fc_sdr_layer(&g, cache, replica_id, 2, l1, l2, &err) == CUZK_E_FORMAT && strstr(err.msg, "node 40"),
          "expander parent 64 refused: %s", err.msg);
    cache[FC_GRAPH_PARENTS * 30 + 2] = 30;
    CHECK(fc_sdr_layer(&g, cache, replica_id, 1, NULL, l1, &err) == CUZK_E_FORMAT && strstr(err.msg, "node 30"),
          "DRG parent = node refused: %s", err.msg);
    uint8_t *out[2] = {l1, l2};
    done_ctx d = {.fail_at = 1};
    CHECK(fc_sdr_layers(&g, NULL, replica_id, 2, out, on_layer, &d, &err) == CUZK_E_IO && d.layers_seen == 1,
          "a failing done callback stops the labelling");
}

static uint8_t *read_fixture(const char *name, size_t *len)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", g_fixtures, name);
    FILE *f = fopen(path, "rb");
    CHECK(f != NULL, "open %s", path);
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *buf = malloc((size_t)n);
    CHECK(buf && fread(buf, 1, (size_t)n, f) == (size_t)n, "read %s", path);
    fclose(f);
    *len = (size_t)n;
    return buf;
}

/* The 8 MiB fixture: bincode C2Input (fixtures/README.md). Fixed sizes for this shape:
 * header 28 bytes, then 2 challenge proofs of 29,972 bytes: comm_d proof 940, comm_r_last
 * proof 1,516, c_x column proof 1,592 (u32 index, u64 row count 2, 2 rows, tree C proof), 6
 * and 8 parent column proofs (u64 count each), 2 labeling proofs at +26,352 (u64 count, then
 * each: u64 count 37, 37 slots, u32 layer, u64 node), encoding proof; the 200-byte tail. */
static void test_c1_fixture(void)
{
    size_t n = 0;
    uint8_t *d = read_fixture("porep-8MiB-c1.bincode", &n);
    if (!d)
        return;
    CHECK(n == 60172, "fixture size");
    if (n != 60172) {
        free(d);
        return;
    }
    const fc_seal_proof *p;
    fc_graph g;
    cuzk_error err;
    CHECK(fc_seal_proof_get(6, &p, &err) == CUZK_OK && fc_graph_init(&g, p, &err) == CUZK_OK, "8 MiB V1_1 graph");
    const uint8_t *replica_id = d + n - 136;
    uint64_t nodes = g.nodes;
    uint32_t *cache = malloc(fc_graph_cache_bytes(&g));
    uint8_t *layers = malloc(2 * 32 * nodes), *out[2] = {layers, layers + 32 * nodes};
    CHECK(cache && layers, "memory");
    CHECK(fc_graph_cache_fill(&g, 2, cache, &err) == CUZK_OK, "8 MiB cache");
    CHECK(fc_sdr_layers(&g, cache, replica_id, 2, out, NULL, NULL, &err) == CUZK_OK, "8 MiB labels: %s", err.msg);
    for (int c = 0; c < 2; c++) {
        const uint8_t *proof = d + 28 + 29972 * c;
        const uint8_t *cx = proof + 940 + 1516;
        uint32_t node = (uint32_t)cx[0] | (uint32_t)cx[1] << 8 | (uint32_t)cx[2] << 16 | (uint32_t)cx[3] << 24;
        CHECK(node == (c ? 237493u : 151786u) && le64(cx + 4) == 2, "c_x of challenge %d: node %u", c, node);
        for (int l = 0; l < 2; l++)
            CHECK(!memcmp(out[l] + 32 * (uint64_t)node, cx + 12 + 32 * l, 32), "label(%d, %u) = c_x row %d", l + 1,
                  node, l);
        const uint8_t *lp = proof + 26352;
        CHECK(le64(lp) == 2, "2 labeling proofs");
        for (int l = 0; l < 2; l++) {
            const uint8_t *one = lp + 8 + (size_t)l * (8 + 37 * 32 + 4 + 8);
            const uint8_t *slots_in_file = one + 8;
            uint32_t layer = (uint32_t)one[8 + 37 * 32] | (uint32_t)one[8 + 37 * 32 + 1] << 8;
            CHECK(le64(one) == 37 && layer == (uint32_t)l + 1 && le64(one + 8 + 37 * 32 + 4) == node,
                  "labeling proof %d of node %u", l, node);
            /* Our slots for (l + 1, node) from our labels. */
            uint8_t e[FC_GRAPH_PARENTS][32], slots[LABEL_PARENTS][32];
            const uint32_t *par = cache + FC_GRAPH_PARENTS * (uint64_t)node;
            for (int i = 0; i < FC_GRAPH_PARENTS; i++)
                memcpy(e[i], (i < 6 ? out[l] : out[0]) + 32 * (uint64_t)par[i], 32);
            fc_sdr_slots((uint32_t)l + 1, (const uint8_t(*)[32])e, slots);
            CHECK(!memcmp(slots, slots_in_file, sizeof slots), "37 parent slots of (%d, %u)", l + 1, node);
        }
    }
    free(layers);
    free(cache);
    free(d);
}

int main(int argc, char **argv)
{
    g_fixtures = argc > 1 ? argv[1] : "../shared/fixtures";
    test_last_labels();
    test_worked_2kib();
    test_c1_fixture();
    return check_summary("filecoin_sdr");
}
