/* SealCommitPhase1Output serde JSON (docs/formats.md#c1-output-json):
 * streaming reader over cuzk_json_reader with the structure checks of the registered proof, and a
 * writer producing serde_json's compact output; contracts in porep/c1_codec.h. */
#include <stdlib.h>
#include <string.h>

#include "common/json_read.h"
#include "filecoin/core/bincode.h"
#include "filecoin/core/field_bytes.h"
#include "filecoin/porep/c1_codec.h"

/* ---- reader helpers ---- */

/* An array of exactly `count` 32-byte values. */
static cuzk_status read_values(cuzk_json_reader *j, uint8_t (*out)[32], unsigned count, bool field)
{
    cuzk_status st;
    int r;
    if ((st = cuzk_json_read_arr_begin(j)))
        return st;
    unsigned i = 0;
    cuzk_fp_index(&j->fp, 0);
    for (; (r = cuzk_json_read_arr_next(j, i == 0)) == 1; i++) {
        cuzk_fp_set_index(&j->fp, i);
        if (i >= count)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "more than %u elements", count);
        if ((st = fc_json_bytes32(j, out[i], field)))
            return st;
    }
    cuzk_fp_pop(&j->fp);
    if (r < 0)
        return j->status;
    if (i != count)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%u elements, expected %u", i, count);
    return CUZK_OK;
}

static cuzk_status read_u32(cuzk_json_reader *j, uint32_t *v)
{
    uint64_t x;
    cuzk_status st = cuzk_json_read_u64(j, UINT32_MAX, &x);
    *v = (uint32_t)x;
    return st;
}

/* ---- MerkleProof ---- */

/* The proof being read and its shape (the cuzk_json_read_fields context of its objects). */
typedef struct {
    fc_merkle_proof *p;
    const merkle_shape *s;
} merkle_ctx;

/* A PathElement's field at level l: 0 hashes (its siblings `sib`), 1 index. */
typedef struct {
    fc_merkle_proof *p;
    unsigned l;
    uint8_t (*sib)[32];
} element_ctx;

static cuzk_status element_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    element_ctx *e = ctx;
    unsigned a = e->p->arity[e->l];
    if (f == 0)
        return read_values(j, e->sib, a - 1, true);
    uint64_t v;
    cuzk_status st = cuzk_json_read_u64(j, a - 1, &v);
    if (!st)
        e->p->index[e->l] = (uint8_t)v;
    return st;
}

/* InclusionPath {path: [PathElement; levels]} for levels [first, first + levels). */
typedef struct {
    fc_merkle_proof *p;
    unsigned first_level, levels;
    size_t sib_at;
} path_ctx;

static cuzk_status path_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    static const char *const names[] = {"hashes", "index"};
    path_ctx *c = ctx;
    cuzk_status st;
    int r;
    (void)f;
    if ((st = cuzk_json_read_arr_begin(j)))
        return st;
    unsigned i = 0;
    element_ctx e = {c->p, c->first_level, c->p->sib + c->sib_at};
    cuzk_fp_index(&j->fp, 0);
    for (; (r = cuzk_json_read_arr_next(j, i == 0)) == 1; i++, e.l++) {
        cuzk_fp_set_index(&j->fp, i);
        if (i >= c->levels)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "more than %u path elements", c->levels);
        if ((st = cuzk_json_read_fields(j, names, 3, element_field, &e)))
            return st;
        e.sib += c->p->arity[e.l] - 1u;
    }
    cuzk_fp_pop(&j->fp);
    if (r < 0)
        return j->status;
    if (i != c->levels)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%u path elements, expected %u", i, c->levels);
    return CUZK_OK;
}

static cuzk_status read_inclusion_path(cuzk_json_reader *j, fc_merkle_proof *p, unsigned first_level, unsigned levels,
                                       size_t sib_at)
{
    static const char *const names[] = {"path"};
    path_ctx c = {p, first_level, levels, sib_at};
    return cuzk_json_read_fields(j, names, 1, path_field, &c);
}

/* The body of the Single / Sub / Top variant: 0 root, 1 leaf, 2 path (Single), 3 base_proof,
 * 4 sub_proof (Sub, Top), 5 top_proof (Top). */
