/* The StackedDrg partition circuit (storage-proofs-porep stacked/circuit/proof.rs); contracts in
 * porep.h. Allocation and constraint order follow StackedCircuit::synthesize and
 * Proof::synthesize of storage-proofs-porep stacked/circuit/proof.rs step by step; the
 * namespaces carry the reference's names so that a CS_CHECK failure reads like its path. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/porep/porep.h"
#include "gadgets/create_label.h"
#include "gadgets/encode.h"
#include "gadgets/poseidon.h"

#define MAX_LAYERS 11
#define COLUMNS FC_POREP_PARENTS
#define PATH_MAX_SIBLINGS (FC_MERKLE_MAX_LEVELS * 15)
#define WHERE_MAX 160

static unsigned log2_u64(uint64_t x)
{
    unsigned k = 0;
    while (k < 64 && (1ull << k) < x)
        k++;
    return k;
}

void fc_porep_circuit_params_of(const fc_seal_proof *p, fc_porep_circuit_params *out)
{
    const fc_sector_shape *s = p->shape;
    out->nodes = s->nodes;
    out->layers = s->layers;
    out->challenges = p->challenges_per_partition;
    out->tree_rc = fc_tree_r_shape(s);
}

cuzk_status fc_porep_circuit_params_check(const fc_porep_circuit_params *cp, cuzk_error *err)
{
    if (cp->nodes < 2 || cp->nodes > (1ull << 32) || (cp->nodes & (cp->nodes - 1)))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep circuit: nodes %llu is not a power of two in 2..2^32",
                         (unsigned long long)cp->nodes);
    if (cp->layers != 2 && cp->layers != MAX_LAYERS)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep circuit: layers %u (the column hash exists for 2 and 11)",
                         cp->layers);
    if (cp->challenges < 1 || cp->challenges > FC_POREP_MAX_CHALLENGES)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep circuit: challenges %u (1..%u)", cp->challenges,
                         FC_POREP_MAX_CHALLENGES);
    const merkle_shape *t = &cp->tree_rc;
    if (t->hasher != MERKLE_POSEIDON || t->base_arity > 16 || t->sub_arity > 16 || t->top_arity > 16 ||
        merkle_shape_levels(t) > FC_MERKLE_MAX_LEVELS || merkle_shape_leaves(t) != cp->nodes)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "porep circuit: tree R/C %u^%u-%u-%u (Poseidon, arities 2..16) does not have %llu leaves",
                         t->base_arity, t->base_levels, t->sub_arity, t->top_arity, (unsigned long long)cp->nodes);
    return CUZK_OK;
}

size_t fc_porep_public_input_count(const fc_porep_circuit_params *cp)
{
    return FC_POREP_HEADER_INPUTS + (size_t)FC_POREP_INPUTS_PER_CHALLENGE * cp->challenges;
}

/* ---- shape of a C1 against the circuit (memory safety before reading values) ---- */

static cuzk_status check_path(const fc_merkle_proof *p, const merkle_shape *s, const char *where, cuzk_error *err)
{
    if (!fc_merkle_proof_has_shape(p, s->base_arity, s->base_levels, s->sub_arity, s->top_arity) || !p->sib)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "%s: path of %u levels is not of the circuit's tree shape %u^%u-%u-%u", where, p->nlevels,
                         s->base_arity, s->base_levels, s->sub_arity, s->top_arity);
    return CUZK_OK;
}

static cuzk_status check_column(const fc_column_proof *col, const fc_porep_circuit_params *cp, const char *where,
                                cuzk_error *err)
{
    if (col->nrows != cp->layers || !col->rows)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s.column.rows: %u rows, the circuit has %u layers", where,
                         col->nrows, cp->layers);
    char w[WHERE_MAX];
    snprintf(w, sizeof w, "%s.inclusion_proof", where);
    return check_path(&col->proof, &cp->tree_rc, w, err);
}

