/* Native SHA-256 through OpenSSL; contracts in sha256_native.h. */
#include <openssl/sha.h>

#include "gadgets/sha256_native.h"

void sha256_native(const uint8_t *data, size_t len, uint8_t out[32])
{
    static const uint8_t empty[1];
    SHA256(data ? data : empty, len, out);
}

void sha256_trunc254(const uint8_t *data, size_t len, uint8_t out[32])
{
    sha256_native(data, len, out);
    out[31] &= 0x3f;
}
