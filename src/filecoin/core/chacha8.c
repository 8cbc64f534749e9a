/* ChaCha8 keystream blocks; contract and source in chacha8.h. */
#include "filecoin/core/chacha8.h"

#define ROTL(x, n) (((x) << (n)) | ((x) >> (32 - (n))))
#define QR(a, b, c, d)                                                                                       \
    do {                                                                                                     \
        a += b, d ^= a, d = ROTL(d, 16);                                                                     \
        c += d, b ^= c, b = ROTL(b, 12);                                                                     \
        a += b, d ^= a, d = ROTL(d, 8);                                                                      \
        c += d, b ^= c, b = ROTL(b, 7);                                                                      \
    } while (0)

static uint32_t load32_le(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

void chacha8_block_u64(const uint8_t key[32], uint64_t counter, uint64_t out[8])
{
    uint32_t in[16] = {0x61707865, 0x3320646e, 0x79622d32, 0x6b206574};
    for (int i = 0; i < 8; i++)
        in[4 + i] = load32_le(key + 4 * i);
    in[12] = (uint32_t)counter;
    in[13] = (uint32_t)(counter >> 32);
    in[14] = in[15] = 0;
    uint32_t x[16];
    for (int i = 0; i < 16; i++)
        x[i] = in[i];
    for (int r = 0; r < 8; r += 2) {
        QR(x[0], x[4], x[8], x[12]);
        QR(x[1], x[5], x[9], x[13]);
        QR(x[2], x[6], x[10], x[14]);
        QR(x[3], x[7], x[11], x[15]);
        QR(x[0], x[5], x[10], x[15]);
        QR(x[1], x[6], x[11], x[12]);
        QR(x[2], x[7], x[8], x[13]);
        QR(x[3], x[4], x[9], x[14]);
    }
    for (int i = 0; i < 8; i++)
        out[i] = (uint64_t)(x[2 * i] + in[2 * i]) | (uint64_t)(x[2 * i + 1] + in[2 * i + 1]) << 32;
}
