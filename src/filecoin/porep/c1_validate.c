/* Semantic validation of a C1 output (docs/formats.md#c1-output-json; storage-proofs-porep
 * stacked/vanilla/params.rs Proof::verify,
 * docs/fixtures.md#what-the-porep-circuit-ties-together); contract at fc_c1_validate in
 * porep.h. Everything the partition circuits will enforce is recomputed natively here, so a C1
 * that passes synthesizes into satisfied circuits, and one that does not is refused with the
 * JSON path of the first inconsistent field. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/hex.h"
#include "filecoin/core/seal/sdr.h"
#include "filecoin/porep/challenges.h"
#include "filecoin/porep/porep.h"

#define WHERE_MAX 192
#define MAX_LAYERS 11
#define MAX_REGISTERED_CHALLENGES 18u
#define PATH_MAX_SIBLINGS (FC_MERKLE_MAX_LEVELS * 15)

typedef struct {
    const fc_c1_output *c1;
    fc_porep_circuit_params cp;
    const uint8_t *comm_c, *comm_r_last; /* roots of the C1's first proof */
    cuzk_error *err;
    /* scratch for fc_merkle_proof_to_fr */
    unsigned idx[FC_MERKLE_MAX_LEVELS];
    fr_t sib[PATH_MAX_SIBLINGS];
} vctx;

static cuzk_status mismatch32(cuzk_error *err, const char *where, const char *expected_what, const uint8_t *expected,
                              const uint8_t *got)
{
    char e[65], g[65];
    cuzk_hex(e, expected, 32);
    cuzk_hex(g, got, 32);
    return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: expected %s %s, got %s", where, expected_what, e, g);
}

static bool all_zero(const uint8_t b[32])
{
    uint8_t acc = 0;
    for (int i = 0; i < 32; i++)
        acc |= b[i];
    return acc == 0;
}