static cuzk_status variant_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    merkle_ctx *m = ctx;
    fc_merkle_proof *p = m->p;
    const merkle_shape *s = m->s;
    size_t base_sibs = (size_t)s->base_levels * (s->base_arity - 1);
    switch (f) {
    case 0: return fc_json_bytes32(j, p->root, true);
    case 1: return fc_json_bytes32(j, p->leaf, true);
    case 2:
    case 3: return read_inclusion_path(j, p, 0, s->base_levels, 0);
    case 4: return read_inclusion_path(j, p, s->base_levels, 1, base_sibs);
    default: return read_inclusion_path(j, p, s->base_levels + 1, 1, base_sibs + s->sub_arity - 1);
    }
}

/* ProofData: {"Single" | "Sub" | "Top": body}, the variant the shape implies. */
static cuzk_status data_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    static const char *const names[] = {"root", "leaf", "path", "base_proof", "sub_proof", "top_proof"};
    merkle_ctx *m = ctx;
    fc_merkle_proof *p = m->p;
    cuzk_status st;
    cuzk_json_read_str key;
    (void)f;
    if ((st = cuzk_json_read_obj_begin(j)))
        return st;
    int r = cuzk_json_read_obj_next(j, true, &key);
    if (r < 0)
        return j->status;
    const char *want = fc_merkle_kind_name(p->kind);
    if (r == 0)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "empty object, expected {\"%s\": ...}", want);
    if (!cuzk_json_read_key_is(&key, want)) {
        bool known = cuzk_json_read_key_is(&key, "Single") || cuzk_json_read_key_is(&key, "Sub") || cuzk_json_read_key_is(&key, "Top");
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%s variant \"%.*s\", expected \"%s\" for this tree shape",
                            known ? "MerkleProof" : "unknown MerkleProof", (int)(key.n > 32 ? 32 : key.n), key.s, want);
    }
    cuzk_fp_key(&j->fp, want);
    uint32_t fields = p->kind == FC_MP_SINGLE ? 7 : p->kind == FC_MP_SUB ? 3 | 8 | 16 : 3 | 8 | 16 | 32;
    if ((st = cuzk_json_read_fields(j, names, fields, variant_field, m)))
        return st;
    cuzk_fp_pop(&j->fp);
    r = cuzk_json_read_obj_next(j, false, &key);
    if (r < 0)
        return j->status;
    if (r == 1)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "a second key in an enum value (expected only \"%s\")", want);
    return CUZK_OK;
}

/* MerkleProof {data}: *p allocated here with shape s (owned by the caller's structure even
 * on error, so its free releases it). */
static cuzk_status read_merkle(cuzk_json_reader *j, fc_merkle_proof *p, const merkle_shape *s)
{
    static const char *const names[] = {"data"};
    cuzk_status st;
    if ((st = fc_merkle_proof_alloc(p, s->base_arity, s->base_levels, s->sub_arity, s->top_arity, j->err)))
        return j->status = st;
    merkle_ctx m = {p, s};
    return cuzk_json_read_fields(j, names, 1, data_field, &m);
}

/* ---- C1 structures ---- */

/* The cuzk_json_read_fields context of the C1 structures' objects. */
typedef struct {
    cuzk_json_reader j;
    fc_c1_output *out;
    const fc_seal_proof *variant; /* the V1 proof of the vanilla_proofs key's size */
    const fc_sector_shape *shape;
    merkle_shape tree_d, tree_r;
    fc_porep_challenge_proof *proof; /* the challenge proof being read */
    fc_column_proof *col;            /* the column proof being read */
} c1_reader;

/* Column {index, rows} ("_h": null, the PhantomData, skipped with anything else). */
static cuzk_status column_inner_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    c1_reader *c = ctx;
    fc_column_proof *col = c->col;
    unsigned layers = c->shape->layers;
    if (f == 0)
        return read_u32(j, &col->index);
    if (!col->rows && !(col->rows = malloc(layers * sizeof *col->rows)))
        return cuzk_json_read_fail(j, CUZK_E_NOMEM, "out of memory");
    col->nrows = layers;
    return read_values(j, col->rows, layers, true);
}

/* ColumnProof {column, inclusion_proof}. */
static cuzk_status column_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    static const char *const names[] = {"index", "rows"};
    c1_reader *c = ctx;
    if (f == 0)
        return cuzk_json_read_fields(j, names, 3, column_inner_field, c);
    return read_merkle(j, &c->col->proof, &c->tree_r);
}

