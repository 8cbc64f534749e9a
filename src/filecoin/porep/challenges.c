/* replica_id, interactive and non-interactive PoRep challenges; contracts and sources in
 * challenges.h (synthetic PoRep in challenges_synth.c). */
#include <string.h>

#include "filecoin/core/challenges.h"
#include "filecoin/porep/challenges.h"
#include "gadgets/sha256_native.h"

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
        fc_put_le(buf + prefix_len, (uint64_t)c * k + i, 4);
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
