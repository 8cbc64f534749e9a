/* 64-bit words in circuit (storage-proofs-core gadgets/uint64.rs) and the
 * key xor gadget (gadgets/xor.rs).
 *
 * A u64g holds 64 gbool, bit 0 = least significant, plus the value. Errors go to the cs's
 * sticky status. Not thread-safe on the same cs.
 */
#ifndef CUZK_GADGETS_UINT64_H
#define CUZK_GADGETS_UINT64_H

#include "gadgets/boolean.h"

typedef struct {
    gbool bits[64];
    uint64_t value;
} u64g;

/* UInt64::constant: 64 constant bits. */
u64g u64_const(uint64_t v);
/* UInt64::alloc: 64 allocated bits, bit 0 first (64 aux / 64 constraints). */
u64g u64_alloc(cs_t *cs, uint64_t v);
/* to_bits_be: out[0] = most significant bit. */
void u64_to_bits_be(const u64g *x, gbool out[64]);
/* from_bits_be: bits[0] = most significant bit. */
u64g u64_from_bits_be(const gbool bits[64]);
/* pack_into_input: pack_into_inputs over the 64 LSB-first bits (1 input / 1 constraint). */
void u64_pack_into_input(cs_t *cs, const u64g *x);

/* xor(key, input): out[i] = Boolean::xor(input[i], key[i mod 256]) for i < n. */
void gadget_xor_key(cs_t *cs, const gbool key[256], const gbool *input, size_t n, gbool *out);

#endif
