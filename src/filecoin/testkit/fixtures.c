/* Sparse 32/64 GiB fixtures (docs/fixtures.md); contracts in fixtures.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/graph.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/seal/sdr.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/post/challenges.h"
#include "filecoin/snap/challenges.h"
#include "filecoin/testkit/encode.h"
#include "filecoin/testkit/fixtures.h"
#include "filecoin/testkit/sparse.h"
#include "gadgets/sha256_native.h"

static const char PRF_TAG[] = "cuzk synthetic fixture";

/* PRF(what ‖ a ‖ b ‖ c) as a canonical node. */
static void prf(const char *what, const uint8_t a[32], uint64_t b, uint64_t c, uint8_t out[32])
{
    uint8_t m[128];
    size_t n = 0, t = strlen(PRF_TAG), w = strlen(what);
    memcpy(m, PRF_TAG, t), n += t;
    memcpy(m + n, what, w), n += w;
    if (a)
        memcpy(m + n, a, 32), n += 32;
    for (int i = 0; i < 8; i++)
        m[n++] = (uint8_t)(b >> (8 * i));
    for (int i = 0; i < 8; i++)
        m[n++] = (uint8_t)(c >> (8 * i));
    sha256_trunc254(m, n, out);
}

static int cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sort and drop duplicates; returns the new count. */
static size_t sort_unique(uint64_t *v, size_t n)
{
    qsort(v, n, sizeof *v, cmp_u64);
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (!m || v[m - 1] != v[i])
            v[m++] = v[i];
    return m;
}

static size_t find(const uint64_t *v, size_t n, uint64_t x)
{
    size_t lo = 0, hi = n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (v[mid] < x)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < n && v[lo] == x ? lo : n;
}

static cuzk_status shape_of(const fc_sector_shape *sh, bool tree_d, fc_tree_shape *s, cuzk_error *err)
{
    merkle_shape m = tree_d ? fc_tree_d_shape(sh) : fc_tree_r_shape(sh);
    return fc_tree_shape_init(s, &m, err);
}

/* ---- PoRep ---- */

struct fc_sparse_porep {
    const fc_seal_proof *proof;
    unsigned layers;
    size_t ncols;
    uint64_t *col_node;      /* sorted */
    uint8_t (*rows)[32];     /* ncols * layers */
    uint8_t (*c_leaf)[32];   /* tree C leaves at col_node */
    size_t nch;
    uint64_t *ch_node;       /* sorted challenges */
    uint8_t (*r_leaf)[32];   /* tree R leaves at ch_node */
    fc_sparse_leaves d_leaves, c_leaves, r_leaves;
    fc_leaf_model d_model, c_model, r_model;
    fc_sparse_tree *tree_d, *tree_c, *tree_r;
    fc_porep_view view;
};

void fc_sparse_porep_free(fc_sparse_porep *s)
{
    if (!s)
        return;
    fc_sparse_tree_free(s->tree_d);
    fc_sparse_tree_free(s->tree_c);
    fc_sparse_tree_free(s->tree_r);
    free(s->col_node);
    free(s->rows);
    free(s->c_leaf);
    free(s->ch_node);
    free(s->r_leaf);
    free(s);
}

static cuzk_status porep_column(const void *ctx, uint64_t node, uint8_t (*rows)[32], cuzk_error *err)
{
    const fc_sparse_porep *s = ctx;
    size_t i = find(s->col_node, s->ncols, node);
    if (i == s->ncols)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "synthetic fixture: node %" PRIu64 " has no column", node);
    memcpy(rows, s->rows + i * s->layers, (size_t)s->layers * 32);
    return CUZK_OK;
}

/* The labels of the challenges, layer by layer (docs/fixtures.md#porep step 5). */
static void compute_labels(fc_sparse_porep *s, const fc_graph *g, const uint8_t replica_id[32])
{
    unsigned L = s->layers;
    for (unsigned l = 1; l <= L; l++)
        for (size_t t = 0; t < s->nch; t++) {
            uint64_t c = s->ch_node[t];
            uint32_t par[FC_GRAPH_PARENTS];
            fc_graph_parents(g, c, par);
            uint8_t e[FC_GRAPH_PARENTS][32] = {{0}}, slots[FC_LABEL_PARENTS][32];
            for (unsigned j = 0; j < (l == 1 ? FC_GRAPH_DRG_PARENTS : FC_GRAPH_PARENTS); j++) {
                unsigned layer = j < FC_GRAPH_DRG_PARENTS ? l : l - 1;
                memcpy(e[j], s->rows[find(s->col_node, s->ncols, par[j]) * L + layer - 1], 32);
            }
            fc_sdr_slots(l, (const uint8_t(*)[32])e, slots);
            fc_sdr_label(replica_id, l, c, (const uint8_t(*)[32])slots,
                         s->rows[find(s->col_node, s->ncols, c) * L + l - 1]);
        }
}

