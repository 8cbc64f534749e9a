/* Weighted bit sums; contracts in bitsum.h. */
#include <stdlib.h>
#include <string.h>

#include "gadgets/bitsum.h"

enum { T_VAR = 0, T_NOT = 1, T_ONE = 2 }; /* +v, ONE - v, ONE (bitsum.h's term kinds) */
#define MULTI 0x10000u                     /* `first`: the variable is repeated */

void gb_bitsum_init(gb_bitsum *s)
{
    memset(s, 0, sizeof *s);
    cs_lc_init(&s->lc, NULL, 0);
}

void gb_bitsum_free(gb_bitsum *s)
{
    free(s->t);
    free(s->slot);
    free(s->vars);
    free(s->first);
    free(s->coef);
    cs_lc_release(&s->lc);
    memset(s, 0, sizeof *s);
}

bool gb_bitsum_grow(gb_bitsum *s)
{
    uint32_t cap = s->cap ? 2 * s->cap : 512;
    uint64_t *p = cap > s->cap ? realloc(s->t, (size_t)cap * sizeof *p) : NULL;
    if (!p) {
        s->failed = true;
        return false;
    }
    s->t = p;
    s->cap = cap;
    return true;
}

/* s->lc: the LC of the recorded terms, added as gb_lc_add / cs_lc_add would (bitsum.h). */
static cs_lc *build_lc(gb_bitsum *s)
{
    cs_lc *lc = &s->lc;
    cs_lc_clear(lc);
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t t = s->t[i];
        cs_var v = (cs_var)(t >> 32);
        unsigned kind = (t >> 8) & 3, e = t & 255;
        if (kind == T_VAR) {
            cs_lc_add(lc, v, cs_pow2(e));
            continue;
        }
        cs_lc_add(lc, CS_ONE, cs_pow2(e));
        if (kind == T_NOT) {
            fr_t neg;
            fr_neg(&neg, cs_pow2(e));
            cs_lc_add(lc, v, &neg);
        }
    }
    return lc;
}

/* Room for n distinct variables and a table of at least 2n slots. */
static bool scratch(gb_bitsum *s, uint32_t n)
{
    if (n > s->dcap) {
        cs_var *v = realloc(s->vars, (size_t)n * sizeof *v);
        if (v)
            s->vars = v;
        uint32_t *f = v ? realloc(s->first, (size_t)n * sizeof *f) : NULL;
        if (f)
            s->first = f;
        fr_t *c = f ? realloc(s->coef, (size_t)n * sizeof *c) : NULL;
        if (!c)
            return false;
        s->coef = c;
        s->dcap = n;
    }
    uint32_t slots = 64;
    while (slots < 2 * n)
        slots *= 2;
    if (slots > s->slots || s->gen == UINT32_MAX) {
        uint64_t *p = calloc(slots > s->slots ? slots : s->slots, sizeof *p);
        if (!p)
            return false;
        free(s->slot);
        s->slot = p;
        s->slots = slots > s->slots ? slots : s->slots;
        s->gen = 0;
    }
    return true;
}

/* Whether cs_row_push lists v: aux variables are listed (and checked there); inputs take no
 * density in A or C, so a valid input is left out and an unallocated one listed (it fails
 * the check, as cs_enforce would). */
static inline bool listed(const cs_t *cs, cs_var v)
{
    return !CS_VAR_IS_INPUT(v) || CS_VAR_INDEX(v) >= cs->num_inputs;
}

/* ±2^e for a term kind T_VAR / T_NOT */
static inline void signed_pow2(fr_t *out, unsigned kind, unsigned e)
{
    if (kind == T_VAR)
        *out = *cs_pow2(e);
    else
        fr_neg(out, cs_pow2(e));
}

/* s->vars[0 .. return): the distinct variables of s (those cs_row_push lists) whose merged
 * coefficient is not zero, in order of first appearance. A variable seen once keeps its
 * ±2^e; the coefficients of repeated ones are summed in Fr. */
static uint32_t merged_vars(const cs_t *cs, gb_bitsum *s)
{
    uint32_t mask = s->slots - 1, nd = 0;
    uint64_t *slot = s->slot, gen = ++s->gen;
    for (uint32_t i = 0; i < s->n; i++) {
        uint64_t t = s->t[i];
        unsigned kind = (t >> 8) & 3, e = t & 255;
        cs_var v = (cs_var)(t >> 32);
        if (kind == T_ONE || !listed(cs, v))
            continue;
        uint32_t h = (uint32_t)((v * 0x9e3779b97f4a7c15ull) >> 40) & mask;
        uint64_t x;
        while ((x = slot[h]) >> 32 == gen && s->vars[(uint32_t)x] != v)
            h = (h + 1) & mask;
        if (x >> 32 != gen) {
            slot[h] = gen << 32 | nd;
            s->vars[nd] = v;
            s->first[nd++] = (uint32_t)(t & 0x3ff);
            continue;
        }
        uint32_t d = (uint32_t)x;
        if (!(s->first[d] & MULTI)) {
            signed_pow2(&s->coef[d], (s->first[d] >> 8) & 3, s->first[d] & 255);
            s->first[d] |= MULTI;
        }
        if (kind == T_VAR)
            fr_add(&s->coef[d], &s->coef[d], cs_pow2(e));
        else
            fr_sub(&s->coef[d], &s->coef[d], cs_pow2(e));
    }
    uint32_t o = 0;
    for (uint32_t d = 0; d < nd; d++) {
        const uint64_t *c = s->coef[d].l;
        if (!(s->first[d] & MULTI) || (c[0] | c[1] | c[2] | c[3]))
            s->vars[o++] = s->vars[d];
    }
    return o;
}

/* The variables of s's terms that cs_row_push lists, repeats included (C's list: checked
 * only). */
static uint32_t all_vars(const cs_t *cs, gb_bitsum *s)
{
    uint32_t o = 0;
    for (uint32_t i = 0; i < s->n; i++) {
        cs_var v = (cs_var)(s->t[i] >> 32);
        if (((s->t[i] >> 8) & 3) != T_ONE && listed(cs, v))
            s->vars[o++] = v;
    }
    return o;
}

void gb_bitsum_enforce(cs_t *cs, const char *name, gb_bitsum *lhs, gb_bitsum *rhs, const fr_t *value)
{
    if (lhs->failed || rhs->failed) {
        cs_set_error(cs, CUZK_E_NOMEM, "%s: out of memory for the terms of constraint %llu", name,
                     (unsigned long long)cs->num_constraints);
        return;
    }
    if (cs_row_fast(cs) && value && scratch(lhs, lhs->n) && scratch(rhs, rhs->n)) {
        uint32_t na = merged_vars(cs, lhs), nc = all_vars(cs, rhs);
        cs_row_push(cs, lhs->vars, na, NULL, 0, true, rhs->vars, nc, value, &FR_ONE, value);
        return;
    }
    CS_LC(b, 1);
    cs_lc_add_var(&b, CS_ONE);
    const fr_t ev[3] = {value ? *value : FR_ZERO, FR_ONE, value ? *value : FR_ZERO};
    cs_enforce_values(cs, name, build_lc(lhs), &b, build_lc(rhs), value ? ev : NULL);
}
