/* Boolean gadgets; contracts and sources in boolean.h. */
#include "gadgets/boolean.h"

static cs_var alloc_bit_var(cs_t *cs, bool v)
{
    return cs_alloc(cs, v ? &FR_ONE : &FR_ZERO);
}

/* cs_enforce with the evaluations of the bit expressions a, b, c known as integers (|v| <= 2). */
static void enforce_ints(cs_t *cs, const char *name, cs_lc *a, cs_lc *b, cs_lc *c, int va, int vb, int vc)
{
    if (!cs_has_values(cs)) {
        cs_enforce(cs, name, a, b, c);
        return;
    }
    const fr_t ev[3] = {*cs_small_int(va), *cs_small_int(vb), *cs_small_int(vc)};
    cs_enforce_values(cs, name, a, b, c, ev);
}

gbool gb_alloc(cs_t *cs, bool value)
{
    cs_var b = alloc_bit_var(cs, value);
    if (cs_wants_constraints(cs)) {
        CS_LC(a, 2);
        CS_LC(bb, 1);
        CS_LC(c, 1);
        cs_lc_add_var(&a, CS_ONE);
        cs_lc_sub_var(&a, b);
        cs_lc_add_var(&bb, b);
        enforce_ints(cs, "boolean constraint", &a, &bb, &c, 1 - value, value, 0);
    }
    return (gbool){b, GB_IS, (uint8_t)value};
}

void gb_lc_add(cs_lc *lc, gbool b, const fr_t *coeff)
{
    switch (b.kind) {
    case GB_CONST:
        if (b.value)
            cs_lc_add(lc, CS_ONE, coeff);
        break;
    case GB_IS:
        cs_lc_add(lc, b.var, coeff);
        break;
    default: {
        fr_t neg;
        fr_neg(&neg, coeff);
        cs_lc_add(lc, CS_ONE, coeff);
        cs_lc_add(lc, b.var, &neg);
        break;
    }
    }
}

/* AllocatedBit::xor: c = a xor b, `(2a) * b = a + b - c`. */
static gbool bit_xor(cs_t *cs, gbool a, gbool b)
{
    bool av = a.kind == GB_NOT ? !a.value : a.value, bv = b.kind == GB_NOT ? !b.value : b.value;
    bool cv = av ^ bv;
    cs_var c = alloc_bit_var(cs, cv);
    if (cs_wants_constraints(cs)) {
        CS_LC(la, 1);
        CS_LC(lb, 1);
        CS_LC(lc, 3);
        cs_lc_add(&la, a.var, cs_pow2(1));
        cs_lc_add_var(&lb, b.var);
        cs_lc_add_var(&lc, a.var);
        cs_lc_add_var(&lc, b.var);
        cs_lc_sub_var(&lc, c);
        enforce_ints(cs, "xor constraint", &la, &lb, &lc, 2 * av, bv, av + bv - cv);
    }
    return (gbool){c, GB_IS, (uint8_t)cv};
}

/* The three AllocatedBit products: and = a*b, and_not = a*(1-b), nor = (1-a)*(1-b).
 * na / nb select the negated factor; the result is a fresh bit. */
static gbool bit_product(cs_t *cs, cs_var a, bool av, bool na, cs_var b, bool bv, bool nb,
                         const char *name)
{
    bool cv = (na ? !av : av) && (nb ? !bv : bv);
    cs_var c = alloc_bit_var(cs, cv);
    if (cs_wants_constraints(cs)) {
        CS_LC(la, 2);
        CS_LC(lb, 2);
        CS_LC(lc, 1);
        if (na) {
            cs_lc_add_var(&la, CS_ONE);
            cs_lc_sub_var(&la, a);
        } else {
            cs_lc_add_var(&la, a);
        }
        if (nb) {
            cs_lc_add_var(&lb, CS_ONE);
            cs_lc_sub_var(&lb, b);
        } else {
            cs_lc_add_var(&lb, b);
        }
        cs_lc_add_var(&lc, c);
        enforce_ints(cs, name, &la, &lb, &lc, na ? !av : av, nb ? !bv : bv, cv);
    }
    return (gbool){c, GB_IS, (uint8_t)cv};
}

/* Underlying bit value of an allocated Boolean. */
static inline bool bitval(gbool x)
{
    return x.kind == GB_NOT ? !x.value : x.value;
}

gbool gb_xor(cs_t *cs, gbool a, gbool b)
{
    if (a.kind == GB_CONST && !a.value)
        return b;
    if (b.kind == GB_CONST && !b.value)
        return a;
    if (a.kind == GB_CONST)
        return gb_not(b);
    if (b.kind == GB_CONST)
        return gb_not(a);
    if (a.kind != b.kind) {
        gbool is = a.kind == GB_IS ? a : b, not = a.kind == GB_IS ? b : a;
        return gb_not(bit_xor(cs, is, gb_not(not)));
    }
    return bit_xor(cs, a, b);
}

gbool gb_and(cs_t *cs, gbool a, gbool b)
{
    if ((a.kind == GB_CONST && !a.value) || (b.kind == GB_CONST && !b.value))
        return gb_const(false);
    if (a.kind == GB_CONST)
        return b;
    if (b.kind == GB_CONST)
        return a;
    if (a.kind != b.kind) {
        gbool is = a.kind == GB_IS ? a : b, not = a.kind == GB_IS ? b : a;
        return bit_product(cs, is.var, bitval(is), false, not.var, bitval(not), true,
                           "and not constraint");
    }
    if (a.kind == GB_NOT)
        return bit_product(cs, a.var, bitval(a), true, b.var, bitval(b), true, "nor constraint");
    return bit_product(cs, a.var, bitval(a), false, b.var, bitval(b), false, "and constraint");
}

