/* PoSt vanilla-proof generation; contracts in post_gen.h. */
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "filecoin/post/challenges.h"
#include "filecoin/testkit/post_gen.h"

cuzk_status fc_post_generate(const fc_post_proof *p, const uint8_t randomness[32], uint32_t k, uint32_t sector_pos,
                             const fc_post_sector *s, fc_post_vanilla *out, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (s->tree_r.shape.leaves != p->shape->nodes)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: sector %" PRIu64 " has %" PRIu64 " nodes, the proof wants %s",
                         p->name, s->sector_id, s->tree_r.shape.leaves, p->shape->name);
    fr_t r;
    if (fr_from_bytes_le(&r, randomness) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "PoSt randomness is not a canonical field element");
    if (p->winning)
        k = sector_pos = 0;
    out->sector_id = s->sector_id;
    memcpy(out->comm_r, s->comm_r, 32);
    out->sectors = calloc(1, sizeof *out->sectors);
    fc_post_sector_proof *sp = out->sectors;
    if (!sp || !(sp->inclusion = calloc(p->vanilla_challenges, sizeof *sp->inclusion))) {
        fc_post_vanilla_free(out);
        return cuzk_fail(err, CUZK_E_NOMEM, "PoSt vanilla proof");
    }
    out->nsectors = 1;
    memcpy(sp->comm_c, s->comm_c, 32);
    memcpy(sp->comm_r_last, s->comm_r_last, 32);
    cuzk_status st = CUZK_OK;
    for (uint32_t n = 0; n < p->vanilla_challenges && st == CUZK_OK; n++) {
        uint64_t leaf = fc_post_leaf_challenge(randomness, s->sector_id, fc_post_challenge_index(p, k, sector_pos, n),
                                               p->shape->nodes);
        st = fc_tree_prove(&s->tree_r, leaf, &sp->inclusion[n], err);
        if (st == CUZK_OK)
            sp->ninclusion = n + 1;
    }
    if (st != CUZK_OK)
        fc_post_vanilla_free(out);
    return st;
}
