/* Booleans in circuit: constants, allocated bits and their negations, with bellpepper-core's
 * constant folding (bellpepper-core gadgets/boolean.rs). Constant propagation is mandatory for
 * reproducing the reference's constraint counts and variable order.
 *
 * A gbool is a value type (copy freely). `value` is the Boolean's own value (for GB_NOT it is
 * the negation of the underlying bit); in CS_SHAPE mode values of allocated bits are
 * meaningless (0) but constant folding depends only on `kind`, so counts are exact.
 * All functions take the cs by pointer, are not thread-safe on the same cs, and report
 * failures through the cs's sticky status (cs.h).
 */
#ifndef CUZK_GADGETS_BOOLEAN_H
#define CUZK_GADGETS_BOOLEAN_H

#include <stdbool.h>

#include "cs/cs.h"

typedef enum { GB_CONST = 0, GB_IS, GB_NOT } gb_kind;

typedef struct {
    cs_var var;    /* the allocated bit (GB_IS / GB_NOT) */
    uint8_t kind;  /* gb_kind */
    uint8_t value; /* the Boolean's value (0/1) */
} gbool;

static inline gbool gb_const(bool v) { return (gbool){0, GB_CONST, (uint8_t)v}; }
static inline bool gb_is_const(gbool b) { return b.kind == GB_CONST; }
static inline gbool gb_not(gbool b)
{
    b.value ^= 1;
    if (b.kind != GB_CONST)
        b.kind = b.kind == GB_IS ? GB_NOT : GB_IS;
    return b;
}

/* AllocatedBit::alloc: new aux bit b with `(ONE - b) * b = 0`. (1 aux / 1 constraint) */
gbool gb_alloc(cs_t *cs, bool value);
/* gb_alloc of bits 0 .. n-1 of v (n <= 64), in that order: n consecutive variables, the
 * first returned. */
cs_var gb_alloc_run(cs_t *cs, uint64_t v, unsigned n);

/* lc += coeff * b̄ where b̄ is the Boolean's LC: Is(v) -> v, Not(v) -> ONE - v,
 * Constant(true) -> ONE, Constant(false) -> nothing (bellpepper Boolean::lc). */
void gb_lc_add(cs_lc *lc, gbool b, const fr_t *coeff);

/* Boolean::xor / Boolean::and with the reference's dispatch order (bellpepper-core boolean.rs). */
gbool gb_xor(cs_t *cs, gbool a, gbool b);
gbool gb_and(cs_t *cs, gbool a, gbool b);

/* SHA-256 choice (a∧b)⊕(¬a∧c) and majority, with the reference's special cases. */
gbool gb_sha256_ch(cs_t *cs, gbool a, gbool b, gbool c);
gbool gb_sha256_maj(cs_t *cs, gbool a, gbool b, gbool c);
/* 32 Booleans in word form, bit 0 first (UInt32's bits): bit i is a constant when `konst`
 * has it, else the allocated bit var[i], negated (GB_NOT) when `neg` has it; `value` holds
 * every bit's value (gbool.value). var[i] of a constant is 0. */
typedef struct {
    cs_var var[32];
    uint32_t konst, neg, value;
} gb_word;

static inline gbool gb_word_bit(const gb_word *w, unsigned i)
{
    uint8_t v = (uint8_t)((w->value >> i) & 1);
    if ((w->konst >> i) & 1)
        return gb_const(v);
    return (gbool){w->var[i], (uint8_t)(((w->neg >> i) & 1) ? GB_NOT : GB_IS), v};
}

static inline void gb_word_set(gb_word *w, unsigned i, gbool b)
{
    uint32_t m = 1u << i;
    w->var[i] = b.kind == GB_CONST ? 0 : b.var;
    w->konst = (w->konst & ~m) | (b.kind == GB_CONST ? m : 0);
    w->neg = (w->neg & ~m) | (b.kind == GB_NOT ? m : 0);
    w->value = (w->value & ~m) | ((uint32_t)(b.value & 1) << i);
}

/* Position-wise gb_xor / gb_sha256_ch / gb_sha256_maj of words, bit 0 first: the same
 * allocations and constraints in the same order as the per-bit calls (out may be an
 * operand). Words without constants take a word-wise path. */
void gb_word_xor(cs_t *cs, const gb_word *a, const gb_word *b, gb_word *out);
void gb_word_ch(cs_t *cs, const gb_word *a, const gb_word *b, const gb_word *c, gb_word *out);
void gb_word_maj(cs_t *cs, const gb_word *a, const gb_word *b, const gb_word *c, gb_word *out);

/* AllocatedBit::nor / AllocatedBit::and on two allocated, non-negated bits (GB_IS); any other
 * kind records CUZK_E_INVALID_ARG in the cs. Used by the arity-8 insertion gadget. */
gbool gb_alloc_nor(cs_t *cs, gbool a, gbool b);
gbool gb_alloc_and(cs_t *cs, gbool a, gbool b);

/* Boolean::enforce_equal: A = 0, B = 0, C = ā − b̄ (0 aux / 1 constraint). */
void gb_enforce_equal(cs_t *cs, gbool a, gbool b);

#endif
