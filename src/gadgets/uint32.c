/* UInt32 and MultiEq; contracts in uint32.h. */
#include "gadgets/uint32.h"

void multieq_init(multieq *m, cs_t *cs)
{
    m->cs = cs;
    cs_lc_init(&m->lhs, NULL, 0);
    cs_lc_init(&m->rhs, NULL, 0);
    m->value = FR_ZERO;
    m->bits_used = 0;
    m->ops = 0;
}

void multieq_flush(multieq *m)
{
    if (m->bits_used == 0)
        return;
    CS_LC(one, 1);
    cs_lc_add_var(&one, CS_ONE);
    const fr_t ev[3] = {m->value, FR_ONE, m->value};
    cs_enforce_values(m->cs, "multieq", &m->lhs, &one, &m->rhs, ev);
    cs_lc_clear(&m->lhs);
    cs_lc_clear(&m->rhs);
    m->value = FR_ZERO;
    m->bits_used = 0;
    m->ops++;
}

void multieq_free(multieq *m)
{
    cs_lc_release(&m->lhs);
    cs_lc_release(&m->rhs);
}

u32g u32_const(uint32_t v)
{
    u32g x;
    for (int i = 0; i < 32; i++)
        x.bits[i] = gb_const((v >> i) & 1);
    x.value = v;
    return x;
}

u32g u32_alloc(cs_t *cs, uint32_t v)
{
    u32g x;
    for (int i = 0; i < 32; i++)
        x.bits[i] = gb_alloc(cs, (v >> i) & 1);
    x.value = v;
    return x;
}

static uint32_t value_of(const gbool b[32])
{
    uint32_t v = 0;
    for (int i = 0; i < 32; i++)
        v |= (uint32_t)b[i].value << i;
    return v;
}

u32g u32_from_bits_be(const gbool bits[32])
{
    u32g x;
    for (int i = 0; i < 32; i++)
        x.bits[i] = bits[31 - i];
    x.value = value_of(x.bits);
    return x;
}

void u32_into_bits_be(const u32g *x, gbool out[32])
{
    for (int i = 0; i < 32; i++)
        out[i] = x->bits[31 - i];
}

u32g u32_rotr(const u32g *x, unsigned n)
{
    u32g y;
    n &= 31;
    for (unsigned i = 0; i < 32; i++)
        y.bits[i] = x->bits[(i + n) & 31];
    y.value = n ? (x->value >> n) | (x->value << (32 - n)) : x->value;
    return y;
}

u32g u32_shr(const u32g *x, unsigned n)
{
    u32g y;
    for (unsigned i = 0; i < 32; i++)
        y.bits[i] = i + n < 32 ? x->bits[i + n] : gb_const(false);
    y.value = n < 32 ? x->value >> n : 0;
    return y;
}

u32g u32_xor(cs_t *cs, const u32g *a, const u32g *b)
{
    u32g y;
    for (int i = 0; i < 32; i++)
        y.bits[i] = gb_xor(cs, a->bits[i], b->bits[i]);
    y.value = a->value ^ b->value;
    return y;
}

u32g u32_sha256_ch(cs_t *cs, const u32g *a, const u32g *b, const u32g *c)
{
    u32g y;
    for (int i = 0; i < 32; i++)
        y.bits[i] = gb_sha256_ch(cs, a->bits[i], b->bits[i], c->bits[i]);
    y.value = (a->value & b->value) ^ (~a->value & c->value);
    return y;
}

u32g u32_sha256_maj(cs_t *cs, const u32g *a, const u32g *b, const u32g *c)
{
    u32g y;
    for (int i = 0; i < 32; i++)
        y.bits[i] = gb_sha256_maj(cs, a->bits[i], b->bits[i], c->bits[i]);
    y.value = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value);
    return y;
}

u32g u32_addmany(multieq *m, const u32g *ops, unsigned n)
{
    cs_t *cs = m->cs;
    if (n < 2 || n > 10) {
        cs_set_error(cs, CUZK_E_INVALID_ARG, "u32_addmany: %u operands (2..10 allowed)", n);
        return u32_const(0);
    }
    uint64_t sum = 0;
    bool all_const = true;
    for (unsigned k = 0; k < n; k++) {
        sum += ops[k].value;
        for (int i = 0; i < 32 && all_const; i++)
            all_const = gb_is_const(ops[k].bits[i]);
    }
    if (all_const)
        return u32_const((uint32_t)sum);

    uint64_t max_value = (uint64_t)n * 0xffffffffull;
    unsigned nout = 0;
    while (max_value) {
        nout++;
        max_value >>= 1;
    }
    gbool res[36];
    for (unsigned i = 0; i < nout; i++)
        res[i] = gb_alloc(cs, (sum >> i) & 1);
    /* bellperson's MultiEq::enforce_equal(nout, Σ 2^i·op bits, Σ 2^i·res bits), with the
     * terms added at their final weight 2^(bits_used + i) directly (no rescaling); both
     * sides evaluate to sum · 2^bits_used */
    if (254 <= m->bits_used + nout)
        multieq_flush(m);
    if (cs_has_values(cs)) {
        fr_t v;
        fr_from_u64(&v, sum);
        fr_mul(&v, &v, cs_pow2(m->bits_used));
        fr_add(&m->value, &m->value, &v);
    }
    if (cs_wants_constraints(cs)) {
        unsigned off = m->bits_used;
        for (unsigned k = 0; k < n; k++)
            for (unsigned i = 0; i < 32; i++)
                gb_lc_add(&m->lhs, ops[k].bits[i], cs_pow2(off + i));
        for (unsigned i = 0; i < nout; i++)
            cs_lc_add(&m->rhs, res[i].var, cs_pow2(off + i));
    }
    m->bits_used += nout;
    u32g y;
    for (int i = 0; i < 32; i++)
        y.bits[i] = res[i];
    y.value = (uint32_t)sum;
    return y;
}
