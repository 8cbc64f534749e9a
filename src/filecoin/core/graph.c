/* SDR graph parents: BucketGraph DRG parents and Feistel expander parents; contracts and
 * sources in graph.h. */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/chacha8.h"
#include "filecoin/core/graph.h"
#include "gadgets/sha256_native.h"

/* ---- construction ---- */

/* SHA-256(tag || porep_id) (storage-proofs-core crypto/mod.rs derive_porep_domain_seed). */
static void domain_seed(const char *tag, const uint8_t porep_id[32], uint8_t out[32])
{
    uint8_t buf[64];
    size_t n = strlen(tag);
    memcpy(buf, tag, n);
    memcpy(buf + n, porep_id, 32);
    sha256_native(buf, n + 32, out);
}

cuzk_status fc_graph_init_custom(fc_graph *g, uint64_t nodes, fc_api_version api, const uint8_t porep_id[32],
                                 cuzk_error *err)
{
    if (!g || !porep_id)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_graph_init: NULL graph or porep_id");
    if (nodes < 2 || nodes > (1ull << 32) || (nodes & (nodes - 1)))
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "fc_graph_init: node count %llu is not a power of two in [2, 2^32]",
                         (unsigned long long)nodes);
    memset(g, 0, sizeof *g);
    g->nodes = nodes;
    g->api = api;
    memcpy(g->porep_id, porep_id, 32);
    uint8_t h[32];
    domain_seed("Filecoin_DRSample", porep_id, h);
    memcpy(g->drg_seed, h, 28);
    domain_seed("Filecoin_Feistel", porep_id, h);
    for (int k = 0; k < 4; k++) {
        uint64_t w = 0;
        for (int i = 7; i >= 0; i--)
            w = w << 8 | h[8 * k + i];
        g->feistel_keys[k] = w;
    }
    /* crypto/feistel.rs precompute: smallest k >= 1 with 4^k >= nodes * 8. */
    uint64_t domain = nodes * 8;
    unsigned hb = 1;
    while ((1ull << (2 * hb)) < domain)
        hb++;
    g->feistel_half_bits = hb;
    g->feistel_right_mask = (1ull << hb) - 1;
    g->feistel_left_mask = g->feistel_right_mask << hb;
    return CUZK_OK;
}

cuzk_status fc_graph_init(fc_graph *g, const fc_seal_proof *p, cuzk_error *err)
{
    if (!p)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_graph_init: NULL seal proof");
    return fc_graph_init_custom(g, p->shape->nodes, p->api, p->porep_id, err);
}

/* ---- DRG parents (drgraph.rs BucketGraph::parents, m = 6, m' = 5) ---- */

void fc_graph_drg_parents(const fc_graph *g, uint64_t node, uint32_t out[6])
{
    if (node < 2) {
        memset(out, 0, 6 * sizeof out[0]);
        return;
    }
    uint8_t seed[32];
    memcpy(seed, g->drg_seed, 28);
    for (int i = 0; i < 4; i++)
        seed[28 + i] = (uint8_t)(node >> (8 * i));
    /* Five parents take two u64 draws each: keystream blocks 0 and 1. */
    uint64_t draw[16];
    chacha8_block_u64(seed, 0, draw);
    chacha8_block_u64(seed, 1, draw + 8);
    uint64_t meta = 5 * node;
    /* ceil(log2(meta)) = bit length of meta - 1 (meta >= 10). */
    uint64_t n_buckets = 64 - (uint64_t)__builtin_clzll(meta - 1);
    unsigned first = g->api == FC_API_1_0 ? 0 : 1;
    for (unsigned k = 0; k < 5; k++) {
        uint64_t bucket = draw[2 * k] % n_buckets + 1;
        uint64_t hi = meta < (1ull << bucket) ? meta : 1ull << bucket;
        uint64_t lo = hi >> 1 > 2 ? hi >> 1 : 2;
        uint64_t dist = lo + draw[2 * k + 1] % (hi - lo + 1);
        uint64_t parent = (meta - dist) / 5;
        out[first + k] = (uint32_t)(parent == node ? node - 1 : parent);
    }
    out[g->api == FC_API_1_0 ? 5 : 0] = (uint32_t)(node - 1);
}

/* ---- the BLAKE2b-512 round function (crypto/feistel.rs feistel) ---- */

static EVP_MD *g_blake2b;
static pthread_once_t g_blake2b_once = PTHREAD_ONCE_INIT;

static void fetch_blake2b(void)
{
    g_blake2b = EVP_MD_fetch(NULL, "BLAKE2B-512", NULL);
}

/* A context ready for feistel_round. Errors: CUZK_E_INTERNAL, CUZK_E_NOMEM. */
static cuzk_status blake2b_ctx_new(EVP_MD_CTX **out, cuzk_error *err)
{
    *out = NULL;
    pthread_once(&g_blake2b_once, fetch_blake2b);
    if (!g_blake2b)
        return cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto provides no BLAKE2B-512 digest");
    EVP_MD_CTX *c = EVP_MD_CTX_new();
    if (!c)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for a BLAKE2b context");
    /* The first initialisation allocates the provider state; later ones reuse it. */
    if (!EVP_DigestInit_ex2(c, g_blake2b, NULL)) {
        EVP_MD_CTX_free(c);
        return cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto could not initialise BLAKE2B-512");
    }
    *out = c;
    return CUZK_OK;
}

/* F(R, key) = BE u64 of the first 8 bytes of BLAKE2b-512(u64_be(R) || u64_be(key)), masked.
 * With a context from blake2b_ctx_new these calls cannot fail (no allocation after the
 * first initialisation, fixed-size input). */
