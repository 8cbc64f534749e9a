/* SnapDeals encoding and partition proofs; contracts in snap_gen.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/challenges.h"
#include "filecoin/merkle_proof.h"
#include "filecoin/seal/encode.h"
#include "filecoin/seal/par.h"
#include "filecoin/seal/snap_gen.h"

#define CHUNK_NODES 4096u

static unsigned log2u(uint64_t v)
{
    unsigned r = 0;
    while (v > 1)
        v >>= 1, r++;
    return r;
}

cuzk_status fc_snap_partition_generate(const fc_snap_view *v, uint32_t k, fc_snap_partition_proof *out,
                                       cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    const fc_update_proof *u = v->proof;
    if (k >= u->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "SnapDeals partition %u of %u", k, u->partitions);
    unsigned ab_h = u->shape->log2_nodes - log2u(u->partitions) - log2u(u->apex_leaves);
    memcpy(out->comm_c, v->comm_c, 32);
    out->apex = calloc(u->apex_leaves, sizeof *out->apex);
    out->challenges = calloc(u->challenges, sizeof *out->challenges);
    uint64_t *ch = calloc(u->challenges, sizeof *ch);
    cuzk_status st = out->apex && out->challenges && ch ? CUZK_OK
                                                         : cuzk_fail(err, CUZK_E_NOMEM, "SnapDeals partition proof");
    for (uint32_t j = 0; j < u->apex_leaves && st == CUZK_OK; j++)
        st = v->tree_d_new.node(v->tree_d_new.ctx, ab_h, (uint64_t)k * u->apex_leaves + j, out->apex[j], err);
    if (st == CUZK_OK) {
        out->napex = u->apex_leaves;
        st = fc_snap_challenges(u, v->comm_r_new, k, ch, err);
    }
    for (uint32_t i = 0; i < u->challenges && st == CUZK_OK; i++) {
        fc_snap_challenge_proof *cp = &out->challenges[i];
        st = fc_tree_prove(&v->tree_r_old, ch[i], &cp->r_old, err);
        if (st == CUZK_OK)
            st = fc_tree_prove(&v->tree_d_new, ch[i], &cp->d_new, err);
        if (st == CUZK_OK)
            st = fc_tree_prove(&v->tree_r_new, ch[i], &cp->r_new, err);
        out->nchallenges = i + 1;
    }
    free(ch);
    if (st != CUZK_OK)
        fc_snap_partition_free(out);
    return st;
}

/* ---- full encoding ---- */

typedef struct {
    fc_snap_sector *s;
    fr_t *rho;         /* 2^h values */
    unsigned bits_shr;
    uint8_t (*scratch)[32]; /* per worker: 2 * CHUNK_NODES */
} encode_ctx;

static cuzk_status encode_item(void *p, uint64_t item, unsigned worker, cuzk_error *err)
{
    encode_ctx *c = p;
    fc_snap_sector *s = c->s;
    uint64_t first = item * CHUNK_NODES, n = s->proof->shape->nodes - first;
    if (n > CHUNK_NODES)
        n = CHUNK_NODES;
    uint8_t(*old)[32] = c->scratch + (size_t)worker * 2 * CHUNK_NODES, (*data)[32] = old + CHUNK_NODES;
    cuzk_status st = fc_store_read(&s->old->tree_r.store, first * 32, old, n * 32, err);
    if (st == CUZK_OK)
        st = fc_store_read(&s->tree_d_new.store, first * 32, data, n * 32, err);
    for (uint64_t i = 0; i < n && st == CUZK_OK; i++)
        st = fc_snap_encode_node(old[i], data[i], &c->rho[(first + i) >> c->bits_shr], old[i], err);
    return st == CUZK_OK ? fc_full_tree_put_leaves(&s->tree_r_new, first, n, (const uint8_t(*)[32])old, err) : st;
}

