/* Sparse trees with memoised nodes and per-value ladders; contracts in sparse.h. */
#include <inttypes.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/testkit/sparse.h"

typedef struct {
    uint64_t key; /* idx * 64 + level + 1; 0 = empty */
    uint8_t val[32];
} memo_slot;

typedef struct {
    uint8_t leaf[32];
    unsigned done; /* levels computed: node[0..done] valid */
    uint8_t node[FC_MERKLE_MAX_LEVELS + 1][32];
} ladder;

struct fc_sparse_tree {
    fc_tree_shape shape;
    fc_leaf_model model;
    pthread_mutex_t lock;
    memo_slot *memo;
    size_t memo_cap, memo_used;
    ladder **lad;
    size_t lad_cap, lad_used;
};

static uint64_t mix(uint64_t z)
{
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

static bool memo_get(const fc_sparse_tree *t, uint64_t key, uint8_t out[32])
{
    if (!t->memo_cap)
        return false;
    for (size_t i = mix(key) & (t->memo_cap - 1);; i = (i + 1) & (t->memo_cap - 1)) {
        if (t->memo[i].key == key) {
            memcpy(out, t->memo[i].val, 32);
            return true;
        }
        if (!t->memo[i].key)
            return false;
    }
}

static void memo_insert(memo_slot *tab, size_t cap, uint64_t key, const uint8_t val[32])
{
    size_t i = mix(key) & (cap - 1);
    while (tab[i].key && tab[i].key != key)
        i = (i + 1) & (cap - 1);
    tab[i].key = key;
    memcpy(tab[i].val, val, 32);
}

static cuzk_status memo_put(fc_sparse_tree *t, uint64_t key, const uint8_t val[32], cuzk_error *err)
{
    if (2 * (t->memo_used + 1) > t->memo_cap) {
        size_t cap = t->memo_cap ? 2 * t->memo_cap : 1024;
        memo_slot *tab = calloc(cap, sizeof *tab);
        if (!tab)
            return cuzk_fail(err, CUZK_E_NOMEM, "sparse tree: %zu node slots", cap);
        for (size_t i = 0; i < t->memo_cap; i++)
            if (t->memo[i].key)
                memo_insert(tab, cap, t->memo[i].key, t->memo[i].val);
        free(t->memo);
        t->memo = tab;
        t->memo_cap = cap;
    }
    memo_insert(t->memo, t->memo_cap, key, val);
    t->memo_used++;
    return CUZK_OK;
}

static uint64_t value_hash(const uint8_t v[32])
{
    uint64_t a, b;
    memcpy(&a, v, 8);
    memcpy(&b, v + 8, 8);
    return mix(a ^ mix(b));
}

/* The ladder of `leaf`, created if new. */
static cuzk_status ladder_of(fc_sparse_tree *t, const uint8_t leaf[32], ladder **out, cuzk_error *err)
{
    if (t->lad_cap)
        for (size_t i = value_hash(leaf) & (t->lad_cap - 1);; i = (i + 1) & (t->lad_cap - 1)) {
            if (!t->lad[i])
                break;
            if (!memcmp(t->lad[i]->leaf, leaf, 32)) {
                *out = t->lad[i];
                return CUZK_OK;
            }
        }
    if (2 * (t->lad_used + 1) > t->lad_cap) {
        size_t cap = t->lad_cap ? 2 * t->lad_cap : 64;
        ladder **tab = calloc(cap, sizeof *tab);
        if (!tab)
            return cuzk_fail(err, CUZK_E_NOMEM, "sparse tree: %zu ladders", cap);
        for (size_t i = 0; i < t->lad_cap; i++)
            if (t->lad[i]) {
                size_t j = value_hash(t->lad[i]->leaf) & (cap - 1);
                while (tab[j])
                    j = (j + 1) & (cap - 1);
                tab[j] = t->lad[i];
            }
        free(t->lad);
        t->lad = tab;
        t->lad_cap = cap;
    }
    ladder *l = calloc(1, sizeof *l);
    if (!l)
        return cuzk_fail(err, CUZK_E_NOMEM, "sparse tree: ladder");
    memcpy(l->leaf, leaf, 32);
    memcpy(l->node[0], leaf, 32);
    size_t j = value_hash(leaf) & (t->lad_cap - 1);
    while (t->lad[j])
        j = (j + 1) & (t->lad_cap - 1);
    t->lad[j] = l;
    t->lad_used++;
    *out = l;
    return CUZK_OK;
}

static cuzk_status ladder_node(fc_sparse_tree *t, const uint8_t leaf[32], unsigned level, uint8_t out[32],
                               cuzk_error *err)
{
    ladder *l;
    cuzk_status st = ladder_of(t, leaf, &l, err);
    while (st == CUZK_OK && l->done < level) {
        st = fc_tree_uniform_node(&t->shape, l->node[l->done], l->done, l->done + 1, l->node[l->done + 1], err);
        if (st == CUZK_OK)
            l->done++;
    }
    if (st == CUZK_OK)
        memcpy(out, l->node[level], 32);
    return st;
}

/* Caller holds the lock. */
static cuzk_status node_locked(fc_sparse_tree *t, unsigned level, uint64_t idx, uint8_t out[32], cuzk_error *err)
{
    if (level == 0) {
        t->model.leaf(t->model.ctx, idx, out);
        return CUZK_OK;
    }
    uint64_t span = fc_tree_span(&t->shape, level), lo = idx * span;
    uint8_t v[32];
    if (t->model.uniform(t->model.ctx, lo, lo + span, v))
        return ladder_node(t, v, level, out, err);
    uint64_t key = idx * 64 + level + 1;
    if (memo_get(t, key, out))
        return CUZK_OK;
    unsigned a = t->shape.arity[level - 1];
    uint8_t kids[16][32];
    for (unsigned j = 0; j < a; j++) {
        cuzk_status st = node_locked(t, level - 1, idx * a + j, kids[j], err);
        if (st != CUZK_OK)
            return st;
    }
    cuzk_status st = fc_tree_hash(t->shape.m.hasher, (const uint8_t(*)[32])kids, a, out, "sparse tree node", err);
    return st == CUZK_OK ? memo_put(t, key, out, err) : st;
}

static cuzk_status sparse_node(const void *ctx, unsigned level, uint64_t idx, uint8_t out[32], cuzk_error *err)
{
    fc_sparse_tree *t = (fc_sparse_tree *)ctx;
    if (level > t->shape.nlevels || idx >= fc_tree_row_nodes(&t->shape, level))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "sparse tree node (%u, %" PRIu64 ") out of range", level, idx);
    pthread_mutex_lock(&t->lock);
    cuzk_status st = node_locked(t, level, idx, out, err);
    pthread_mutex_unlock(&t->lock);
    return st;
}

