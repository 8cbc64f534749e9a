/* Fr32 padding: user bytes into 32-byte nodes that are canonical field elements
 * (fr32/src/reader.rs Fr32Reader, padding.rs).
 *
 * The input is a little-endian bit stream (bit i = bit i mod 8 of byte i / 8); every output
 * node holds the next 254 input bits in its low 254 bits and two zero bits on top (byte 31
 * & 0xc0 == 0). 127 input bytes make exactly 4 nodes (128 bytes); a partial last block is
 * zero-extended and emits ceil(8 n / 254) nodes in all. Unpadding concatenates the low 254
 * bits of every node.
 *
 * Pure functions on caller buffers; thread-safe.
 */
#ifndef CUZK_FILECOIN_TESTKIT_FR32_H
#define CUZK_FILECOIN_TESTKIT_FR32_H

#include <stdint.h>

/* Nodes the padded form of n input bytes fills: ceil(8 n / 254). */
uint64_t fc_fr32_padded_nodes(uint64_t n);
/* Unpadded capacity of `nodes` nodes in whole bytes: floor(254 nodes / 8) (2 KiB sector:
 * 64 nodes -> 2,032 bytes; 32 GiB: 34,091,302,912). */
uint64_t fc_fr32_unpadded_capacity(uint64_t nodes);

/* Pad in[0..n) into out, which must hold fc_fr32_padded_nodes(n) * 32 bytes (all written). */
void fc_fr32_pad(const uint8_t *in, uint64_t n, uint8_t *out);
/* Unpad: out[0..n) = the first n bytes of the concatenated low 254 bits of the nodes in
 * `in` (which holds at least fc_fr32_padded_nodes(n) nodes). */
void fc_fr32_unpad(const uint8_t *in, uint64_t n, uint8_t *out);

#endif