static cuzk_status read_column(c1_reader *c, fc_column_proof *col)
{
    static const char *const names[] = {"column", "inclusion_proof"};
    c->col = col;
    return cuzk_json_read_fields(&c->j, names, 3, column_field, c);
}

/* LabelingProof {parents, layer_index, node}. */
static cuzk_status labeling_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    fc_labeling_proof *l = ctx;
    switch (f) {
    case 0: return read_values(j, l->parents, FC_LABEL_PARENTS, true);
    case 1: return read_u32(j, &l->layer_index);
    default: return cuzk_json_read_u64(j, UINT64_MAX, &l->node);
    }
}

static cuzk_status read_labeling(cuzk_json_reader *j, fc_labeling_proof *l)
{
    static const char *const names[] = {"parents", "layer_index", "node"};
    return cuzk_json_read_fields(j, names, 7, labeling_field, l);
}

/* An array of exactly `count` column proofs. */
static cuzk_status read_columns(c1_reader *c, fc_column_proof *cols, unsigned count)
{
    cuzk_json_reader *j = &c->j;
    cuzk_status st;
    int r;
    unsigned i = 0;
    if ((st = cuzk_json_read_arr_begin(j)))
        return st;
    cuzk_fp_index(&j->fp, 0);
    for (; (r = cuzk_json_read_arr_next(j, i == 0)) == 1; i++) {
        cuzk_fp_set_index(&j->fp, i);
        if (i >= count)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "more than %u column proofs", count);
        if ((st = read_column(c, &cols[i])))
            return st;
    }
    cuzk_fp_pop(&j->fp);
    if (r < 0)
        return j->status;
    if (i != count)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%u column proofs, expected %u", i, count);
    return CUZK_OK;
}

/* ReplicaColumnProof {c_x, drg_parents, exp_parents}. */
static cuzk_status replica_columns_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    c1_reader *c = ctx;
    (void)j;
    switch (f) {
    case 0: return read_column(c, &c->proof->c_x);
    case 1: return read_columns(c, c->proof->drg, FC_DRG_PARENTS);
    default: return read_columns(c, c->proof->exp, FC_EXP_PARENTS);
    }
}

static cuzk_status read_labelings(c1_reader *c, fc_porep_challenge_proof *p)
{
    cuzk_json_reader *j = &c->j;
    unsigned layers = c->shape->layers;
    cuzk_status st;
    int r;
    if ((st = cuzk_json_read_arr_begin(j)))
        return st;
    if (!p->labeling && !(p->labeling = calloc(layers, sizeof *p->labeling)))
        return cuzk_json_read_fail(j, CUZK_E_NOMEM, "out of memory");
    p->nlabeling = layers;
    unsigned i = 0;
    cuzk_fp_index(&j->fp, 0);
    for (; (r = cuzk_json_read_arr_next(j, i == 0)) == 1; i++) {
        cuzk_fp_set_index(&j->fp, i);
        if (i >= layers)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "more than %u labeling proofs (layers)", layers);
        if ((st = read_labeling(j, &p->labeling[i])))
            return st;
    }
    cuzk_fp_pop(&j->fp);
    if (r < 0)
        return j->status;
    if (i != layers)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%u labeling proofs, expected %u (layers)", i, layers);
    return CUZK_OK;
}

/* Proof {comm_d_proofs, comm_r_last_proof, replica_column_proofs, labeling_proofs,
 * encoding_proof}. */
static cuzk_status proof_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    static const char *const names[] = {"c_x", "drg_parents", "exp_parents"};
    c1_reader *c = ctx;
    fc_porep_challenge_proof *p = c->proof;
    switch (f) {
    case 0: return read_merkle(j, &p->comm_d_proof, &c->tree_d);
    case 1: return read_merkle(j, &p->comm_r_last_proof, &c->tree_r);
    case 2: return cuzk_json_read_fields(j, names, 7, replica_columns_field, c);
    case 3: return read_labelings(c, p);
    default: return read_labeling(j, &p->encoding);
    }
}

static cuzk_status read_proof(c1_reader *c, fc_porep_challenge_proof *p)
{
    static const char *const names[] = {"comm_d_proofs", "comm_r_last_proof", "replica_column_proofs",
                                        "labeling_proofs", "encoding_proof"};
    c->proof = p;
    return cuzk_json_read_fields(&c->j, names, 31, proof_field, c);
}

