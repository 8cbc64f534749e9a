/* Tiny consistent C1 outputs for the circuit tests; contract in tiny_c1.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/seal/sdr.h"
#include "gadgets/create_label.h"
#include "tiny_c1.h"

typedef uint8_t node32[32];

static uint64_t rnd(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* A random canonical field element (below 2^254). */
static void rnd_fe(uint64_t *s, uint8_t out[32])
{
    for (int i = 0; i < 32; i += 8) {
        uint64_t r = rnd(s);
        memcpy(out + i, &r, 8);
    }
    out[31] &= 0x3f;
}

/* A full tree: level 0 = leaves, level l + 1 = hashes of groups of arity[l]. */
typedef struct {
    unsigned nlev;
    unsigned arity[FC_MERKLE_MAX_LEVELS];
    node32 *lv[FC_MERKLE_MAX_LEVELS + 1];
    merkle_hasher h;
} tree;

static bool tree_build(tree *t, const node32 *leaves, uint64_t n, const merkle_shape *s)
{
    memset(t->lv, 0, sizeof t->lv);
    t->h = s->hasher;
    t->nlev = merkle_shape_levels(s);
    for (unsigned l = 0; l < t->nlev; l++)
        t->arity[l] = l < s->base_levels ? s->base_arity : l == s->base_levels ? s->sub_arity : s->top_arity;
    if (!(t->lv[0] = malloc(n * sizeof(node32))))
        return false;
    memcpy(t->lv[0], leaves, n * sizeof(node32));
    for (unsigned l = 0; l < t->nlev; l++) {
        uint64_t m = n / t->arity[l];
        if (!(t->lv[l + 1] = malloc(m * sizeof(node32))))
            return false;
        for (uint64_t j = 0; j < m; j++)
            if (merkle_hash_native(t->h, (const node32 *)&t->lv[l][j * t->arity[l]], t->arity[l], t->lv[l + 1][j], NULL))
                return false;
        n = m;
    }
    return true;
}

static void tree_free(tree *t)
{
    for (unsigned l = 0; l <= FC_MERKLE_MAX_LEVELS; l++)
        free(t->lv[l]);
}

static bool tree_path(const tree *t, uint64_t v, unsigned sub, unsigned top, fc_merkle_proof *p)
{
    memset(p, 0, sizeof *p);
    p->kind = top ? FC_MP_TOP : sub ? FC_MP_SUB : FC_MP_SINGLE;
    p->nlevels = (uint8_t)t->nlev;
    size_t nsib = 0;
    for (unsigned l = 0; l < t->nlev; l++)
        nsib += t->arity[l] - 1;
    if (!(p->sib = calloc(nsib, 32)))
        return false;
    memcpy(p->leaf, t->lv[0][v], 32);
    memcpy(p->root, t->lv[t->nlev][0], 32);
    uint64_t pos = v;
    size_t k = 0;
    for (unsigned l = 0; l < t->nlev; l++) {
        unsigned a = t->arity[l];
        p->arity[l] = (uint8_t)a;
        p->index[l] = (uint8_t)(pos % a);
        uint64_t first = pos - pos % a;
        for (unsigned j = 0; j < a; j++)
            if (first + j != pos)
                memcpy(p->sib[k++], t->lv[l][first + j], 32);
        pos /= a;
    }
    return true;
}

static bool is_challenge(const uint64_t *ch, unsigned n, uint64_t v)
{
    for (unsigned i = 0; i < n; i++)
        if (ch[i] == v)
            return true;
    return false;
}

static void slots_of(node32 *const cols, unsigned L, const uint32_t par[FC_POREP_PARENTS], unsigned l,
                     node32 slots[FC_LABEL_PARENTS])
{
    uint8_t e[FC_GRAPH_PARENTS][32] = {{0}};
    for (unsigned j = 0; j < FC_POREP_PARENTS; j++)
        if (j < FC_DRG_PARENTS || l > 1)
            memcpy(e[j], cols[(size_t)par[j] * L + (j < FC_DRG_PARENTS ? l - 1 : l - 2)], 32);
    fc_sdr_slots(l, (const uint8_t(*)[32])e, slots);
}

static bool column_proof(fc_column_proof *cp, const tree *tc, node32 *cols, unsigned L, uint64_t v,
                         const merkle_shape *s)
{
    cp->index = (uint32_t)v;
    cp->nrows = L;
    if (!(cp->rows = malloc((size_t)L * 32)))
        return false;
    memcpy(cp->rows, cols[v * L], (size_t)L * 32);
    return tree_path(tc, v, s->sub_arity, s->top_arity, &cp->proof);
}