static cuzk_status canonical(cuzk_error *err, const uint8_t b[32], const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

static cuzk_status canonical(cuzk_error *err, const uint8_t b[32], const char *fmt, ...)
{
    fr_t x;
    if (fr_from_bytes_le(&x, b) == CUZK_OK)
        return CUZK_OK;
    char w[WHERE_MAX], h[65];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(w, sizeof w, fmt, ap);
    va_end(ap);
    cuzk_hex(h, b, 32);
    return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: %s is not a canonical field element (>= r)", w, h);
}

/* The JSON variant name of a Merkle proof (docs/formats.md#c1-output-json, ProofData). */
static const char *kind_name(const fc_merkle_proof *p)
{
    static const char *const kinds[] = {"Single", "Sub", "Top"};
    return kinds[p->kind <= FC_MP_TOP ? p->kind : 0];
}

/* JSON path of path element l of a Merkle proof (docs/formats.md#c1-output-json, MerkleProof). */
static void level_name(char *out, size_t cap, const char *base, const fc_merkle_proof *p, unsigned l)
{
    const char *kind = kind_name(p);
    unsigned base_levels = fc_merkle_proof_base_levels(p);
    if (p->kind == FC_MP_SINGLE)
        snprintf(out, cap, "%s.data.Single.path.path[%u]", base, l);
    else if (l < base_levels)
        snprintf(out, cap, "%s.data.%s.base_proof.path[%u]", base, kind, l);
    else
        snprintf(out, cap, "%s.data.%s.%s_proof.path[0]", base, kind, l == base_levels ? "sub" : "top");
}

/* The path's indices must spell `node` (base levels first, each digit in its level's
 * arity), its root must be `root`, and every value must be canonical; then the path must
 * hash to its root. */
static cuzk_status check_path(vctx *v, const fc_merkle_proof *p, merkle_hasher h, const char *base, uint64_t node,
                              const char *node_what, const uint8_t *root, const char *root_what)
{
    char w[WHERE_MAX];
    uint64_t rest = node;
    for (unsigned l = 0; l < p->nlevels; l++) {
        unsigned want = (unsigned)(rest % p->arity[l]);
        rest /= p->arity[l];
        if (p->index[l] != want) {
            level_name(w, sizeof w, base, p, l);
            return cuzk_fail(v->err, CUZK_E_VERIFY_FAILED,
                             "%s.index: expected %u, got %u (the path leads to node %llu, expected %s %llu)", w, want,
                             p->index[l], (unsigned long long)fc_merkle_proof_node(p), node_what,
                             (unsigned long long)node);
        }
    }
    if (rest)
        return cuzk_fail(v->err, CUZK_E_VERIFY_FAILED, "%s: node %llu does not fit a path of %u levels", base,
                         (unsigned long long)node, p->nlevels);
    if (memcmp(p->root, root, 32) != 0) {
        snprintf(w, sizeof w, "%s.data.%s.root", base, kind_name(p));
        return mismatch32(v->err, w, root_what, root, p->root);
    }
    fr_t leaf, rt;
    cuzk_status st = fc_merkle_proof_to_fr(p, base, v->idx, v->sib, &leaf, &rt, v->err);
    if (st == CUZK_OK)
        st = fc_merkle_proof_verify(p, h, base, v->err);
    return st;
}

/* A column proof of node `node`: index, rows canonical, column hash = inclusion leaf, path
 * to comm_c. */
static cuzk_status check_column(vctx *v, const fc_column_proof *col, const char *base, uint64_t node,
                                const char *node_what)
{
    char w[WHERE_MAX];
    cuzk_status st;
    if (col->index != node)
        return cuzk_fail(v->err, CUZK_E_VERIFY_FAILED, "%s.column.index: expected %s %llu, got %u", base, node_what,
                         (unsigned long long)node, col->index);
    for (unsigned r = 0; r < col->nrows; r++)
        if ((st = canonical(v->err, col->rows[r], "%s.column.rows[%u]", base, r)))
            return st;
    uint8_t h[32];
    if ((st = merkle_hash_native(MERKLE_POSEIDON, (const uint8_t(*)[32])col->rows, col->nrows, h, v->err)))
        return st;
    if (memcmp(h, col->proof.leaf, 32) != 0) {
        snprintf(w, sizeof w, "%s.inclusion_proof.data.%s.leaf", base, kind_name(&col->proof));
        return mismatch32(v->err, w, "the column hash Poseidon(column.rows) =", h, col->proof.leaf);
    }
    snprintf(w, sizeof w, "%s.inclusion_proof", base);
    return check_path(v, &col->proof, MERKLE_POSEIDON, w, node, node_what, v->comm_c, "comm_c (first c_x root)");
}

/* A labeling / encoding proof: layer, node and the 37 parent slots as the columns give them. */
static cuzk_status check_labeling(vctx *v, const fc_labeling_proof *lp, const char *base, unsigned layer,
                                  uint64_t node, const uint8_t (*slots)[32])
{
    if (lp->layer_index != layer)
        return cuzk_fail(v->err, CUZK_E_VERIFY_FAILED, "%s.layer_index: expected %u, got %u", base, layer,
                         lp->layer_index);
    if (lp->node != node)
        return cuzk_fail(v->err, CUZK_E_VERIFY_FAILED, "%s.node: expected challenge %llu, got %llu", base,
                         (unsigned long long)node, (unsigned long long)lp->node);
    for (unsigned s = 0; s < FC_LABEL_PARENTS; s++)
        if (memcmp(lp->parents[s], slots[s], 32) != 0) {
            char w[WHERE_MAX];
            snprintf(w, sizeof w, "%s.parents[%u]", base, s);
            return mismatch32(v->err, w, "the parent column value", slots[s], lp->parents[s]);
        }
    return CUZK_OK;
}

/* The 37 label-preimage parent slots of layer l from the parent columns (storage-proofs-porep
 * Proof::from_parts, graph.rs copy_parents_data): the base list is the DRG parents' rows at
 * layer l, then (l >= 2) the expander parents' rows at layer l - 1, repeated as the sealer
 * does (fc_sdr_slots). */
static void label_slots(const fc_porep_challenge_proof *pr, unsigned l, uint8_t (*slots)[32])
{
    uint8_t e[FC_GRAPH_PARENTS][32] = {{0}};
    for (unsigned j = 0; j < FC_DRG_PARENTS; j++)
        memcpy(e[j], pr->drg[j].rows[l - 1], 32);
    for (unsigned j = 0; l > 1 && j < FC_EXP_PARENTS; j++)
        memcpy(e[FC_DRG_PARENTS + j], pr->exp[j].rows[l - 2], 32);
    fc_sdr_slots(l, (const uint8_t(*)[32])e, slots);
}

static cuzk_status check_challenge(vctx *v, const fc_porep_challenge_proof *pr, uint32_t k, unsigned i, uint64_t c,
                                   const uint32_t parents[FC_POREP_PARENTS])
{
    const fc_c1_output *c1 = v->c1;
    unsigned L = v->cp.layers;
    char base[WHERE_MAX], w[WHERE_MAX];
    cuzk_status st;
    snprintf(base, sizeof base, "vanilla_proofs[%u][%u]", k, i);

    /* tree D: the data leaf at the challenge under comm_d */
    snprintf(w, sizeof w, "%s.comm_d_proofs", base);
    if ((st = check_path(v, &pr->comm_d_proof, MERKLE_SHA256, w, c, "challenge", c1->comm_d, "comm_d")))
        return st;

    /* the 14 parent columns and the challenged column */
    for (unsigned j = 0; j < FC_POREP_PARENTS; j++) {
        bool drg = j < FC_DRG_PARENTS;
        unsigned jj = drg ? j : j - FC_DRG_PARENTS;
        snprintf(w, sizeof w, "%s.replica_column_proofs.%s[%u]", base, drg ? "drg_parents" : "exp_parents", jj);
        if ((st = check_column(v, drg ? &pr->drg[jj] : &pr->exp[jj], w, parents[j],
                               drg ? "DRG parent" : "expander parent")))
            return st;
    }
    snprintf(w, sizeof w, "%s.replica_column_proofs.c_x", base);
    if ((st = check_column(v, &pr->c_x, w, c, "challenge")))
        return st;

    /* labels: c_x.rows[l - 1] = create_label(replica_id, l, c, slots of l) */
    if (pr->nlabeling != L)
        return cuzk_fail(v->err, CUZK_E_VERIFY_FAILED, "%s.labeling_proofs: %u entries, expected one per layer (%u)",
                         base, pr->nlabeling, L);
    uint8_t slots[FC_LABEL_PARENTS][32], label[32];
    for (unsigned l = 1; l <= L; l++) {
        label_slots(pr, l, slots);
        fc_sdr_label(c1->replica_id, l, c, (const uint8_t(*)[32])slots, label);
        if (memcmp(label, pr->c_x.rows[l - 1], 32) != 0) {
            snprintf(w, sizeof w, "%s.replica_column_proofs.c_x.column.rows[%u]", base, l - 1);
            return mismatch32(v->err, w, "the label computed from the parent columns", label,
                              pr->c_x.rows[l - 1]);
        }
        snprintf(w, sizeof w, "%s.labeling_proofs[%u]", base, l - 1);
        if ((st = check_labeling(v, &pr->labeling[l - 1], w, l, c, (const uint8_t(*)[32])slots)))
            return st;
    }
    snprintf(w, sizeof w, "%s.encoding_proof", base);
    if ((st = check_labeling(v, &pr->encoding, w, L, c, (const uint8_t(*)[32])slots)))
        return st;

    /* tree R: the replica leaf label_L + data at the challenge under comm_r_last (both
     * values were found canonical above) */
    fr_t key, data, enc;
    fr_from_bytes_le(&key, pr->c_x.rows[L - 1]);
    fr_from_bytes_le(&data, pr->comm_d_proof.leaf);
    fr_add(&enc, &key, &data);
    uint8_t encb[32];
    fr_to_bytes_le(encb, &enc);
    const fc_merkle_proof *r = &pr->comm_r_last_proof;
    if (memcmp(encb, r->leaf, 32) != 0) {
        snprintf(w, sizeof w, "%s.comm_r_last_proof.data.%s.leaf", base, kind_name(r));
        return mismatch32(v->err, w, "the encoding label_L + data leaf =", encb, r->leaf);
    }
    snprintf(w, sizeof w, "%s.comm_r_last_proof", base);
    return check_path(v, r, MERKLE_POSEIDON, w, c, "challenge", v->comm_r_last, "comm_r_last (first proof's root)");
}

static cuzk_status validate(vctx *v)
{
    const fc_c1_output *c1 = v->c1;
    const fc_seal_proof *p = c1->registered_proof;
    cuzk_error *err = v->err;
    cuzk_status st;
    if ((st = fc_c1_check_shape(c1, err))) /* counts, path shapes, rows, labeling proofs */
        return st;
    if ((st = canonical(err, c1->comm_d, "comm_d")) || (st = canonical(err, c1->comm_r, "comm_r")) ||
        (st = canonical(err, c1->replica_id, "replica_id")))
        return st;
    if (all_zero(c1->comm_d))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "comm_d: all zero (invalid commitment)");
    if (all_zero(c1->comm_r))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "comm_r: all zero (invalid commitment)");
    if (all_zero(c1->seed))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "seed: all zero (invalid PoRep challenge seed)");
    if (c1->has_sector) {
        uint8_t rid[32];
        fc_replica_id(c1->prover_id, c1->sector_id, c1->ticket, c1->comm_d, p->porep_id, rid);
        if (memcmp(rid, c1->replica_id, 32) != 0)
            return mismatch32(err, "replica_id",
                              "SHA-256(prover_id, sector_id, ticket, comm_d, porep_id) =", rid, c1->replica_id);
    }

    /* comm_r = Poseidon_2(comm_c, comm_r_last) with the first proof's roots */
    v->comm_r_last = c1->proofs[0].comm_r_last_proof.root;
    v->comm_c = c1->proofs[0].c_x.proof.root;
    if ((st = canonical(err, v->comm_c, "vanilla_proofs[0][0].replica_column_proofs.c_x.inclusion_proof.data.%s.root",
                        kind_name(&c1->proofs[0].c_x.proof))) ||
        (st = canonical(err, v->comm_r_last, "vanilla_proofs[0][0].comm_r_last_proof.data.%s.root",
                        kind_name(&c1->proofs[0].comm_r_last_proof))))
        return st;
    uint8_t pre[2][32], h[32];
    memcpy(pre[0], v->comm_c, 32);
    memcpy(pre[1], v->comm_r_last, 32);
    if ((st = merkle_hash_native(MERKLE_POSEIDON, (const uint8_t(*)[32])pre, 2, h, err)))
        return st;
    if (memcmp(h, c1->comm_r, 32) != 0)
        return mismatch32(err, "comm_r", "Poseidon_2(comm_c, comm_r_last) of the first proof =", h, c1->comm_r);

    uint64_t ch[MAX_REGISTERED_CHALLENGES];
    uint32_t par[MAX_REGISTERED_CHALLENGES][FC_POREP_PARENTS];
    for (uint32_t k = 0; k < p->partitions; k++) {
        if ((st = fc_porep_partition_nodes(c1, k, ch, par, err)))
            return st;
        for (unsigned i = 0; i < p->challenges_per_partition; i++)
            if ((st = check_challenge(v, &c1->proofs[(size_t)k * p->challenges_per_partition + i], k, i, ch[i],
                                      par[i])))
                return st;
    }
    return CUZK_OK;
}

cuzk_status fc_c1_validate(const fc_c1_output *c1, cuzk_error *err)
{
    if (!c1 || !c1->registered_proof || !c1->proofs)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "C1 output: %s", !c1 ? "missing" : !c1->registered_proof
                                                                                         ? "no registered_proof"
                                                                                         : "no vanilla_proofs");
    if (c1->registered_proof->challenges_per_partition > MAX_REGISTERED_CHALLENGES)
        return cuzk_fail(err, CUZK_E_INTERNAL, "C1 output: %s has %u challenges per partition",
                         c1->registered_proof->name, c1->registered_proof->challenges_per_partition);
    vctx *v = malloc(sizeof *v);
    if (!v)
        return cuzk_fail(err, CUZK_E_NOMEM, "C1 validation: out of memory");
    v->c1 = c1;
    fc_porep_circuit_params_of(c1->registered_proof, &v->cp);
    v->err = err;
    cuzk_status st = validate(v);
    free(v);
    return st;
}
