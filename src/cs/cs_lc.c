/* Linear combinations: append, merge, coefficient helpers. Contracts in cs.h. */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "cs/cs.h"

fr_t cs_coeff_pow2[256];
fr_t cs_coeff_small[2 * CS_SMALL_INT_MAX + 1]; /* -MAX .. MAX */

/* The coefficient tables (cs.h), before main: the gadgets read them without a once-check. */
__attribute__((constructor)) static void coeff_init(void)
{
    cs_coeff_pow2[0] = FR_ONE;
    for (unsigned k = 1; k < 256; k++)
        fr_dbl(&cs_coeff_pow2[k], &cs_coeff_pow2[k - 1]);
    fr_t *zero = &cs_coeff_small[CS_SMALL_INT_MAX];
    *zero = FR_ZERO;
    for (int k = 1; k <= CS_SMALL_INT_MAX; k++) {
        fr_add(&zero[k], &zero[k - 1], &FR_ONE);
        fr_neg(&zero[-k], &zero[k]);
    }
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

/* Short LCs in normal form take an out-of-order term by insertion (gadgets often add ONE
 * first); longer ones are left to cs_lc_normalize. */
#define INSERT_MAX 8

void cs_lc_add_slow(cs_lc *lc, cs_var v, const fr_t *coeff)
{
    if (coeff_zero(coeff))
        return; /* an absent term */
    uint32_t n = lc->n, at = n;
    if (n && lc->t[n - 1].var >= v) {
        if (lc->normal && n <= INSERT_MAX) {
            while (at > 0 && lc->t[at - 1].var > v)
                at--;
            if (at > 0 && lc->t[at - 1].var == v) {
                /* merged into the term of v: the LC stays in normal form */
                cs_term *x = &lc->t[at - 1];
                fr_add(&x->coeff, &x->coeff, coeff);
                if (coeff_zero(&x->coeff)) {
                    memmove(x, x + 1, (size_t)(n - at) * sizeof *x);
                    lc->n--;
                }
                return;
            }
        } else {
            lc->normal = false;
        }
    }
    if (n == lc->cap && !lc_grow(lc, n + 1))
        return;
    cs_term *t = &lc->t[at];
    if (at < n)
        memmove(t + 1, t, (size_t)(n - at) * sizeof *t);
    t->var = v;
    t->_pad = 0;
    t->coeff = *coeff;
    lc->n++;
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

static int term_cmp(const void *x, const void *y)
{
    cs_var a = ((const cs_term *)x)->var, b = ((const cs_term *)y)->var;
    return (a > b) - (a < b);
}

/* Per-thread scratch of the long-LC sort, kept between calls (freed at thread exit). */
typedef struct {
    uint64_t *keys; /* 2 cap */
    cs_term *terms; /* cap */
    size_t cap;
    uint64_t *seen;  /* dense path: one bit per variable of the range (range_cap / 64 words) */
    uint32_t *slot;  /* dense path: a variable's term in `terms` (range_cap) */
    size_t range_cap;
} sort_scratch;

/* this thread's scratch once made (also held by g_scratch_key, which frees it at exit) */
static _Thread_local sort_scratch *tl_scratch;

static pthread_key_t g_scratch_key;
static pthread_once_t g_scratch_once = PTHREAD_ONCE_INIT;
static bool g_scratch_ok;

static void scratch_free(void *p)
{
    sort_scratch *s = p;
    free(s->keys);
    free(s->terms);
    free(s->seen);
    free(s->slot);
    free(s);
}

static void scratch_key_init(void)
{
    g_scratch_ok = pthread_key_create(&g_scratch_key, scratch_free) == 0;
}

/* This thread's scratch with room for n terms; NULL when out of memory. */
static sort_scratch *scratch_get(size_t n)
{
    sort_scratch *s = tl_scratch;
    if (s && s->cap >= n)
        return s;
    pthread_once(&g_scratch_once, scratch_key_init);
    if (!g_scratch_ok)
        return NULL;
    s = pthread_getspecific(g_scratch_key);
    if (!s) {
        if (!(s = calloc(1, sizeof *s)))
            return NULL;
        if (pthread_setspecific(g_scratch_key, s)) {
            free(s);
            return NULL;
        }
    }
    if (s->cap < n) {
        size_t cap = n < 1024 ? 1024 : n + n / 2;
        uint64_t *k = malloc(2 * cap * sizeof *k);
        cs_term *t = malloc(cap * sizeof *t);
        if (!k || !t) {
            free(k);
            free(t);
            return NULL;
        }
        free(s->keys);
        free(s->terms);
        s->keys = k;
        s->terms = t;
        s->cap = cap;
    }
    tl_scratch = s;
    return s;
}

/* The dense path takes ranges of variables up to this many and up to DENSE_PER_TERM times
 * the LC's length (its bitmap scan then costs about one word per term). */
#define DENSE_RANGE_MAX (1u << 20)
#define DENSE_PER_TERM 64u

/* Room in s for a range of `range` variables; false when out of memory. */
static bool scratch_range(sort_scratch *s, size_t range)
{
    if (s->range_cap >= range)
        return true;
    size_t cap = range < 4096 ? 4096 : range + range / 2;
    cap = (cap + 63) & ~(size_t)63;
    uint64_t *seen = calloc(cap / 64, sizeof *seen);
    uint32_t *slot = malloc(cap * sizeof *slot);
    if (!seen || !slot) {
        free(seen);
        free(slot);
        return false;
    }
    free(s->seen);
    free(s->slot);
    s->seen = seen;
    s->slot = slot;
    s->range_cap = cap;
    return true;
}

/* Long LCs whose aux variables lie in a narrow range (MultiEq batches, packed bit sums),
 * plus at most CS_ONE among the inputs: each term scattered into its variable's slot (a
 * repeat added to the first, in position order as the sort merges them), then the range's
 * bitmap read in ascending order, CS_ONE last (it sorts after every aux variable). Returns
 * false, leaving lc untouched, when the LC does not qualify or the scratch cannot grow. */
static bool normalize_dense(cs_lc *lc, sort_scratch *s)
{
    cs_term *t = lc->t;
    uint32_t n = lc->n, lo = UINT32_MAX, hi = 0;
    for (uint32_t i = 0; i < n; i++) {
        cs_var v = t[i].var;
        if (v == CS_ONE)
            continue;
        if (CS_VAR_IS_INPUT(v))
            return false;
        lo = v < lo ? v : lo;
        hi = v > hi ? v : hi;
    }
    if (lo > hi)
        return false; /* only CS_ONE */
    size_t range = (size_t)(hi - lo) + 1;
    if (range > DENSE_RANGE_MAX || range > (size_t)DENSE_PER_TERM * n || !scratch_range(s, range))
        return false;
    uint64_t *seen = s->seen;
    uint32_t *slot = s->slot;
    cs_term *g = s->terms;
    uint32_t m = 0;
    bool has_one = false;
    fr_t one = FR_ZERO;
    for (uint32_t i = 0; i < n; i++) {
        cs_var v = t[i].var;
        if (v == CS_ONE) {
            fr_add(&one, &one, &t[i].coeff);
            has_one = true;
            continue;
        }
        uint32_t d = v - lo;
        uint64_t bit = 1ull << (d & 63);
        if (seen[d >> 6] & bit) {
            fr_add(&g[slot[d]].coeff, &g[slot[d]].coeff, &t[i].coeff);
        } else {
            seen[d >> 6] |= bit;
            slot[d] = m;
            g[m++] = t[i];
        }
    }
    uint32_t o = 0;
    size_t words = (range + 63) / 64;
    for (size_t w = 0; w < words; w++) {
        uint64_t bits = seen[w];
        seen[w] = 0; /* left clear for the next LC */
        while (bits) {
            uint32_t d = (uint32_t)(w * 64 + (unsigned)__builtin_ctzll(bits));
            bits &= bits - 1;
            const cs_term *x = &g[slot[d]];
            if (!coeff_zero(&x->coeff))
                t[o++] = *x;
        }
    }
    if (has_one && !coeff_zero(&one)) {
        t[o].var = CS_ONE;
        t[o]._pad = 0;
        t[o++].coeff = one;
    }
    lc->n = o;
    lc->normal = true;
    return true;
}

/* Bottom-up natural merge sort of the 8-byte keys k[0..n) (tmp: n more): long LCs are
 * concatenations of a few ascending runs (sums of words' bits), so this costs about
 * n log(runs) key moves. Returns the buffer holding the result. */
static uint64_t *sort_keys(uint64_t *k, uint64_t *tmp, uint32_t n)
{
    uint64_t *src = k, *dst = tmp;
    for (;;) {
        uint32_t runs = 0, i = 0;
        while (i < n) {
            uint32_t a = i, m = i + 1;
            while (m < n && src[m - 1] <= src[m])
                m++;
            uint32_t b = m, e = m < n ? m + 1 : n;
            while (e < n && src[e - 1] <= src[e])
                e++;
            uint32_t o = a;
            while (a < m && b < e)
                dst[o++] = src[b] < src[a] ? src[b++] : src[a++];
            while (a < m)
                dst[o++] = src[a++];
            while (b < e)
                dst[o++] = src[b++];
            i = e;
            runs++;
        }
        uint64_t *x = src;
        src = dst;
        dst = x;
        if (runs <= 1)
            return src;
    }
}

/* Merge runs of equal variables of the sorted t[0..n) into out (dropping zero sums);
 * returns the number of terms written. out may be t. */
static uint32_t merge_repeats(const cs_term *t, uint32_t n, cs_term *out)
{
    uint32_t o = 0;
    for (uint32_t i = 0; i < n;) {
        cs_term acc = t[i++];
        while (i < n && t[i].var == acc.var)
            fr_add(&acc.coeff, &acc.coeff, &t[i++].coeff);
        if (!coeff_zero(&acc.coeff))
            out[o++] = acc;
    }
    return o;
}

void cs_lc_normalize_slow(cs_lc *lc)
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
        lc->n = merge_repeats(t, n, t);
        lc->normal = true;
        return;
    }
    uint32_t run = 1;
    while (run < n && t[run - 1].var <= t[run].var)
        run++;
    if (run == n) { /* in order with repeats */
        lc->n = merge_repeats(t, n, t);
        lc->normal = true;
        return;
    }
    /* long LCs (MultiEq batches, packed bit sums): sorted as (variable, position) keys,
     * then gathered once into the scratch and merged */
    sort_scratch *s = scratch_get(n);
    if (!s) {
        qsort(t, n, sizeof *t, term_cmp);
        lc->n = merge_repeats(t, n, t);
        lc->normal = true;
        return;
    }
    if (normalize_dense(lc, s))
        return;
    uint64_t *k = s->keys;
    for (uint32_t i = 0; i < n; i++)
        k[i] = (uint64_t)t[i].var << 32 | i;
    k = sort_keys(k, s->keys + s->cap, n);
    cs_term *g = s->terms;
    for (uint32_t i = 0; i < n; i++)
        g[i] = t[(uint32_t)k[i]];
    lc->n = merge_repeats(g, n, t);
    lc->normal = true;
}