gbool gb_alloc_nor(cs_t *cs, gbool a, gbool b)
{
    if (a.kind != GB_IS || b.kind != GB_IS) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "gb_alloc_nor: operands must be allocated bits");
        return gb_const(false);
    }
    return bit_product(cs, a.var, a.value, true, b.var, b.value, true, "nor constraint");
}

gbool gb_alloc_and(cs_t *cs, gbool a, gbool b)
{
    if (a.kind != GB_IS || b.kind != GB_IS) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "gb_alloc_and: operands must be allocated bits");
        return gb_const(false);
    }
    return bit_product(cs, a.var, a.value, false, b.var, b.value, false, "and constraint");
}

gbool gb_sha256_ch(cs_t *cs, gbool a, gbool b, gbool c)
{
    bool chv = (a.value & b.value) ^ ((!a.value) & c.value);
    if (a.kind == GB_CONST && b.kind == GB_CONST && c.kind == GB_CONST)
        return gb_const(chv);
    if (a.kind == GB_CONST && !a.value)
        return c;
    if (b.kind == GB_CONST && !b.value)
        return gb_and(cs, gb_not(a), c);
    if (c.kind == GB_CONST && !c.value)
        return gb_and(cs, a, b);
    if (c.kind == GB_CONST)
        return gb_not(gb_and(cs, a, gb_not(b)));
    if (b.kind == GB_CONST)
        return gb_not(gb_and(cs, gb_not(a), gb_not(c)));
    /* a constant true falls through to the general case, as in the reference */
    cs_var ch = alloc_bit_var(cs, chv);
    if (cs_wants_constraints(cs)) {
        CS_LC(la, 4);
        CS_LC(lb, 2);
        CS_LC(lc, 3);
        gb_lc_add(&la, b, &FR_ONE);
        gb_lc_add(&la, c, cs_neg_one());
        gb_lc_add(&lb, a, &FR_ONE);
        cs_lc_add_var(&lc, ch);
        gb_lc_add(&lc, c, cs_neg_one());
        enforce_ints(cs, "ch computation", &la, &lb, &lc, b.value - c.value, a.value, chv - c.value);
    }
    return (gbool){ch, GB_IS, (uint8_t)chv};
}

gbool gb_sha256_maj(cs_t *cs, gbool a, gbool b, gbool c)
{
    bool mv = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    if (a.kind == GB_CONST && b.kind == GB_CONST && c.kind == GB_CONST)
        return gb_const(mv);
    if (a.kind == GB_CONST && !a.value)
        return gb_and(cs, b, c);
    if (b.kind == GB_CONST && !b.value)
        return gb_and(cs, a, c);
    if (c.kind == GB_CONST && !c.value)
        return gb_and(cs, a, b);
    if (c.kind == GB_CONST)
        return gb_not(gb_and(cs, gb_not(a), gb_not(b)));
    if (b.kind == GB_CONST)
        return gb_not(gb_and(cs, gb_not(a), gb_not(c)));
    if (a.kind == GB_CONST)
        return gb_not(gb_and(cs, gb_not(b), gb_not(c)));
    cs_var maj = alloc_bit_var(cs, mv);
    gbool bc = gb_and(cs, b, c);
    if (cs_wants_constraints(cs)) {
        CS_LC(la, 6);
        CS_LC(lb, 2);
        CS_LC(lc, 3);
        gb_lc_add(&la, bc, cs_pow2(1));
        gb_lc_add(&la, b, cs_neg_one());
        gb_lc_add(&la, c, cs_neg_one());
        gb_lc_add(&lb, a, &FR_ONE);
        gb_lc_add(&lc, bc, &FR_ONE);
        cs_lc_sub_var(&lc, maj);
        enforce_ints(cs, "maj computation", &la, &lb, &lc, 2 * bc.value - b.value - c.value, a.value,
                     bc.value - mv);
    }
    return (gbool){maj, GB_IS, (uint8_t)mv};
}

void gb_enforce_equal(cs_t *cs, gbool a, gbool b)
{
    if (a.kind == GB_CONST && b.kind == GB_CONST) {
        if (a.value != b.value)
            cs_set_error(cs, CUZK_E_INVALID_ARG, "gb_enforce_equal: constants %d and %d differ",
                         a.value, b.value);
        return;
    }
    if (!cs_wants_constraints(cs))
        return;
    CS_LC(la, 1);
    CS_LC(lb, 1);
    CS_LC(lc, 4);
    int vc;
    if (a.kind == GB_CONST || b.kind == GB_CONST) {
        gbool k = a.kind == GB_CONST ? a : b, x = a.kind == GB_CONST ? b : a;
        if (k.value)
            cs_lc_add_var(&lc, CS_ONE);
        gb_lc_add(&lc, x, k.value ? cs_neg_one() : &FR_ONE);
        vc = k.value ? 1 - x.value : x.value;
    } else {
        gb_lc_add(&lc, a, &FR_ONE);
        gb_lc_add(&lc, b, cs_neg_one());
        vc = a.value - b.value;
    }
    enforce_ints(cs, "enforce equal", &la, &lb, &lc, 0, 0, vc);
}