static uint64_t feistel_round(EVP_MD_CTX *c, uint64_t right, uint64_t key, uint64_t mask)
{
    uint8_t in[16], out[64];
    for (int i = 0; i < 8; i++) {
        in[i] = (uint8_t)(right >> (56 - 8 * i));
        in[8 + i] = (uint8_t)(key >> (56 - 8 * i));
    }
    unsigned len;
    EVP_DigestInit_ex2(c, g_blake2b, NULL);
    EVP_DigestUpdate(c, in, sizeof in);
    EVP_DigestFinal_ex(c, out, &len);
    uint64_t r = 0;
    for (int i = 0; i < 8; i++)
        r = r << 8 | out[i];
    return r & mask;
}

/* This thread's context for the plain calls, freed by the key's destructor at thread exit. */
static pthread_key_t g_tls_key;
static pthread_once_t g_tls_once = PTHREAD_ONCE_INIT;
static _Thread_local EVP_MD_CTX *g_tls_ctx;

static void tls_free(void *ctx)
{
    EVP_MD_CTX_free(ctx);
}

static void tls_key_make(void)
{
    if (pthread_key_create(&g_tls_key, tls_free)) {
        fputs("cuzk: fc_graph: pthread_key_create failed\n", stderr);
        abort();
    }
}

static EVP_MD_CTX *thread_ctx(void)
{
    if (!g_tls_ctx) {
        cuzk_error e;
        pthread_once(&g_tls_once, tls_key_make);
        if (blake2b_ctx_new(&g_tls_ctx, &e)) {
            fprintf(stderr, "cuzk: fc_graph: %s\n", e.msg);
            abort();
        }
        pthread_setspecific(g_tls_key, g_tls_ctx);
    }
    return g_tls_ctx;
}

/* ---- expander parents (crypto/feistel.rs permute, stacked/vanilla/graph.rs correspondent) ---- */

/* Round function source: a table, or a libcrypto context. */
typedef struct {
    const uint32_t *table;
    EVP_MD_CTX *ctx;
} round_fn;

static uint64_t feistel_encode(const fc_graph *g, const round_fn *f, uint64_t x)
{
    uint64_t left = (x & g->feistel_left_mask) >> g->feistel_half_bits;
    uint64_t right = x & g->feistel_right_mask;
    for (unsigned k = 0; k < 3; k++) {
        uint64_t fr = f->table ? f->table[(uint64_t)k << g->feistel_half_bits | right]
                               : feistel_round(f->ctx, right, g->feistel_keys[k], g->feistel_right_mask);
        uint64_t l = right;
        right = left ^ fr;
        left = l;
    }
    return left << g->feistel_half_bits | right;
}

static void exp_parents(const fc_graph *g, const round_fn *f, uint64_t node, uint32_t out[8])
{
    uint64_t domain = g->nodes * 8;
    for (uint64_t i = 0; i < 8; i++) {
        uint64_t u = feistel_encode(g, f, node * 8 + i);
        while (u >= domain) /* cycle walking */
            u = feistel_encode(g, f, u);
        out[i] = (uint32_t)(g->api == FC_API_1_0 ? (uint64_t)(uint32_t)u / 8 : u / 8);
    }
}

cuzk_status fc_feistel_table_init(fc_feistel_table *t, const fc_graph *g, cuzk_error *err)
{
    if (!t || !g)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_feistel_table_init: NULL argument");
    t->half_bits = g->feistel_half_bits;
    t->round = NULL;
    EVP_MD_CTX *c;
    cuzk_status st = blake2b_ctx_new(&c, err);
    if (st)
        return st;
    uint64_t n = 1ull << g->feistel_half_bits;
    uint32_t *round = malloc(3 * n * sizeof *round);
    if (!round) {
        EVP_MD_CTX_free(c);
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for the Feistel table (%llu bytes)",
                         (unsigned long long)(3 * n * sizeof *round));
    }
    for (uint64_t k = 0; k < 3; k++)
        for (uint64_t r = 0; r < n; r++)
            round[k * n + r] = (uint32_t)feistel_round(c, r, g->feistel_keys[k], g->feistel_right_mask);
    EVP_MD_CTX_free(c);
    t->round = round;
    return CUZK_OK;
}

void fc_feistel_table_free(fc_feistel_table *t)
{
    if (t) {
        free(t->round);
        t->round = NULL;
    }
}

void fc_graph_exp_parents_t(const fc_graph *g, const fc_feistel_table *t, uint64_t node, uint32_t out[8])
{
    round_fn f = {t->round, NULL};
    exp_parents(g, &f, node, out);
}

void fc_graph_parents_t(const fc_graph *g, const fc_feistel_table *t, uint64_t node,
                        uint32_t out[FC_GRAPH_PARENTS])
{
    fc_graph_drg_parents(g, node, out);
    fc_graph_exp_parents_t(g, t, node, out + FC_GRAPH_DRG_PARENTS);
}

void fc_graph_exp_parents(const fc_graph *g, uint64_t node, uint32_t out[8])
{
    round_fn f = {NULL, thread_ctx()};
    exp_parents(g, &f, node, out);
}

void fc_graph_parents(const fc_graph *g, uint64_t node, uint32_t out[FC_GRAPH_PARENTS])
{
    fc_graph_drg_parents(g, node, out);
    fc_graph_exp_parents(g, node, out + FC_GRAPH_DRG_PARENTS);
}
