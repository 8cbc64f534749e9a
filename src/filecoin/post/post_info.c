/* `cuzk circuit-info winning-post|window-post`: the FallbackPoSt partition circuit in shape
 * mode; contract in circuit_info.h. */
#include <stdio.h>
#include <string.h>

#include "filecoin/core/circuit_info.h"
#include "filecoin/post/post.h"
#include "gadgets/circuit_params.h"

/* tree=B-S-T (e.g. 8-8-0) and leaves=N: a Poseidon tree R shape. */
static cuzk_status test_tree(const circuit_params *kv, merkle_shape *t, cuzk_error *err)
{
    const char *tree = circuit_params_get(kv, "tree");
    unsigned b = 8, sub = 0, top = 0;
    int used = 0;
    if (tree && (sscanf(tree, "%u-%u-%u%n", &b, &sub, &top, &used) != 3 || tree[used]))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter tree=%s is not B-S-T (e.g. 8-8-0)", tree);
    uint64_t leaves;
    cuzk_status st = circuit_params_u64(kv, "leaves", 0, &leaves, err);
    if (st)
        return st;
    *t = (merkle_shape){MERKLE_POSEIDON, b, 0, sub, top};
    uint64_t rest = (sub ? sub : 1) * (uint64_t)(top ? top : 1), n = rest;
    while (n < leaves && t->base_levels < 64 && b >= 2) {
        n *= b;
        t->base_levels++;
    }
    if (!leaves || n != leaves || t->base_levels == 0 || merkle_shape_leaves(t) != leaves)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter leaves=%llu does not fit the tree shape %u-%u-%u",
                         (unsigned long long)leaves, b, sub, top);
    return CUZK_OK;
}

cuzk_status fc_post_circuit_info(bool winning, const char *const *params, size_t nparams, cs_counts *out,
                                 cuzk_error *err)
{
    static const char *const keys[] = {"sector-size", "tree", "leaves", "challenges", "sectors", NULL};
    const char *fam = winning ? "winning-post" : "window-post";
    circuit_params kv;
    cuzk_status st;
    if ((st = circuit_params_parse(&kv, params, nparams, err)) || (st = circuit_params_only(&kv, keys, err)))
        return st;
    fc_post_shape s;
    const char *size = circuit_params_get(&kv, "sector-size");
    if (size) {
        if (kv.n != 1)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: sector-size=S takes no test-shape parameter", fam);
        const fc_sector_shape *shape;
        const fc_post_proof *p;
        if ((st = fc_sector_shape_by_name(size, &shape, err)) ||
            (st = fc_post_proof_get((winning ? 0 : 5) + (unsigned)shape->size, &p, err)))
            return st;
        fc_post_shape_of(p, &s);
    } else {
        uint64_t challenges, sectors;
        if (!circuit_params_get(&kv, "leaves"))
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s needs sector-size=S (2KiB, 8MiB, 512MiB, 32GiB, 64GiB) "
                             "or a test shape: leaves=N [tree=B-S-T challenges=C sectors=N]", fam);
        if ((st = test_tree(&kv, &s.tree, err)) ||
            (st = circuit_params_u64(&kv, "challenges", winning ? 1 : 10, &challenges, err)) ||
            (st = circuit_params_u64(&kv, "sectors", winning ? 66 : 2, &sectors, err)))
            return st;
        if (!challenges || !sectors || challenges > 65536 || sectors > 65536)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: challenges and sectors must be in 1..65536", fam);
        s.challenge_count = (uint32_t)challenges;
        s.sector_count = (uint32_t)sectors;
    }
    cs_t cs;
    if ((st = cs_init(&cs, CS_SHAPE, CS_TRACK_DENSITY)))
        return cuzk_fail(err, st, "%s", cs.err.msg);
    st = fc_post_synthesize(&cs, &s, NULL, 0, err);
    if (st == CUZK_OK)
        cs_get_counts(&cs, out);
    cs_free(&cs);
    return st;
}
