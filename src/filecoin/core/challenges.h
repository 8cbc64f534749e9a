/* What the Filecoin proofs' challenge derivations share (the per-proof derivations are in
 * filecoin/porep/challenges.h, filecoin/post/challenges.h and filecoin/snap/challenges.h):
 * little-endian byte packing and the reduction of a 256-bit value to a challenged node
 * (storage-proofs-porep stacked/vanilla/challenges.rs bigint_to_challenge). All functions are
 * pure and thread-safe.
 */
#ifndef CUZK_FILECOIN_CORE_CHALLENGES_H
#define CUZK_FILECOIN_CORE_CHALLENGES_H

#include <stdint.h>

/* p[0 .. n) = the n low bytes of v, least significant first (n <= 8). */
static inline void fc_put_le(uint8_t *p, uint64_t v, int n)
{
    for (int i = 0; i < n; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* The u64 of p[0 .. 8) read little-endian. */
static inline uint64_t fc_get_le64(const uint8_t *p)
{
    uint64_t v = 0;
    for (int i = 7; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

/* to_challenge(x) = (x mod (nodes - 1)) + 1 for the 256-bit LE integer x (challenges.rs
 * bigint_to_challenge): never node 0. nodes must be in [2, 2^32 + 1]. */
uint64_t fc_to_challenge(const uint8_t x[32], uint64_t nodes);

#endif
