/* Fr32 padding and unpadding with a 64-bit bit buffer; contracts in fr32.h. */
#include "filecoin/testkit/fr32.h"

uint64_t fc_fr32_padded_nodes(uint64_t n)
{
    /* 8n can exceed 2^64 only for inputs of 2^61 bytes; split to stay exact. */
    uint64_t q = n / 127, r = n % 127;
    return q * 4 + (r * 8 + 253) / 254;
}

uint64_t fc_fr32_unpadded_capacity(uint64_t nodes)
{
    return nodes / 4 * 127 + (nodes % 4) * 254 / 8;
}

void fc_fr32_pad(const uint8_t *in, uint64_t n, uint8_t *out)
{
    uint64_t nodes = fc_fr32_padded_nodes(n), pos = 0;
    uint64_t buf = 0; /* unread input bits, LSB first */
    unsigned have = 0;
    for (uint64_t j = 0; j < nodes; j++) {
        uint8_t *o = out + 32 * j;
        for (unsigned k = 0; k < 32; k++) {
            unsigned want = k < 31 ? 8 : 6;
            while (have < want) {
                buf |= (uint64_t)(pos < n ? in[pos] : 0) << have;
                pos++;
                have += 8;
            }
            o[k] = (uint8_t)(buf & ((1u << want) - 1));
            buf >>= want;
            have -= want;
        }
    }
}

void fc_fr32_unpad(const uint8_t *in, uint64_t n, uint8_t *out)
{
    uint64_t buf = 0, done = 0; /* pending output bits, LSB first */
    unsigned have = 0;
    for (uint64_t j = 0; done < n; j++) {
        const uint8_t *node = in + 32 * j;
        for (unsigned k = 0; k < 32 && done < n; k++) {
            unsigned bits = k < 31 ? 8 : 6;
            buf |= (uint64_t)(node[k] & ((1u << bits) - 1)) << have;
            have += bits;
            while (have >= 8 && done < n) {
                out[done++] = (uint8_t)buf;
                buf >>= 8;
                have -= 8;
            }
        }
    }
}
