/* 32-bit words in circuit (bellperson gadgets/uint32.rs) and the MultiEq batcher
 * (gadgets/multieq.rs).
 *
 * A u32g holds 32 gbool, bit 0 = least significant, plus the word's value (meaningful when
 * the cs has values or all bits are constant). MultiEq accumulates equalities `L = R` of at
 * most 253 bits in total into one constraint `lhs * ONE = rhs`, emitted when the next
 * equality would reach 254 bits (Fr CAPACITY) and on multieq_flush; u32_addmany is this
 * library's one source of equalities. The LCs are heap-grown
 * buffers owned by the multieq; release with multieq_flush + multieq_free.
 * Errors go to the cs's sticky status. Not thread-safe on the same cs.
 */
#ifndef CUZK_GADGETS_UINT32_H
#define CUZK_GADGETS_UINT32_H

#include "gadgets/boolean.h"

typedef struct {
    gbool bits[32];
    uint32_t value;
} u32g;

typedef struct {
    cs_t *cs;
    cs_lc lhs, rhs;
    fr_t value; /* value modes: lhs.w (= rhs.w), passed to the constraint (cs_enforce_values) */
    unsigned bits_used;
    unsigned ops;
} multieq;

void multieq_init(multieq *m, cs_t *cs);
/* Emit the pending constraint, if any (bellperson does this when the MultiEq is dropped). */
void multieq_flush(multieq *m);
/* Release the LC buffers (call after multieq_flush). */
void multieq_free(multieq *m);

/* UInt32::constant: 32 constant bits. */
u32g u32_const(uint32_t v);
/* UInt32::alloc: 32 allocated bits, bit 0 first (32 aux / 32 constraints). */
u32g u32_alloc(cs_t *cs, uint32_t v);
/* from_bits_be: bits[0] is the most significant bit. */
u32g u32_from_bits_be(const gbool bits[32]);
/* into_bits_be: out[0] = most significant bit. */
void u32_into_bits_be(const u32g *x, gbool out[32]);
/* Rotations/shifts move bits (no constraints); shr fills with Constant(false). */
u32g u32_rotr(const u32g *x, unsigned n);
u32g u32_shr(const u32g *x, unsigned n);
/* Bitwise Boolean::xor, bit 0 first. */
u32g u32_xor(cs_t *cs, const u32g *a, const u32g *b);
/* Bitwise sha256_ch / sha256_maj (bit 0 first). */
u32g u32_sha256_ch(cs_t *cs, const u32g *a, const u32g *b, const u32g *c);
u32g u32_sha256_maj(cs_t *cs, const u32g *a, const u32g *b, const u32g *c);
/* UInt32::addmany of n operands (2 <= n <= 10): constant result if every bit is constant,
 * else n_out = bitlen(n * (2^32 - 1)) result bits allocated and one MultiEq equality.
 * Returns the low 32 bits. Bad n records CUZK_E_INVALID_ARG. */
u32g u32_addmany(multieq *m, const u32g *ops, unsigned n);

#endif
