/* neptune's legacy Poseidon circuit (neptune circuit.rs poseidon_hash): elements
 * are allocated numbers or linear combinations; linear layers only combine LCs; every S-box
 * allocates its inputs (when an LC), x^2, x^4 and x^5 (+ post key), one constraint each.
 * The partial rounds' LCs have constant coefficients over the variables allocated since
 * the first half (poseidon.h partial_lc / partial_out), so they are written from those
 * tables instead of being combined round by round; every constraint passes its known
 * evaluations (cs_enforce_values), so CS_PROVE evaluates no LC. */
#include <stdlib.h>
#include <string.h>

#include "gadgets/poseidon.h"

#define T_MAX 37
#define RP_MAX 60

typedef struct {
    bool alloc;
    cs_var var;
    cs_lc lc;
    fr_t value;
} elt;

typedef struct {
    cs_t *cs;
    const poseidon_constants *pc;
    bool vals, lcs;
    elt e[2][T_MAX];
    int cur;
    cs_var basis[T_MAX + RP_MAX]; /* partial rounds: y_0..y_{t-1}, x_0, x_1, ... */
} pstate;

/* lc += k·e */
static void lc_add_elt(cs_lc *lc, const elt *e, const fr_t *k)
{
    if (e->alloc)
        cs_lc_add(lc, e->var, k);
    else
        cs_lc_add_lc(lc, &e->lc, k);
}

static cs_var alloc_val(pstate *p, const fr_t *v)
{
    return cs_alloc(p->cs, p->vals ? v : NULL);
}

/* enforce (a + ka·ONE) · (b + kb·ONE) = c − kc·ONE with known evaluations ev; NULL
 * constants mean none. */
static void enforce_mul(pstate *p, const char *name, cs_var a, const fr_t *ka, cs_var b,
                        const fr_t *kb, cs_var c, const fr_t *kc, const fr_t ev[3])
{
    if (!p->lcs)
        return;
    CS_LC(la, 2);
    CS_LC(lb, 2);
    CS_LC(lc, 2);
    cs_lc_add_var(&la, a);
    if (ka)
        cs_lc_add(&la, CS_ONE, ka);
    cs_lc_add_var(&lb, b);
    if (kb)
        cs_lc_add(&lb, CS_ONE, kb);
    cs_lc_add_var(&lc, c);
    if (kc) {
        fr_t neg;
        fr_neg(&neg, kc);
        cs_lc_add(&lc, CS_ONE, &neg);
    }
    cs_enforce_values(p->cs, name, &la, &lb, &lc, ev);
}

static void ensure_allocated(pstate *p, elt *e)
{
    if (e->alloc)
        return;
    e->var = alloc_val(p, &e->value);
    if (p->lcs) {
        CS_LC(one, 1);
        CS_LC(v, 1);
        cs_lc_add_var(&one, CS_ONE);
        cs_lc_add_var(&v, e->var);
        const fr_t ev[3] = {e->value, FR_ONE, e->value};
        cs_enforce_values(p->cs, "enforce num allocation preserves lc", &e->lc, &one, &v, ev);
    }
    e->alloc = true;
}

/* x^5 S-box on e: optional pre key (first round), optional post key. */
static void sbox(pstate *p, elt *e, const fr_t *pre, const fr_t *post)
{
    ensure_allocated(p, e);
    fr_t l = e->value, l2 = FR_ZERO, l4 = FR_ZERO, l5 = FR_ZERO, prod = FR_ZERO;
    if (p->vals) {
        if (pre)
            fr_add(&l, &l, pre);
        fr_sqr(&l2, &l);
        fr_sqr(&l4, &l2);
        fr_mul(&prod, &l4, &l);
        l5 = prod;
        if (post)
            fr_add(&l5, &l5, post);
    }
    const fr_t ev2[3] = {l, l, l2}, ev4[3] = {l2, l2, l4}, ev5[3] = {l, l4, prod};
    cs_var v2 = alloc_val(p, &l2);
    enforce_mul(p, pre ? "squared sum constraint" : "squaring constraint", e->var, pre, e->var,
                pre, v2, NULL, ev2);
    cs_var v4 = alloc_val(p, &l4);
    enforce_mul(p, "squaring constraint", v2, NULL, v2, NULL, v4, NULL, ev4);
    cs_var v5 = alloc_val(p, &l5);
    enforce_mul(p, "mul sum constraint", e->var, pre, v4, NULL, v5, post, ev5);
    e->var = v5;
    e->value = l5;
}

/* next_j = Σ_i cur_i · m[i][j] (a full round's linear layer). */
static void linear(pstate *p, const fr_t *m)
{
    unsigned t = p->pc->t;
    elt *cur = p->e[p->cur], *nx = p->e[p->cur ^ 1];
    for (unsigned j = 0; j < t; j++) {
        elt *o = &nx[j];
        o->alloc = false;
        cs_lc_clear(&o->lc);
        o->value = FR_ZERO;
        for (unsigned i = 0; i < t; i++) {
            const fr_t *k = &m[i * t + j];
            if (p->lcs)
                lc_add_elt(&o->lc, &cur[i], k);
            if (p->vals) {
                fr_t tmp;
                fr_mul(&tmp, &cur[i].value, k);
                fr_add(&o->value, &o->value, &tmp);
            }
        }
        if (p->lcs)
            cs_lc_normalize(&o->lc);
    }
    p->cur ^= 1;
}

