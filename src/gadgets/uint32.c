/* UInt32 and MultiEq; contracts in uint32.h. */
#include <string.h>

#include "gadgets/uint32.h"

void multieq_init(multieq *m, cs_t *cs)
{
    m->cs = cs;
    m->nwords = m->nadds = 0;
    m->repeat = false;
    gb_bitsum_init(&m->lhs);
    gb_bitsum_init(&m->rhs);
    memset(m->value, 0, sizeof m->value);
    m->bits_used = 0;
    m->ops = 0;
}

/* CS_PROVE's lists: the operands' allocated bits (A: repeats are harmless), the results (C). */
static void flush_direct(multieq *m, const fr_t *v)
{
    unsigned na = 0, nc = 0;
    cs_var *a = m->list;
    for (unsigned w = 0; w < m->nwords; w++) {
        const u32g *x = &m->words[w];
        if (!x->konst) {
            memcpy(a + na, x->var, sizeof x->var);
            na += 32;
            continue;
        }
        for (uint32_t alloc = ~x->konst; alloc; alloc &= alloc - 1)
            a[na++] = x->var[__builtin_ctz(alloc)];
    }
    cs_var *c = a + na;
    for (unsigned k = 0; k < m->nadds; k++)
        for (unsigned i = 0; i < m->adds[k].nout; i++)
            c[nc++] = m->adds[k].res + i;
    cs_row_push(m->cs, a, na, NULL, 0, true, c, nc, v, &FR_ONE, v);
}

void multieq_flush(multieq *m)
{
    if (m->bits_used == 0)
        return;
    cs_t *cs = m->cs;
    fr_t v;
    fr_from_limbs_reduce(&v, m->value); /* below 2^253 < r: the value itself */
    bool values = cs_has_values(cs);
    if (values && !m->repeat && cs_row_fast(cs)) {
        flush_direct(m, &v);
    } else if (cs_wants_constraints(cs)) {
        for (unsigned k = 0; k < m->nadds; k++) {
            const multieq_add *x = &m->adds[k];
            for (unsigned w = 0; w < x->n; w++)
                gb_bitsum_add_word(&m->lhs, &m->words[x->word0 + w], x->off);
            for (unsigned i = 0; i < x->nout; i++)
                gb_bitsum_add_var(&m->rhs, x->res + i, x->off + i);
        }
        gb_bitsum_enforce(cs, "multieq", &m->lhs, &m->rhs, values ? &v : NULL);
        gb_bitsum_clear(&m->lhs);
        gb_bitsum_clear(&m->rhs);
    }
    m->nwords = m->nadds = 0;
    m->repeat = false;
    memset(m->value, 0, sizeof m->value);
    m->bits_used = 0;
    m->ops++;
}

void multieq_free(multieq *m)
{
    gb_bitsum_free(&m->lhs);
    gb_bitsum_free(&m->rhs);
}

/* Whether two of the n words have one allocated variable at one position. */
static bool shared_position(const u32g *ops, unsigned n)
{
    for (unsigned p = 0; p < n; p++) {
        for (unsigned q = p + 1; q < n; q++) {
            uint32_t eq = 0;
            for (unsigned i = 0; i < 32; i++)
                eq |= (uint32_t)(ops[p].var[i] == ops[q].var[i]) << i;
            if (eq & ~(ops[p].konst | ops[q].konst))
                return true;
        }
    }
    return false;
}

u32g u32_const(uint32_t v)
{
    u32g x;
    memset(x.var, 0, sizeof x.var);
    x.konst = 0xffffffffu;
    x.neg = 0;
    x.value = v;
    return x;
}

u32g u32_alloc(cs_t *cs, uint32_t v)
{
    u32g x;
    cs_var b0 = gb_alloc_run(cs, v, 32);
    for (unsigned i = 0; i < 32; i++)
        x.var[i] = b0 + i;
    x.konst = x.neg = 0;
    x.value = v;
    return x;
}

u32g u32_from_bits_be(const gbool bits[32])
{
    u32g x;
    x.konst = x.neg = x.value = 0;
    for (unsigned i = 0; i < 32; i++)
        gb_word_set(&x, i, bits[31 - i]);
    return x;
}

