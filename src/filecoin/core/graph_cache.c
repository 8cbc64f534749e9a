/* The SDR parent cache: file name, published digests, in-memory fill and the hashed
 * multi-threaded stream; contracts and sources in graph.h. */
#include <openssl/evp.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/graph.h"
#include "gadgets/sha256_native.h"

#define CHUNK_NODES 16384u
#define ROW_BYTES (4u * FC_GRAPH_PARENTS)

uint64_t fc_graph_cache_bytes(const fc_graph *g)
{
    return g->nodes * ROW_BYTES;
}

void fc_graph_cache_name(const fc_graph *g, const fc_seal_proof *p, char out[FC_PARENT_CACHE_NAME_MAX])
{
    (void)p;
    uint8_t buf[256];
    int n = snprintf((char *)buf, sizeof buf,
                     "poseidon_hasher"
                     "stacked_graph::StackedGraph{expansion_degree: 8 base_graph: drgraph::BucketGraph{size: "
                     "%llu; degree: 6; hasher: poseidon_hasher} }",
                     (unsigned long long)g->nodes);
    size_t len = (size_t)n;
    for (int k = 0; k < 4; k++)
        for (int i = 0; i < 8; i++)
            buf[len++] = (uint8_t)(g->feistel_keys[k] >> (8 * i));
    for (int i = 0; i < 4; i++)
        buf[len++] = (uint8_t)(g->nodes >> (8 * i)); /* cache_entries as u32 LE */
    uint8_t h[32];
    sha256_native(buf, len, h);
    char hex[65];
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
    snprintf(out, FC_PARENT_CACHE_NAME_MAX, "v28-sdr-parent-%s.cache", hex);
}

const char *fc_graph_cache_digest(unsigned seal_proof_id)
{
    /* storage-proofs-porep parent_cache.json. */
    static const char *const DIGEST[10] = {
        "3da49221e2ed55371b86d0bf3d6526fcf128af61bed904f966428db1b531750d",
        "a76604f2f59f2744c7151653bbb1d8596b6b57d295e6fa6c1f0c41d725b502ce",
        "3adcc092423aa76d6a7184016893406da44dd974b219a89cd3ece25e4e3018f5",
        "3c4f9841fcc75aed8c695800e58d08480629f25af3a2aefd81904181d75cc0b6",
        "2778a732ad46a7dc18e0564dfdf59fd321dcde74ab476fd6d3c4e6735d7cd89c",
        "840057702eea7652cf97e04306c30fe57174714d90de156a25eddd6075c25b97",
        "03cd13565ded97c240a5f52e54295ad127bd0461b57904cb3a4d79b097bbecab",
        "b5877d1963793efebc261fd8fde4dd6bc59e6b5c7abf52617a4ee023b8dc173a",
        "93deeac5e3052b6927467d4b2641bb782f05491de18d510147c93eeedd8672da",
        "2698b74eb2606b55b98d8b095e18b6320b47f46e00075956d48640ccd1641b03",
    };
    return seal_proof_id < 10 ? DIGEST[seal_proof_id] : NULL;
}

/* Rows of nodes [first, first + count) into rows (host-order u32, 14 per node). */
static void compute_rows(const fc_graph *g, const fc_feistel_table *t, uint64_t first, uint64_t count,
                         uint32_t *rows)
{
    for (uint64_t i = 0; i < count; i++)
        fc_graph_parents_t(g, t, first + i, rows + FC_GRAPH_PARENTS * i);
}

static uint64_t chunk_len(const fc_graph *g, uint64_t c)
{
    uint64_t first = c * CHUNK_NODES;
    return g->nodes - first < CHUNK_NODES ? g->nodes - first : CHUNK_NODES;
}

/* Shared state of the worker threads of fill and stream. Chunk c (CHUNK_NODES nodes) is
 * computed by whichever worker claims it; in stream mode it goes to ring slot c % nslots,
 * which is free once the consumer has taken chunk c - nslots. */