/* vanilla_proofs: {"<variant>": [[Proof; C]; P]}. P is bounded by the registered proof when
 * it came first, else by the largest count of the size (checked exactly afterwards). */
static cuzk_status read_vanilla(c1_reader *c, fc_c1_output *out)
{
    cuzk_json_reader *j = &c->j;
    cuzk_status st;
    cuzk_json_read_str key;
    int r;
    if ((st = cuzk_json_read_obj_begin(j)))
        return st;
    if ((r = cuzk_json_read_obj_next(j, true, &key)) < 0)
        return j->status;
    if (r == 0)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "empty object, expected {\"StackedDrg<size>V1\": [...]}");
    const fc_seal_proof *variant = fc_c1_variant_proof(key.s, key.n);
    if (!variant)
        return cuzk_json_read_fail(j, CUZK_E_UNSUPPORTED, "unknown vanilla proof variant \"%.*s\"",
                            (int)(key.n > 48 ? 48 : key.n), key.s);
    const fc_seal_proof *rp = out->registered_proof;
    if (rp && variant->shape != rp->shape)
        return cuzk_json_read_fail(j, CUZK_E_UNSUPPORTED, "vanilla proof variant %s does not match registered proof %s (%s)",
                            variant->vanilla_variant, rp->name, rp->vanilla_variant);
    c->variant = variant;
    c->shape = variant->shape;
    c->tree_d = fc_tree_d_shape(c->shape);
    c->tree_r = fc_tree_r_shape(c->shape);
    cuzk_fp_key(&j->fp, variant->vanilla_variant);
    unsigned C = variant->challenges_per_partition;
    unsigned maxP = rp ? rp->partitions : fc_c1_max_partitions(c->shape);
    if ((st = cuzk_json_read_arr_begin(j)))
        return st;
    out->challenges = C;
    unsigned k = 0, cap = 0;
    cuzk_fp_index(&j->fp, 0);
    for (; (r = cuzk_json_read_arr_next(j, k == 0)) == 1; k++) {
        cuzk_fp_set_index(&j->fp, k);
        if (k >= maxP)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "more than %u partitions (%s)", maxP,
                                rp ? rp->name : "the most any registered proof of this size has");
        if (k == cap) {
            cap = cap ? (2 * cap < maxP ? 2 * cap : maxP) : (rp ? maxP : 1);
            fc_porep_challenge_proof *np = realloc(out->proofs, (size_t)cap * C * sizeof *np);
            if (!np)
                return cuzk_json_read_fail(j, CUZK_E_NOMEM, "out of memory for %u partitions", cap);
            out->proofs = np;
        }
        memset(&out->proofs[(size_t)k * C], 0, C * sizeof *out->proofs);
        out->partitions = k + 1;
        if ((st = cuzk_json_read_arr_begin(j)))
            return st;
        unsigned i = 0;
        int ri;
        cuzk_fp_index(&j->fp, 0);
        for (; (ri = cuzk_json_read_arr_next(j, i == 0)) == 1; i++) {
            cuzk_fp_set_index(&j->fp, i);
            if (i >= C)
                return cuzk_json_read_fail(j, CUZK_E_FORMAT, "more than %u challenge proofs in a partition", C);
            if ((st = read_proof(c, &out->proofs[(size_t)k * C + i])))
                return st;
        }
        cuzk_fp_pop(&j->fp);
        if (ri < 0)
            return j->status;
        if (i != C)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%u challenge proofs in the partition, expected %u", i, C);
    }
    cuzk_fp_pop(&j->fp);
    if (r < 0)
        return j->status;
    cuzk_fp_pop(&j->fp);
    if ((r = cuzk_json_read_obj_next(j, false, &key)) < 0)
        return j->status;
    if (r == 1)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "a second key in an enum value (expected only \"%s\")",
                            variant->vanilla_variant);
    return CUZK_OK;
}

static cuzk_status read_registered(cuzk_json_reader *j, fc_c1_output *out)
{
    cuzk_json_read_str s;
    cuzk_status st = cuzk_json_read_string(j, &s);
    if (st)
        return st;
    char name[64];
    if (s.escaped || s.n >= sizeof name)
        return cuzk_json_read_fail(j, CUZK_E_UNSUPPORTED, "unknown RegisteredSealProof \"%.*s\"", (int)(s.n > 64 ? 64 : s.n),
                            s.s);
    memcpy(name, s.s, s.n);
    name[s.n] = 0;
    if (fc_seal_proof_by_name(name, &out->registered_proof, NULL) != CUZK_OK)
        return cuzk_json_read_fail(j, CUZK_E_UNSUPPORTED, "unknown RegisteredSealProof \"%s\"", name);
    return CUZK_OK;
}

