/* C1 output: free, form detection, read/write dispatch and the shape check; contracts in
 * vanilla.h and porep/c1_codec.h. */
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/bincode.h"
#include "filecoin/porep/c1_codec.h"

static void free_column(fc_column_proof *c)
{
    free(c->rows);
    fc_merkle_proof_free(&c->proof);
}

static void free_proof(fc_porep_challenge_proof *p)
{
    fc_merkle_proof_free(&p->comm_d_proof);
    fc_merkle_proof_free(&p->comm_r_last_proof);
    free_column(&p->c_x);
    for (int i = 0; i < FC_DRG_PARENTS; i++)
        free_column(&p->drg[i]);
    for (int i = 0; i < FC_EXP_PARENTS; i++)
        free_column(&p->exp[i]);
    free(p->labeling);
}

void fc_c1_free(fc_c1_output *c1)
{
    if (!c1)
        return;
    for (size_t k = 0; c1->proofs && k < (size_t)c1->partitions * c1->challenges; k++)
        free_proof(&c1->proofs[k]);
    free(c1->proofs);
    memset(c1, 0, sizeof *c1);
}

const fc_seal_proof *fc_c1_variant_proof(const char *name, size_t n)
{
    for (unsigned id = 0; id < FC_SIZE_COUNT; id++) {
        const fc_seal_proof *p;
        if (fc_seal_proof_get(id, &p, NULL) == CUZK_OK && strlen(p->vanilla_variant) == n &&
            !memcmp(p->vanilla_variant, name, n))
            return p;
    }
    return NULL;
}

unsigned fc_c1_max_partitions(const fc_sector_shape *s)
{
    unsigned m = 0;
    for (unsigned id = 0; id < FC_SEAL_PROOF_COUNT; id++) {
        const fc_seal_proof *p;
        if (fc_seal_proof_get(id, &p, NULL) == CUZK_OK && p->shape == s && p->partitions > m)
            m = p->partitions;
    }
    return m;
}

static bool has_key(const uint8_t *buf, size_t len, const char *key)
{
    size_t n = strlen(key);
    for (size_t i = 0; i + n <= len; i++)
        if (buf[i] == '"' && !memcmp(buf + i, key, n))
            return true;
    return false;
}

fc_c1_format fc_c1_detect(const uint8_t *buf, size_t len)
{
    size_t i = 0;
    while (i < len && (buf[i] == ' ' || buf[i] == '\n' || buf[i] == '\r' || buf[i] == '\t'))
        i++;
    if (i < len && buf[i] == '[')
        return FC_C1_JSON; /* JSON, not a C1 object: the JSON reader says so, not bincode */
    if (i < len && buf[i] == '{') {
        /* Curio's envelope has only three keys; one of them starts the object. */
        size_t head = len - i < 4096 ? len - i : 4096;
        if (has_key(buf + i, head, "\"Phase1Out\"") || has_key(buf + i, head, "\"SectorNum\"") ||
            has_key(buf + i, head, "\"SectorSize\""))
            return FC_C1_ENVELOPE;
        return FC_C1_JSON;
    }
    if (len >= 12) {
        uint32_t w[3];
        for (int k = 0; k < 3; k++)
            w[k] = (uint32_t)buf[4 * k] | (uint32_t)buf[4 * k + 1] << 8 | (uint32_t)buf[4 * k + 2] << 16 |
                   (uint32_t)buf[4 * k + 3] << 24;
        const fc_seal_proof *p, *p0;
        /* C2Input::V0 then a seal id and its vanilla variant; a bare output would have its
         * partition count (>= 1) where the variant is. With u32 0 and a seal id but another
         * variant, the bare reading (registered proof 0, its variant, its partition count)
         * must fit too, else it is a C2Input whose variant the reader refuses (offset 8) */
        if (w[0] == 0 && fc_seal_proof_get(w[1], &p, NULL) == CUZK_OK) {
            if (w[2] == (uint32_t)p->shape->size)
                return FC_C1_BINCODE_C2IN;
            bool bare = fc_seal_proof_get(0, &p0, NULL) == CUZK_OK && w[1] == (uint32_t)p0->shape->size &&
                        w[2] == p0->partitions;
            if (!bare)
                return FC_C1_BINCODE_C2IN;
        }
    }
    return FC_C1_BINCODE;
}

