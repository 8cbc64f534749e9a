/* Linear combinations: append, merge, coefficient helpers. Contracts in cs.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"

static fr_t g_pow2[256];
static fr_t g_neg_one;
static pthread_once_t g_once = PTHREAD_ONCE_INIT;

static void coeff_init(void)
{
    g_pow2[0] = FR_ONE;
    for (unsigned k = 1; k < 256; k++)
        fr_dbl(&g_pow2[k], &g_pow2[k - 1]);
    fr_neg(&g_neg_one, &FR_ONE);
}

const fr_t *cs_pow2(unsigned k)
{
    pthread_once(&g_once, coeff_init);
    return &g_pow2[k & 255];
}

const fr_t *cs_neg_one(void)
{
    pthread_once(&g_once, coeff_init);
    return &g_neg_one;
}

void cs_lc_init(cs_lc *lc, cs_term *buf, uint32_t cap)
{
    lc->t = buf;
    lc->n = 0;
    lc->cap = buf ? cap : 0;
    lc->heap = false;
    lc->failed = false;
    lc->normal = true;
}

void cs_lc_release(cs_lc *lc)
{
    if (lc->heap)
        free(lc->t);
    cs_lc_init(lc, NULL, 0);
}

void cs_lc_clear(cs_lc *lc)
{
    lc->n = 0;
    lc->normal = true;
}

static bool lc_grow(cs_lc *lc, uint32_t need)
{
    if (lc->failed)
        return false;
    uint64_t cap = lc->cap ? (uint64_t)lc->cap * 2 : 16;
    while (cap < need)
        cap *= 2;
    if (cap > 0xffffffffu) {
        lc->failed = true;
        return false;
    }
    cs_term *t;
    if (lc->heap) {
        t = realloc(lc->t, cap * sizeof *t);
    } else {
        t = malloc(cap * sizeof *t);
        if (t && lc->n)
            memcpy(t, lc->t, lc->n * sizeof *t);
    }
    if (!t) {
        lc->failed = true;
        return false;
    }
    lc->t = t;
    lc->cap = (uint32_t)cap;
    lc->heap = true;
    return true;
}

static inline bool coeff_zero(const fr_t *a) { return !(a->l[0] | a->l[1] | a->l[2] | a->l[3]); }
static inline bool coeff_eq(const fr_t *a, const fr_t *b)
{
    return !((a->l[0] ^ b->l[0]) | (a->l[1] ^ b->l[1]) | (a->l[2] ^ b->l[2]) | (a->l[3] ^ b->l[3]));
}

void cs_lc_add(cs_lc *lc, cs_var v, const fr_t *coeff)
{
    if (coeff_zero(coeff))
        return; /* an absent term */
    if (lc->n && lc->t[lc->n - 1].var >= v) {
        cs_term *last = &lc->t[lc->n - 1];
        if (lc->normal && last->var == v) {
            /* merged into the last term: the LC stays in normal form */
            fr_add(&last->coeff, &last->coeff, coeff);
            if (coeff_zero(&last->coeff))
                lc->n--;
            return;
        }
        lc->normal = false;
    }
    if (lc->n == lc->cap && !lc_grow(lc, lc->n + 1))
        return;
    cs_term *t = &lc->t[lc->n++];
    t->var = v;
    t->_pad = 0;
    t->coeff = *coeff;
}

void cs_lc_add_var(cs_lc *lc, cs_var v)
{
    cs_lc_add(lc, v, &FR_ONE);
}

void cs_lc_sub_var(cs_lc *lc, cs_var v)
{
    cs_lc_add(lc, v, cs_neg_one());
}

/* How a term's coefficient is scaled: copied (scale 1), negated (scale -1) or multiplied. */
typedef enum { SCALE_ONE, SCALE_NEG, SCALE_MUL } scale_kind;

static inline void scaled(fr_t *out, const fr_t *coeff, const fr_t *scale, scale_kind k)
{
    if (k == SCALE_ONE)
        *out = *coeff;
    else if (k == SCALE_NEG)
        fr_neg(out, coeff);
    else
        fr_mul(out, coeff, scale);
}

/* lc += scale * src for two LCs in normal form, merged from the back in place (lc has room
 * for lc->n + src->n terms): the result is in normal form. */
