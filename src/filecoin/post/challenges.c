/* PoSt challenges; contracts and sources in challenges.h. */
#include <string.h>

#include "filecoin/core/challenges.h"
#include "filecoin/post/challenges.h"
#include "gadgets/sha256_native.h"

uint64_t fc_post_challenge_index(const fc_post_proof *p, uint32_t k, uint32_t sector_pos, uint32_t n)
{
    if (p->api == FC_API_1_2)
        return n;
    uint64_t sector_index = (uint64_t)k * p->sector_count + sector_pos;
    return sector_index * p->challenge_count + n;
}

/* u64_le(SHA-256(a[32] || b[b_len] || u64_le(y))[0..8]) mod m (b_len <= 32), UINT64_MAX for
 * m = 0. */
static uint64_t hash_mod(const uint8_t a[32], const uint8_t *b, size_t b_len, uint64_t y, uint64_t m)
{
    if (!m)
        return UINT64_MAX;
    uint8_t buf[80], h[32];
    memcpy(buf, a, 32);
    memcpy(buf + 32, b, b_len);
    fc_put_le(buf + 32 + b_len, y, 8);
    sha256_native(buf, 40 + b_len, h);
    return fc_get_le64(h) % m;
}

uint64_t fc_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                uint64_t nodes)
{
    uint8_t id[8];
    fc_put_le(id, sector_id, 8);
    return hash_mod(randomness, id, 8, challenge_index, nodes);
}

uint64_t fc_winning_sector_index(const uint8_t prover_id[32], const uint8_t randomness[32], uint64_t n,
                                 uint64_t sector_set_len)
{
    return hash_mod(prover_id, randomness, 32, n, sector_set_len);
}