typedef struct {
    const fc_graph *g;
    fc_feistel_table table;
    uint64_t nchunks;
    uint32_t *fill_out; /* fill mode: the caller's array; NULL in stream mode */
    unsigned nslots;    /* stream mode */
    uint32_t *ring;     /* nslots * CHUNK_NODES rows */
    uint8_t *ready;     /* per slot */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t next;     /* next chunk to claim */
    uint64_t consumed; /* stream mode: chunks taken by the consumer */
    int stop;
} work_t;

static void *worker(void *arg)
{
    work_t *w = arg;
    pthread_mutex_lock(&w->mu);
    while (!w->stop && w->next < w->nchunks) {
        uint64_t c = w->next++;
        uint32_t *dst;
        if (w->fill_out) {
            dst = w->fill_out + c * CHUNK_NODES * FC_GRAPH_PARENTS;
        } else {
            while (!w->stop && c >= w->consumed + w->nslots)
                pthread_cond_wait(&w->cv, &w->mu);
            if (w->stop)
                break;
            dst = w->ring + (c % w->nslots) * (uint64_t)CHUNK_NODES * FC_GRAPH_PARENTS;
        }
        pthread_mutex_unlock(&w->mu);
        compute_rows(w->g, &w->table, c * CHUNK_NODES, chunk_len(w->g, c), dst);
        pthread_mutex_lock(&w->mu);
        if (!w->fill_out) {
            w->ready[c % w->nslots] = 1;
            pthread_cond_broadcast(&w->cv);
        }
    }
    pthread_mutex_unlock(&w->mu);
    return NULL;
}

/* Start n workers (the calling thread is not one of them). Returns the number started. */
static unsigned start_workers(work_t *w, pthread_t *tid, unsigned n)
{
    unsigned started = 0;
    for (; started < n; started++)
        if (pthread_create(&tid[started], NULL, worker, w))
            break;
    return started;
}

static void stop_workers(work_t *w, pthread_t *tid, unsigned started)
{
    pthread_mutex_lock(&w->mu);
    w->stop = 1;
    pthread_cond_broadcast(&w->cv);
    pthread_mutex_unlock(&w->mu);
    for (unsigned i = 0; i < started; i++)
        pthread_join(tid[i], NULL);
}

static cuzk_status work_init(work_t *w, const fc_graph *g, cuzk_error *err)
{
    memset(w, 0, sizeof *w);
    w->g = g;
    w->nchunks = (g->nodes + CHUNK_NODES - 1) / CHUNK_NODES;
    cuzk_status st = fc_feistel_table_init(&w->table, g, err);
    if (st)
        return st;
    if (pthread_mutex_init(&w->mu, NULL)) {
        fc_feistel_table_free(&w->table);
        return cuzk_fail(err, CUZK_E_INTERNAL, "pthread_mutex_init failed");
    }
    if (pthread_cond_init(&w->cv, NULL)) {
        pthread_mutex_destroy(&w->mu);
        fc_feistel_table_free(&w->table);
        return cuzk_fail(err, CUZK_E_INTERNAL, "pthread_cond_init failed");
    }
    return CUZK_OK;
}

static void work_destroy(work_t *w)
{
    pthread_cond_destroy(&w->cv);
    pthread_mutex_destroy(&w->mu);
    fc_feistel_table_free(&w->table);
}

cuzk_status fc_graph_cache_fill(const fc_graph *g, unsigned threads, uint32_t *out, cuzk_error *err)
{
    if (!g || !out || !threads)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_graph_cache_fill: NULL argument or 0 threads");
    work_t w;
    cuzk_status st = work_init(&w, g, err);
    if (st)
        return st;
    w.fill_out = out;
    pthread_t *tid = calloc(threads, sizeof *tid);
    if (!tid) {
        work_destroy(&w);
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for %u thread ids", threads);
    }
    /* threads - 1 helpers; this thread is a worker too. */
    unsigned started = start_workers(&w, tid, threads - 1);
    worker(&w);
    stop_workers(&w, tid, started);
    free(tid);
    work_destroy(&w);
    return st;
}

