/* replica_id, interactive and non-interactive PoRep challenges, PoSt challenges; contracts
 * and sources in challenges.h (synthetic PoRep in challenges_synth.c, SnapDeals in
 * challenges_snap.c). */
#include <string.h>

#include "filecoin/core/challenges.h"
#include "gadgets/sha256_native.h"

static void put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

uint64_t fc_to_challenge(const uint8_t x[32], uint64_t nodes)
{
    uint64_t m = nodes - 1;
    unsigned __int128 r = 0;
    for (int limb = 3; limb >= 0; limb--)
        r = ((r << 64) | get_le64(x + 8 * limb)) % m;
    return (uint64_t)r + 1;
}

void fc_replica_id(const uint8_t prover_id[32], uint64_t sector_id, const uint8_t ticket[32],
                   const uint8_t comm_d[32], const uint8_t porep_id[32], uint8_t out[32])
{
    uint8_t buf[136];
    memcpy(buf, prover_id, 32);
    for (int i = 0; i < 8; i++)
        buf[32 + i] = (uint8_t)(sector_id >> (56 - 8 * i)); /* big-endian here */
    memcpy(buf + 40, ticket, 32);
    memcpy(buf + 72, comm_d, 32);
    memcpy(buf + 104, porep_id, 32);
    sha256_trunc254(buf, sizeof buf, out);
}

/* Interactive: SHA-256(replica_id || seed || u32_le(j)); non-interactive: SHA-256(tag ||
 * replica_id || comm_r || u32_le(j)). */
static void hashed_challenges(const uint8_t *prefix, size_t prefix_len, uint64_t nodes, unsigned c, uint32_t k,
                              uint64_t *out)
{
    uint8_t buf[128], h[32];
    memcpy(buf, prefix, prefix_len);
    for (unsigned i = 0; i < c; i++) {
        put_le(buf + prefix_len, (uint64_t)c * k + i, 4);
        sha256_native(buf, prefix_len + 4, h);
        out[i] = fc_to_challenge(h, nodes);
    }
}

cuzk_status fc_porep_challenges_custom(fc_porep_feature feature, uint64_t nodes, unsigned challenges_per_partition,
                                       const uint8_t replica_id[32], const uint8_t seed[32],
                                       const uint8_t comm_r[32], uint32_t k, uint64_t *out, cuzk_error *err)
{
    unsigned c = challenges_per_partition;
    if (nodes < 3 || nodes > (1ull << 32))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "PoRep challenges: node count %llu outside [3, 2^32]",
                         (unsigned long long)nodes);
    if (!c || (uint64_t)c * k + c > (1ull << 32))
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "PoRep challenges: %u challenges of partition %u do not fit u32 challenge numbers", c, k);
    if (!replica_id || !out)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "PoRep challenges: NULL replica_id or output");
    uint8_t prefix[128];
    switch (feature) {
    case FC_POREP_INTERACTIVE:
        if (!seed)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "interactive PoRep challenges need the seed");
        memcpy(prefix, replica_id, 32);
        memcpy(prefix + 32, seed, 32);
        hashed_challenges(prefix, 64, nodes, c, k, out);
        return CUZK_OK;
    case FC_POREP_NON_INTERACTIVE: {
        static const char tag[] = "filecoin.io|PoRep|1|NonInteractive|1";
        size_t n = sizeof tag - 1;
        if (!comm_r)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "non-interactive PoRep challenges need comm_r");
        memcpy(prefix, tag, n);
        memcpy(prefix + n, replica_id, 32);
        memcpy(prefix + n + 32, comm_r, 32);
        hashed_challenges(prefix, n + 64, nodes, c, k, out);
        return CUZK_OK;
    }
    case FC_POREP_SYNTHETIC: {
        if (!seed || !comm_r)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "synthetic PoRep challenges need the seed and comm_r");
        cuzk_status st = fc_synthetic_select(fc_synthetic_count(nodes), c, replica_id, seed, k, out, err);
        for (unsigned i = 0; !st && i < c; i++)
            st = fc_synthetic_challenge(nodes, replica_id, comm_r, out[i], &out[i], err);
        return st;
    }
    }
    return cuzk_fail(err, CUZK_E_INVALID_ARG, "PoRep challenges: unknown feature %d", (int)feature);
}

cuzk_status fc_porep_challenges(const fc_seal_proof *p, const uint8_t replica_id[32], const uint8_t seed[32],
                                const uint8_t comm_r[32], uint32_t k, uint64_t *out, cuzk_error *err)
{
    if (!p)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "PoRep challenges: NULL seal proof");
    if (k >= p->partitions)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "PoRep challenges: partition %u of %s (which has %u)", k, p->name,
                         p->partitions);
    return fc_porep_challenges_custom(p->feature, p->shape->nodes, p->challenges_per_partition, replica_id, seed,
                                      comm_r, k, out, err);
}

/* ---- PoSt (storage-proofs-post fallback/utils.rs, vanilla.rs) ---- */

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
    put_le(buf + 32 + b_len, y, 8);
    sha256_native(buf, 40 + b_len, h);
    return get_le64(h) % m;
}

uint64_t fc_post_leaf_challenge(const uint8_t randomness[32], uint64_t sector_id, uint64_t challenge_index,
                                uint64_t nodes)
{
    uint8_t id[8];
    put_le(id, sector_id, 8);
    return hash_mod(randomness, id, 8, challenge_index, nodes);
}

uint64_t fc_winning_sector_index(const uint8_t prover_id[32], const uint8_t randomness[32], uint64_t n,
                                 uint64_t sector_set_len)
{
    return hash_mod(prover_id, randomness, 32, n, sector_set_len);
}
