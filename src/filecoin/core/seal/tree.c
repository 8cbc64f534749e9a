/* Tree shapes, node hashing, inclusion proofs and full stored trees; contracts in tree.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/par.h"
#include "filecoin/core/seal/tree.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha256_native.h"

#define MAX_CHILDREN 36
#define BUILD_ITEM_PARENTS 4096u

cuzk_status fc_tree_shape_init(fc_tree_shape *s, const merkle_shape *m, cuzk_error *err)
{
    memset(s, 0, sizeof *s);
    unsigned n = merkle_shape_levels(m);
    uint64_t leaves = merkle_shape_leaves(m);
    if (!leaves || n > FC_MERKLE_MAX_LEVELS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "invalid tree shape (base arity %u x %u levels, sub %u, top %u)",
                         m->base_arity, m->base_levels, m->sub_arity, m->top_arity);
    s->m = *m;
    s->nlevels = n;
    s->leaves = leaves;
    for (unsigned l = 0; l < m->base_levels; l++)
        s->arity[l] = (uint8_t)m->base_arity;
    if (m->sub_arity)
        s->arity[m->base_levels] = (uint8_t)m->sub_arity;
    if (m->top_arity)
        s->arity[m->base_levels + 1] = (uint8_t)m->top_arity;
    return CUZK_OK;
}

uint64_t fc_tree_span(const fc_tree_shape *s, unsigned level)
{
    uint64_t span = 1;
    for (unsigned l = 0; l < level && l < s->nlevels; l++)
        span *= s->arity[l];
    return span;
}

uint64_t fc_tree_row_nodes(const fc_tree_shape *s, unsigned level)
{
    return s->leaves / fc_tree_span(s, level);
}

cuzk_status fc_tree_hash(merkle_hasher h, const uint8_t (*children)[32], unsigned n, uint8_t out[32],
                         const char *what, cuzk_error *err)
{
    if (n < 2 || n > MAX_CHILDREN)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: %u children", what, n);
    if (h == MERKLE_SHA256) {
        sha256_trunc254(children[0], (size_t)n * 32, out);
        return CUZK_OK;
    }
    fr_t pre[MAX_CHILDREN], tag, r;
    for (unsigned i = 0; i < n; i++)
        if (fr_from_bytes_le(&pre[i], children[i]) != CUZK_OK)
            return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: child %u is not a canonical field element", what, i);
    poseidon_tag_merkle(n, &tag);
    cuzk_status st = poseidon_hash(n, &tag, pre, &r, err);
    if (st != CUZK_OK)
        return st;
    fr_to_bytes_le(out, &r);
    return CUZK_OK;
}

cuzk_status fc_tree_uniform_node(const fc_tree_shape *s, const uint8_t node[32], unsigned from, unsigned to,
                                 uint8_t out[32], cuzk_error *err)
{
    uint8_t kids[MAX_CHILDREN][32];
    memmove(out, node, 32);
    for (unsigned l = from; l < to && l < s->nlevels; l++) {
        for (unsigned j = 0; j < s->arity[l]; j++)
            memcpy(kids[j], out, 32);
        cuzk_status st = fc_tree_hash(s->m.hasher, (const uint8_t(*)[32])kids, s->arity[l], out, "uniform subtree", err);
        if (st != CUZK_OK)
            return st;
    }
    return CUZK_OK;
}

cuzk_status fc_comm_r(const uint8_t comm_c[32], const uint8_t root_r[32], uint8_t out[32], cuzk_error *err)
{
    uint8_t pair[2][32];
    memcpy(pair[0], comm_c, 32);
    memcpy(pair[1], root_r, 32);
    return fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])pair, 2, out, "comm_r", err);
}

cuzk_status fc_tree_root(const fc_tree *t, uint8_t root[32], cuzk_error *err)
{
    return t->node(t->ctx, t->shape.nlevels, 0, root, err);
}

cuzk_status fc_tree_prove(const fc_tree *t, uint64_t leaf, fc_merkle_proof *out, cuzk_error *err)
{
    const fc_tree_shape *s = &t->shape;
    memset(out, 0, sizeof *out);
    if (leaf >= s->leaves)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "leaf %" PRIu64 " out of range (%" PRIu64 " leaves)", leaf,
                         s->leaves);
    cuzk_status st = fc_merkle_proof_alloc(out, s->m.base_arity, s->m.base_levels, s->m.sub_arity, s->m.top_arity, err);
    if (st != CUZK_OK)
        return st;
    uint64_t idx = leaf;
    size_t k = 0;
    for (unsigned l = 0; l < s->nlevels && st == CUZK_OK; l++) {
        unsigned a = s->arity[l], pos = (unsigned)(idx % a);
        out->index[l] = (uint8_t)pos;
        for (unsigned j = 0; j < a && st == CUZK_OK; j++)
            if (j != pos)
                st = t->node(t->ctx, l, idx - pos + j, out->sib[k++], err);
        idx /= a;
    }
    if (st == CUZK_OK)
        st = t->node(t->ctx, 0, leaf, out->leaf, err);
    if (st == CUZK_OK)
        st = fc_tree_root(t, out->root, err);
    if (st != CUZK_OK)
        fc_merkle_proof_free(out);
    return st;
}

/* ---- full trees ---- */

