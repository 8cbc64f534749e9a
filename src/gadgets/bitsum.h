/* Weighted bit sums Σ ±2^e·b̄ over Booleans (b̄ is bellpepper's Boolean::lc: v, ONE - v or
 * ONE), the sides of the long constraints `lhs * ONE = rhs` of MultiEq batches (bellperson
 * gadgets/multieq.rs) and of bit packing (bellperson gadgets/multipack.rs).
 *
 * The terms are recorded (8 bytes each) rather than built into an LC as they come. When the
 * row is emitted (gb_bitsum_enforce), CS_PROVE on its fast path (cs_row_fast) needs only the
 * variables of lhs that keep a non-zero coefficient once repeats are merged (the A density;
 * the callers take this path where they cannot rule out a cancellation, as a MultiEq batch
 * with one variable at one position of two operands); they are found through a small hash
 * table with the merged coefficients of repeated variables summed in Fr. Every other mode
 * (and CS_PROVE off its fast path) gets the LCs built from the recorded terms, the same
 * terms as adding them one by one, hence the same normalised LCs (cs.h).
 *
 * A gb_bitsum is reused across rows (gb_bitsum_clear) and owns heap buffers (gb_bitsum_free).
 * An allocation failure is recorded in the cs when the row is emitted. Not thread-safe.
 */
#ifndef CUZK_GADGETS_BITSUM_H
#define CUZK_GADGETS_BITSUM_H

#include "gadgets/boolean.h"

typedef struct {
    uint64_t *t; /* terms: variable << 32 | kind << 8 | exponent (kind: 0 v, 1 ONE - v, 2 ONE) */
    uint32_t n, cap;
    bool failed;
    /* merge scratch (CS_PROVE): open addressing over `slots` entries (generation << 32 |
     * distinct index; entries of older generations are empty), the distinct variables,
     * their first term (kind << 8 | exponent, MULTI once repeated) and, once repeated,
     * their merged coefficients */
    uint64_t *slot;
    uint32_t slots, gen;
    cs_var *vars;
    uint32_t *first;
    fr_t *coef;
    uint32_t dcap;
    cs_lc lc; /* the other modes: the LC built from the terms (its storage kept) */
} gb_bitsum;

void gb_bitsum_init(gb_bitsum *s);
void gb_bitsum_free(gb_bitsum *s);
static inline void gb_bitsum_clear(gb_bitsum *s) { s->n = 0; }

/* Room for one more term; false (and s->failed) when out of memory. */
bool gb_bitsum_grow(gb_bitsum *s);
static inline void gb_bitsum_push_(gb_bitsum *s, uint64_t t)
{
    if (s->n < s->cap || gb_bitsum_grow(s))
        s->t[s->n++] = t;
}

/* s += 2^e · b̄ (e < 256); a constant false adds nothing. */
static inline void gb_bitsum_add(gb_bitsum *s, gbool b, unsigned e)
{
    if (b.kind == GB_CONST) {
        if (b.value)
            gb_bitsum_push_(s, 2u << 8 | (e & 255));
        return;
    }
    gb_bitsum_push_(s, (uint64_t)b.var << 32 | (uint64_t)(b.kind == GB_NOT) << 8 | (e & 255));
}
/* s += Σ_i 2^(e + i) · bit_i over the 32 bits of w (gb_bitsum_add of each, bit 0 first). */
static inline void gb_bitsum_add_word(gb_bitsum *s, const gb_word *w, unsigned e)
{
    for (unsigned i = 0; i < 32; i++) {
        unsigned x = (e + i) & 255;
        if ((w->konst >> i) & 1) {
            if ((w->value >> i) & 1)
                gb_bitsum_push_(s, 2u << 8 | x);
        } else {
            gb_bitsum_push_(s, (uint64_t)w->var[i] << 32 | (uint64_t)((w->neg >> i) & 1) << 8 | x);
        }
    }
}
/* s += 2^e · v for an allocated variable v (aux or input). */
static inline void gb_bitsum_add_var(gb_bitsum *s, cs_var v, unsigned e)
{
    gb_bitsum_push_(s, (uint64_t)v << 32 | (e & 255));
}

/* The constraint (lhs) * ONE = (rhs) whose sides evaluate to `value` (value modes; may be
 * NULL otherwise), through cs_row_push on CS_PROVE's fast path, else cs_enforce_values over
 * the LCs of the recorded terms. `name` as cs_enforce. The sums are left as they are. */
void gb_bitsum_enforce(cs_t *cs, const char *name, gb_bitsum *lhs, gb_bitsum *rhs, const fr_t *value);

#endif
