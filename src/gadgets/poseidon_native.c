/* Native Poseidon: neptune's optimised schedule (poseidon.rs hash_optimized_dynamic), the
 * textbook schedule (neptune poseidon.rs, preprocessing.rs, mds.rs) and filecoin-hashers'
 * Merkle-Damgard chaining (poseidon.rs hash_md). Contracts in poseidon.h. */
#include <string.h>

#include "gadgets/poseidon.h"

#define T_MAX 37

static void quintic(fr_t *x)
{
    fr_t x2, x4;
    fr_sqr(&x2, x);
    fr_sqr(&x4, &x2);
    fr_mul(x, x, &x4);
}

/* s <- s · m (row vector times matrix). */
static void apply(fr_t *s, const fr_t *m, unsigned t)
{
    fr_t r[T_MAX], tmp;
    for (unsigned j = 0; j < t; j++) {
        r[j] = FR_ZERO;
        for (unsigned i = 0; i < t; i++) {
            fr_mul(&tmp, &s[i], &m[i * t + j]);
            fr_add(&r[j], &r[j], &tmp);
        }
    }
    memcpy(s, r, t * sizeof *s);
}

static void apply_sparse(fr_t *s, const fr_t *w_hat, const fr_t *v_rest, unsigned t)
{
    fr_t s0 = FR_ZERO, tmp;
    for (unsigned i = 0; i < t; i++) {
        fr_mul(&tmp, &w_hat[i], &s[i]);
        fr_add(&s0, &s0, &tmp);
    }
    for (unsigned j = 1; j < t; j++) {
        fr_mul(&tmp, &v_rest[j - 1], &s[0]);
        fr_add(&s[j], &s[j], &tmp);
    }
    s[0] = s0;
}

cuzk_status poseidon_hash(unsigned arity, const fr_t *tag, const fr_t *preimage, fr_t *out,
                          cuzk_error *err)
{
    const poseidon_constants *pc;
    cuzk_status st = poseidon_get_constants(arity, &pc, err);
    if (st != CUZK_OK)
        return st;
    unsigned t = pc->t, half = pc->rf / 2;
    fr_t s[T_MAX];
    s[0] = *tag;
    memcpy(s + 1, preimage, arity * sizeof *s);
    const fr_t *c = pc->compressed;
    for (unsigned i = 0; i < t; i++)
        fr_add(&s[i], &s[i], c++);
    unsigned round = 0;
    for (unsigned r = 0; r < half; r++, round++) {
        for (unsigned i = 0; i < t; i++) {
            quintic(&s[i]);
            fr_add(&s[i], &s[i], c++);
        }
        apply(s, round == half - 1 ? pc->pre_sparse : pc->m, t);
    }
    for (unsigned r = 0; r < pc->rp; r++, round++) {
        quintic(&s[0]);
        fr_add(&s[0], &s[0], c++);
        apply_sparse(s, pc->w_hat + (size_t)r * t, pc->v_rest + (size_t)r * (t - 1), t);
    }
    for (unsigned r = 0; r < half; r++, round++) {
        bool last = r == half - 1;
        for (unsigned i = 0; i < t; i++) {
            quintic(&s[i]);
            if (!last)
                fr_add(&s[i], &s[i], c++);
        }
        apply(s, pc->m, t);
    }
    *out = s[1];
    return CUZK_OK;
}

cuzk_status poseidon_hash_textbook(unsigned arity, const fr_t *tag, const fr_t *preimage,
                                   fr_t *out, cuzk_error *err)
{
    const poseidon_constants *pc;
    cuzk_status st = poseidon_get_constants(arity, &pc, err);
    if (st != CUZK_OK)
        return st;
    unsigned t = pc->t, half = pc->rf / 2, rounds = pc->rf + pc->rp;
    fr_t s[T_MAX];
    s[0] = *tag;
    memcpy(s + 1, preimage, arity * sizeof *s);
    for (unsigned r = 0; r < rounds; r++) {
        bool full = r < half || r >= half + pc->rp;
        for (unsigned i = 0; i < t; i++)
            fr_add(&s[i], &s[i], &pc->rc[(size_t)r * t + i]);
        for (unsigned i = 0; i < (full ? t : 1); i++)
            quintic(&s[i]);
        apply(s, pc->m, t);
    }
    *out = s[1];
    return CUZK_OK;
}

cuzk_status poseidon_hash_md(const fr_t *in, size_t n, fr_t *out, cuzk_error *err)
{
    if (n < 2)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "poseidon_hash_md: %zu elements (at least 2)", n);
    fr_t tag, acc = in[0], pre[POSEIDON_MD_ARITY];
    poseidon_tag_merkle(POSEIDON_MD_ARITY, &tag);
    for (size_t i = 1; i < n; i += POSEIDON_MD_ARITY - 1) {
        size_t k = n - i < POSEIDON_MD_ARITY - 1 ? n - i : POSEIDON_MD_ARITY - 1;
        pre[0] = acc;
        memcpy(pre + 1, in + i, k * sizeof *pre);
        for (size_t j = k + 1; j < POSEIDON_MD_ARITY; j++)
            pre[j] = FR_ZERO;
        cuzk_status st = poseidon_hash(POSEIDON_MD_ARITY, &tag, pre, &acc, err);
        if (st != CUZK_OK)
            return st;
    }
    *out = acc;
    return CUZK_OK;
}
