/* Whole-sector sealing; contracts in seal.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "common/par.h"
#include "filecoin/core/graph.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/seal/sdr.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/testkit/encode.h"
#include "filecoin/testkit/seal.h"

#define CHUNK_NODES 4096u /* nodes per work item: 127 KiB of unpadded data */

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec * 1e-9;
}

static void phase_done(const fc_seal_params *p, const char *phase, double t0)
{
    if (p->progress)
        p->progress(p->progress_ctx, phase, now() - t0);
}

/* ---- 4./5. column hashes and replica into the leaves of trees C and R ---- */

typedef struct {
    fc_sector *s;
    uint8_t (*scratch)[32]; /* per worker: (L + 1) * CHUNK_NODES nodes */
} leaves_ctx;

static cuzk_status column_item(void *p, uint64_t item, unsigned worker, cuzk_error *err)
{
    leaves_ctx *c = p;
    fc_sector *s = c->s;
    unsigned L = s->layers;
    uint64_t first = item * CHUNK_NODES, n = s->proof->shape->nodes - first;
    if (n > CHUNK_NODES)
        n = CHUNK_NODES;
    uint8_t(*buf)[32] = c->scratch + (size_t)worker * (L + 1) * CHUNK_NODES, (*out)[32] = buf + (size_t)L * CHUNK_NODES;
    cuzk_status st = CUZK_OK;
    for (unsigned l = 0; l < L && st == CUZK_OK; l++)
        st = fc_store_read(&s->layer[l], first * 32, buf + (size_t)l * CHUNK_NODES, n * 32, err);
    for (uint64_t i = 0; i < n && st == CUZK_OK; i++) {
        uint8_t rows[FC_MAX_LAYERS][32];
        for (unsigned l = 0; l < L; l++)
            memcpy(rows[l], buf[(size_t)l * CHUNK_NODES + i], 32);
        st = fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])rows, L, out[i], "column", err);
    }
    return st == CUZK_OK ? fc_full_tree_put_leaves(&s->tree_c, first, n, (const uint8_t(*)[32])out, err) : st;
}

static cuzk_status replica_item(void *p, uint64_t item, unsigned worker, cuzk_error *err)
{
    leaves_ctx *c = p;
    fc_sector *s = c->s;
    uint64_t first = item * CHUNK_NODES, n = s->proof->shape->nodes - first;
    if (n > CHUNK_NODES)
        n = CHUNK_NODES;
    uint8_t(*data)[32] = c->scratch + (size_t)worker * 2 * CHUNK_NODES, (*key)[32] = data + CHUNK_NODES;
    cuzk_status st = fc_store_read(&s->tree_d.store, first * 32, data, n * 32, err);
    if (st == CUZK_OK)
        st = fc_store_read(&s->layer[s->layers - 1], first * 32, key, n * 32, err);
    for (uint64_t i = 0; i < n && st == CUZK_OK; i++)
        st = fc_encode_node(data[i], key[i], data[i], err);
    return st == CUZK_OK ? fc_full_tree_put_leaves(&s->tree_r, first, n, (const uint8_t(*)[32])data, err) : st;
}

static cuzk_status fill_leaves(fc_sector *s, unsigned threads, cuzk_par_fn fn, size_t nodes_per_worker,
                               cuzk_error *err)
{
    leaves_ctx c = {.s = s, .scratch = malloc(nodes_per_worker * CHUNK_NODES * 32 * threads)};
    if (!c.scratch)
        return cuzk_fail(err, CUZK_E_NOMEM, "leaf buffers");
    uint64_t items = (s->proof->shape->nodes + CHUNK_NODES - 1) / CHUNK_NODES;
    cuzk_status st = cuzk_par_for(threads, items, fn, &c, err);
    free(c.scratch);
    return st;
}

/* ---- 3. labels ---- */

/* File mode: each finished layer goes to its own store (the two label buffers are reused). */
typedef struct {
    fc_sector *s;
    const char *dir;
} layer_sink;

static cuzk_status store_layer(void *ctx, uint32_t layer, const uint8_t *labels, cuzk_error *err)
{
    layer_sink *k = ctx;
    uint64_t bytes = k->s->proof->shape->nodes * 32;
    char what[32];
    snprintf(what, sizeof what, "layer-%u", layer);
    cuzk_status st = fc_store_create(&k->s->layer[layer - 1], k->dir, what, bytes, err);
    return st == CUZK_OK ? fc_store_write(&k->s->layer[layer - 1], 0, labels, bytes, err) : st;
}

/* In memory: L buffers adopted by the layer stores. In files: two buffers in turn. Parents
 * are computed by sdr.c (no parent cache: 56 bytes per node would add 940 MB at 512 MiB). */
static cuzk_status label(fc_sector *s, const char *dir, cuzk_error *err)
{
    uint64_t bytes = s->proof->shape->nodes * 32;
    unsigned nbuf = dir ? 2 : s->layers;
    fc_graph g;
    cuzk_status st = fc_graph_init(&g, s->proof, err);
    uint8_t *buf[FC_MAX_LAYERS] = {0}, *out[FC_MAX_LAYERS];
    for (unsigned i = 0; i < nbuf && st == CUZK_OK; i++)
        if (!(buf[i] = malloc(bytes)))
            st = cuzk_fail(err, CUZK_E_NOMEM, "labels (%" PRIu64 " bytes)", bytes);
    for (unsigned l = 0; l < s->layers; l++)
        out[l] = buf[l % nbuf];
    layer_sink sink = {s, dir};
    if (st == CUZK_OK)
        st = fc_sdr_layers(&g, NULL, s->replica_id, s->layers, out, dir ? store_layer : NULL, &sink, err);
    for (unsigned l = 0; l < s->layers && st == CUZK_OK && !dir; l++) {
        fc_store_adopt(&s->layer[l], buf[l], bytes);
        buf[l] = NULL;
    }
    for (unsigned i = 0; i < nbuf; i++)
        free(buf[i]);
    return st;
}

