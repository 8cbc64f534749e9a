/* Synthetic PoRep challenges (storage-proofs-porep stacked/vanilla/challenges.rs, module
 * synthetic): keyed BLAKE2b-256 keys a ChaCha20 keystream;
 * contracts in challenges.h. */
#include <openssl/core_names.h>
#include <openssl/evp.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "field/fr.h"
#include "filecoin/core/challenges.h"
#include "filecoin/porep/challenges.h"

#define SYNTH_MAX (1ull << 18)

static const char GEN_TAG[] = "filecoin.io|PoRep|1|Synthetic|1|Generation";
static const char SEL_TAG[] = "filecoin.io|PoRep|1|Synthetic|1|Selection";
static const uint8_t NONCE[12] = "synth-porep"; /* 11 characters and a zero byte */

static EVP_MAC *g_blake2bmac;
static EVP_CIPHER *g_chacha20;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void fetch_algorithms(void)
{
    g_blake2bmac = EVP_MAC_fetch(NULL, "BLAKE2BMAC", NULL);
    g_chacha20 = EVP_CIPHER_fetch(NULL, "ChaCha20", NULL);
}

uint64_t fc_synthetic_count(uint64_t nodes)
{
    return nodes < SYNTH_MAX ? nodes : SYNTH_MAX;
}

/* key = BLAKE2b with 32-byte output keyed with `tag`, over a[32] || b[32]. */
static cuzk_status prf_key(const char *tag, const uint8_t a[32], const uint8_t b[32], uint8_t key[32],
                           cuzk_error *err)
{
    pthread_once(&g_once, fetch_algorithms);
    if (!g_blake2bmac)
        return cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto provides no BLAKE2BMAC");
    EVP_MAC_CTX *c = EVP_MAC_CTX_new(g_blake2bmac);
    if (!c)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for a BLAKE2b MAC context");
    size_t size = 32, len = 0;
    OSSL_PARAM params[] = {OSSL_PARAM_construct_size_t(OSSL_MAC_PARAM_SIZE, &size), OSSL_PARAM_construct_end()};
    int ok = EVP_MAC_init(c, (const unsigned char *)tag, strlen(tag), params) && EVP_MAC_update(c, a, 32) &&
             EVP_MAC_update(c, b, 32) && EVP_MAC_final(c, key, &len, 32) && len == 32;
    EVP_MAC_CTX_free(c);
    return ok ? CUZK_OK : cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto keyed BLAKE2b-256 failed");
}

/* Keystream bytes [64 * first_block, 64 * (first_block + blocks)) of ChaCha20(key, NONCE). */
static cuzk_status keystream(const uint8_t key[32], uint64_t first_block, uint64_t blocks, uint8_t *out,
                             cuzk_error *err)
{
    if (!g_chacha20)
        return cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto provides no ChaCha20");
    if (first_block + blocks > (1ull << 32))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "ChaCha20 block %llu is past the 32-bit counter",
                         (unsigned long long)(first_block + blocks));
    EVP_CIPHER_CTX *c = EVP_CIPHER_CTX_new();
    if (!c)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for a ChaCha20 context");
    /* libcrypto's ChaCha20 IV: the 32-bit block counter (LE), then the 96-bit nonce. */
    uint8_t iv[16];
    for (int i = 0; i < 4; i++)
        iv[i] = (uint8_t)(first_block >> (8 * i));
    memcpy(iv + 4, NONCE, 12);
    memset(out, 0, 64 * blocks);
    int ok = EVP_EncryptInit_ex2(c, g_chacha20, key, iv, NULL);
    for (uint64_t done = 0; ok && done < 64 * blocks;) {
        uint64_t n = 64 * blocks - done < (1u << 30) ? 64 * blocks - done : (1u << 30);
        int outl = 0;
        ok = EVP_EncryptUpdate(c, out + done, &outl, out + done, (int)n) && (uint64_t)outl == n;
        done += n;
    }
    EVP_CIPHER_CTX_free(c);
    return ok ? CUZK_OK : cuzk_fail(err, CUZK_E_INTERNAL, "libcrypto ChaCha20 failed");
}

