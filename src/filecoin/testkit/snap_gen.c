/* SnapDeals encoding and partition proofs; contracts in snap_gen.h. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "common/par.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/snap/challenges.h"
#include "filecoin/testkit/encode.h"
#include "filecoin/testkit/snap_gen.h"

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
    const fc_snap_proof *u = v->proof;
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

/* ---- self-check of a partition proof ---- */

static cuzk_status differ(const char *what, const char *field, const uint8_t got[32], const uint8_t want[32],
                          cuzk_error *err)
{
    char a[65], b[65];
    cuzk_hex(a, got, 32);
    cuzk_hex(b, want, 32);
    return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: %s is %s, expected %s", what, field, a, b);
}

/* Shape, node, root and path of one inclusion proof. */
static cuzk_status check_path(const fc_merkle_proof *p, const merkle_shape *s, uint64_t node, const uint8_t *root,
                              const char *what, cuzk_error *err)
{
    if (!fc_merkle_proof_has_shape(p, s->base_arity, s->base_levels, s->sub_arity, s->top_arity))
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: wrong shape (%u levels, kind %u)", what, p->nlevels, p->kind);
    if (fc_merkle_proof_node(p) != node)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: path is for node %" PRIu64 ", expected %" PRIu64, what,
                         fc_merkle_proof_node(p), node);
    if (memcmp(p->root, root, 32))
        return differ(what, "root", p->root, root, err);
    return fc_merkle_proof_verify(p, s->hasher, what, err);
}

/* The running value of a binary path after its first `levels` levels. */
static void d_path_node(const fc_merkle_proof *p, unsigned levels, uint8_t out[32])
{
    uint8_t pair[64];
    memcpy(out, p->leaf, 32);
    for (unsigned l = 0; l < levels; l++) {
        memcpy(pair + (p->index[l] ? 32 : 0), out, 32);
        memcpy(pair + (p->index[l] ? 0 : 32), p->sib[l], 32);
        fc_tree_hash(MERKLE_SHA256, (const uint8_t(*)[32])pair, 2, out, "apex", NULL);
    }
}