cuzk_status fc_c1_read(fc_c1_output *out, const uint8_t *buf, size_t len, fc_c1_format format, bool auto_detect,
                       cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (!buf && len)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_c1_read: NULL buffer");
    if (auto_detect)
        format = fc_c1_detect(buf, len);
    cuzk_status st;
    switch (format) {
    case FC_C1_JSON: st = fc_c1_read_json(out, buf, len, "C1 JSON", err); break;
    case FC_C1_ENVELOPE: st = fc_c1_read_envelope(out, buf, len, err); break;
    case FC_C1_BINCODE: st = fc_c1_read_bincode(out, buf, len, false, err); break;
    case FC_C1_BINCODE_C2IN: st = fc_c1_read_bincode(out, buf, len, true, err); break;
    default: return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_c1_read: unknown format %d", (int)format);
    }
    if (st)
        fc_c1_free(out);
    return st;
}

static cuzk_status check_column(const fc_column_proof *c, const fc_seal_proof *rp, const merkle_shape *tree_c,
                                size_t at, unsigned k, unsigned i, const char *name, int slot, cuzk_error *err)
{
    if (c->nrows != rp->shape->layers || !c->rows)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "C1 proofs[%zu] (partition %u challenge %u) %s[%d]: %u rows, expected %u (layers)", at, k, i,
                         name, slot, c->nrows, rp->shape->layers);
    if (!fc_merkle_proof_is(&c->proof, tree_c))
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "C1 proofs[%zu] (partition %u challenge %u) %s[%d]: tree C proof is not of the %s tree shape",
                         at, k, i, name, slot, rp->shape->name);
    return CUZK_OK;
}

cuzk_status fc_c1_check_shape(const fc_c1_output *c1, cuzk_error *err)
{
    const fc_seal_proof *rp = c1->registered_proof;
    if (!rp)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "C1: registered_proof is not set");
    if (c1->partitions != rp->partitions || c1->challenges != rp->challenges_per_partition || !c1->proofs)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "C1: %u partitions x %u challenges, %s has %u x %u", c1->partitions,
                         c1->challenges, rp->name, rp->partitions, rp->challenges_per_partition);
    merkle_shape tree_d = fc_tree_d_shape(rp->shape), tree_r = fc_tree_r_shape(rp->shape);
    cuzk_status st;
    for (unsigned k = 0; k < c1->partitions; k++)
        for (unsigned i = 0; i < c1->challenges; i++) {
            size_t at = (size_t)k * c1->challenges + i;
            const fc_porep_challenge_proof *p = &c1->proofs[at];
            if (!fc_merkle_proof_is(&p->comm_d_proof, &tree_d) || !fc_merkle_proof_is(&p->comm_r_last_proof, &tree_r))
                return cuzk_fail(err, CUZK_E_INVALID_ARG,
                                 "C1 proofs[%zu] (partition %u challenge %u): comm_d_proofs or comm_r_last_proof is "
                                 "not of the %s tree shape",
                                 at, k, i, rp->shape->name);
            if ((st = check_column(&p->c_x, rp, &tree_r, at, k, i, "c_x", 0, err)))
                return st;
            for (int s = 0; s < FC_DRG_PARENTS; s++)
                if ((st = check_column(&p->drg[s], rp, &tree_r, at, k, i, "drg_parents", s, err)))
                    return st;
            for (int s = 0; s < FC_EXP_PARENTS; s++)
                if ((st = check_column(&p->exp[s], rp, &tree_r, at, k, i, "exp_parents", s, err)))
                    return st;
            if (p->nlabeling != rp->shape->layers || !p->labeling)
                return cuzk_fail(err, CUZK_E_INVALID_ARG,
                                 "C1 proofs[%zu] (partition %u challenge %u): %u labeling proofs, expected %u (layers)",
                                 at, k, i, p->nlabeling, rp->shape->layers);
        }
    return CUZK_OK;
}

cuzk_status fc_c1_write(const fc_c1_output *c1, fc_c1_format format, uint8_t **out, size_t *len, cuzk_error *err)
{
    *out = NULL;
    *len = 0;
    cuzk_status st = fc_c1_check_shape(c1, err);
    if (st)
        return st;
    cuzk_outbuf o = {0};
    switch (format) {
    case FC_C1_JSON: fc_c1_write_json(c1, &o); break;
    case FC_C1_ENVELOPE:
        if ((st = fc_c1_write_envelope(c1, &o, err))) {
            cuzk_out_discard(&o);
            return st;
        }
        break;
    case FC_C1_BINCODE: fc_c1_write_bincode(c1, false, &o); break;
    case FC_C1_BINCODE_C2IN:
        if (!c1->has_sector)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_c1_write: C2Input needs prover_id and sector_id (has_sector)");
        fc_c1_write_bincode(c1, true, &o);
        break;
    default: return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_c1_write: unknown format %d", (int)format);
    }
    return cuzk_out_finish(&o, out, len, "fc_c1_write", err);
}