/* SealCommitPhase1Output {registered_proof, vanilla_proofs, comm_r, comm_d, replica_id, seed,
 * ticket}. */
static cuzk_status output_field(cuzk_json_reader *j, void *ctx, unsigned f)
{
    c1_reader *c = ctx;
    fc_c1_output *out = c->out;
    switch (f) {
    case 0: return read_registered(j, out);
    case 1: return read_vanilla(c, out);
    case 2: return fc_json_bytes32(j, out->comm_r, true);
    case 3: return fc_json_bytes32(j, out->comm_d, true);
    case 4: return fc_json_bytes32(j, out->replica_id, true);
    case 5: return fc_json_bytes32(j, out->seed, false);
    default: return fc_json_bytes32(j, out->ticket, false);
    }
}

cuzk_status fc_c1_read_json(fc_c1_output *out, const uint8_t *buf, size_t len, const char *what, cuzk_error *err)
{
    static const char *const names[] = {"registered_proof", "vanilla_proofs", "comm_r", "comm_d",
                                        "replica_id",       "seed",           "ticket"};
    c1_reader c = {.out = out};
    cuzk_json_reader *j = &c.j;
    cuzk_json_read_init(j, buf, len, what, err);
    cuzk_status st;
    if ((st = cuzk_json_read_fields(j, names, 127, output_field, &c)) || (st = cuzk_json_read_end(j)))
        return st;
    /* vanilla_proofs may have come before registered_proof */
    const fc_seal_proof *rp = out->registered_proof;
    cuzk_fp_key(&j->fp, "vanilla_proofs");
    if (c.shape != rp->shape)
        return cuzk_json_read_fail(j, CUZK_E_UNSUPPORTED, "vanilla proof variant %s does not match registered proof %s (%s)",
                            c.variant->vanilla_variant, rp->name, rp->vanilla_variant);
    if (out->partitions != rp->partitions)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%u partitions, registered proof %s has %u", out->partitions, rp->name,
                            rp->partitions);
    return CUZK_OK;
}

/* ---- writer (serde_json compact, declaration order) ---- */

static void write_path(cuzk_outbuf *o, const fc_merkle_proof *p, unsigned first, unsigned levels, size_t *sib)
{
    cuzk_out_str(o, "{\"path\":[");
    for (unsigned l = first; l < first + levels; l++) {
        cuzk_out_str(o, l == first ? "{\"hashes\":[" : ",{\"hashes\":[");
        for (unsigned i = 0; i + 1 < p->arity[l]; i++) {
            if (i)
                cuzk_out_str(o, ",");
            cuzk_out_json_bytes32(o, p->sib[(*sib)++]);
        }
        cuzk_out_str(o, "],\"index\":");
        cuzk_out_dec(o, p->index[l]);
        cuzk_out_str(o, "}");
    }
    cuzk_out_str(o, "]}");
}

static void write_merkle(cuzk_outbuf *o, const fc_merkle_proof *p)
{
    unsigned base = fc_merkle_proof_base_levels(p);
    size_t sib = 0;
    cuzk_out_str(o, "{\"data\":{\"");
    cuzk_out_str(o, fc_merkle_kind_name(p->kind));
    if (p->kind == FC_MP_SINGLE) {
        cuzk_out_str(o, "\":{\"root\":");
        cuzk_out_json_bytes32(o, p->root);
        cuzk_out_str(o, ",\"leaf\":");
        cuzk_out_json_bytes32(o, p->leaf);
        cuzk_out_str(o, ",\"path\":");
        write_path(o, p, 0, base, &sib);
    } else {
        cuzk_out_str(o, "\":{\"base_proof\":");
        write_path(o, p, 0, base, &sib);
        cuzk_out_str(o, ",\"sub_proof\":");
        write_path(o, p, base, 1, &sib);
        if (p->kind == FC_MP_TOP) {
            cuzk_out_str(o, ",\"top_proof\":");
            write_path(o, p, base + 1, 1, &sib);
        }
        cuzk_out_str(o, ",\"root\":");
        cuzk_out_json_bytes32(o, p->root);
        cuzk_out_str(o, ",\"leaf\":");
        cuzk_out_json_bytes32(o, p->leaf);
    }
    cuzk_out_str(o, "}}}");
}