bool tiny_c1_build(const fc_porep_circuit_params *cp, uint64_t seed, fc_c1_output *c1, uint64_t *ch,
                   uint32_t (*par)[FC_POREP_PARENTS])
{
    uint64_t s = seed | 1, N = cp->nodes;
    unsigned L = cp->layers, C = cp->challenges;
    memset(c1, 0, sizeof *c1);
    node32 *cols = malloc(N * L * sizeof(node32)), *data = malloc(N * sizeof(node32));
    node32 *leaf_c = malloc(N * sizeof(node32)), *leaf_r = malloc(N * sizeof(node32));
    tree td = {0}, tc = {0}, tr = {0};
    bool ok = cols && data && leaf_c && leaf_r;
    if (!ok)
        goto out;
    for (uint64_t v = 0; v < N; v++) {
        rnd_fe(&s, data[v]);
        for (unsigned l = 0; l < L; l++)
            rnd_fe(&s, cols[v * L + l]);
    }
    rnd_fe(&s, c1->replica_id);
    for (unsigned i = 0; i < C; i++) {
        do
            ch[i] = 1 + rnd(&s) % (N - 1);
        while (is_challenge(ch, i, ch[i]));
    }
    /* parents outside the challenge set, then the challenged columns labelled from them */
    for (unsigned i = 0; i < C; i++) {
        for (unsigned j = 0; j < FC_POREP_PARENTS; j++) {
            do
                par[i][j] = (uint32_t)(rnd(&s) % N);
            while (is_challenge(ch, C, par[i][j]));
        }
        for (unsigned l = 1; l <= L; l++) {
            node32 slots[FC_LABEL_PARENTS];
            slots_of(cols, L, par[i], l, slots);
            create_label_native(c1->replica_id, l, ch[i], (const node32 *)slots, cols[ch[i] * L + l - 1]);
        }
    }
    for (uint64_t v = 0; v < N; v++) {
        fr_t k, d, e;
        fr_from_bytes_le(&k, cols[v * L + L - 1]);
        fr_from_bytes_le(&d, data[v]);
        fr_add(&e, &k, &d);
        fr_to_bytes_le(leaf_r[v], &e);
        if (merkle_hash_native(MERKLE_POSEIDON, (const node32 *)&cols[v * L], L, leaf_c[v], NULL))
            ok = false;
    }
    merkle_shape sd = {MERKLE_SHA256, 2, 0, 0, 0};
    while ((1ull << sd.base_levels) < N)
        sd.base_levels++;
    const merkle_shape *srs = &cp->tree_rc;
    ok = ok && tree_build(&td, (const node32 *)data, N, &sd) && tree_build(&tc, (const node32 *)leaf_c, N, srs) &&
         tree_build(&tr, (const node32 *)leaf_r, N, srs);
    if (!ok)
        goto out;
    memcpy(c1->comm_d, td.lv[td.nlev][0], 32);
    node32 pre[2];
    memcpy(pre[0], tc.lv[tc.nlev][0], 32);
    memcpy(pre[1], tr.lv[tr.nlev][0], 32);
    merkle_hash_native(MERKLE_POSEIDON, (const node32 *)pre, 2, c1->comm_r, NULL);
    c1->partitions = 1;
    c1->challenges = C;
    if (!(c1->proofs = calloc(C, sizeof *c1->proofs))) {
        ok = false;
        goto out;
    }
    for (unsigned i = 0; i < C && ok; i++) {
        fc_porep_challenge_proof *pr = &c1->proofs[i];
        ok = tree_path(&td, ch[i], 0, 0, &pr->comm_d_proof) &&
             tree_path(&tr, ch[i], srs->sub_arity, srs->top_arity, &pr->comm_r_last_proof) &&
             column_proof(&pr->c_x, &tc, cols, L, ch[i], srs);
        for (unsigned j = 0; j < FC_POREP_PARENTS && ok; j++)
            ok = column_proof(j < FC_DRG_PARENTS ? &pr->drg[j] : &pr->exp[j - FC_DRG_PARENTS], &tc, cols, L,
                              par[i][j], srs);
        if (!ok || !(pr->labeling = calloc(L, sizeof *pr->labeling))) {
            ok = false;
            break;
        }
        pr->nlabeling = L;
        for (unsigned l = 1; l <= L; l++) {
            slots_of(cols, L, par[i], l, pr->labeling[l - 1].parents);
            pr->labeling[l - 1].layer_index = l;
            pr->labeling[l - 1].node = ch[i];
        }
        pr->encoding = pr->labeling[L - 1];
    }
out:
    free(cols);
    free(data);
    free(leaf_c);
    free(leaf_r);
    tree_free(&td);
    tree_free(&tc);
    tree_free(&tr);
    if (!ok)
        tiny_c1_free(c1);
    return ok;
}

static void column_free(fc_column_proof *c)
{
    free(c->rows);
    free(c->proof.sib);
}

void tiny_c1_free(fc_c1_output *c1)
{
    for (size_t i = 0; c1->proofs && i < (size_t)c1->partitions * c1->challenges; i++) {
        fc_porep_challenge_proof *pr = &c1->proofs[i];
        free(pr->comm_d_proof.sib);
        free(pr->comm_r_last_proof.sib);
        column_free(&pr->c_x);
        for (unsigned j = 0; j < FC_DRG_PARENTS; j++)
            column_free(&pr->drg[j]);
        for (unsigned j = 0; j < FC_EXP_PARENTS; j++)
            column_free(&pr->exp[j]);
        free(pr->labeling);
    }
    free(c1->proofs);
    memset(c1, 0, sizeof *c1);
}
