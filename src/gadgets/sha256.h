/* SHA-256 in circuit, bellperson's structure (gadgets/sha256.rs): message
 * schedule and rounds over UInt32 with deferred additions batched by one MultiEq per
 * compression. Constraint counts: one fully variable block from the IV 25,840; sha256 of 64
 * variable bytes 44,874; all-constant block 0.
 *
 * Bits are in message order: byte 0 first, most significant bit of each byte first. The
 * digest is 256 gbool in standard digest bit order (h0 MSB first ... h7 LSB last).
 * Errors go to the cs's sticky status. Not thread-safe on the same cs.
 */
#ifndef CUZK_GADGETS_SHA256_H
#define CUZK_GADGETS_SHA256_H

#include "gadgets/uint32.h"

/* The FIPS 180-4 initial hash value as 8 constant words. */
void sha256_iv(u32g out[8]);

/* One compression: block = 512 bits, state = 8 words in/out (out may alias state). */
void sha256_compress_circuit(cs_t *cs, const gbool block[512], const u32g state[8],
                             u32g out[8]);

/* sha256 of `nbits` message bits (nbits % 8 == 0, else CUZK_E_INVALID_ARG), with constant
 * padding. digest receives 256 bits. */
void sha256_circuit(cs_t *cs, const gbool *bits, size_t nbits, gbool digest[256]);

#endif
