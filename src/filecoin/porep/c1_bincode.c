/* SealCommitPhase1Output bincode, bare and in the C2Input::V0 wrapper
 * (docs/formats.md#c1-output-in-bincode); contracts in porep/c1_codec.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/bincode.h"
#include "filecoin/porep/c1_codec.h"

/* Encoded sizes of one item of each Vec, for the length-prefix checks (every item of a
 * given registered proof has a fixed size). */
typedef struct {
    merkle_shape tree_d, tree_r;
    unsigned layers;
    uint64_t column, labeling, proof;
} c1_sizes;

static void sizes_of(const fc_sector_shape *s, c1_sizes *z)
{
    z->tree_d = fc_tree_d_shape(s);
    z->tree_r = fc_tree_r_shape(s);
    z->layers = s->layers;
    z->column = 4 + 8 + 32ull * s->layers + fc_merkle_bincode_size(&z->tree_r);
    z->labeling = 8 + 32ull * FC_LABEL_PARENTS + 4 + 8;
    z->proof = fc_merkle_bincode_size(&z->tree_d) + fc_merkle_bincode_size(&z->tree_r) + z->column +
               8 + FC_DRG_PARENTS * z->column + 8 + FC_EXP_PARENTS * z->column + 8 + s->layers * z->labeling +
               z->labeling;
}

static cuzk_status read_field(fc_bin_reader *r, const char *name, uint8_t out[32], bool field)
{
    cuzk_fp_key(&r->fp, name);
    cuzk_status st = fc_bin_bytes32(r, out, field);
    cuzk_fp_pop(&r->fp);
    return st;
}

