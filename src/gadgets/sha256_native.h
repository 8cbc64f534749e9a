/* Native SHA-256 (OpenSSL libcrypto) and Filecoin's 254-bit truncation.
 *
 * sha256_native: out = SHA-256(data[0..len)) (FIPS 180-4). data may be NULL when len is 0.
 * sha256_trunc254: the same digest with the two most significant bits of the last byte
 * cleared (digest[31] &= 0x3f), so that the 32 bytes read little-endian are a canonical Fr
 * (filecoin-hashers sha256.rs / storage-proofs-core util).
 * Thread-safe; no failure modes (libcrypto's one-shot SHA256 cannot fail on valid pointers).
 */
#ifndef CUZK_GADGETS_SHA256_NATIVE_H
#define CUZK_GADGETS_SHA256_NATIVE_H

#include <stddef.h>
#include <stdint.h>

void sha256_native(const uint8_t *data, size_t len, uint8_t out[32]);
void sha256_trunc254(const uint8_t *data, size_t len, uint8_t out[32]);

#endif
