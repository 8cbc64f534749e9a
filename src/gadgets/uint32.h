/* 32-bit words in circuit (bellperson gadgets/uint32.rs) and the MultiEq batcher
 * (gadgets/multieq.rs).
 *
 * A u32g holds 32 Booleans in word form (gb_word), bit 0 = least significant, and the
 * word's value (meaningful when the cs has values or all bits are constant). MultiEq
 * accumulates equalities `L = R` of at most 253 bits in total into one constraint
 * `lhs * ONE = rhs`, emitted when the next equality would reach 254 bits (Fr CAPACITY) and on
 * multieq_flush; u32_addmany is this library's one source of equalities. A batch keeps its
 * additions' operand words; when it is emitted, CS_PROVE lists the operands' variables as
 * the A density (a variable's exponents in the sum are distinct, so its merged coefficient
 * Σ ±2^e is not zero, unless two operands of one addition share it at one position; then,
 * and in the other modes, the sides are built as bit sums, bitsum.h). A multieq is large
 * (about 20 KB); release with multieq_flush + multieq_free.
 * Errors go to the cs's sticky status. Not thread-safe on the same cs.
 */
#ifndef CUZK_GADGETS_UINT32_H
#define CUZK_GADGETS_UINT32_H

#include "gadgets/bitsum.h"
#include "gadgets/boolean.h"

/* The 32 bits in word form (boolean.h gb_word): value is the word's value. */
typedef gb_word u32g;

/* A batch holds at most 7 additions (each takes at least 33 of the 253 bits) of at most 10
 * operands. */
#define MULTIEQ_MAX_ADDS 8
#define MULTIEQ_MAX_WORDS (MULTIEQ_MAX_ADDS * 10)

typedef struct {
    uint32_t word0;  /* its first operand in multieq.words */
    uint8_t n, nout; /* operands, result bits */
    uint16_t off;    /* the weight of bit 0 is 2^off */
    cs_var res;      /* the first of the nout consecutive result bits */
} multieq_add;

typedef struct {
    cs_t *cs;
    /* the pending equalities: Σ_k Σ_i 2^(off + i) op_k bit i = Σ_i 2^(off + i) res bit i */
    u32g words[MULTIEQ_MAX_WORDS];
    multieq_add adds[MULTIEQ_MAX_ADDS];
    unsigned nwords, nadds;
    /* CS_PROVE: some addition has one variable at one position of two operands (its
     * coefficients there may cancel: multieq_flush then merges the terms) */
    bool repeat;
    /* value modes: lhs.w (= rhs.w) as an integer, below 2^253 (bits_used <= 253), passed to
     * the constraint (cs_enforce_values) */
    uint64_t value[4];
    unsigned bits_used;
    unsigned ops;
    gb_bitsum lhs, rhs; /* the constraint's sides where LCs are built (bitsum.h) */
    cs_var list[MULTIEQ_MAX_WORDS * 32 + MULTIEQ_MAX_ADDS * 36]; /* CS_PROVE: cs_row_push's lists */
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
