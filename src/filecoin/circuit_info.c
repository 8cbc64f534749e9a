/* Dispatch of `cuzk circuit-info` to the Filecoin circuit families; contract in
 * core/circuit_info.h. */
#include <string.h>

#include "filecoin/core/circuit_info.h"
#include "filecoin/porep/porep.h"
#include "filecoin/post/post.h"
#include "filecoin/snap/snap.h"

cuzk_status fc_circuit_info(const char *name, const char *const *params, size_t nparams, cs_counts *out,
                            cuzk_error *err)
{
    if (!strcmp(name, "porep"))
        return fc_porep_circuit_info(params, nparams, out, err);
    if (!strcmp(name, "winning-post") || !strcmp(name, "window-post"))
        return fc_post_circuit_info(name[1] == 'i' && name[2] == 'n' && name[3] == 'n', params, nparams, out, err);
    if (!strcmp(name, "snap") || !strcmp(name, "snap-poseidon"))
        return fc_snap_circuit_info(name[4] == '-', params, nparams, out, err);
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "\"%s\" is not a Filecoin circuit", name);
}

cuzk_status fc_circuit_synthesize_blank(cs_t *cs, const fc_circuit_id *c, cuzk_error *err)
{
    if (cs_has_values(cs))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "fc_circuit_synthesize_blank: the cs expects values");
    switch (c->family) {
    case FC_CIRCUIT_POREP: {
        const fc_seal_proof *p;
        cuzk_status st = fc_seal_proof_get(5 + (unsigned)c->shape->size, &p, err); /* V1_1: same circuit for all */
        if (st)
            return st;
        fc_porep_circuit_params cp;
        fc_porep_circuit_params_of(p, &cp);
        return fc_porep_synthesize(cs, &cp, NULL, 0, err);
    }
    case FC_CIRCUIT_WINNING_POST:
    case FC_CIRCUIT_WINDOW_POST: {
        const fc_post_proof *p;
        /* ids 0-4 winning, 5-9 window (API 1.0; the V1_2 ids share the circuit) */
        unsigned id = (c->family == FC_CIRCUIT_WINNING_POST ? 0u : 5u) + (unsigned)c->shape->size;
        cuzk_status st = fc_post_proof_get(id, &p, err);
        if (st)
            return st;
        fc_post_shape s;
        fc_post_shape_of(p, &s);
        return fc_post_synthesize(cs, &s, NULL, 0, err);
    }
    case FC_CIRCUIT_SNAP:
    case FC_CIRCUIT_SNAP_POSEIDON: {
        fc_snap_shape s;
        cuzk_status st = fc_snap_shape_for_nodes(c->shape->nodes, c->family == FC_CIRCUIT_SNAP_POSEIDON, &s, err);
        if (st)
            return st;
        return fc_snap_synthesize(cs, &s, NULL, NULL, err);
    }
    default:
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "unknown circuit family %d", (int)c->family);
    }
}