/* Rows as the file's u32 LE bytes, in place (a no-op on little-endian hosts). */
static void rows_to_le(uint32_t *rows, uint64_t n)
{
#if __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
    for (uint64_t i = 0; i < n; i++)
        rows[i] = __builtin_bswap32(rows[i]);
#else
    (void)rows;
    (void)n;
#endif
}

/* The consumer side of the stream: take chunks in order, hash, sink, report progress. */
static cuzk_status consume(work_t *w, EVP_MD_CTX *sha, int (*sink)(void *, const uint8_t *, size_t), void *ctx,
                           void (*progress)(void *, uint64_t), cuzk_error *err)
{
    for (uint64_t c = 0; c < w->nchunks; c++) {
        unsigned slot = (unsigned)(c % w->nslots);
        pthread_mutex_lock(&w->mu);
        while (!w->ready[slot])
            pthread_cond_wait(&w->cv, &w->mu);
        w->ready[slot] = 0;
        pthread_mutex_unlock(&w->mu);
        uint64_t n = chunk_len(w->g, c);
        uint32_t *rows = w->ring + (uint64_t)slot * CHUNK_NODES * FC_GRAPH_PARENTS;
        rows_to_le(rows, n * FC_GRAPH_PARENTS);
        size_t len = (size_t)(n * ROW_BYTES);
        if (sha && !EVP_DigestUpdate(sha, rows, len))
            return cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto SHA-256 update failed");
        if (sink) {
            int e = sink(ctx, (const uint8_t *)rows, len);
            if (e)
                return cuzk_fail(err, CUZK_E_IO, "parent cache sink failed at node %llu: %s",
                                 (unsigned long long)(c * CHUNK_NODES), strerror(e));
        }
        pthread_mutex_lock(&w->mu);
        w->consumed = c + 1;
        pthread_cond_broadcast(&w->cv);
        pthread_mutex_unlock(&w->mu);
        if (progress)
            progress(ctx, c * CHUNK_NODES + n);
    }
    return CUZK_OK;
}

cuzk_status fc_graph_cache_stream(const fc_graph *g, unsigned threads,
                                  int (*sink)(void *ctx, const uint8_t *buf, size_t len), void *ctx,
                                  uint8_t sha256[32], void (*progress)(void *ctx, uint64_t done),
                                  cuzk_error *err)
{
    if (!g || !threads)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_graph_cache_stream: NULL graph or 0 threads");
    work_t w;
    cuzk_status st = work_init(&w, g, err);
    if (st)
        return st;
    w.nslots = 2 * threads;
    w.ring = malloc((size_t)w.nslots * CHUNK_NODES * ROW_BYTES);
    w.ready = calloc(w.nslots, 1);
    pthread_t *tid = calloc(threads, sizeof *tid);
    EVP_MD_CTX *sha = sha256 ? EVP_MD_CTX_new() : NULL;
    if (!w.ring || !w.ready || !tid || (sha256 && !sha)) {
        st = cuzk_fail(err, CUZK_E_NOMEM, "out of memory for the parent cache stream (%u threads)", threads);
        goto out;
    }
    if (sha && !EVP_DigestInit_ex2(sha, EVP_sha256(), NULL)) {
        st = cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto could not initialise SHA-256");
        goto out;
    }
    unsigned started = start_workers(&w, tid, threads);
    if (!started) {
        st = cuzk_fail(err, CUZK_E_INTERNAL, "could not start a parent cache thread");
        goto out;
    }
    st = consume(&w, sha, sink, ctx, progress, err);
    stop_workers(&w, tid, started);
    unsigned len;
    if (!st && sha && !EVP_DigestFinal_ex(sha, sha256, &len))
        st = cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto SHA-256 final failed");
out:
    EVP_MD_CTX_free(sha);
    free(tid);
    free(w.ready);
    free(w.ring);
    work_destroy(&w);
    return st;
}