static cuzk_status check_canonical(const uint8_t v[32], const char *name, cuzk_error *err)
{
    fr_t x;
    if (fr_from_bytes_le(&x, v))
        return cuzk_fail(err, CUZK_E_FIELD_NONCANONICAL, "synthetic PoRep: %s is not a canonical field element",
                         name);
    return CUZK_OK;
}

cuzk_status fc_synthetic_challenges(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                    uint64_t first, uint64_t count, uint64_t *out, cuzk_error *err)
{
    if (nodes < 3 || nodes > (1ull << 32))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "synthetic challenges: node count %llu outside [3, 2^32]",
                         (unsigned long long)nodes);
    uint64_t num = fc_synthetic_count(nodes);
    if (first > num || count > num - first)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "synthetic challenges %llu..%llu: only %llu exist",
                         (unsigned long long)first, (unsigned long long)(first + count), (unsigned long long)num);
    if (!count)
        return CUZK_OK;
    cuzk_status st = check_canonical(replica_id, "replica_id", err);
    if (!st)
        st = check_canonical(comm_r, "comm_r", err);
    uint8_t key[32];
    if (!st)
        st = prf_key(GEN_TAG, replica_id, comm_r, key, err);
    if (st)
        return st;
    /* Each 64-byte block gives two challenges (bytes 0-31 and 32-63). */
    uint64_t b0 = first / 2, b1 = (first + count - 1) / 2;
    uint8_t *ks = malloc(64 * (b1 - b0 + 1));
    if (!ks)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for %llu synthetic challenges",
                         (unsigned long long)count);
    st = keystream(key, b0, b1 - b0 + 1, ks, err);
    for (uint64_t i = 0; !st && i < count; i++)
        out[i] = fc_to_challenge(ks + 32 * (first + i - 2 * b0), nodes);
    free(ks);
    return st;
}

cuzk_status fc_synthetic_challenge(uint64_t nodes, const uint8_t replica_id[32], const uint8_t comm_r[32],
                                   uint64_t n, uint64_t *out, cuzk_error *err)
{
    return fc_synthetic_challenges(nodes, replica_id, comm_r, n, 1, out, err);
}

cuzk_status fc_synthetic_select(uint64_t num_synth, unsigned challenges_per_partition, const uint8_t replica_id[32],
                                const uint8_t seed[32], uint32_t k, uint64_t *indexes, cuzk_error *err)
{
    uint64_t c = challenges_per_partition, first = c * k;
    if (!num_synth || num_synth > (1ull << 32) || !c || first + c > (1ull << 32))
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "synthetic selection: %llu synthetic challenges, %llu per partition, partition %u",
                         (unsigned long long)num_synth, (unsigned long long)c, k);
    cuzk_status st = check_canonical(replica_id, "replica_id", err);
    uint8_t key[32];
    if (!st)
        st = prf_key(SEL_TAG, replica_id, seed, key, err);
    if (st)
        return st;
    /* 16 u32 indexes per 64-byte block; the partition's words start at word `first`. */
    uint64_t b0 = first / 16, b1 = (first + c - 1) / 16;
    uint8_t *ks = malloc(64 * (b1 - b0 + 1));
    if (!ks)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory for %llu selection indexes", (unsigned long long)c);
    st = keystream(key, b0, b1 - b0 + 1, ks, err);
    for (uint64_t i = 0; !st && i < c; i++) {
        const uint8_t *w = ks + 4 * (first + i - 16 * b0);
        uint32_t v = (uint32_t)w[0] | (uint32_t)w[1] << 8 | (uint32_t)w[2] << 16 | (uint32_t)w[3] << 24;
        indexes[i] = v % num_synth;
    }
    free(ks);
    return st;
}