void u32_into_bits_be(const u32g *x, gbool out[32])
{
    for (unsigned i = 0; i < 32; i++)
        out[i] = gb_word_bit(x, 31 - i);
}

static inline uint32_t rotr32(uint32_t x, unsigned n)
{
    return n ? (x >> n) | (x << (32 - n)) : x;
}

u32g u32_rotr(const u32g *x, unsigned n)
{
    u32g y;
    n &= 31;
    for (unsigned i = 0; i < 32; i++)
        y.var[i] = x->var[(i + n) & 31];
    y.konst = rotr32(x->konst, n);
    y.neg = rotr32(x->neg, n);
    y.value = rotr32(x->value, n);
    return y;
}

u32g u32_shr(const u32g *x, unsigned n)
{
    if (n >= 32)
        return u32_const(0);
    u32g y;
    for (unsigned i = 0; i < 32; i++)
        y.var[i] = i + n < 32 ? x->var[i + n] : 0;
    y.konst = (x->konst >> n) | (n ? ~0u << (32 - n) : 0); /* filled with Constant(false) */
    y.neg = x->neg >> n;
    y.value = x->value >> n;
    return y;
}

u32g u32_xor(cs_t *cs, const u32g *a, const u32g *b)
{
    u32g y;
    gb_word_xor(cs, a, b, &y);
    return y;
}

u32g u32_sha256_ch(cs_t *cs, const u32g *a, const u32g *b, const u32g *c)
{
    u32g y;
    gb_word_ch(cs, a, b, c, &y);
    return y;
}

u32g u32_sha256_maj(cs_t *cs, const u32g *a, const u32g *b, const u32g *c)
{
    u32g y;
    gb_word_maj(cs, a, b, c, &y);
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
        all_const = all_const && ops[k].konst == 0xffffffffu;
    }
    if (all_const)
        return u32_const((uint32_t)sum);

    uint64_t max_value = (uint64_t)n * 0xffffffffull;
    unsigned nout = 0;
    while (max_value) {
        nout++;
        max_value >>= 1;
    }
    cs_var r0 = gb_alloc_run(cs, sum, nout);
    /* bellperson's MultiEq::enforce_equal(nout, Σ 2^i·op bits, Σ 2^i·res bits), with the
     * terms added at their final weight 2^(bits_used + i) directly (no rescaling); both
     * sides evaluate to sum · 2^bits_used */
    if (254 <= m->bits_used + nout)
        multieq_flush(m);
    if (cs_has_values(cs)) { /* value += sum << bits_used, exact: the total stays below 2^253 */
        unsigned off = m->bits_used, w = off / 64, sh = off % 64;
        unsigned __int128 lo = (unsigned __int128)sum << sh;
        uint64_t add[3] = {(uint64_t)lo, (uint64_t)(lo >> 64), 0}, carry = 0;
        for (unsigned i = w, j = 0; i < 4; i++, j++) {
            unsigned __int128 t = (unsigned __int128)m->value[i] + (j < 3 ? add[j] : 0) + carry;
            m->value[i] = (uint64_t)t;
            carry = (uint64_t)(t >> 64);
        }
    }
    if (cs_wants_constraints(cs)) {
        if (m->nadds == MULTIEQ_MAX_ADDS || m->nwords + n > MULTIEQ_MAX_WORDS) { /* cannot happen (253 bits) */
            cs_set_error(cs, CUZK_E_INTERNAL, "u32_addmany: more than %d additions in one MultiEq batch",
                         MULTIEQ_MAX_ADDS);
            return u32_const(0);
        }
        m->adds[m->nadds++] = (multieq_add){m->nwords, (uint8_t)n, (uint8_t)nout, (uint16_t)m->bits_used, r0};
        memcpy(&m->words[m->nwords], ops, n * sizeof *ops);
        m->nwords += n;
        if (cs->mode == CS_PROVE && !m->repeat)
            m->repeat = shared_position(ops, n);
    }
    m->bits_used += nout;
    u32g y;
    for (unsigned i = 0; i < 32; i++)
        y.var[i] = r0 + i;
    y.konst = y.neg = 0;
    y.value = (uint32_t)sum;
    return y;
}