cuzk_status fc_porep_c1_check_shape(const fc_porep_circuit_params *cp, const fc_c1_output *c1, uint32_t k,
                                    cuzk_error *err)
{
    if (!c1 || !c1->proofs)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep circuit: values requested but no C1 output given");
    if (c1->challenges != cp->challenges)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep circuit: C1 has %u challenges per partition, the circuit %u",
                         c1->challenges, cp->challenges);
    if (k >= c1->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "porep circuit: partition %u of a C1 with %u partitions", k,
                         c1->partitions);
    merkle_shape tree_d = {MERKLE_SHA256, 2, log2_u64(cp->nodes), 0, 0};
    char w[WHERE_MAX], w2[WHERE_MAX];
    for (unsigned i = 0; i < cp->challenges; i++) {
        const fc_porep_challenge_proof *pr = &c1->proofs[(size_t)k * cp->challenges + i];
        cuzk_status st;
        snprintf(w, sizeof w, "vanilla_proofs[%u][%u].comm_d_proofs", k, i);
        if ((st = check_path(&pr->comm_d_proof, &tree_d, w, err)))
            return st;
        snprintf(w, sizeof w, "vanilla_proofs[%u][%u].comm_r_last_proof", k, i);
        if ((st = check_path(&pr->comm_r_last_proof, &cp->tree_rc, w, err)))
            return st;
        snprintf(w, sizeof w, "vanilla_proofs[%u][%u].replica_column_proofs", k, i);
        for (unsigned c = 0; c < COLUMNS; c++) {
            const fc_column_proof *col = c < FC_DRG_PARENTS ? &pr->drg[c] : &pr->exp[c - FC_DRG_PARENTS];
            snprintf(w2, sizeof w2, "%s.%s[%u]", w, c < FC_DRG_PARENTS ? "drg_parents" : "exp_parents",
                     c < FC_DRG_PARENTS ? c : c - FC_DRG_PARENTS);
            if ((st = check_column(col, cp, w2, err)))
                return st;
        }
        snprintf(w2, sizeof w2, "%s.c_x", w);
        if ((st = check_column(&pr->c_x, cp, w2, err)))
            return st;
        if (pr->nlabeling < 1 || !pr->labeling)
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "vanilla_proofs[%u][%u].labeling_proofs: empty (the challenge is labeling_proofs[0].node)",
                             k, i);
    }
    return CUZK_OK;
}

/* ---- synthesis ---- */

typedef struct {
    cs_t *cs;
    const fc_porep_circuit_params *cp;
    merkle_shape tree_d;
    bool vals;
    gbool replica_bits[256];
    anum comm_d, comm_c, comm_r_last;
    fr_t tag_column; /* MerkleTree tag of Poseidon_L */
    cuzk_error *err;
    cuzk_status st; /* first value-conversion error */
    /* path witness, reused by every PoR */
    unsigned idx[FC_MERKLE_MAX_LEVELS];
    fr_t sib[PATH_MAX_SIBLINGS];
} porep_ctx;