static cuzk_status read_column(fc_bin_reader *r, fc_column_proof *c, const c1_sizes *z)
{
    cuzk_status st;
    uint64_t n;
    cuzk_fp_key(&r->fp, "column");
    cuzk_fp_key(&r->fp, "index");
    if ((st = fc_bin_u32(r, &c->index)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "rows");
    if ((st = fc_bin_count(r, z->layers, 32, &n)))
        return st;
    if (!(c->rows = malloc(n * sizeof *c->rows)))
        return fc_bin_fail(r, r->pos, CUZK_E_NOMEM, "out of memory");
    c->nrows = (uint32_t)n;
    cuzk_fp_index(&r->fp, 0);
    for (uint64_t l = 0; l < n; l++) {
        cuzk_fp_set_index(&r->fp, l);
        if ((st = fc_bin_bytes32(r, c->rows[l], true)))
            return st;
    }
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "inclusion_proof");
    if ((st = fc_merkle_read_bincode(r, &c->proof, &z->tree_r)))
        return st;
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

static cuzk_status read_labeling(fc_bin_reader *r, fc_labeling_proof *l)
{
    cuzk_status st;
    uint64_t n;
    cuzk_fp_key(&r->fp, "parents");
    if ((st = fc_bin_count(r, FC_LABEL_PARENTS, 32, &n)))
        return st;
    cuzk_fp_index(&r->fp, 0);
    for (unsigned i = 0; i < FC_LABEL_PARENTS; i++) {
        cuzk_fp_set_index(&r->fp, i);
        if ((st = fc_bin_bytes32(r, l->parents[i], true)))
            return st;
    }
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "layer_index");
    if ((st = fc_bin_u32(r, &l->layer_index)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "node");
    if ((st = fc_bin_u64(r, &l->node)))
        return st;
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

static cuzk_status read_columns(fc_bin_reader *r, const char *name, fc_column_proof *cols, unsigned count,
                                const c1_sizes *z)
{
    uint64_t n;
    cuzk_status st;
    cuzk_fp_key(&r->fp, name);
    if ((st = fc_bin_count(r, count, z->column, &n)))
        return st;
    cuzk_fp_index(&r->fp, 0);
    for (unsigned i = 0; i < count; i++) {
        cuzk_fp_set_index(&r->fp, i);
        if ((st = read_column(r, &cols[i], z)))
            return st;
    }
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

static cuzk_status read_proof(fc_bin_reader *r, fc_porep_challenge_proof *p, const c1_sizes *z)
{
    cuzk_status st;
    uint64_t n;
    cuzk_fp_key(&r->fp, "comm_d_proofs");
    if ((st = fc_merkle_read_bincode(r, &p->comm_d_proof, &z->tree_d)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "comm_r_last_proof");
    if ((st = fc_merkle_read_bincode(r, &p->comm_r_last_proof, &z->tree_r)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "replica_column_proofs");
    cuzk_fp_key(&r->fp, "c_x");
    if ((st = read_column(r, &p->c_x, z)))
        return st;
    cuzk_fp_pop(&r->fp);
    if ((st = read_columns(r, "drg_parents", p->drg, FC_DRG_PARENTS, z)) ||
        (st = read_columns(r, "exp_parents", p->exp, FC_EXP_PARENTS, z)))
        return st;
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "labeling_proofs");
    if ((st = fc_bin_count(r, z->layers, z->labeling, &n)))
        return st;
    if (!(p->labeling = calloc(n, sizeof *p->labeling)))
        return fc_bin_fail(r, r->pos, CUZK_E_NOMEM, "out of memory");
    p->nlabeling = (uint32_t)n;
    cuzk_fp_index(&r->fp, 0);
    for (uint64_t l = 0; l < n; l++) {
        cuzk_fp_set_index(&r->fp, l);
        if ((st = read_labeling(r, &p->labeling[l])))
            return st;
    }
    cuzk_fp_pop(&r->fp);
    cuzk_fp_pop(&r->fp);
    cuzk_fp_key(&r->fp, "encoding_proof");
    if ((st = read_labeling(r, &p->encoding)))
        return st;
    cuzk_fp_pop(&r->fp);
    return CUZK_OK;
}

static cuzk_status read_c1(fc_bin_reader *r, fc_c1_output *out, bool c2in)
{
    cuzk_status st;
    uint32_t v;
    size_t at = r->pos;
    if (c2in) {
        if ((st = fc_bin_u32(r, &v)))
            return st;
        if (v != 0)
            return fc_bin_fail(r, at, CUZK_E_FORMAT, "C2Input variant %u, expected 0 (V0)", v);
    }
    cuzk_fp_key(&r->fp, "registered_proof");
    at = r->pos;
    if ((st = fc_bin_u32(r, &v)))
        return st;
    const fc_seal_proof *rp;
    if (fc_seal_proof_get(v, &rp, NULL) != CUZK_OK)
        return fc_bin_fail(r, at, CUZK_E_UNSUPPORTED, "unknown RegisteredSealProof %u (known 0..%u)", v,
                           FC_SEAL_PROOF_COUNT - 1);
    cuzk_fp_pop(&r->fp);
    out->registered_proof = rp;
    cuzk_fp_key(&r->fp, "vanilla_proofs");
    at = r->pos;
    if ((st = fc_bin_u32(r, &v)))
        return st;
    const fc_seal_proof *variant = NULL;
    if (v >= FC_SIZE_COUNT || fc_seal_proof_get(v, &variant, NULL) != CUZK_OK)
        return fc_bin_fail(r, at, CUZK_E_FORMAT, "VanillaSealProof variant %u, expected 0..%u", v, FC_SIZE_COUNT - 1);
    if (variant->shape != rp->shape)
        return fc_bin_fail(r, at, CUZK_E_UNSUPPORTED,
                           "VanillaSealProof variant %u (%s) does not match registered proof %s (variant %u, %s)", v,
                           variant->vanilla_variant, rp->name, (unsigned)rp->shape->size, rp->vanilla_variant);
    cuzk_fp_key(&r->fp, rp->vanilla_variant);
    c1_sizes z;
    sizes_of(rp->shape, &z);
    unsigned P = rp->partitions, C = rp->challenges_per_partition;
    uint64_t n;
    if ((st = fc_bin_count(r, P, 8 + C * z.proof, &n)))
        return st;
    if (!(out->proofs = calloc((size_t)P * C, sizeof *out->proofs)))
        return fc_bin_fail(r, r->pos, CUZK_E_NOMEM, "out of memory for %u proofs", P * C);
    out->partitions = P;
    out->challenges = C;
    cuzk_fp_index(&r->fp, 0);
    for (unsigned k = 0; k < P; k++) {
        cuzk_fp_set_index(&r->fp, k);
        if ((st = fc_bin_count(r, C, z.proof, &n)))
            return st;
        cuzk_fp_index(&r->fp, 0);
        for (unsigned i = 0; i < C; i++) {
            cuzk_fp_set_index(&r->fp, i);
            if ((st = read_proof(r, &out->proofs[(size_t)k * C + i], &z)))
                return st;
        }
        cuzk_fp_pop(&r->fp);
    }
    r->fp.depth = 0;
    if ((st = read_field(r, "comm_r", out->comm_r, true)) || (st = read_field(r, "comm_d", out->comm_d, true)) ||
        (st = read_field(r, "replica_id", out->replica_id, true)) ||
        (st = read_field(r, "seed", out->seed, false)) || (st = read_field(r, "ticket", out->ticket, false)))
        return st;
    if (c2in) {
        if ((st = read_field(r, "prover_id", out->prover_id, false)))
            return st;
        cuzk_fp_key(&r->fp, "sector_id");
        if ((st = fc_bin_u64(r, &out->sector_id)))
            return st;
        cuzk_fp_pop(&r->fp);
        out->has_sector = true;
    }
    return fc_bin_end(r);
}

cuzk_status fc_c1_read_bincode(fc_c1_output *out, const uint8_t *buf, size_t len, bool c2in, cuzk_error *err)
{
    fc_bin_reader r;
    fc_bin_init(&r, buf, len, c2in ? "C1 bincode (C2Input)" : "C1 bincode", err);
    return read_c1(&r, out, c2in);
}

static void write_column(cuzk_outbuf *o, const fc_column_proof *c)
{
    cuzk_out_u32le(o, c->index);
    cuzk_out_u64le(o, c->nrows);
    cuzk_out_bytes(o, c->rows, 32 * (size_t)c->nrows);
    fc_merkle_write_bincode(o, &c->proof);
}

static void write_labeling(cuzk_outbuf *o, const fc_labeling_proof *l)
{
    cuzk_out_u64le(o, FC_LABEL_PARENTS);
    cuzk_out_bytes(o, l->parents, sizeof l->parents);
    cuzk_out_u32le(o, l->layer_index);
    cuzk_out_u64le(o, l->node);
}

void fc_c1_write_bincode(const fc_c1_output *c1, bool c2in, cuzk_outbuf *o)
{
    const fc_seal_proof *rp = c1->registered_proof;
    c1_sizes z;
    sizes_of(rp->shape, &z);
    cuzk_out_reserve(o, 256 + (size_t)c1->partitions * (8 + c1->challenges * z.proof));
    if (c2in)
        cuzk_out_u32le(o, 0);
    cuzk_out_u32le(o, rp->id);
    cuzk_out_u32le(o, (uint32_t)rp->shape->size);
    cuzk_out_u64le(o, c1->partitions);
    for (unsigned k = 0; k < c1->partitions; k++) {
        cuzk_out_u64le(o, c1->challenges);
        for (unsigned i = 0; i < c1->challenges; i++) {
            const fc_porep_challenge_proof *p = &c1->proofs[(size_t)k * c1->challenges + i];
            fc_merkle_write_bincode(o, &p->comm_d_proof);
            fc_merkle_write_bincode(o, &p->comm_r_last_proof);
            write_column(o, &p->c_x);
            cuzk_out_u64le(o, FC_DRG_PARENTS);
            for (int s = 0; s < FC_DRG_PARENTS; s++)
                write_column(o, &p->drg[s]);
            cuzk_out_u64le(o, FC_EXP_PARENTS);
            for (int s = 0; s < FC_EXP_PARENTS; s++)
                write_column(o, &p->exp[s]);
            cuzk_out_u64le(o, p->nlabeling);
            for (uint32_t l = 0; l < p->nlabeling; l++)
                write_labeling(o, &p->labeling[l]);
            write_labeling(o, &p->encoding);
        }
    }
    cuzk_out_bytes(o, c1->comm_r, 32);
    cuzk_out_bytes(o, c1->comm_d, 32);
    cuzk_out_bytes(o, c1->replica_id, 32);
    cuzk_out_bytes(o, c1->seed, 32);
    cuzk_out_bytes(o, c1->ticket, 32);
    if (c2in) {
        cuzk_out_bytes(o, c1->prover_id, 32);
        cuzk_out_u64le(o, c1->sector_id);
    }
}
