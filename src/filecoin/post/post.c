/* FallbackPoSt partition circuit (storage-proofs-post src/fallback/circuit.rs
 * FallbackPoStCircuit::synthesize_default and Sector::synthesize; storage-proofs-post
 * fallback/circuit.rs); contract in post.h. */
#include "filecoin/core/merkle_proof.h"
#include "filecoin/post/post.h"

void fc_post_shape_of(const fc_post_proof *p, fc_post_shape *out)
{
    out->tree = fc_tree_r_shape(p->shape);
    out->sector_count = p->sector_count;
    out->challenge_count = p->challenge_count;
}

/* Sector::synthesize for one circuit sector (w NULL in modes without values). */
static void sector(cs_t *cs, const fc_post_shape *s, const fc_post_sector_witness *w)
{
    anum comm_r_last = anum_alloc(cs, w ? &w->comm_r_last : NULL);
    anum comm_c = anum_alloc(cs, w ? &w->comm_c : NULL);
    anum comm_r = anum_alloc(cs, w ? &w->comm_r : NULL);
    anum_inputize(cs, &comm_r);
    cs_ns_push(cs, "H_comm_c_comm_r_last");
    anum in[2] = {comm_c, comm_r_last};
    anum h = merkle_hash_nodes(cs, MERKLE_POSEIDON, in, 2);
    anum_enforce_equal(cs, &comm_r, &h);
    cs_ns_pop(cs);
    unsigned levels = merkle_shape_levels(&s->tree), nsib = merkle_shape_siblings(&s->tree);
    for (uint32_t c = 0; c < s->challenge_count && cs->status == CUZK_OK; c++) {
        cs_ns_push(cs, "challenge_inclusion_%u", c);
        merkle_path_values v;
        if (w)
            v = (merkle_path_values){&w->leaf[c], w->index + (size_t)c * levels, w->sib + (size_t)c * nsib, NULL};
        merkle_por_circuit(cs, &s->tree, w ? &v : NULL, NULL, &comm_r_last, true);
        cs_ns_pop(cs);
    }
}

cuzk_status fc_post_synthesize(cs_t *cs, const fc_post_shape *s, const fc_post_sector_witness *sectors,
                               uint32_t nsectors, cuzk_error *err)
{
    bool vals = cs_has_values(cs);
    if (vals && (!sectors || nsectors == 0))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "FallbackPoSt: no sector witness in a value mode");
    if (merkle_shape_leaves(&s->tree) == 0 || s->sector_count == 0)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "FallbackPoSt: invalid shape (%u sectors, tree %u^%u-%u-%u)",
                         s->sector_count, s->tree.base_arity, s->tree.base_levels, s->tree.sub_arity,
                         s->tree.top_arity);
    for (uint32_t i = 0; i < s->sector_count && cs->status == CUZK_OK; i++) {
        cs_ns_push(cs, "sector_%u", i);
        sector(cs, s, vals ? &sectors[i < nsectors ? i : nsectors - 1] : NULL);
        cs_ns_pop(cs);
    }
    cuzk_status st = cs_status(cs);
    return st ? cuzk_fail(err, st, "%s", cs->err.msg) : CUZK_OK;
}