cuzk_status fc_sparse_porep_create(fc_sparse_porep **out, const fc_seal_proof *p, const uint8_t prover_id[32],
                                   uint64_t sector_id, const uint8_t ticket[32], const uint8_t seed[32],
                                   cuzk_error *err)
{
    *out = NULL;
    if (p->feature != FC_POREP_INTERACTIVE)
        return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                         "%s: synthetic fixtures exist only for interactive PoRep (synthetic and non-interactive "
                         "challenges depend on comm_r)", p->name);
    fc_sparse_porep *s = calloc(1, sizeof *s);
    if (!s)
        return cuzk_fail(err, CUZK_E_NOMEM, "synthetic fixture");
    const fc_sector_shape *sh = p->shape;
    unsigned L = sh->layers, P = p->partitions, C = p->challenges_per_partition;
    s->proof = p;
    s->layers = L;
    fc_porep_view *v = &s->view;
    v->proof = p;
    memcpy(v->prover_id, prover_id, 32);
    v->sector_id = sector_id;
    memcpy(v->ticket, ticket, 32);
    fc_tree_shape ds, rs;
    cuzk_status st = shape_of(sh, true, &ds, err);
    if (st == CUZK_OK)
        st = shape_of(sh, false, &rs, err);
    /* tree D: all zero (CC) */
    s->d_model = fc_sparse_leaves_model(&s->d_leaves);
    if (st == CUZK_OK)
        st = fc_sparse_tree_create(&s->tree_d, &ds, &s->d_model, err);
    if (st == CUZK_OK) {
        v->tree_d = fc_sparse_tree_view(s->tree_d);
        st = fc_tree_root(&v->tree_d, v->comm_d, err);
    }
    if (st == CUZK_OK)
        fc_replica_id(prover_id, sector_id, ticket, v->comm_d, p->porep_id, v->replica_id);
    /* challenges and their parents */
    fc_graph g;
    if (st == CUZK_OK)
        st = fc_graph_init(&g, p, err);
    size_t nall = (size_t)P * C;
    s->ch_node = calloc(nall, sizeof *s->ch_node);
    s->col_node = calloc(nall * (1 + FC_GRAPH_PARENTS), sizeof *s->col_node);
    if (st == CUZK_OK && (!s->ch_node || !s->col_node))
        st = cuzk_fail(err, CUZK_E_NOMEM, "synthetic fixture challenges");
    for (unsigned k = 0; k < P && st == CUZK_OK; k++)
        st = fc_porep_challenges(p, v->replica_id, seed, v->comm_r, k, s->ch_node + (size_t)k * C, err);
    if (st == CUZK_OK) {
        s->nch = sort_unique(s->ch_node, nall);
        size_t n = 0;
        for (size_t t = 0; t < s->nch; t++) {
            uint32_t par[FC_GRAPH_PARENTS];
            fc_graph_parents(&g, s->ch_node[t], par);
            s->col_node[n++] = s->ch_node[t];
            for (unsigned j = 0; j < FC_GRAPH_PARENTS; j++)
                s->col_node[n++] = par[j];
        }
        s->ncols = sort_unique(s->col_node, n);
        s->rows = calloc(s->ncols * L, 32);
        s->c_leaf = calloc(s->ncols, 32);
        s->r_leaf = calloc(s->nch, 32);
        if (!s->rows || !s->c_leaf || !s->r_leaf)
            st = cuzk_fail(err, CUZK_E_NOMEM, "synthetic fixture columns");
    }
    if (st == CUZK_OK) {
        for (size_t i = 0; i < s->ncols; i++)
            if (find(s->ch_node, s->nch, s->col_node[i]) == s->nch)
                for (unsigned l = 0; l < L; l++)
                    prf("column", v->replica_id, s->col_node[i], l + 1, s->rows[i * L + l]);
        compute_labels(s, &g, v->replica_id);
        uint8_t zero[32] = {0};
        for (size_t i = 0; i < s->ncols && st == CUZK_OK; i++)
            st = fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])(s->rows + i * L), L, s->c_leaf[i], "column", err);
        for (size_t t = 0; t < s->nch && st == CUZK_OK; t++)
            st = fc_encode_node(zero, s->rows[find(s->col_node, s->ncols, s->ch_node[t]) * L + L - 1], s->r_leaf[t],
                                err);
    }
    s->c_leaves = (fc_sparse_leaves){.idx = s->col_node, .val = (const uint8_t(*)[32])s->c_leaf, .n = s->ncols};
    s->r_leaves = (fc_sparse_leaves){.idx = s->ch_node, .val = (const uint8_t(*)[32])s->r_leaf, .n = s->nch};
    s->c_model = fc_sparse_leaves_model(&s->c_leaves);
    s->r_model = fc_sparse_leaves_model(&s->r_leaves);
    if (st == CUZK_OK)
        st = fc_sparse_tree_create(&s->tree_c, &rs, &s->c_model, err);
    if (st == CUZK_OK)
        st = fc_sparse_tree_create(&s->tree_r, &rs, &s->r_model, err);
    if (st == CUZK_OK) {
        v->tree_c = fc_sparse_tree_view(s->tree_c);
        v->tree_r = fc_sparse_tree_view(s->tree_r);
        v->column = porep_column;
        v->column_ctx = s;
        st = fc_tree_root(&v->tree_c, v->comm_c, err);
    }
    if (st == CUZK_OK)
        st = fc_tree_root(&v->tree_r, v->comm_r_last, err);
    if (st == CUZK_OK)
        st = fc_comm_r(v->comm_c, v->comm_r_last, v->comm_r, err);
    if (st != CUZK_OK) {
        fc_sparse_porep_free(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
}

void fc_sparse_porep_view(const fc_sparse_porep *s, fc_porep_view *v)
{
    *v = s->view;
}

/* ---- PoSt ---- */

struct fc_sparse_post {
    uint64_t *leaf;
    uint8_t (*val)[32];
    fc_sparse_leaves leaves;
    fc_leaf_model model;
    fc_sparse_tree *tree;
    fc_post_sector view;
};

void fc_sparse_post_free(fc_sparse_post *s)
{
    if (!s)
        return;
    fc_sparse_tree_free(s->tree);
    free(s->leaf);
    free(s->val);
    free(s);
}

cuzk_status fc_sparse_post_create(fc_sparse_post **out, const fc_post_proof *p, const uint8_t randomness[32],
                                  uint32_t k, uint32_t sector_pos, uint64_t sector_id, cuzk_error *err)
{
    *out = NULL;
    fr_t r;
    if (fr_from_bytes_le(&r, randomness) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "PoSt randomness is not a canonical field element");
    fc_sparse_post *s = calloc(1, sizeof *s);
    unsigned C = p->vanilla_challenges;
    if (!s || !(s->leaf = calloc(C, sizeof *s->leaf)) || !(s->val = calloc(C, 32))) {
        fc_sparse_post_free(s);
        return cuzk_fail(err, CUZK_E_NOMEM, "synthetic PoSt fixture");
    }
    if (p->winning)
        k = sector_pos = 0;
    for (unsigned n = 0; n < C; n++)
        s->leaf[n] = fc_post_leaf_challenge(randomness, sector_id, fc_post_challenge_index(p, k, sector_pos, n),
                                            p->shape->nodes);
    size_t m = sort_unique(s->leaf, C);
    for (size_t i = 0; i < m; i++)
        prf("replica", NULL, sector_id, s->leaf[i], s->val[i]);
    s->leaves = (fc_sparse_leaves){.idx = s->leaf, .val = (const uint8_t(*)[32])s->val, .n = m};
    s->model = fc_sparse_leaves_model(&s->leaves);
    fc_tree_shape rs;
    fc_post_sector *v = &s->view;
    v->sector_id = sector_id;
    prf("comm_c", NULL, sector_id, 0, v->comm_c);
    cuzk_status st = shape_of(p->shape, false, &rs, err);
    if (st == CUZK_OK)
        st = fc_sparse_tree_create(&s->tree, &rs, &s->model, err);
    if (st == CUZK_OK) {
        v->tree_r = fc_sparse_tree_view(s->tree);
        st = fc_tree_root(&v->tree_r, v->comm_r_last, err);
    }
    if (st == CUZK_OK)
        st = fc_comm_r(v->comm_c, v->comm_r_last, v->comm_r, err);
    if (st != CUZK_OK) {
        fc_sparse_post_free(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
}

void fc_sparse_post_view(const fc_sparse_post *s, fc_post_sector *v)
{
    *v = s->view;
}

/* ---- SnapDeals ---- */

struct fc_sparse_snap {
    unsigned bits_shr;
    uint8_t (*block)[32]; /* new replica value of each of the 2^h blocks */
    uint8_t w[32];
    fc_leaf_model old_model, d_model, new_model;
    fc_sparse_leaves none;
    fc_sparse_tree *r_old, *d_new, *r_new;
    fc_snap_view view;
};

static bool const_uniform(const void *ctx, uint64_t lo, uint64_t hi, uint8_t val[32])
{
    memcpy(val, ctx, 32);
    return true;
}

static void const_leaf(const void *ctx, uint64_t i, uint8_t val[32])
{
    memcpy(val, ctx, 32);
}

static bool block_uniform(const void *ctx, uint64_t lo, uint64_t hi, uint8_t val[32])
{
    const fc_sparse_snap *s = ctx;
    if (lo >> s->bits_shr != (hi - 1) >> s->bits_shr)
        return false;
    memcpy(val, s->block[lo >> s->bits_shr], 32);
    return true;
}

static void block_leaf(const void *ctx, uint64_t i, uint8_t val[32])
{
    const fc_sparse_snap *s = ctx;
    memcpy(val, s->block[i >> s->bits_shr], 32);
}

void fc_sparse_snap_free(fc_sparse_snap *s)
{
    if (!s)
        return;
    fc_sparse_tree_free(s->r_old);
    fc_sparse_tree_free(s->d_new);
    fc_sparse_tree_free(s->r_new);
    free(s->block);
    free(s);
}

cuzk_status fc_sparse_snap_create(fc_sparse_snap **out, const fc_snap_proof *u, uint64_t sector_id,
                                  const uint8_t w[32], cuzk_error *err)
{
    *out = NULL;
    fr_t wf;
    if (fr_from_bytes_le(&wf, w) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "SnapDeals fixture data node is not a canonical field element");
    const fc_sector_shape *sh = u->shape;
    fc_sparse_snap *s = calloc(1, sizeof *s);
    uint64_t blocks = (uint64_t)1 << u->h;
    if (!s || !(s->block = calloc(blocks, 32))) {
        free(s);
        return cuzk_fail(err, CUZK_E_NOMEM, "synthetic SnapDeals fixture");
    }
    s->bits_shr = sh->log2_nodes - u->h;
    memcpy(s->w, w, 32);
    fc_snap_view *v = &s->view;
    v->proof = u;
    prf("comm_c", NULL, sector_id, 1, v->comm_c);
    s->old_model = fc_sparse_leaves_model(&s->none);
    s->d_model = (fc_leaf_model){.uniform = const_uniform, .leaf = const_leaf, .ctx = s->w};
    s->new_model = (fc_leaf_model){.uniform = block_uniform, .leaf = block_leaf, .ctx = s};
    fc_tree_shape ds, rs;
    uint8_t root_old[32], root_new[32];
    cuzk_status st = shape_of(sh, true, &ds, err);
    if (st == CUZK_OK)
        st = shape_of(sh, false, &rs, err);
    if (st == CUZK_OK)
        st = fc_sparse_tree_create(&s->r_old, &rs, &s->old_model, err);
    if (st == CUZK_OK)
        st = fc_sparse_tree_create(&s->d_new, &ds, &s->d_model, err);
    if (st == CUZK_OK) {
        v->tree_r_old = fc_sparse_tree_view(s->r_old);
        v->tree_d_new = fc_sparse_tree_view(s->d_new);
        st = fc_tree_root(&v->tree_r_old, root_old, err);
    }
    if (st == CUZK_OK)
        st = fc_tree_root(&v->tree_d_new, v->comm_d_new, err);
    if (st == CUZK_OK)
        st = fc_comm_r(v->comm_c, root_old, v->comm_r_old, err);
    fr_t phi;
    if (st == CUZK_OK)
        st = fc_snap_phi(v->comm_d_new, v->comm_r_old, &phi, err);
    uint8_t zero[32] = {0};
    for (uint64_t b = 0; b < blocks && st == CUZK_OK; b++) {
        fr_t rho;
        fc_snap_rho(&phi, b, &rho);
        st = fc_snap_encode_node(zero, w, &rho, s->block[b], err);
    }
    if (st == CUZK_OK)
        st = fc_sparse_tree_create(&s->r_new, &rs, &s->new_model, err);
    if (st == CUZK_OK) {
        v->tree_r_new = fc_sparse_tree_view(s->r_new);
        st = fc_tree_root(&v->tree_r_new, root_new, err);
    }
    if (st == CUZK_OK)
        st = fc_comm_r(v->comm_c, root_new, v->comm_r_new, err);
    if (st != CUZK_OK) {
        fc_sparse_snap_free(s);
        return st;
    }
    *out = s;
    return CUZK_OK;
}

void fc_sparse_snap_view(const fc_sparse_snap *s, fc_snap_view *v)
{
    *v = s->view;
}