cuzk_status fc_snap_partition_check(const fc_snap_proof *u, uint32_t k, const uint8_t comm_r_old[32],
                              const uint8_t comm_d_new[32], const uint8_t comm_r_new[32],
                              const fc_snap_partition_proof *pp, cuzk_error *err)
{
    const fc_sector_shape *sh = u->shape;
    if (pp->poseidon || pp->napex != u->apex_leaves || pp->nchallenges != u->challenges)
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "SnapDeals partition %u: %u apex leaves and %u challenges, "
                         "expected %u and %u", k, pp->napex, pp->nchallenges, u->apex_leaves, u->challenges);
    merkle_shape ds = fc_tree_d_shape(sh), rs = fc_tree_r_shape(sh);
    const uint8_t *root_old = pp->challenges[0].r_old.root, *root_new = pp->challenges[0].r_new.root;
    uint8_t want[32];
    cuzk_status st = fc_comm_r(pp->comm_c, root_old, want, err);
    if (st == CUZK_OK && memcmp(want, comm_r_old, 32))
        return differ("SnapDeals", "comm_r_old vs P_2(comm_c, root_r_old)", comm_r_old, want, err);
    if (st == CUZK_OK)
        st = fc_comm_r(pp->comm_c, root_new, want, err);
    if (st == CUZK_OK && memcmp(want, comm_r_new, 32))
        return differ("SnapDeals", "comm_r_new vs P_2(comm_c, root_r_new)", comm_r_new, want, err);
    /* apex tree of partition k: napex leaves, hashed in pairs up to one node */
    unsigned log2n = sh->log2_nodes, pb = log2u(u->partitions), ab = log2u(u->apex_leaves);
    unsigned ab_h = log2n - pb - ab, bits_shr = log2n - u->h;
    uint8_t(*apex)[32] = malloc((size_t)2 * u->apex_leaves * 32);
    uint64_t *ch = calloc(u->challenges, sizeof *ch);
    fr_t phi;
    if (st == CUZK_OK && (!apex || !ch))
        st = cuzk_fail(err, CUZK_E_NOMEM, "apex tree");
    if (st == CUZK_OK) {
        memcpy(apex, pp->apex, (size_t)u->apex_leaves * 32);
        for (size_t w = u->apex_leaves, at = 0; w > 1; at += w, w /= 2)
            for (size_t i = 0; i < w / 2; i++)
                fc_tree_hash(MERKLE_SHA256, (const uint8_t(*)[32])apex[at + 2 * i], 2, apex[at + w + i], "apex", NULL);
        st = fc_snap_challenges(u, comm_r_new, k, ch, err);
    }
    if (st == CUZK_OK)
        st = fc_snap_phi(comm_d_new, comm_r_old, &phi, err);
    for (uint32_t i = 0; i < u->challenges && st == CUZK_OK; i++) {
        const fc_snap_challenge_proof *cp = &pp->challenges[i];
        uint64_t c = ch[i];
        char what[96];
        snprintf(what, sizeof what, "SnapDeals partition %u challenge %u (node %" PRIu64 ") proof_r_old", k, i, c);
        st = check_path(&cp->r_old, &rs, c, root_old, what, err);
        snprintf(what, sizeof what, "SnapDeals partition %u challenge %u (node %" PRIu64 ") proof_d_new", k, i, c);
        if (st == CUZK_OK)
            st = check_path(&cp->d_new, &ds, c, comm_d_new, what, err);
        snprintf(what, sizeof what, "SnapDeals partition %u challenge %u (node %" PRIu64 ") proof_r_new", k, i, c);
        if (st == CUZK_OK)
            st = check_path(&cp->r_new, &rs, c, root_new, what, err);
        if (st != CUZK_OK)
            break;
        fr_t rho;
        uint8_t enc[32], node[32];
        fc_snap_rho(&phi, c >> bits_shr, &rho);
        st = fc_snap_encode_node(cp->r_old.leaf, cp->d_new.leaf, &rho, enc, err);
        if (st == CUZK_OK && memcmp(enc, cp->r_new.leaf, 32))
            st = differ(what, "leaf_r_new vs leaf_r_old + leaf_d_new * rho", cp->r_new.leaf, enc, err);
        /* the path meets apex leaf (c >> ab_h) - k A, then the apex tree's siblings */
        uint64_t a = (c >> ab_h) - (uint64_t)k * u->apex_leaves;
        d_path_node(&cp->d_new, ab_h, node);
        if (st == CUZK_OK && (a >= u->apex_leaves || memcmp(node, apex[a], 32)))
            st = cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: tree D path does not meet apex leaf %" PRIu64, what, a);
        for (size_t l = 0, w = u->apex_leaves, at = 0; l < ab && st == CUZK_OK; l++, at += w, w /= 2, a /= 2)
            if (memcmp(cp->d_new.sib[ab_h + l], apex[at + (a ^ 1)], 32))
                st = cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: tree D sibling at height %zu is not the apex tree's",
                               what, ab_h + l);
    }
    free(apex);
    free(ch);
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

cuzk_status fc_snap_encode(fc_snap_sector *out, const fc_sector *old, const fc_snap_proof *u, const uint8_t *data,
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
        st = cuzk_par_for(threads, (sh->nodes + CHUNK_NODES - 1) / CHUNK_NODES, encode_item, &c, err);
    free(c.rho);
    free(c.scratch);
    if (st == CUZK_OK)
        st = fc_full_tree_build(&out->tree_r_new, threads, out->root_r_new, err);
    if (st == CUZK_OK) {
        st = fc_comm_r(old->comm_c, out->root_r_new, out->comm_r_new, err);
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
