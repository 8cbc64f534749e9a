/* ChaCha8 keystream as rand_chacha's ChaCha8Rng draws it (storage-proofs-core drgraph.rs
 * seeds one per node; storage-proofs-core drgraph.rs BucketGraph).
 *
 * Layout (D. J. Bernstein, "ChaCha, a variant of Salsa20", 2008): 16 u32 words =
 * "expand 32-byte k", the 32-byte key as 8 LE words, a 64-bit block counter (words 12-13,
 * low word first) and a 64-bit stream id (words 14-15, zero here); 8 rounds (4 double
 * rounds); the output block is the final state plus the input state, each word LE.
 * ChaCha8Rng::gen::<u64>() returns consecutive 8-byte LE words of this keystream, blocks
 * in counter order from 0.
 *
 * Pure functions on caller-owned data: thread-safe, no failure modes.
 */
#ifndef CUZK_FILECOIN_CORE_CHACHA8_H
#define CUZK_FILECOIN_CORE_CHACHA8_H

#include <stdint.h>

/* Keystream block `counter` (stream id 0) of `key`, as 8 u64 draws (LE words). */
void chacha8_block_u64(const uint8_t key[32], uint64_t counter, uint64_t out[8]);

#endif