static void write_column(cuzk_outbuf *o, const fc_column_proof *c)
{
    cuzk_out_str(o, "{\"column\":{\"index\":");
    cuzk_out_dec(o, c->index);
    cuzk_out_str(o, ",\"rows\":[");
    for (uint32_t l = 0; l < c->nrows; l++) {
        if (l)
            cuzk_out_str(o, ",");
        cuzk_out_json_bytes32(o, c->rows[l]);
    }
    cuzk_out_str(o, "],\"_h\":null},\"inclusion_proof\":");
    write_merkle(o, &c->proof);
    cuzk_out_str(o, "}");
}

static void write_columns(cuzk_outbuf *o, const fc_column_proof *c, unsigned n)
{
    cuzk_out_str(o, "[");
    for (unsigned i = 0; i < n; i++) {
        if (i)
            cuzk_out_str(o, ",");
        write_column(o, &c[i]);
    }
    cuzk_out_str(o, "]");
}

static void write_labeling(cuzk_outbuf *o, const fc_labeling_proof *l)
{
    cuzk_out_str(o, "{\"parents\":[");
    for (int i = 0; i < FC_LABEL_PARENTS; i++) {
        if (i)
            cuzk_out_str(o, ",");
        cuzk_out_json_bytes32(o, l->parents[i]);
    }
    cuzk_out_str(o, "],\"layer_index\":");
    cuzk_out_dec(o, l->layer_index);
    cuzk_out_str(o, ",\"node\":");
    cuzk_out_dec(o, l->node);
    cuzk_out_str(o, "}");
}

static void write_proof(cuzk_outbuf *o, const fc_porep_challenge_proof *p)
{
    cuzk_out_str(o, "{\"comm_d_proofs\":");
    write_merkle(o, &p->comm_d_proof);
    cuzk_out_str(o, ",\"comm_r_last_proof\":");
    write_merkle(o, &p->comm_r_last_proof);
    cuzk_out_str(o, ",\"replica_column_proofs\":{\"c_x\":");
    write_column(o, &p->c_x);
    cuzk_out_str(o, ",\"drg_parents\":");
    write_columns(o, p->drg, FC_DRG_PARENTS);
    cuzk_out_str(o, ",\"exp_parents\":");
    write_columns(o, p->exp, FC_EXP_PARENTS);
    cuzk_out_str(o, "},\"labeling_proofs\":[");
    for (uint32_t l = 0; l < p->nlabeling; l++) {
        if (l)
            cuzk_out_str(o, ",");
        write_labeling(o, &p->labeling[l]);
    }
    cuzk_out_str(o, "],\"encoding_proof\":");
    write_labeling(o, &p->encoding);
    cuzk_out_str(o, "}");
}

void fc_c1_write_json(const fc_c1_output *c1, cuzk_outbuf *o)
{
    const fc_seal_proof *rp = c1->registered_proof;
    cuzk_out_str(o, "{\"registered_proof\":\"");
    cuzk_out_str(o, rp->name);
    cuzk_out_str(o, "\",\"vanilla_proofs\":{\"");
    cuzk_out_str(o, rp->vanilla_variant);
    cuzk_out_str(o, "\":[");
    for (unsigned k = 0; k < c1->partitions; k++) {
        cuzk_out_str(o, k ? ",[" : "[");
        for (unsigned i = 0; i < c1->challenges; i++) {
            if (i)
                cuzk_out_str(o, ",");
            write_proof(o, &c1->proofs[(size_t)k * c1->challenges + i]);
        }
        cuzk_out_str(o, "]");
    }
    cuzk_out_str(o, "]},\"comm_r\":");
    cuzk_out_json_bytes32(o, c1->comm_r);
    cuzk_out_str(o, ",\"comm_d\":");
    cuzk_out_json_bytes32(o, c1->comm_d);
    cuzk_out_str(o, ",\"replica_id\":");
    cuzk_out_json_bytes32(o, c1->replica_id);
    cuzk_out_str(o, ",\"seed\":");
    cuzk_out_json_bytes32(o, c1->seed);
    cuzk_out_str(o, ",\"ticket\":");
    cuzk_out_json_bytes32(o, c1->ticket);
    cuzk_out_str(o, "}");
}
