/* Insertion / selection; contracts in insertion.h. Pick order per output position follows
 * insertion.rs insert_2 / insert_4 / insert_8 / insert / select. */
#include "gadgets/insertion.h"

anum gadget_pick(cs_t *cs, gbool cond, const anum *a, const anum *b)
{
    anum c = anum_alloc(cs, cond.value ? &a->value : &b->value);
    if (cs_wants_constraints(cs)) {
        CS_LC(la, 2);
        CS_LC(lb, 2);
        CS_LC(lc, 2);
        cs_lc_add_var(&la, b->var);
        cs_lc_sub_var(&la, a->var);
        gb_lc_add(&lb, cond, &FR_ONE);
        cs_lc_add_var(&lc, b->var);
        cs_lc_sub_var(&lc, c.var);
        fr_t ev[3];
        fr_sub(&ev[0], &b->value, &a->value);
        ev[1] = cond.value ? FR_ONE : FR_ZERO;
        fr_sub(&ev[2], &b->value, &c.value);
        cs_enforce_values(cs, "pick", &la, &lb, &lc, ev);
    }
    return c;
}

anum gadget_select(cs_t *cs, const anum *from, const gbool *bits, unsigned nbits)
{
    if (nbits == 0 || nbits > SELECT_MAX_BITS) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "gadget_select: %u index bits (1..%d)", nbits,
                     SELECT_MAX_BITS);
        return from[0];
    }
    anum state[1 << SELECT_MAX_BITS];
    unsigned half = 1u << (nbits - 1);
    for (unsigned j = 0; j < 2 * half; j++)
        state[j] = from[j];
    for (unsigned i = 0; i < nbits; i++) {
        gbool bit = bits[nbits - 1 - i];
        for (unsigned j = 0; j < half; j++)
            state[j] = gadget_pick(cs, bit, &state[half + j], &state[j]);
        half /= 2;
    }
    return state[0];
}

static void insert_8(cs_t *cs, const anum *A, const gbool *bits, const anum *s, anum *out)
{
    gbool b0 = bits[0], b1 = bits[1], b2 = bits[2];
    const anum *b = &s[0], *c = &s[1], *d = &s[2], *e = &s[3], *f = &s[4], *g = &s[5],
               *h = &s[6];
    gbool nor = gb_alloc_nor(cs, b0, b1);
    gbool and = gb_alloc_and(cs, b0, b1);
    anum t, u;
    t = gadget_pick(cs, nor, A, b);
    out[0] = gadget_pick(cs, b2, b, &t);
    t = gadget_pick(cs, b0, A, b);
    u = gadget_pick(cs, b1, c, &t);
    out[1] = gadget_pick(cs, b2, c, &u);
    t = gadget_pick(cs, b0, d, A);
    u = gadget_pick(cs, b1, &t, c);
    out[2] = gadget_pick(cs, b2, d, &u);
    t = gadget_pick(cs, and, A, d);
    out[3] = gadget_pick(cs, b2, e, &t);
    t = gadget_pick(cs, nor, A, f);
    out[4] = gadget_pick(cs, b2, &t, e);
    t = gadget_pick(cs, b0, A, f);
    u = gadget_pick(cs, b1, g, &t);
    out[5] = gadget_pick(cs, b2, &u, f);
    t = gadget_pick(cs, b0, h, A);
    u = gadget_pick(cs, b1, &t, g);
    out[6] = gadget_pick(cs, b2, &u, g);
    t = gadget_pick(cs, and, A, h);
    out[7] = gadget_pick(cs, b2, &t, h);
}

void gadget_insert(cs_t *cs, const anum *element, const gbool *bits, unsigned nbits,
                   const anum *siblings, anum *out)
{
    if (nbits == 0 || nbits > INSERT_MAX_BITS) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "gadget_insert: %u index bits (1..%d)", nbits,
                     INSERT_MAX_BITS);
        return;
    }
    const anum *A = element, *s = siblings;
    anum t;
    switch (nbits) {
    case 1:
        out[0] = gadget_pick(cs, bits[0], &s[0], A);
        out[1] = gadget_pick(cs, bits[0], A, &s[0]);
        return;
    case 2:
        t = gadget_pick(cs, bits[0], &s[0], A);
        out[0] = gadget_pick(cs, bits[1], &s[0], &t);
        t = gadget_pick(cs, bits[0], A, &s[0]);
        out[1] = gadget_pick(cs, bits[1], &s[1], &t);
        t = gadget_pick(cs, bits[0], &s[2], A);
        out[2] = gadget_pick(cs, bits[1], &t, &s[1]);
        t = gadget_pick(cs, bits[0], A, &s[2]);
        out[3] = gadget_pick(cs, bits[1], &t, &s[2]);
        return;
    case 3:
        insert_8(cs, A, bits, s, out);
        return;
    default:
        break;
    }
    /* generic: position pos takes candidate column [index] = result of inserting at index */
    unsigned size = 1u << nbits;
    anum col[1 << INSERT_MAX_BITS];
    for (unsigned pos = 0; pos < size; pos++) {
        for (unsigned index = 0; index < size; index++)
            col[index] = pos < index ? s[pos] : pos == index ? *A : s[pos - 1];
        out[pos] = gadget_select(cs, col, bits, nbits);
    }
}