cuzk_status fc_sparse_tree_create(fc_sparse_tree **out, const fc_tree_shape *s, const fc_leaf_model *m,
                                  cuzk_error *err)
{
    fc_sparse_tree *t = calloc(1, sizeof *t);
    if (!t)
        return cuzk_fail(err, CUZK_E_NOMEM, "sparse tree");
    for (unsigned l = 0; l < s->nlevels; l++)
        if (s->arity[l] > 16) {
            free(t);
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "sparse tree: arity %u above 16", s->arity[l]);
        }
    t->shape = *s;
    t->model = *m;
    pthread_mutex_init(&t->lock, NULL);
    *out = t;
    return CUZK_OK;
}

void fc_sparse_tree_free(fc_sparse_tree *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->lad_cap; i++)
        free(t->lad[i]);
    free(t->lad);
    free(t->memo);
    pthread_mutex_destroy(&t->lock);
    free(t);
}

fc_tree fc_sparse_tree_view(const fc_sparse_tree *t)
{
    return (fc_tree){.shape = t->shape, .node = sparse_node, .ctx = t};
}

/* ---- sorted sparse leaves ---- */

static size_t first_at_or_after(const fc_sparse_leaves *l, uint64_t i)
{
    size_t lo = 0, hi = l->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (l->idx[mid] < i)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo;
}

static bool leaves_uniform(const void *ctx, uint64_t lo, uint64_t hi, uint8_t val[32])
{
    const fc_sparse_leaves *l = ctx;
    size_t k = first_at_or_after(l, lo);
    if (k < l->n && l->idx[k] < hi)
        return false;
    memcpy(val, l->dflt, 32);
    return true;
}

static void leaves_leaf(const void *ctx, uint64_t i, uint8_t val[32])
{
    const fc_sparse_leaves *l = ctx;
    size_t k = first_at_or_after(l, i);
    memcpy(val, k < l->n && l->idx[k] == i ? l->val[k] : l->dflt, 32);
}

fc_leaf_model fc_sparse_leaves_model(const fc_sparse_leaves *l)
{
    return (fc_leaf_model){.uniform = leaves_uniform, .leaf = leaves_leaf, .ctx = l};
}
