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

void cs_lc_add(cs_lc *lc, cs_var v, const fr_t *coeff)
{
    if (lc->n == lc->cap && !lc_grow(lc, lc->n + 1))
        return;
    cs_term *t = &lc->t[lc->n++];
    t->var = v;
    t->_pad = 0;
    t->coeff = *coeff;
    lc->normal = false;
}

void cs_lc_add_var(cs_lc *lc, cs_var v)
{
    cs_lc_add(lc, v, &FR_ONE);
}

void cs_lc_sub_var(cs_lc *lc, cs_var v)
{
    cs_lc_add(lc, v, cs_neg_one());
}

void cs_lc_add_lc(cs_lc *lc, const cs_lc *src, const fr_t *scale)
{
    if (src->failed) {
        lc->failed = true;
        return;
    }
    if (src->n == 0)
        return;
    if (lc->n + src->n > lc->cap && !lc_grow(lc, lc->n + src->n))
        return;
    for (uint32_t i = 0; i < src->n; i++) {
        cs_term *t = &lc->t[lc->n++];
        t->var = src->t[i].var;
        t->_pad = 0;
        if (scale)
            fr_mul(&t->coeff, &src->t[i].coeff, scale);
        else
            t->coeff = src->t[i].coeff;
    }
    lc->normal = false;
}

void cs_lc_copy(cs_lc *lc, const cs_lc *src)
{
    cs_lc_clear(lc);
    cs_lc_add_lc(lc, src, NULL);
    lc->normal = src->normal;
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