cuzk_status fc_seal(fc_sector *s, const fc_seal_params *p, cuzk_error *err)
{
    memset(s, 0, sizeof *s);
    fc_store_init(&s->tree_d.store);
    fc_store_init(&s->tree_c.store);
    fc_store_init(&s->tree_r.store);
    for (unsigned l = 0; l < FC_MAX_LAYERS; l++)
        fc_store_init(&s->layer[l]);
    if (!p || !p->proof)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_seal: no registered proof");
    const fc_sector_shape *sh = p->proof->shape;
    if (sh->size > FC_SIZE_512MIB)
        return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                         "fc_seal: %s sectors are not sealed here (use the sparse fixtures)", sh->name);
    s->proof = p->proof;
    s->layers = sh->layers;
    memcpy(s->prover_id, p->prover_id, 32);
    s->sector_id = p->sector_id;
    memcpy(s->ticket, p->ticket, 32);
    unsigned threads = p->threads ? p->threads : 1;
    fc_tree_shape ds, rs;
    merkle_shape dm = fc_tree_d_shape(sh), rm = fc_tree_r_shape(sh);
    cuzk_status st = fc_tree_shape_init(&ds, &dm, err);
    if (st == CUZK_OK)
        st = fc_tree_shape_init(&rs, &rm, err);

    double t0 = now();
    if (st == CUZK_OK)
        st = fc_full_tree_create(&s->tree_d, &ds, p->dir, "tree-d", err);
    if (st == CUZK_OK && (p->data || p->data_path))
        st = fc_tree_d_put_data(&s->tree_d, p->data, p->data_len, p->data_path, err);
    if (st == CUZK_OK)
        st = fc_full_tree_build(&s->tree_d, threads, s->comm_d, err);
    if (st == CUZK_OK) {
        fc_replica_id(s->prover_id, s->sector_id, s->ticket, s->comm_d, s->proof->porep_id, s->replica_id);
        phase_done(p, "tree D", t0);
        t0 = now();
        st = label(s, p->dir, err);
    }
    if (st == CUZK_OK) {
        phase_done(p, "labels", t0);
        t0 = now();
        st = fc_full_tree_create(&s->tree_c, &rs, p->dir, "tree-c", err);
    }
    if (st == CUZK_OK)
        st = fill_leaves(s, threads, column_item, s->layers + 1, err);
    if (st == CUZK_OK)
        st = fc_full_tree_build(&s->tree_c, threads, s->comm_c, err);
    if (st == CUZK_OK) {
        phase_done(p, "tree C", t0);
        t0 = now();
        st = fc_full_tree_create(&s->tree_r, &rs, p->dir, "tree-r", err);
    }
    if (st == CUZK_OK)
        st = fill_leaves(s, threads, replica_item, 2, err);
    if (st == CUZK_OK)
        st = fc_full_tree_build(&s->tree_r, threads, s->comm_r_last, err);
    if (st == CUZK_OK) {
        st = fc_comm_r(s->comm_c, s->comm_r_last, s->comm_r, err);
        phase_done(p, "tree R", t0);
    }
    if (st != CUZK_OK)
        fc_sector_free(s);
    return st;
}

void fc_sector_free(fc_sector *s)
{
    fc_full_tree_free(&s->tree_d);
    fc_full_tree_free(&s->tree_c);
    fc_full_tree_free(&s->tree_r);
    for (unsigned l = 0; l < FC_MAX_LAYERS; l++)
        fc_store_free(&s->layer[l]);
}

cuzk_status fc_sector_column(const fc_sector *s, uint64_t node, uint8_t (*rows)[32], cuzk_error *err)
{
    if (node >= s->proof->shape->nodes)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "column of node %" PRIu64 " beyond %" PRIu64 " nodes", node,
                         s->proof->shape->nodes);
    for (unsigned l = 0; l < s->layers; l++) {
        cuzk_status st = fc_store_read(&s->layer[l], node * 32, rows[l], 32, err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

static cuzk_status view_column(const void *ctx, uint64_t node, uint8_t (*rows)[32], cuzk_error *err)
{
    return fc_sector_column(ctx, node, rows, err);
}

void fc_sector_post_view(const fc_sector *s, fc_post_sector *v)
{
    memset(v, 0, sizeof *v);
    v->sector_id = s->sector_id;
    v->tree_r = fc_full_tree_view(&s->tree_r);
    memcpy(v->comm_c, s->comm_c, 32);
    memcpy(v->comm_r_last, s->comm_r_last, 32);
    memcpy(v->comm_r, s->comm_r, 32);
}

void fc_sector_porep_view(const fc_sector *s, fc_porep_view *v)
{
    memset(v, 0, sizeof *v);
    v->proof = s->proof;
    v->tree_d = fc_full_tree_view(&s->tree_d);
    v->tree_c = fc_full_tree_view(&s->tree_c);
    v->tree_r = fc_full_tree_view(&s->tree_r);
    v->column = view_column;
    v->column_ctx = s;
    memcpy(v->prover_id, s->prover_id, 32);
    v->sector_id = s->sector_id;
    memcpy(v->ticket, s->ticket, 32);
    memcpy(v->replica_id, s->replica_id, 32);
    memcpy(v->comm_d, s->comm_d, 32);
    memcpy(v->comm_c, s->comm_c, 32);
    memcpy(v->comm_r_last, s->comm_r_last, 32);
    memcpy(v->comm_r, s->comm_r, 32);
}
