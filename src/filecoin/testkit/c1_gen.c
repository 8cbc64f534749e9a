/* C1 vanilla-proof generation; contracts in c1_gen.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/core/graph.h"
#include "filecoin/core/seal/sdr.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/testkit/c1_gen.h"

static cuzk_status column_proof(const fc_porep_view *v, uint64_t node, fc_column_proof *out, cuzk_error *err)
{
    unsigned L = v->proof->shape->layers;
    out->index = (uint32_t)node;
    out->nrows = L;
    out->rows = malloc((size_t)L * 32);
    if (!out->rows)
        return cuzk_fail(err, CUZK_E_NOMEM, "column of node %" PRIu64, node);
    cuzk_status st = v->column(v->column_ctx, node, out->rows, err);
    return st == CUZK_OK ? fc_tree_prove(&v->tree_c, node, &out->proof, err) : st;
}

static void labeling_slots(const fc_porep_challenge_proof *pr, unsigned layer, uint8_t slots[FC_LABEL_PARENTS][32])
{
    uint8_t e[FC_GRAPH_PARENTS][32] = {{0}};
    for (unsigned i = 0; i < FC_DRG_PARENTS; i++)
        memcpy(e[i], pr->drg[i].rows[layer - 1], 32);
    for (unsigned i = 0; layer > 1 && i < FC_EXP_PARENTS; i++)
        memcpy(e[FC_DRG_PARENTS + i], pr->exp[i].rows[layer - 2], 32);
    fc_sdr_slots(layer, (const uint8_t(*)[32])e, slots);
}

static cuzk_status challenge_proof(const fc_porep_view *v, const fc_graph *g, uint64_t c, fc_porep_challenge_proof *pr,
                                   cuzk_error *err)
{
    unsigned L = v->proof->shape->layers;
    uint32_t drg[FC_DRG_PARENTS], exp[FC_EXP_PARENTS];
    fc_graph_drg_parents(g, c, drg);
    fc_graph_exp_parents(g, c, exp);
    cuzk_status st = fc_tree_prove(&v->tree_d, c, &pr->comm_d_proof, err);
    if (st == CUZK_OK)
        st = fc_tree_prove(&v->tree_r, c, &pr->comm_r_last_proof, err);
    if (st == CUZK_OK)
        st = column_proof(v, c, &pr->c_x, err);
    for (unsigned i = 0; i < FC_DRG_PARENTS && st == CUZK_OK; i++)
        st = column_proof(v, drg[i], &pr->drg[i], err);
    for (unsigned i = 0; i < FC_EXP_PARENTS && st == CUZK_OK; i++)
        st = column_proof(v, exp[i], &pr->exp[i], err);
    if (st == CUZK_OK && !(pr->labeling = calloc(L, sizeof *pr->labeling)))
        st = cuzk_fail(err, CUZK_E_NOMEM, "labeling proofs");
    if (st != CUZK_OK)
        return st;
    pr->nlabeling = L;
    for (unsigned l = 1; l <= L; l++) {
        fc_labeling_proof *lp = &pr->labeling[l - 1];
        labeling_slots(pr, l, lp->parents);
        lp->layer_index = l;
        lp->node = c;
    }
    pr->encoding = pr->labeling[L - 1];
    return CUZK_OK;
}

cuzk_status fc_c1_generate(const fc_porep_view *v, const uint8_t seed[32], fc_c1_output *out, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    const fc_seal_proof *p = v->proof;
    fc_graph g;
    cuzk_status st = fc_graph_init(&g, p, err);
    if (st != CUZK_OK)
        return st;
    unsigned P = p->partitions, C = p->challenges_per_partition;
    out->registered_proof = p;
    out->partitions = P;
    out->challenges = C;
    memcpy(out->comm_r, v->comm_r, 32);
    memcpy(out->comm_d, v->comm_d, 32);
    memcpy(out->replica_id, v->replica_id, 32);
    memcpy(out->seed, seed, 32);
    memcpy(out->ticket, v->ticket, 32);
    out->has_sector = true;
    memcpy(out->prover_id, v->prover_id, 32);
    out->sector_id = v->sector_id;
    out->proofs = calloc((size_t)P * C, sizeof *out->proofs);
    uint64_t *ch = calloc(C, sizeof *ch);
    if (!out->proofs || !ch)
        st = cuzk_fail(err, CUZK_E_NOMEM, "C1 output of %u x %u challenges", P, C);
    for (unsigned k = 0; k < P && st == CUZK_OK; k++) {
        st = fc_porep_challenges(p, v->replica_id, seed, v->comm_r, k, ch, err);
        for (unsigned i = 0; i < C && st == CUZK_OK; i++)
            st = challenge_proof(v, &g, ch[i], &out->proofs[(size_t)k * C + i], err);
    }
    free(ch);
    if (st != CUZK_OK)
        fc_c1_free(out);
    return st;
}
