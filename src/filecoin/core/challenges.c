/* The reduction to a challenged node; contracts and source in challenges.h. */
#include "filecoin/core/challenges.h"

uint64_t fc_to_challenge(const uint8_t x[32], uint64_t nodes)
{
    uint64_t m = nodes - 1;
    unsigned __int128 r = 0;
    for (int limb = 3; limb >= 0; limb--)
        r = ((r << 64) | fc_get_le64(x + 8 * limb)) % m;
    return (uint64_t)r + 1;
}