cuzk_status fc_snap_encode(fc_snap_sector *out, const fc_sector *old, const fc_update_proof *u, const uint8_t *data,
                           uint64_t data_len, const char *data_path, const char *dir, unsigned threads,
                           cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    fc_store_init(&out->tree_d_new.store);
    fc_store_init(&out->tree_r_new.store);
    const fc_sector_shape *sh = old->proof->shape;
    if (u->shape != sh)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "update proof %s is for %s sectors, the sector is %s", u->name,
                         u->shape->name, sh->name);
    if (threads == 0)
        threads = 1;
    out->proof = u;
    out->old = old;
    fc_tree_shape ds;
    merkle_shape dm = fc_tree_d_shape(sh);
    cuzk_status st = fc_tree_shape_init(&ds, &dm, err);
    if (st == CUZK_OK)
        st = fc_full_tree_create(&out->tree_d_new, &ds, dir, "tree-d-new", err);
    if (st == CUZK_OK && (data || data_path))
        st = fc_tree_d_put_data(&out->tree_d_new, data, data_len, data_path, err);
    if (st == CUZK_OK)
        st = fc_full_tree_build(&out->tree_d_new, threads, out->comm_d_new, err);
    fr_t phi;
    if (st == CUZK_OK)
        st = fc_snap_phi(out->comm_d_new, old->comm_r, &phi, err);
    encode_ctx c = {.s = out, .bits_shr = sh->log2_nodes - u->h};
    uint64_t highs = (uint64_t)1 << u->h;
    c.rho = malloc(highs * sizeof *c.rho);
    c.scratch = malloc((size_t)threads * 2 * CHUNK_NODES * 32);
    if (st == CUZK_OK && (!c.rho || !c.scratch))
        st = cuzk_fail(err, CUZK_E_NOMEM, "SnapDeals encoding buffers");
    for (uint64_t h = 0; h < highs && st == CUZK_OK; h++)
        fc_snap_rho(&phi, h, &c.rho[h]);
    if (st == CUZK_OK)
        st = fc_full_tree_create(&out->tree_r_new, &old->tree_r.shape, dir, "tree-r-new", err);
    if (st == CUZK_OK)
        st = fc_par_for(threads, (sh->nodes + CHUNK_NODES - 1) / CHUNK_NODES, encode_item, &c, err);
    free(c.rho);
    free(c.scratch);
    if (st == CUZK_OK)
        st = fc_full_tree_build(&out->tree_r_new, threads, out->root_r_new, err);
    if (st == CUZK_OK) {
        uint8_t pair[2][32];
        memcpy(pair[0], old->comm_c, 32);
        memcpy(pair[1], out->root_r_new, 32);
        st = fc_tree_hash(MERKLE_POSEIDON, (const uint8_t(*)[32])pair, 2, out->comm_r_new, "comm_r_new", err);
    }
    if (st != CUZK_OK)
        fc_snap_sector_free(out);
    return st;
}

void fc_snap_sector_free(fc_snap_sector *s)
{
    fc_full_tree_free(&s->tree_d_new);
    fc_full_tree_free(&s->tree_r_new);
}

void fc_snap_sector_view(const fc_snap_sector *s, fc_snap_view *v)
{
    memset(v, 0, sizeof *v);
    v->proof = s->proof;
    v->tree_r_old = fc_full_tree_view(&s->old->tree_r);
    v->tree_d_new = fc_full_tree_view(&s->tree_d_new);
    v->tree_r_new = fc_full_tree_view(&s->tree_r_new);
    memcpy(v->comm_c, s->old->comm_c, 32);
    memcpy(v->comm_r_old, s->old->comm_r, 32);
    memcpy(v->comm_d_new, s->comm_d_new, 32);
    memcpy(v->comm_r_new, s->comm_r_new, 32);
}

void fc_snap_sector_post_view(const fc_snap_sector *s, fc_post_sector *v)
{
    memset(v, 0, sizeof *v);
    v->sector_id = s->old->sector_id;
    v->tree_r = fc_full_tree_view(&s->tree_r_new);
    memcpy(v->comm_c, s->old->comm_c, 32);
    memcpy(v->comm_r_last, s->root_r_new, 32);
    memcpy(v->comm_r, s->comm_r_new, 32);
}