static void merge_normal(cs_lc *lc, const cs_lc *src, const fr_t *scale, scale_kind kind)
{
    cs_term *t = lc->t;
    const cs_term *s = src->t;
    int64_t i = (int64_t)lc->n - 1, j = (int64_t)src->n - 1, k = (int64_t)lc->n + src->n - 1;
    /* k - i > j while j >= 0, so writing t[k] never overwrites an unread t[0..i] */
    while (j >= 0) {
        if (i >= 0 && t[i].var > s[j].var) {
            t[k--] = t[i--];
        } else if (i >= 0 && t[i].var == s[j].var) {
            fr_t x;
            scaled(&x, &s[j].coeff, scale, kind);
            fr_add(&x, &x, &t[i].coeff);
            if (!coeff_zero(&x)) {
                t[k].var = t[i].var;
                t[k]._pad = 0;
                t[k--].coeff = x;
            }
            i--;
            j--;
        } else {
            t[k].var = s[j].var;
            t[k]._pad = 0;
            scaled(&t[k--].coeff, &s[j].coeff, scale, kind);
            j--;
        }
    }
    uint32_t tail = (uint32_t)((int64_t)lc->n + src->n - 1 - k);
    if (k > i)
        memmove(&t[i + 1], &t[k + 1], (size_t)tail * sizeof *t);
    lc->n = (uint32_t)(i + 1) + tail;
}

void cs_lc_add_lc(cs_lc *lc, const cs_lc *src, const fr_t *scale)
{
    if (src->failed) {
        lc->failed = true;
        return;
    }
    if (src->n == 0 || (scale && coeff_zero(scale)))
        return;
    if (lc->n + src->n > lc->cap && !lc_grow(lc, lc->n + src->n))
        return;
    scale_kind kind = !scale || coeff_eq(scale, &FR_ONE) ? SCALE_ONE
                      : coeff_eq(scale, cs_neg_one())    ? SCALE_NEG
                                                         : SCALE_MUL;
    if (lc->normal && src->normal && lc->n && lc->t[lc->n - 1].var >= src->t[0].var) {
        merge_normal(lc, src, scale, kind);
        return;
    }
    /* appended: still in normal form when both were and src's variables come after lc's */
    lc->normal = lc->normal && src->normal;
    for (uint32_t i = 0; i < src->n; i++) {
        cs_term *t = &lc->t[lc->n++];
        t->var = src->t[i].var;
        t->_pad = 0;
        scaled(&t->coeff, &src->t[i].coeff, scale, kind);
    }
}

void cs_lc_copy(cs_lc *lc, const cs_lc *src)
{
    cs_lc_clear(lc);
    cs_lc_add_lc(lc, src, NULL);
}

static int term_cmp(const void *x, const void *y)
{
    cs_var a = ((const cs_term *)x)->var, b = ((const cs_term *)y)->var;
    return (a > b) - (a < b);
}

#define MERGE_STACK_TERMS 1024

/* Stable bottom-up natural merge sort of t[0..n) by var: long LCs are concatenations of a
 * few ascending runs (sums of words' bits), so this does about n log(runs) moves without
 * comparator calls. Falls back to qsort when n exceeds the stack scratch and malloc fails. */
static void sort_terms(cs_term *t, uint32_t n)
{
    cs_term stack[MERGE_STACK_TERMS], *tmp = n <= MERGE_STACK_TERMS ? stack : malloc((size_t)n * sizeof *tmp);
    if (!tmp) {
        qsort(t, n, sizeof *t, term_cmp);
        return;
    }
    cs_term *src = t, *dst = tmp;
    for (;;) {
        uint32_t runs = 0, i = 0;
        while (i < n) {
            uint32_t a = i, m = i + 1;
            while (m < n && src[m - 1].var <= src[m].var)
                m++;
            uint32_t b = m, e = m < n ? m + 1 : n;
            while (e < n && src[e - 1].var <= src[e].var)
                e++;
            uint32_t k = a;
            while (a < m && b < e)
                dst[k++] = src[b].var < src[a].var ? src[b++] : src[a++];
            while (a < m)
                dst[k++] = src[a++];
            while (b < e)
                dst[k++] = src[b++];
            i = e;
            runs++;
        }
        cs_term *x = src;
        src = dst;
        dst = x;
        if (runs <= 1)
            break;
    }
    if (src != t)
        memcpy(t, src, (size_t)n * sizeof *t);
    if (tmp != stack)
        free(tmp);
}

void cs_lc_normalize(cs_lc *lc)
{
    if (lc->normal)
        return;
    cs_term *t = lc->t;
    uint32_t n = lc->n;
    if (n <= 16) {
        for (uint32_t i = 1; i < n; i++) {
            cs_term x = t[i];
            uint32_t j = i;
            while (j > 0 && t[j - 1].var > x.var) {
                t[j] = t[j - 1];
                j--;
            }
            t[j] = x;
        }
    } else {
        /* long LCs (MultiEq batches, packed bit sums) are mostly built in variable order */
        uint32_t i = 1;
        while (i < n && t[i - 1].var <= t[i].var)
            i++;
        if (i < n)
            sort_terms(t, n);
    }
    uint32_t out = 0;
    for (uint32_t i = 0; i < n;) {
        cs_term acc = t[i++];
        while (i < n && t[i].var == acc.var)
            fr_add(&acc.coeff, &acc.coeff, &t[i++].coeff);
        const uint64_t *l = acc.coeff.l;
        if (l[0] | l[1] | l[2] | l[3])
            t[out++] = acc;
    }
    lc->n = out;
    lc->normal = true;
}
