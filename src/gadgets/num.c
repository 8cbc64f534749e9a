/* AllocatedNum, multipacking and bit helpers; contracts in num.h. */
#include <string.h>

#include "gadgets/bitsum.h"
#include "gadgets/num.h"

anum anum_alloc(cs_t *cs, const fr_t *value)
{
    anum x;
    x.value = value ? *value : FR_ZERO;
    x.var = cs_alloc(cs, value);
    return x;
}

void anum_inputize(cs_t *cs, const anum *x)
{
    cs_var u = cs_alloc_input(cs, &x->value);
    if (!cs_wants_constraints(cs))
        return;
    CS_LC(a, 1);
    CS_LC(b, 1);
    CS_LC(c, 1);
    cs_lc_add_var(&a, u);
    cs_lc_add_var(&b, CS_ONE);
    cs_lc_add_var(&c, x->var);
    cs_enforce(cs, "enforce input is correct", &a, &b, &c);
}

void anum_to_bits_le(cs_t *cs, const anum *x, gbool out[255])
{
    uint64_t limbs[FR_LIMBS] = {0};
    if (cs_has_values(cs))
        fr_to_limbs(limbs, &x->value);
    for (int i = 0; i < 255; i++)
        out[i] = gb_alloc(cs, (limbs[i / 64] >> (i % 64)) & 1);
    static const fr_t zero[3]; /* the bits are x's: Σ 2^i·bit_i − x evaluates to 0 */
    if (cs_row_fast(cs)) { /* A = B = 0: C's variables are only checked */
        cs_var cv[256];
        for (int i = 0; i < 255; i++)
            cv[i] = out[i].var;
        cv[255] = x->var; /* an aux number (an input would take no listing) */
        unsigned nc = 255 + (!CS_VAR_IS_INPUT(x->var) || CS_VAR_INDEX(x->var) >= cs->num_inputs);
        cs_row_push(cs, NULL, 0, NULL, 0, false, cv, nc, &zero[0], &zero[1], &zero[2]);
        return;
    }
    if (!cs_wants_constraints(cs))
        return;
    CS_LC(a, 1);
    CS_LC(b, 1);
    CS_LC(c, 256);
    for (int i = 0; i < 255; i++)
        cs_lc_add(&c, out[i].var, cs_pow2(i));
    cs_lc_sub_var(&c, x->var);
    cs_enforce_values(cs, "unpacking constraint", &a, &b, &c, zero);
}

void anum_enforce_equal(cs_t *cs, const anum *a, const anum *b)
{
    if (!cs_wants_constraints(cs))
        return;
    CS_LC(la, 1);
    CS_LC(lb, 1);
    CS_LC(lc, 1);
    cs_lc_add_var(&la, a->var);
    cs_lc_add_var(&lb, CS_ONE);
    cs_lc_add_var(&lc, b->var);
    cs_enforce(cs, "equal", &la, &lb, &lc);
}

anum anum_add(cs_t *cs, const anum *a, const anum *b)
{
    fr_t v;
    fr_add(&v, &a->value, &b->value);
    anum r = anum_alloc(cs, &v);
    if (cs_wants_constraints(cs)) {
        CS_LC(la, 2);
        CS_LC(lb, 1);
        CS_LC(lc, 1);
        cs_lc_add_var(&la, a->var);
        cs_lc_add_var(&la, b->var);
        cs_lc_add_var(&lb, CS_ONE);
        cs_lc_add_var(&lc, r.var);
        cs_enforce(cs, "add constraint", &la, &lb, &lc);
    }
    return r;
}

anum anum_sub(cs_t *cs, const anum *a, const anum *b)
{
    fr_t v;
    fr_sub(&v, &a->value, &b->value);
    anum r = anum_alloc(cs, &v);
    if (cs_wants_constraints(cs)) {
        CS_LC(la, 2);
        CS_LC(lb, 1);
        CS_LC(lc, 1);
        cs_lc_add_var(&la, r.var);
        cs_lc_add_var(&la, b->var);
        cs_lc_add_var(&lb, CS_ONE);
        cs_lc_add_var(&lc, a->var);
        cs_enforce(cs, "sub constraint", &la, &lb, &lc);
    }
    return r;
}

void bits_le_value(const gbool *bits, size_t n, fr_t *out)
{
    uint64_t limbs[FR_LIMBS] = {0};
    for (size_t k = 0; k < n && k < 256; k++)
        limbs[k / 64] |= (uint64_t)bits[k].value << (k % 64);
    fr_from_limbs_reduce(out, limbs);
}

/* (Σ 2^k b̄_k) * ONE = target, over bits[0..n), whose value is v. CS_PROVE lists the
 * allocated bits as the A density: a variable's exponents there are distinct, so its merged
 * coefficient Σ ±2^k (|Σ| < 2^254 < r, the largest term dominating) is never zero; the other
 * modes build the sides as bit sums (bitsum.h). */
static void enforce_packing(cs_t *cs, const gbool *bits, size_t n, cs_var target, const fr_t *v, const char *name)
{
    if (cs_row_fast(cs) && n <= 254) {
        cs_var a[254];
        unsigned na = 0, nc = !CS_VAR_IS_INPUT(target) || CS_VAR_INDEX(target) >= cs->num_inputs;
        for (size_t k = 0; k < n; k++)
            if (bits[k].kind != GB_CONST)
                a[na++] = bits[k].var;
        cs_row_push(cs, a, na, NULL, 0, true, &target, nc, v, &FR_ONE, v);
        return;
    }
    gb_bitsum a, c;
    gb_bitsum_init(&a);
    gb_bitsum_init(&c);
    for (size_t k = 0; k < n; k++)
        gb_bitsum_add(&a, bits[k], (unsigned)k);
    gb_bitsum_add_var(&c, target, 0);
    gb_bitsum_enforce(cs, name, &a, &c, v);
    gb_bitsum_free(&a);
    gb_bitsum_free(&c);
}

anum pack_bits(cs_t *cs, const gbool *bits, size_t n)
{
    if (n > 254)
        n = 254;
    fr_t v = FR_ZERO;
    if (cs_has_values(cs))
        bits_le_value(bits, n, &v);
    anum r = anum_alloc(cs, &v);
    if (cs_wants_constraints(cs))
        enforce_packing(cs, bits, n, r.var, &v, "packing constraint");
    return r;
}

void pack_into_inputs(cs_t *cs, const gbool *bits, size_t n)
{
    for (size_t off = 0; off < n; off += 254) {
        size_t len = n - off < 254 ? n - off : 254;
        fr_t v = FR_ZERO;
        bits_le_value(bits + off, len, &v);
        cs_var u = cs_alloc_input(cs, &v);
        if (cs_wants_constraints(cs))
            enforce_packing(cs, bits + off, len, u, &v, "packing constraint");
    }
}

void compute_multipacking(const uint8_t *bits, size_t n, fr_t *out)
{
    for (size_t off = 0, i = 0; off < n; off += 254, i++) {
        uint64_t limbs[FR_LIMBS] = {0};
        for (size_t k = 0; k < 254 && off + k < n; k++)
            limbs[k / 64] |= (uint64_t)(bits[off + k] & 1) << (k % 64);
        fr_from_limbs_reduce(&out[i], limbs);
    }
}

size_t reverse_bit_numbering(const gbool *in, size_t n, gbool *out)
{
    size_t len = (n + 7) / 8 * 8;
    for (size_t g = 0; g < len; g += 8)
        for (size_t k = 0; k < 8; k++) {
            size_t src = g + 7 - k;
            out[g + k] = src < n ? in[src] : gb_const(false);
        }
    return len;
}