static void value_of(porep_ctx *x, const uint8_t bytes[32], fr_t *out, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* A 32-byte LE field element of the C1; a non-canonical one records the error (named by
 * the printf-style path) and reads as zero so synthesis can unwind. */
static void value_of(porep_ctx *x, const uint8_t bytes[32], fr_t *out, const char *fmt, ...)
{
    if (fr_from_bytes_le(out, bytes) == CUZK_OK)
        return;
    *out = FR_ZERO;
    if (x->st == CUZK_OK) {
        char w[WHERE_MAX];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(w, sizeof w, fmt, ap);
        va_end(ap);
        x->st = cuzk_fail(x->err, CUZK_E_FIELD_NONCANONICAL, "%s: not a canonical field element (>= r)", w);
    }
}

/* PoR of `leaf` to `root` (private root) over shape s with the witness path p (NULL
 * without values); `where` names p in conversion errors. */
static void por(porep_ctx *x, const merkle_shape *s, const fc_merkle_proof *p, const anum *leaf, const anum *root,
                const char *where)
{
    merkle_path_values v = {NULL, x->idx, x->sib, NULL};
    if (x->vals) {
        fr_t lf, rt;
        cuzk_error e;
        if (fc_merkle_proof_to_fr(p, where, x->idx, x->sib, &lf, &rt, &e) != CUZK_OK && x->st == CUZK_OK) {
            x->st = e.code;
            if (x->err)
                *x->err = e;
        }
    }
    merkle_por_circuit(x->cs, s, x->vals ? &v : NULL, leaf, root, true);
}

/* Column proof (column_proof.rs): L rows allocated (layer 1 first), Poseidon_L column hash,
 * PoR in tree C to comm_c. `ns` is the reference's namespace stem ("drg_parent_3"),
 * `where` the column's C1 path for value errors. */
static void column(porep_ctx *x, const fc_column_proof *col, anum rows[MAX_LAYERS], const char *ns,
                   const char *where)
{
    cs_t *cs = x->cs;
    unsigned L = x->cp->layers;
    cs_ns_push(cs, "%s_num", ns);
    for (unsigned r = 0; r < L; r++) {
        fr_t v;
        if (x->vals)
            value_of(x, col->rows[r], &v, "%s.column.rows[%u]", where, r);
        rows[r] = anum_alloc(cs, x->vals ? &v : NULL);
    }
    cs_ns_pop(cs);
    cs_ns_push(cs, "%s_constraint", ns);
    anum h = poseidon_circuit(cs, L, &x->tag_column, rows);
    cs_ns_pop(cs);
    char w[WHERE_MAX];
    snprintf(w, sizeof w, "%s.inclusion_proof", where);
    cs_ns_push(cs, "%s_inclusion", ns);
    por(x, &x->cp->tree_rc, x->vals ? &col->proof : NULL, &h, &x->comm_c, w);
    cs_ns_pop(cs);
}

/* to_bits_le + reverse_bit_numbering: the 256 message bits of a label. */
static void label_bits(cs_t *cs, const anum *v, gbool out[256])
{
    gbool le[255];
    anum_to_bits_le(cs, v, le);
    reverse_bit_numbering(le, 255, out);
}

/* Proof::synthesize for challenge i of partition k. */
static void challenge(porep_ctx *x, const fc_porep_challenge_proof *pr, uint32_t k, unsigned i)
{
    cs_t *cs = x->cs;
    unsigned L = x->cp->layers;
    char where[WHERE_MAX], w[WHERE_MAX];
    snprintf(where, sizeof where, "vanilla_proofs[%u][%u]", k, i);

    /* data leaf and its inclusion in tree D */
    fr_t v;
    if (x->vals)
        value_of(x, pr->comm_d_proof.leaf, &v, "%s.comm_d_proofs.leaf", where);
    cs_ns_push(cs, "data_leaf");
    anum data_leaf = anum_alloc(cs, x->vals ? &v : NULL);
    cs_ns_pop(cs);
    snprintf(w, sizeof w, "%s.comm_d_proofs", where);
    cs_ns_push(cs, "comm_d_inclusion");
    por(x, &x->tree_d, x->vals ? &pr->comm_d_proof : NULL, &data_leaf, &x->comm_d, w);
    cs_ns_pop(cs);

    /* parent columns: 6 DRG, then 8 expander */
    anum cols[COLUMNS][MAX_LAYERS];
    for (unsigned c = 0; c < COLUMNS; c++) {
        bool drg = c < FC_DRG_PARENTS;
        unsigned j = drg ? c : c - FC_DRG_PARENTS;
        char ns[32];
        snprintf(w, sizeof w, "%s.replica_column_proofs.%s[%u]", where, drg ? "drg_parents" : "exp_parents", j);
        snprintf(ns, sizeof ns, "%s_parent_%u", drg ? "drg" : "exp", j);
        column(x, x->vals ? (drg ? &pr->drg[j] : &pr->exp[j]) : NULL, cols[c], ns, w);
    }

    /* the challenge as a UInt64 packed into one input */
    uint64_t node = x->vals ? pr->labeling[0].node : 0;
    cs_ns_push(cs, "challenge");
    u64g chal = u64_alloc(cs, node);
    u64_pack_into_input(cs, &chal);
    cs_ns_pop(cs);

    /* labels of layers 1..L */
    anum labels[MAX_LAYERS];
    gbool bits[COLUMNS][256];
    for (unsigned l = 1; l <= L; l++) {
        cs_ns_push(cs, "labeling_%u", l);
        for (unsigned c = 0; c < FC_DRG_PARENTS; c++)
            label_bits(cs, &cols[c][l - 1], bits[c]);
        unsigned nparents = FC_DRG_PARENTS;
        if (l > 1) {
            for (unsigned c = FC_DRG_PARENTS; c < COLUMNS; c++)
                label_bits(cs, &cols[c][l - 2], bits[c]);
            nparents = COLUMNS;
        }
        /* layer 1: the 6 DRG parents 6 times, then the first again; later layers: the 14
         * parents twice, then the first 9 — in both cases slot s holds parent s mod n */
        const gbool *slots[LABEL_PARENTS];
        for (unsigned s = 0; s < LABEL_PARENTS; s++)
            slots[s] = bits[s % nparents];
        u32g layer = u32_const(l);
        cs_ns_push(cs, "create_label");
        labels[l - 1] = create_label_circuit(cs, x->replica_bits, 256, slots, &layer, &chal);
        cs_ns_pop(cs);
        cs_ns_pop(cs);
    }

    /* encoding and its inclusion in tree R */
    cs_ns_push(cs, "encode_node");
    anum encoded = encode_circuit(cs, &labels[L - 1], &data_leaf);
    cs_ns_pop(cs);
    snprintf(w, sizeof w, "%s.comm_r_last_proof", where);
    cs_ns_push(cs, "comm_r_last_data_inclusion");
    por(x, &x->cp->tree_rc, x->vals ? &pr->comm_r_last_proof : NULL, &encoded, &x->comm_r_last, w);
    cs_ns_pop(cs);

    /* the challenged column: hash of the computed labels, inclusion in tree C */
    cs_ns_push(cs, "c_x_column_hash");
    anum h = poseidon_circuit(cs, L, &x->tag_column, labels);
    cs_ns_pop(cs);
    snprintf(w, sizeof w, "%s.replica_column_proofs.c_x.inclusion_proof", where);
    cs_ns_push(cs, "c_x_inclusion");
    por(x, &x->cp->tree_rc, x->vals ? &pr->c_x.proof : NULL, &h, &x->comm_c, w);
    cs_ns_pop(cs);
}

/* Allocate a named top-level number (value from the C1 when the cs has values). */
static anum top_num(porep_ctx *x, const char *name, const uint8_t *bytes, const char *field)
{
    fr_t v;
    if (x->vals)
        value_of(x, bytes, &v, "%s", field);
    cs_ns_push(x->cs, "%s", name);
    anum r = anum_alloc(x->cs, x->vals ? &v : NULL);
    cs_ns_pop(x->cs);
    return r;
}

cuzk_status fc_porep_synthesize(cs_t *cs, const fc_porep_circuit_params *cp, const fc_c1_output *c1,
                                uint32_t partition, cuzk_error *err)
{
    cuzk_status st = fc_porep_circuit_params_check(cp, err);
    if (st)
        return st;
    bool vals = cs_has_values(cs);
    if (vals && (st = fc_porep_c1_check_shape(cp, c1, partition, err)))
        return st;
    porep_ctx *x = malloc(sizeof *x);
    if (!x)
        return cuzk_fail(err, CUZK_E_NOMEM, "porep circuit: out of memory");
    x->cs = cs;
    x->cp = cp;
    x->tree_d = (merkle_shape){MERKLE_SHA256, 2, log2_u64(cp->nodes), 0, 0};
    x->vals = vals;
    x->err = err;
    x->st = CUZK_OK;
    poseidon_tag_merkle(cp->layers, &x->tag_column);
    const fc_porep_challenge_proof *first = vals ? &c1->proofs[(size_t)partition * cp->challenges] : NULL;

    /* replica_id: public, decomposed once into the label message bits */
    anum replica_id = top_num(x, "replica_id", vals ? c1->replica_id : NULL, "replica_id");
    cs_ns_push(cs, "replica_id_input");
    anum_inputize(cs, &replica_id);
    cs_ns_pop(cs);
    cs_ns_push(cs, "replica_id_bits");
    label_bits(cs, &replica_id, x->replica_bits);
    cs_ns_pop(cs);

    x->comm_d = top_num(x, "comm_d", vals ? c1->comm_d : NULL, "comm_d");
    cs_ns_push(cs, "comm_d_input");
    anum_inputize(cs, &x->comm_d);
    cs_ns_pop(cs);
    anum comm_r = top_num(x, "comm_r", vals ? c1->comm_r : NULL, "comm_r");
    cs_ns_push(cs, "comm_r_input");
    anum_inputize(cs, &comm_r);
    cs_ns_pop(cs);

    char w[WHERE_MAX];
    snprintf(w, sizeof w, "vanilla_proofs[%u][0].comm_r_last_proof.root", partition);
    x->comm_r_last = top_num(x, "comm_r_last", vals ? first->comm_r_last_proof.root : NULL, w);
    snprintf(w, sizeof w, "vanilla_proofs[%u][0].replica_column_proofs.c_x.inclusion_proof.root", partition);
    x->comm_c = top_num(x, "comm_c", vals ? first->c_x.proof.root : NULL, w);

    /* comm_r = H(comm_c || comm_r_last) */
    fr_t tag2;
    poseidon_tag_merkle(2, &tag2);
    anum pre[2] = {x->comm_c, x->comm_r_last};
    cs_ns_push(cs, "H_comm_c_comm_r_last");
    anum h = poseidon_circuit(cs, 2, &tag2, pre);
    cs_ns_pop(cs);
    cs_ns_push(cs, "enforce comm_r = H(comm_c || comm_r_last)");
    anum_enforce_equal(cs, &comm_r, &h);
    cs_ns_pop(cs);

    for (unsigned i = 0; i < cp->challenges && cs_status(cs) == CUZK_OK && x->st == CUZK_OK; i++) {
        cs_ns_push(cs, "challenge_%u", i);
        challenge(x, vals ? &first[i] : NULL, partition, i);
        cs_ns_pop(cs);
    }
    st = x->st;
    free(x);
    if (st)
        return st;
    if (cs_status(cs) != CUZK_OK)
        return cuzk_fail(err, cs_status(cs), "porep circuit: %s", cs->err.msg);
    return CUZK_OK;
}