cuzk_status fc_full_tree_create(fc_full_tree *t, const fc_tree_shape *s, const char *dir, const char *what,
                                cuzk_error *err)
{
    memset(t, 0, sizeof *t);
    fc_store_init(&t->store);
    t->shape = *s;
    uint64_t off = 0;
    for (unsigned l = 0; l <= s->nlevels; l++) {
        t->row_off[l] = off;
        off += fc_tree_row_nodes(s, l) * 32;
    }
    return fc_store_create(&t->store, dir, what, off, err);
}

void fc_full_tree_free(fc_full_tree *t)
{
    fc_store_free(&t->store);
}

cuzk_status fc_full_tree_put_leaves(fc_full_tree *t, uint64_t first, uint64_t count, const uint8_t (*leaves)[32],
                                    cuzk_error *err)
{
    if (first > t->shape.leaves || count > t->shape.leaves - first)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "leaves [%" PRIu64 ", +%" PRIu64 ") beyond %" PRIu64, first, count,
                         t->shape.leaves);
    return fc_store_write(&t->store, first * 32, leaves, count * 32, err);
}

typedef struct {
    fc_full_tree *t;
    unsigned level; /* child row */
    uint64_t parents;
    uint8_t (*scratch)[32]; /* per worker: arity * BUILD_ITEM_PARENTS children + parents */
    size_t scratch_nodes;
} build_ctx;

static cuzk_status build_item(void *p, uint64_t item, unsigned worker, cuzk_error *err)
{
    build_ctx *c = p;
    fc_full_tree *t = c->t;
    unsigned a = t->shape.arity[c->level];
    uint64_t first = item * BUILD_ITEM_PARENTS;
    uint64_t n = c->parents - first < BUILD_ITEM_PARENTS ? c->parents - first : BUILD_ITEM_PARENTS;
    uint8_t(*kids)[32] = c->scratch + (size_t)worker * c->scratch_nodes;
    uint8_t(*par)[32] = kids + (size_t)a * BUILD_ITEM_PARENTS;
    cuzk_status st = fc_store_read(&t->store, t->row_off[c->level] + first * a * 32, kids, n * a * 32, err);
    for (uint64_t i = 0; i < n && st == CUZK_OK; i++) {
        st = fc_tree_hash(t->shape.m.hasher, kids + i * a, a, par[i], "tree node", err);
        if (st != CUZK_OK) {
            char m[sizeof err->msg];
            snprintf(m, sizeof m, "%s", err ? err->msg : "");
            cuzk_fail(err, st, "row %u node %" PRIu64 ": %s", c->level + 1, first + i, m);
        }
    }
    if (st == CUZK_OK)
        st = fc_store_write(&t->store, t->row_off[c->level + 1] + first * 32, par, n * 32, err);
    return st;
}

cuzk_status fc_full_tree_build(fc_full_tree *t, unsigned threads, uint8_t root[32], cuzk_error *err)
{
    if (threads == 0)
        threads = 1;
    unsigned maxa = 2;
    for (unsigned l = 0; l < t->shape.nlevels; l++)
        if (t->shape.arity[l] > maxa)
            maxa = t->shape.arity[l];
    build_ctx c = {.t = t, .scratch_nodes = (size_t)(maxa + 1) * BUILD_ITEM_PARENTS};
    c.scratch = malloc(c.scratch_nodes * threads * 32);
    if (!c.scratch)
        return cuzk_fail(err, CUZK_E_NOMEM, "tree build scratch (%u threads)", threads);
    cuzk_status st = CUZK_OK;
    for (unsigned l = 0; l < t->shape.nlevels && st == CUZK_OK; l++) {
        c.level = l;
        c.parents = fc_tree_row_nodes(&t->shape, l + 1);
        uint64_t items = (c.parents + BUILD_ITEM_PARENTS - 1) / BUILD_ITEM_PARENTS;
        st = cuzk_par_for(threads, items, build_item, &c, err);
    }
    free(c.scratch);
    if (st == CUZK_OK && root)
        st = fc_store_read(&t->store, t->row_off[t->shape.nlevels], root, 32, err);
    return st;
}

static cuzk_status full_node(const void *ctx, unsigned level, uint64_t idx, uint8_t out[32], cuzk_error *err)
{
    const fc_full_tree *t = ctx;
    if (level > t->shape.nlevels || idx >= fc_tree_row_nodes(&t->shape, level))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "tree node (%u, %" PRIu64 ") out of range", level, idx);
    return fc_store_read(&t->store, t->row_off[level] + idx * 32, out, 32, err);
}

fc_tree fc_full_tree_view(const fc_full_tree *t)
{
    return (fc_tree){.shape = t->shape, .node = full_node, .ctx = t};
}
