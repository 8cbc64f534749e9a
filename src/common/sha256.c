/* SHA-256: libcrypto's when built with it, else the portable compression below, written from
 * FIPS 180-4 (sections 4.1.2 functions, 4.2.2 constants, 5.3.3 initial value, 6.2 the
 * computation). Contracts in sha256.h. */
#include "common/sha256.h"

#include <string.h>

#ifdef CUZK_HAVE_OPENSSL
#include <openssl/evp.h>
#endif

const uint32_t cuzk_sha256_k[64] = {
    0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
    0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
    0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
    0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
    0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
    0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
    0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
    0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};

const uint32_t cuzk_sha256_h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                                     0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};

static inline uint32_t ror(uint32_t x, unsigned n) { return (x >> n) | (x << (32 - n)); }

static void compress(uint32_t h[8], const uint8_t blk[64])
{
    uint32_t w[64];
    for (int t = 0; t < 16; t++)
        w[t] = (uint32_t)blk[4 * t] << 24 | (uint32_t)blk[4 * t + 1] << 16 | (uint32_t)blk[4 * t + 2] << 8 |
               blk[4 * t + 3];
    for (int t = 16; t < 64; t++) {
        uint32_t s0 = ror(w[t - 15], 7) ^ ror(w[t - 15], 18) ^ (w[t - 15] >> 3);
        uint32_t s1 = ror(w[t - 2], 17) ^ ror(w[t - 2], 19) ^ (w[t - 2] >> 10);
        w[t] = w[t - 16] + s0 + w[t - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], k = h[7];
    for (int t = 0; t < 64; t++) {
        uint32_t t1 = k + (ror(e, 6) ^ ror(e, 11) ^ ror(e, 25)) + ((e & f) ^ (~e & g)) + cuzk_sha256_k[t] + w[t];
        uint32_t t2 = (ror(a, 2) ^ ror(a, 13) ^ ror(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
        k = g, g = f, f = e, e = d + t1, d = c, c = b, b = a, a = t1 + t2;
    }
    h[0] += a, h[1] += b, h[2] += c, h[3] += d, h[4] += e, h[5] += f, h[6] += g, h[7] += k;
}

static void portable_update(cuzk_sha256_ctx *c, const uint8_t *p, size_t n)
{
    size_t have = (size_t)(c->nbytes % 64);
    c->nbytes += n;
    if (have) {
        size_t take = 64 - have < n ? 64 - have : n;
        memcpy(c->buf + have, p, take);
        p += take, n -= take;
        if (have + take < 64)
            return;
        compress(c->h, c->buf);
    }
    for (; n >= 64; p += 64, n -= 64)
        compress(c->h, p);
    if (n)
        memcpy(c->buf, p, n);
}

static void portable_final(cuzk_sha256_ctx *c, uint8_t out[32])
{
    uint64_t bits = c->nbytes * 8;
    uint8_t pad[72] = {0x80};
    size_t have = (size_t)(c->nbytes % 64), npad = (have < 56 ? 56 : 120) - have;
    for (int i = 0; i < 8; i++)
        pad[npad + i] = (uint8_t)(bits >> (56 - 8 * i));
    portable_update(c, pad, npad + 8);
    for (int i = 0; i < 8; i++)
        for (int j = 0; j < 4; j++)
            out[4 * i + j] = (uint8_t)(c->h[i] >> (24 - 8 * j));
}

void cuzk_sha256_init(cuzk_sha256_ctx *c)
{
    memset(c, 0, sizeof *c);
    memcpy(c->h, cuzk_sha256_h0, sizeof cuzk_sha256_h0);
#ifdef CUZK_HAVE_OPENSSL
    EVP_MD_CTX *e = EVP_MD_CTX_new();
    c->evp = e;
    c->failed = !e || EVP_DigestInit_ex(e, EVP_sha256(), NULL) != 1;
#endif
}

void cuzk_sha256_update(cuzk_sha256_ctx *c, const void *p, size_t n)
{
    if (!n || c->failed)
        return;
#ifdef CUZK_HAVE_OPENSSL
    c->failed = EVP_DigestUpdate(c->evp, p, n) != 1;
#else
    portable_update(c, p, n);
#endif
}

bool cuzk_sha256_final(cuzk_sha256_ctx *c, uint8_t out[32])
{
#ifdef CUZK_HAVE_OPENSSL
    unsigned len = 0;
    bool ok = !c->failed && EVP_DigestFinal_ex(c->evp, out, &len) == 1 && len == 32;
    EVP_MD_CTX_free(c->evp);
    c->evp = NULL;
    return ok;
#else
    portable_final(c, out);
    return true;
#endif
}

bool cuzk_sha256(const void *p, size_t n, uint8_t out[32])
{
    cuzk_sha256_ctx c;
    cuzk_sha256_init(&c);
    cuzk_sha256_update(&c, p, n);
    return cuzk_sha256_final(&c, out);
}

void cuzk_sha256_portable(const void *p, size_t n, uint8_t out[32])
{
    cuzk_sha256_ctx c;
    memset(&c, 0, sizeof c);
    memcpy(c.h, cuzk_sha256_h0, sizeof cuzk_sha256_h0);
    if (n)
        portable_update(&c, p, n);
    portable_final(&c, out);
}

const char *cuzk_sha256_impl(void)
{
#ifdef CUZK_HAVE_OPENSSL
    return "libcrypto";
#else
    return "portable";
#endif
}
