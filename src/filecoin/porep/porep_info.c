/* `cuzk circuit-info porep`: counts of the StackedDrg partition circuit in shape mode
 * (contract in filecoin/core/circuit_info.h; expected numbers in docs/circuits.md: production
 * sizes and the stacked_circuit.rs test circuits). Parameters:
 * sector-size=2KiB|8MiB|512MiB|32GiB|64GiB (the production circuit of that size), or a custom
 * circuit nodes=N, tree=B-S-T (Poseidon tree R/C; S, T = 0 when absent), layers=2|11 (default
 * 2), challenges=C (default 1) — e.g. nodes=8,tree=2-0-0 is rust-fil-proofs'
 * test_stacked_porep_circuit_poseidon_base_2 (1,206,212 constraints, 22 inputs). The porep_id
 * and API version of those tests change only values, not counts. */
#include <stdio.h>

#include "filecoin/core/circuit_info.h"
#include "filecoin/porep/porep.h"
#include "gadgets/circuit_params.h"

static cuzk_status parse_tree(const char *v, uint64_t nodes, merkle_shape *out, cuzk_error *err)
{
    unsigned b, s, t;
    char tail;
    if (sscanf(v, "%2u-%2u-%2u%c", &b, &s, &t, &tail) != 3)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter tree=%s is not B-S-T (e.g. 8-8-0)", v);
    *out = (merkle_shape){MERKLE_POSEIDON, b, 0, s, t};
    uint64_t rest = (s ? s : 1) * (uint64_t)(t ? t : 1), leaves = 1;
    while (b >= 2 && leaves * rest < nodes && out->base_levels < 64) {
        leaves *= b;
        out->base_levels++;
    }
    if (b < 2 || out->base_levels == 0 || leaves * rest != nodes)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter tree=%s does not fit nodes=%llu", v,
                         (unsigned long long)nodes);
    return CUZK_OK;
}

static cuzk_status params_from(const circuit_params *k, fc_porep_circuit_params *cp, cuzk_error *err)
{
    static const char *const keys[] = {"sector-size", "nodes", "layers", "challenges", "tree", NULL};
    cuzk_status st = circuit_params_only(k, keys, err);
    if (st)
        return st;
    const char *size = circuit_params_get(k, "sector-size"), *tree = circuit_params_get(k, "tree");
    if (size) {
        if (k->n != 1)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter sector-size=%s takes no other parameter", size);
        const fc_sector_shape *shape;
        if ((st = fc_sector_shape_by_name(size, &shape, err)))
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter sector-size=%s (2KiB, 8MiB, 512MiB, 32GiB, 64GiB)",
                             size);
        /* every registered proof of a size has the same circuit: take the V1_1 one */
        const fc_seal_proof *p;
        if ((st = fc_seal_proof_get(5 + (unsigned)shape->size, &p, err)))
            return st;
        fc_porep_circuit_params_of(p, cp);
        return CUZK_OK;
    }
    uint64_t nodes, layers, challenges;
    if ((st = circuit_params_u64(k, "nodes", 0, &nodes, err)) || (st = circuit_params_u64(k, "layers", 2, &layers, err)) ||
        (st = circuit_params_u64(k, "challenges", 1, &challenges, err)))
        return st;
    if (!nodes || !tree)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "porep needs sector-size=2KiB|8MiB|512MiB|32GiB|64GiB, or nodes=N and tree=B-S-T "
                         "(with layers=2|11, challenges=C)");
    cp->nodes = nodes;
    cp->layers = (unsigned)layers;
    cp->challenges = (unsigned)challenges;
    if ((st = parse_tree(tree, nodes, &cp->tree_rc, err)))
        return st;
    return fc_porep_circuit_params_check(cp, err);
}

cuzk_status fc_porep_circuit_info(const char *const *params, size_t nparams, cs_counts *out, cuzk_error *err)
{
    circuit_params k;
    fc_porep_circuit_params cp;
    cuzk_status st = circuit_params_parse(&k, params, nparams, err);
    if (st || (st = params_from(&k, &cp, err)))
        return st;
    cs_t cs;
    if ((st = cs_init(&cs, CS_SHAPE, CS_TRACK_DENSITY)))
        return cuzk_fail(err, st, "%s", cs.err.msg);
    st = fc_porep_synthesize(&cs, &cp, NULL, 0, err);
    if (st == CUZK_OK)
        cs_get_counts(&cs, out);
    cs_free(&cs);
    return st;
}