/* lc = Σ_k coeff[k] · basis[k] over n basis variables (ascending: normal form as built). */
static void lc_from_table(pstate *p, cs_lc *lc, const fr_t *coeff, unsigned n)
{
    cs_lc_clear(lc);
    for (unsigned k = 0; k < n; k++)
        cs_lc_add(lc, p->basis[k], &coeff[k]);
}

/* pre_sparse, then the rp partial rounds (S-box on element 0 with round constant c[r], then
 * sparse matrix r), on a state of t allocated variables; the state is left as LCs. */
static void partial_rounds(pstate *p, const fr_t *c)
{
    const poseidon_constants *pc = p->pc;
    unsigned t = pc->t, rp = pc->rp;
    elt *e = p->e[p->cur];
    fr_t val[T_MAX];
    for (unsigned k = 0; k < t; k++)
        p->basis[k] = e[k].var;
    if (p->vals) {
        for (unsigned j = 0; j < t; j++) {
            val[j] = FR_ZERO;
            for (unsigned i = 0; i < t; i++) {
                fr_t tmp;
                fr_mul(&tmp, &e[i].value, &pc->pre_sparse[i * t + j]);
                fr_add(&val[j], &val[j], &tmp);
            }
        }
    }
    const fr_t *row = pc->partial_lc;
    for (unsigned r = 0; r < rp; r++) {
        elt *x = &e[0];
        x->alloc = false;
        x->value = p->vals ? val[0] : FR_ZERO;
        if (p->lcs)
            lc_from_table(p, &x->lc, row, t + r);
        row += t + r;
        sbox(p, x, NULL, &c[r]);
        p->basis[t + r] = x->var;
        if (p->vals) {
            const fr_t *wh = pc->w_hat + (size_t)r * t, *vr = pc->v_rest + (size_t)r * (t - 1);
            fr_t o0, tmp;
            fr_mul(&o0, &x->value, &wh[0]);
            for (unsigned i = 1; i < t; i++) {
                fr_mul(&tmp, &val[i], &wh[i]);
                fr_add(&o0, &o0, &tmp);
                fr_mul(&tmp, &x->value, &vr[i - 1]);
                fr_add(&val[i], &val[i], &tmp);
            }
            val[0] = o0;
        }
    }
    for (unsigned j = 0; j < t; j++) {
        e[j].alloc = false;
        e[j].value = p->vals ? val[j] : FR_ZERO;
        if (p->lcs)
            lc_from_table(p, &e[j].lc, pc->partial_out + (size_t)j * (t + rp), t + rp);
    }
}

anum poseidon_circuit(cs_t *cs, unsigned arity, const fr_t *tag, const anum *preimage)
{
    anum res = {CS_ONE, FR_ZERO};
    pstate *p = calloc(1, sizeof *p);
    if (!p) {
        cs_set_error(cs, CUZK_E_NOMEM, "poseidon_circuit: out of memory");
        return res;
    }
    cuzk_error err;
    if (poseidon_get_constants(arity, &p->pc, &err) != CUZK_OK) {
        cs_set_error(cs, err.code, "poseidon_circuit: %s", err.msg);
        free(p);
        return res;
    }
    p->cs = cs;
    p->vals = cs_has_values(cs);
    p->lcs = cs_wants_constraints(cs);
    const poseidon_constants *pc = p->pc;
    unsigned t = pc->t, half = pc->rf / 2;
    for (int b = 0; b < 2; b++)
        for (unsigned i = 0; i < t; i++)
            cs_lc_init(&p->e[b][i].lc, NULL, 0);
    const fr_t *c = pc->compressed;
    elt *e = p->e[0];

    /* first round: constant tag S-box computed natively; pre-add S-boxes on the preimage */
    fr_t k0;
    fr_add(&k0, tag, &c[0]);
    fr_t x2, x4;
    fr_sqr(&x2, &k0);
    fr_sqr(&x4, &x2);
    fr_mul(&k0, &k0, &x4);
    fr_add(&k0, &k0, &c[t]);
    e[0].alloc = false;
    e[0].value = k0;
    cs_lc_add(&e[0].lc, CS_ONE, &k0);
    for (unsigned i = 1; i < t; i++) {
        e[i].alloc = true;
        e[i].var = preimage[i - 1].var;
        e[i].value = preimage[i - 1].value;
        sbox(p, &e[i], &c[i], &c[t + i]);
    }
    c += 2 * t;
    linear(p, pc->m);
    /* the rest of the first half (half >= 2: rf is 8 for every arity); its last linear
     * layer, pre_sparse, opens the partial rounds */
    for (unsigned round = 1; round < half; round++) {
        e = p->e[p->cur];
        for (unsigned i = 0; i < t; i++)
            sbox(p, &e[i], NULL, &c[i]);
        c += t;
        if (round < half - 1)
            linear(p, pc->m);
    }
    partial_rounds(p, c);
    c += pc->rp;
    for (unsigned r = 0; r < half; r++) {
        bool last = r == half - 1;
        e = p->e[p->cur];
        for (unsigned i = 0; i < t; i++)
            sbox(p, &e[i], NULL, last ? NULL : &c[i]);
        if (!last)
            c += t;
        linear(p, pc->m);
    }
    e = p->e[p->cur];
    ensure_allocated(p, &e[1]);
    res.var = e[1].var;
    res.value = e[1].value;
    for (int b = 0; b < 2; b++)
        for (unsigned i = 0; i < t; i++)
            cs_lc_release(&p->e[b][i].lc);
    free(p);
    return res;
}
