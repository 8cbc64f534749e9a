/* Boolean gadgets; contracts and sources in boolean.h. */
#include "gadgets/boolean.h"

/* Each gadget below has three paths: CS_PROVE's fast path (cs_row_fast) hands the row to
 * cs_row_push: the variables that keep a non-zero coefficient in A and B of the LCs the
 * general path builds (the comments give them) and the evaluations (small integers);
 * CS_WITNESS allocates only; every other mode (and CS_PROVE off its fast path) builds the
 * LCs out of line (lcs_*). The allocating cores are inline, so the per-bit loops of the
 * word operations (gb_word_*, used by UInt32) run without calls. */
static inline __attribute__((always_inline)) void row_ints(cs_t *cs, const cs_var *a, unsigned na, const cs_var *b,
                                                           unsigned nb, bool b_one, const cs_var *c, unsigned nc,
                                                           int va, int vb, int vc)
{
    cs_row_push(cs, a, na, b, nb, b_one, c, nc, cs_small_int(va), cs_small_int(vb), cs_small_int(vc));
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

/* `(ONE - b) * b = 0` */
static __attribute__((noinline)) void lcs_alloc(cs_t *cs, cs_var b, bool value)
{
    CS_LC(a, 2);
    CS_LC(bb, 1);
    CS_LC(c, 1);
    cs_lc_add_var(&a, CS_ONE);
    cs_lc_sub_var(&a, b);
    cs_lc_add_var(&bb, b);
    enforce_ints(cs, "boolean constraint", &a, &bb, &c, 1 - value, value, 0);
}

static inline __attribute__((always_inline)) gbool alloc_one(cs_t *cs, bool value)
{
    cs_var b = cs_alloc_bit(cs, value);
    if (cs_row_fast(cs)) /* A = ONE - b, B = b, C = 0 */
        row_ints(cs, &b, 1, &b, 1, false, NULL, 0, 1 - value, value, 0);
    else if (cs_wants_constraints(cs))
        lcs_alloc(cs, b, value);
    return (gbool){b, GB_IS, (uint8_t)value};
}

gbool gb_alloc(cs_t *cs, bool value)
{
    return alloc_one(cs, value);
}

/* Word paths of gb_alloc_run and gb_word_*: when no operand bit is constant, every position
 * takes the general case (no constant folding), so the results are 32 fresh bits (64 for
 * maj) allocated in the per-bit order; they are allocated at once from values computed
 * word-wise (cs_alloc_bits), then CS_PROVE pushes the per-bit rows in the per-bit order.
 * Only for modes without LCs: CS_WITNESS, or CS_PROVE with room for the rows. */
static inline bool word_path(const cs_t *cs, size_t rows)
{
    return !cs_wants_constraints(cs) || cs->num_constraints + rows <= cs->fast.rows_end;
}

/* after cs_alloc_bits: whether to push the rows (CS_PROVE, the cs still fine) */
static inline bool word_rows(const cs_t *cs)
{
    return cs_wants_constraints(cs) && cs->status == CUZK_OK;
}

cs_var gb_alloc_run(cs_t *cs, uint64_t v, unsigned n)
{
    cs_var b0 = (cs_var)cs->num_aux;
    if (n > 64 || !word_path(cs, n)) {
        for (unsigned i = 0; i < n; i++)
            alloc_one(cs, (v >> i) & 1);
        return b0;
    }
    b0 = cs_alloc_bits(cs, v, n);
    if (word_rows(cs)) {
        for (unsigned i = 0; i < n; i++) {
            cs_var b = b0 + i;
            bool value = (v >> i) & 1;
            row_ints(cs, &b, 1, &b, 1, false, NULL, 0, 1 - value, value, 0); /* A = ONE - b, B = b */
        }
    }
    return b0;
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

/* `(2a) * b = a + b - c` */
static __attribute__((noinline)) void lcs_xor(cs_t *cs, cs_var a, cs_var b, cs_var c, int av, int bv, int cv)
{
    CS_LC(la, 1);
    CS_LC(lb, 1);
    CS_LC(lc, 3);
    cs_lc_add(&la, a, cs_pow2(1));
    cs_lc_add_var(&lb, b);
    cs_lc_add_var(&lc, a);
    cs_lc_add_var(&lc, b);
    cs_lc_sub_var(&lc, c);
    enforce_ints(cs, "xor constraint", &la, &lb, &lc, 2 * av, bv, av + bv - cv);
}

/* AllocatedBit::xor: c = a xor b of the underlying bits av, bv, `(2a) * b = a + b - c`. */
static inline __attribute__((always_inline)) gbool bit_xor(cs_t *cs, cs_var a, bool av, cs_var b, bool bv)
{
    bool cv = av ^ bv;
    cs_var c = cs_alloc_bit(cs, cv);
    if (cs_row_fast(cs)) /* A = 2a, B = b, C = a + b - c (C keeps no density) */
        row_ints(cs, &a, 1, &b, 1, false, &c, 1, 2 * av, bv, av + bv - cv);
    else if (cs_wants_constraints(cs))
        lcs_xor(cs, a, b, c, av, bv, cv);
    return (gbool){c, GB_IS, (uint8_t)cv};
}

/* `a' * b' = c` with a' = a or ONE - a (na), b' likewise (nb) */
static __attribute__((noinline)) void lcs_product(cs_t *cs, cs_var a, bool av, bool na, cs_var b, bool bv, bool nb,
                                                  cs_var c, bool cv, const char *name)
{
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

/* The three AllocatedBit products: and = a*b, and_not = a*(1-b), nor = (1-a)*(1-b).
 * na / nb select the negated factor; the result is a fresh bit. */
static inline __attribute__((always_inline)) gbool bit_product(cs_t *cs, cs_var a, bool av, bool na, cs_var b,
                                                               bool bv, bool nb, const char *name)
{
    bool cv = (na ? !av : av) && (nb ? !bv : bv);
    cs_var c = cs_alloc_bit(cs, cv);
    if (cs_row_fast(cs)) /* A = a or ONE - a, B = b or ONE - b, C = c */
        row_ints(cs, &a, 1, &b, 1, nb, &c, 1, na ? !av : av, nb ? !bv : bv, cv);
    else if (cs_wants_constraints(cs))
        lcs_product(cs, a, av, na, b, bv, nb, c, cv, name);
    return (gbool){c, GB_IS, (uint8_t)cv};
}

/* Underlying bit value of an allocated Boolean. */
static inline bool bitval(gbool x)
{
    return x.kind == GB_NOT ? !x.value : x.value;
}

static inline __attribute__((always_inline)) gbool xor_one(cs_t *cs, gbool a, gbool b)
{
    if (a.kind == GB_CONST && !a.value)
        return b;
    if (b.kind == GB_CONST && !b.value)
        return a;
    if (a.kind == GB_CONST)
        return gb_not(b);
    if (b.kind == GB_CONST)
        return gb_not(a);
    if (a.kind != b.kind) { /* Not(x) xor Is(y) = Not(x xor y) */
        gbool is = a.kind == GB_IS ? a : b, not = a.kind == GB_IS ? b : a;
        return gb_not(bit_xor(cs, is.var, is.value, not.var, bitval(not)));
    }
    return bit_xor(cs, a.var, bitval(a), b.var, bitval(b));
}

gbool gb_xor(cs_t *cs, gbool a, gbool b)
{
    return xor_one(cs, a, b);
}

void gb_word_xor(cs_t *cs, const gb_word *a, const gb_word *b, gb_word *out)
{
    gb_word r;
    if (!word_path(cs, 32)) {
        r.konst = r.neg = r.value = 0;
        for (unsigned i = 0; i < 32; i++)
            gb_word_set(&r, i, xor_one(cs, gb_word_bit(a, i), gb_word_bit(b, i)));
        *out = r;
        return;
    }
    /* a position with a constant operand folds without allocating (xor_one); the others
     * allocate, in position order */
    uint32_t ua = a->value ^ a->neg, ub = b->value ^ b->neg, uc = ua ^ ub, kc = a->neg ^ b->neg;
    uint32_t alloc = ~(a->konst | b->konst);
    uint64_t packed = uc;
    unsigned k = 32;
    if (alloc != 0xffffffffu) {
        packed = 0;
        k = 0;
        for (uint32_t m = alloc; m; m &= m - 1)
            packed |= (uint64_t)((uc >> __builtin_ctz(m)) & 1) << k++;
    }
    cs_var c = k ? cs_alloc_bits(cs, packed, k) : CS_ONE;
    r.konst = 0;
    r.neg = kc & alloc;
    r.value = a->value ^ b->value;
    if (alloc == 0xffffffffu) {
        for (unsigned i = 0; i < 32; i++)
            r.var[i] = c + i;
    } else {
        for (unsigned i = 0; i < 32; i++) {
            if ((alloc >> i) & 1)
                r.var[i] = c++;
            else
                gb_word_set(&r, i, xor_one(cs, gb_word_bit(a, i), gb_word_bit(b, i)));
        }
    }
    if (word_rows(cs)) {
        for (uint32_t m = alloc; m; m &= m - 1) {
            unsigned i = (unsigned)__builtin_ctz(m);
            /* bit_xor(x, y): x = a, y = b, or x the non-negated one (xor_one) */
            bool swap = ((kc >> i) & 1) && ((a->neg >> i) & 1);
            cs_var x = swap ? b->var[i] : a->var[i], y = swap ? a->var[i] : b->var[i];
            int ux = (int)(((swap ? ub : ua) >> i) & 1), uy = (int)(((swap ? ua : ub) >> i) & 1);
            row_ints(cs, &x, 1, &y, 1, false, &r.var[i], 1, 2 * ux, uy, ux + uy - (int)((uc >> i) & 1));
        }
    }
    *out = r;
}

static inline __attribute__((always_inline)) gbool and_one(cs_t *cs, gbool a, gbool b)
{
    if ((a.kind == GB_CONST && !a.value) || (b.kind == GB_CONST && !b.value))
        return gb_const(false);
    if (a.kind == GB_CONST)
        return b;
    if (b.kind == GB_CONST)
        return a;
    if (a.kind != b.kind) {
        gbool is = a.kind == GB_IS ? a : b, not = a.kind == GB_IS ? b : a;
        return bit_product(cs, is.var, bitval(is), false, not.var, bitval(not), true, "and not constraint");
    }
    if (a.kind == GB_NOT)
        return bit_product(cs, a.var, bitval(a), true, b.var, bitval(b), true, "nor constraint");
    return bit_product(cs, a.var, bitval(a), false, b.var, bitval(b), false, "and constraint");
}

gbool gb_and(cs_t *cs, gbool a, gbool b)
{
    return and_one(cs, a, b);
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

/* `(b̄ - c̄) * ā = ch - c̄` */
static __attribute__((noinline)) void lcs_ch(cs_t *cs, gbool a, gbool b, gbool c, cs_var ch, bool chv)
{
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

static inline __attribute__((always_inline)) gbool ch_one(cs_t *cs, gbool a, gbool b, gbool c)
{
    bool chv = (a.value & b.value) ^ ((!a.value) & c.value);
    if (a.kind == GB_CONST && b.kind == GB_CONST && c.kind == GB_CONST)
        return gb_const(chv);
    if (a.kind == GB_CONST && !a.value)
        return c;
    if (b.kind == GB_CONST && !b.value)
        return and_one(cs, gb_not(a), c);
    if (c.kind == GB_CONST && !c.value)
        return and_one(cs, a, b);
    if (c.kind == GB_CONST)
        return gb_not(and_one(cs, a, gb_not(b)));
    if (b.kind == GB_CONST)
        return gb_not(and_one(cs, gb_not(a), gb_not(c)));
    /* a constant true falls through to the general case, as in the reference */
    cs_var ch = cs_alloc_bit(cs, chv);
    if (cs_row_fast(cs)) {
        /* A = b̄ - c̄: b's and c's variables, unless they are one variable (then it stays iff
         * b and c differ in negation: x - (1 - x)); B = ā (a is allocated, or constant true:
         * ONE); C = ch - c̄ */
        cs_var av[2] = {b.var, c.var}, cv[2] = {ch, c.var};
        unsigned na = b.var != c.var ? 2 : b.kind != c.kind ? 1 : 0;
        bool a_bit = a.kind != GB_CONST;
        row_ints(cs, av, na, &a.var, a_bit, a.kind != GB_IS, cv, 2, b.value - c.value, a.value, chv - c.value);
    } else if (cs_wants_constraints(cs)) {
        lcs_ch(cs, a, b, c, ch, chv);
    }
    return (gbool){ch, GB_IS, (uint8_t)chv};
}

gbool gb_sha256_ch(cs_t *cs, gbool a, gbool b, gbool c)
{
    return ch_one(cs, a, b, c);
}

/* A word operation of three words bit by bit through the one-bit gadget `op` (words with
 * constants, or modes without the word path). */
static void word_per_bit(cs_t *cs, const gb_word *a, const gb_word *b, const gb_word *c,
                         gbool (*op)(cs_t *, gbool, gbool, gbool), gb_word *out)
{
    gb_word r;
    r.konst = r.neg = r.value = 0;
    for (unsigned i = 0; i < 32; i++)
        gb_word_set(&r, i, op(cs, gb_word_bit(a, i), gb_word_bit(b, i), gb_word_bit(c, i)));
    *out = r;
}

void gb_word_ch(cs_t *cs, const gb_word *a, const gb_word *b, const gb_word *c, gb_word *out)
{
    if ((a->konst | b->konst | c->konst) || !word_path(cs, 32)) {
        word_per_bit(cs, a, b, c, gb_sha256_ch, out);
        return;
    }
    gb_word r;
    /* the word path (see word_path) */
    uint32_t chv = (a->value & b->value) ^ (~a->value & c->value);
    cs_var c0 = cs_alloc_bits(cs, chv, 32);
    for (unsigned i = 0; i < 32; i++)
        r.var[i] = c0 + i;
    r.konst = r.neg = 0;
    r.value = chv;
    if (word_rows(cs)) {
        for (unsigned i = 0; i < 32; i++) { /* as ch_one's fast path, a allocated */
            cs_var bv = b->var[i], cv_ = c->var[i];
            int bn = (int)((b->neg >> i) & 1), cn = (int)((c->neg >> i) & 1);
            int bval = (int)((b->value >> i) & 1), cval = (int)((c->value >> i) & 1);
            cs_var av[2] = {bv, cv_}, cl[2] = {r.var[i], cv_};
            unsigned na = bv != cv_ ? 2 : bn != cn ? 1 : 0;
            row_ints(cs, av, na, &a->var[i], 1, (a->neg >> i) & 1, cl, 2, bval - cval, (int)((a->value >> i) & 1),
                     (int)((chv >> i) & 1) - cval);
        }
    }
    *out = r;
}

/* `(2 bc̄ - b̄ - c̄) * ā = bc̄ - maj` */
static __attribute__((noinline)) void lcs_maj(cs_t *cs, gbool a, gbool b, gbool c, gbool bc, cs_var maj, bool mv)
{
    CS_LC(la, 6);
    CS_LC(lb, 2);
    CS_LC(lc, 3);
    gb_lc_add(&la, bc, cs_pow2(1));
    gb_lc_add(&la, b, cs_neg_one());
    gb_lc_add(&la, c, cs_neg_one());
    gb_lc_add(&lb, a, &FR_ONE);
    gb_lc_add(&lc, bc, &FR_ONE);
    cs_lc_sub_var(&lc, maj);
    enforce_ints(cs, "maj computation", &la, &lb, &lc, 2 * bc.value - b.value - c.value, a.value, bc.value - mv);
}

static inline __attribute__((always_inline)) gbool maj_one(cs_t *cs, gbool a, gbool b, gbool c)
{
    bool mv = (a.value & b.value) ^ (a.value & c.value) ^ (b.value & c.value);
    if (a.kind == GB_CONST && b.kind == GB_CONST && c.kind == GB_CONST)
        return gb_const(mv);
    if (a.kind == GB_CONST && !a.value)
        return and_one(cs, b, c);
    if (b.kind == GB_CONST && !b.value)
        return and_one(cs, a, c);
    if (c.kind == GB_CONST && !c.value)
        return and_one(cs, a, b);
    if (c.kind == GB_CONST)
        return gb_not(and_one(cs, gb_not(a), gb_not(b)));
    if (b.kind == GB_CONST)
        return gb_not(and_one(cs, gb_not(a), gb_not(c)));
    if (a.kind == GB_CONST)
        return gb_not(and_one(cs, gb_not(b), gb_not(c)));
    cs_var maj = cs_alloc_bit(cs, mv);
    gbool bc = and_one(cs, b, c);
    if (cs_row_fast(cs) && bc.kind == GB_IS) {
        /* A = 2 bc - b̄ - c̄: bc (a fresh bit), b's and c's variables, unless they are one
         * variable (then it stays iff b and c agree in negation: -2x or 2x - 2, not -1);
         * B = ā (a is allocated here); C = bc - maj */
        cs_var av[3] = {bc.var, b.var, c.var}, cv[2] = {bc.var, maj};
        unsigned na = b.var != c.var ? 3 : b.kind == c.kind ? 2 : 1;
        row_ints(cs, av, na, &a.var, 1, a.kind == GB_NOT, cv, 2, 2 * bc.value - b.value - c.value, a.value,
                 bc.value - mv);
    } else if (cs_wants_constraints(cs)) {
        lcs_maj(cs, a, b, c, bc, maj, mv);
    }
    return (gbool){maj, GB_IS, (uint8_t)mv};
}

gbool gb_sha256_maj(cs_t *cs, gbool a, gbool b, gbool c)
{
    return maj_one(cs, a, b, c);
}

void gb_word_maj(cs_t *cs, const gb_word *a, const gb_word *b, const gb_word *c, gb_word *out)
{
    if ((a->konst | b->konst | c->konst) || !word_path(cs, 64)) {
        word_per_bit(cs, a, b, c, gb_sha256_maj, out);
        return;
    }
    gb_word r;
    /* the word path (see word_path); per position: maj, then bc = b ∧ c (maj_one's order) */
    uint32_t mv = (a->value & b->value) ^ (a->value & c->value) ^ (b->value & c->value), bcv = b->value & c->value;
    cs_var v0 = cs_alloc_bits(cs, cs_bits_spread(mv) | cs_bits_spread(bcv) << 1, 64);
    for (unsigned i = 0; i < 32; i++)
        r.var[i] = v0 + 2 * i;
    r.konst = r.neg = 0;
    r.value = mv;
    if (word_rows(cs)) {
        for (unsigned i = 0; i < 32; i++) {
            cs_var maj = r.var[i], bc = maj + 1;
            int m = (int)((mv >> i) & 1), x = (int)((bcv >> i) & 1);
            int bn = (int)((b->neg >> i) & 1), cn = (int)((c->neg >> i) & 1);
            int bval = (int)((b->value >> i) & 1), cval = (int)((c->value >> i) & 1);
            /* bc's row (and_one): A = b, or c when only b is negated (the non-negated one);
             * B = the other; a negated factor reads ONE - v */
            bool swap = bn && !cn;
            cs_var p = swap ? c->var[i] : b->var[i], q = swap ? b->var[i] : c->var[i];
            row_ints(cs, &p, 1, &q, 1, swap ? bn : cn, &bc, 1, swap ? cval : bval, swap ? bval : cval, x);
            /* maj's row, as maj_one's fast path */
            cs_var av[3] = {bc, b->var[i], c->var[i]}, cl[2] = {bc, maj};
            unsigned na = b->var[i] != c->var[i] ? 3 : bn == cn ? 2 : 1;
            row_ints(cs, av, na, &a->var[i], 1, (a->neg >> i) & 1, cl, 2, 2 * x - bval - cval,
                     (int)((a->value >> i) & 1), x - m);
        }
    }
    *out = r;
}

void gb_enforce_equal(cs_t *cs, gbool a, gbool b)
{
    if (a.kind == GB_CONST && b.kind == GB_CONST) {
        if (a.value != b.value)
            cs_set_error(cs, CUZK_E_INVALID_ARG, "gb_enforce_equal: constants %d and %d differ",
                         a.value, b.value);
        return;
    }
    int vc;
    if (cs_row_fast(cs)) { /* A = B = 0, C as below (C keeps no density) */
        cs_var cv[2];
        unsigned nc = 0;
        if (a.kind == GB_CONST || b.kind == GB_CONST) {
            gbool k = a.kind == GB_CONST ? a : b, x = a.kind == GB_CONST ? b : a;
            cv[nc++] = x.var;
            vc = k.value ? 1 - x.value : x.value;
        } else {
            cv[nc++] = a.var;
            cv[nc++] = b.var;
            vc = a.value - b.value;
        }
        row_ints(cs, NULL, 0, NULL, 0, false, cv, nc, 0, 0, vc);
        return;
    }
    if (!cs_wants_constraints(cs))
        return;
    CS_LC(la, 1);
    CS_LC(lb, 1);
    CS_LC(lc, 4);
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
