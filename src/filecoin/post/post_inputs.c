/* FallbackPoSt public inputs (storage-proofs-post src/fallback/compound.rs
 * generate_public_inputs; filecoin-proofs api/winning_post.rs verify_winning_post;
 * storage-proofs-post fallback/utils.rs); contract in post.h. */
#include "filecoin/post/challenges.h"
#include "filecoin/post/post.h"

size_t fc_post_public_input_count(const fc_post_proof *p)
{
    return (size_t)p->sector_count * (1 + p->challenge_count);
}

cuzk_status fc_post_public_inputs(const fc_post_proof *p, const uint8_t randomness[32], uint32_t k,
                                  const fc_post_public_sector *sectors, uint32_t nsectors, fr_t *out, cuzk_error *err)
{
    fr_t tmp;
    if (fr_from_bytes_le(&tmp, randomness) != CUZK_OK)
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "%s: randomness is not a canonical field element", p->name);
    if (p->winning ? nsectors != 1 || k != 0 : nsectors == 0 || nsectors > p->sector_count)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: %u sectors in partition %u (%s)", p->name, nsectors, k,
                         p->winning ? "WinningPoSt proves exactly one sector, partition 0"
                                    : "a WindowPoSt partition holds 1 .. sector_count sectors");
    for (uint32_t j = 0; j < nsectors; j++)
        if (fr_from_bytes_le(&tmp, sectors[j].comm_r) != CUZK_OK)
            return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL,
                             "%s: comm_r of sector %llu (position %u) is not a canonical field element", p->name,
                             (unsigned long long)sectors[j].sector_id, j);
    size_t per = 1 + p->challenge_count;
    for (uint32_t i = 0; i < p->sector_count; i++) {
        /* Window: past the supplied sectors, the last sector's inputs are repeated. */
        uint32_t pos = p->winning ? i : i < nsectors ? i : nsectors - 1;
        const fc_post_public_sector *s = &sectors[p->winning ? 0 : pos];
        fr_t *o = out + (size_t)i * per;
        fr_from_bytes_le(&o[0], s->comm_r);
        for (uint32_t n = 0; n < p->challenge_count; n++) {
            uint64_t ci = fc_post_challenge_index(p, k, pos, n);
            fr_from_u64(&o[1 + n], fc_post_leaf_challenge(randomness, s->sector_id, ci, p->shape->nodes));
        }
    }
    return CUZK_OK;
}
