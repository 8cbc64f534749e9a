/* Compact witness vectors (witness.h). */
#include "cs/witness.h"

#include <stdlib.h>
#include <string.h>

static bool resize(void **p, uint64_t n, size_t elem)
{
    if (n > SIZE_MAX / elem)
        return false;
    void *q = realloc(*p, (size_t)(n ? n : 1) * elem);
    if (!q)
        return false;
    *p = q;
    return true;
}

static bool reserve_words(cs_witness *w, uint64_t words)
{
    if (words <= w->words_cap)
        return true;
    if (!resize((void **)&w->ones, words, sizeof *w->ones) || !resize((void **)&w->big, words, sizeof *w->big) ||
        !resize((void **)&w->rank, words, sizeof *w->rank))
        return false; /* the arrays that grew keep their old contents; words_cap unchanged */
    w->words_cap = words;
    return true;
}

static bool reserve_vals(cs_witness *w, uint64_t n)
{
    if (n <= w->vals_cap)
        return true;
    if (!resize((void **)&w->vals, n, sizeof *w->vals))
        return false;
    w->vals_cap = n;
    return true;
}

bool cs_witness_reserve(cs_witness *w, uint64_t n, uint64_t n_big)
{
    return reserve_words(w, n / 64 + 1) && (!n_big || reserve_vals(w, n_big));
}

bool cs_witness_push(cs_witness *w, const fr_t *x)
{
    uint64_t i = w->n, word = i >> 6, bit = 1ull << (i & 63);
    if (word >= w->words_cap && !reserve_words(w, w->words_cap ? 2 * w->words_cap : 16))
        return false;
    if (!(i & 63)) {
        w->ones[word] = 0;
        w->big[word] = 0;
        w->rank[word] = (uint32_t)w->n_big;
    }
    const uint64_t *l = x->l;
    if (l[0] | l[1] | l[2] | l[3]) {
        if (!memcmp(x, &FR_ONE, sizeof *x)) {
            w->ones[word] |= bit;
        } else {
            if (w->n_big >= CS_WITNESS_MAX_BIG ||
                (w->n_big >= w->vals_cap && !reserve_vals(w, w->vals_cap ? 2 * w->vals_cap : 64)))
                return false;
            w->vals[w->n_big++] = *x;
            w->big[word] |= bit;
        }
    }
    w->n++;
    return true;
}

void cs_bits_copy(uint64_t *dst, uint64_t off, const uint64_t *src, uint64_t n)
{
    for (uint64_t i = 0; i < n; i += 64) {
        uint64_t w = src[i / 64];
        if (n - i < 64)
            w &= (1ull << (n - i)) - 1;
        uint64_t pos = off + i;
        dst[pos / 64] |= w << (pos % 64);
        if (pos % 64 && w >> (64 - pos % 64))
            dst[pos / 64 + 1] |= w >> (64 - pos % 64);
    }
}

void cs_witness_expand(const cs_witness *w, fr_t *out)
{
    const fr_t *big = w->vals;
    for (uint64_t i = 0; i < w->n; i++) {
        uint64_t word = i >> 6, bit = 1ull << (i & 63);
        out[i] = (w->big[word] & bit) ? *big++ : (w->ones[word] & bit) ? FR_ONE : FR_ZERO;
    }
}

void cs_witness_shrink(cs_witness *w)
{
    if (w->vals_cap > w->n_big && w->n_big && resize((void **)&w->vals, w->n_big, sizeof *w->vals))
        w->vals_cap = w->n_big;
}

uint64_t cs_witness_bytes(const cs_witness *w)
{
    return w->words_cap * (2 * sizeof(uint64_t) + sizeof(uint32_t)) + w->vals_cap * sizeof(fr_t);
}

void cs_witness_free(cs_witness *w)
{
    if (!w)
        return;
    free(w->ones);
    free(w->big);
    free(w->rank);
    free(w->vals);
    memset(w, 0, sizeof *w);
}
