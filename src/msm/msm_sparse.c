/* Witness-aware MSM over a compact witness (msm.h, msm_g1_witness_sparse): the ones and
 * the big scalars are listed straight from the bitmaps (base index, and the scalar for a
 * big one), then the big ones are split by size exactly as msm_run_witness splits dense
 * scalars (msm_witness_split) and every class runs through msm_run_phase on its list. No
 * per-variable scalar array is ever built: memory is 4 bytes per one and 36 per big
 * value instead of 32 per variable. */
#include <stdlib.h>
#include <string.h>

#include "msm/msm_internal.h"

/* 64 bits of `bm` starting at bit `pos`; words at or past `avail_words` read as 0. */
static inline uint64_t bits_at(const uint64_t *bm, size_t pos, size_t avail_words)
{
    size_t w = pos >> 6, sh = pos & 63;
    uint64_t lo = w < avail_words ? bm[w] : 0;
    if (!sh)
        return lo;
    uint64_t hi = w + 1 < avail_words ? bm[w + 1] : 0;
    return lo >> sh | hi << (64 - sh);
}

typedef struct {
    uint32_t *ones;  /* base indices of the ones */
    size_t n_ones;
    uint32_t *big;   /* base indices of the big scalars */
    const uint64_t **big_s; /* and their scalars */
    size_t n_big;
} lists_t;

static void lists_free(lists_t *l)
{
    free(l->ones);
    free(l->big);
    free(l->big_s);
}

/* Walk the n scalars once: density (may be NULL) selects the pairs, base k for the k-th;
 * bases at infinity contribute nothing and are left out. */
static cuzk_status make_lists(lists_t *l, const msm_group_t *group, const unsigned char *bases, size_t base_size,
                              const uint64_t *density, const msm_sparse_scalars_t *s, size_t *n_pairs,
                              cuzk_error *err)
{
    memset(l, 0, sizeof *l);
    size_t words = (s->first + s->n + 63) / 64;
    size_t cap_ones = 0, cap_big = 0;
    /* counts first, for exact allocations */
    for (size_t i = 0; i < s->n; i += 64) {
        uint64_t mask = s->n - i >= 64 ? ~0ull : (1ull << (s->n - i)) - 1;
        uint64_t d = (density ? density[i / 64] : ~0ull) & mask;
        uint64_t o = bits_at(s->ones, s->first + i, words) & mask, b = bits_at(s->big, s->first + i, words) & mask;
        if (o & b)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: scalar %zu is marked both 1 and big",
                             i + (size_t)__builtin_ctzll(o & b));
        cap_ones += (size_t)__builtin_popcountll(o & d);
        cap_big += (size_t)__builtin_popcountll(b);
    }
    if (cap_big > s->n_big)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: %zu big scalars marked, %zu given", cap_big, s->n_big);
    l->ones = malloc((cap_ones ? cap_ones : 1) * sizeof *l->ones);
    l->big = malloc((cap_big ? cap_big : 1) * sizeof *l->big);
    l->big_s = malloc((cap_big ? cap_big : 1) * sizeof *l->big_s);
    if (!l->ones || !l->big || !l->big_s) {
        lists_free(l);
        return cuzk_fail(err, CUZK_E_NOMEM, "msm: no memory for the lists of %zu ones and %zu big scalars", cap_ones,
                         cap_big);
    }
    size_t k = 0, rank = 0;
    for (size_t i = 0; i < s->n; i += 64) {
        uint64_t mask = s->n - i >= 64 ? ~0ull : (1ull << (s->n - i)) - 1;
        uint64_t d = (density ? density[i / 64] : ~0ull) & mask;
        uint64_t o = bits_at(s->ones, s->first + i, words) & mask & d, b = bits_at(s->big, s->first + i, words) & mask;
        for (uint64_t x = o | b; x; x &= x - 1) {
            unsigned bit = (unsigned)__builtin_ctzll(x);
            uint64_t below = (1ull << bit) - 1;
            bool is_big = (b >> bit) & 1;
            const uint64_t *sc = is_big ? s->big_scalars + MSM_SCALAR_LIMBS * rank++ : NULL;
            if (!((d >> bit) & 1))
                continue;
            size_t base = k + (size_t)__builtin_popcountll(d & below);
            if (sc && !msm_scalar_below_r(sc)) {
                lists_free(l);
                return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: big scalar %zu >= r", rank - 1);
            }
            if (group->aff_is_inf(bases + base * base_size))
                continue;
            if (is_big) {
                l->big[l->n_big] = (uint32_t)base;
                l->big_s[l->n_big++] = sc;
            } else {
                l->ones[l->n_ones++] = (uint32_t)base;
            }
        }
        k += (size_t)__builtin_popcountll(d);
    }
    *n_pairs = k;
    return CUZK_OK;
}

/* Gather the big scalars of bit length [lo, hi] (their count `want`) into base indices and
 * scalars; bit length 1 goes to the ones list instead (callers pass lo >= 2). */
static bool gather(const lists_t *l, unsigned lo, unsigned hi, size_t want, uint32_t **idx, uint64_t **sc)
{
    *idx = malloc((want ? want : 1) * sizeof **idx);
    *sc = malloc((want ? want : 1) * MSM_SCALAR_LIMBS * sizeof **sc);
    if (!*idx || !*sc) {
        free(*idx), free(*sc);
        return false;
    }
    size_t n = 0;
    for (size_t i = 0; i < l->n_big; i++) {
        unsigned bits = msm_scalar_bits(l->big_s[i]);
        if (bits < lo || bits > hi)
            continue;
        (*idx)[n] = l->big[i];
        memcpy(*sc + MSM_SCALAR_LIMBS * n, l->big_s[i], MSM_SCALAR_LIMBS * sizeof **sc);
        n++;
    }
    return true;
}

cuzk_status msm_run_witness_sparse(const msm_group_t *group, void *out, const void *bases, size_t base_size,
                                   size_t nbases, const uint64_t *density, const msm_sparse_scalars_t *s,
                                   const msm_opts_t *opts, msm_witness_stats_t *stats, cuzk_error *err)
{
    if (!out || !s)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: out or the scalars is NULL");
    if (s->n > UINT32_MAX)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: %zu scalars (at most 2^32 - 1 in sparse form)", s->n);
    if (s->n && (!s->ones || !s->big || (s->n_big && !s->big_scalars)))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: sparse scalars with NULL bitmaps");
    size_t selected = density ? msm_density_popcount(density, s->n) : s->n;
    if (selected != nbases)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: %zu pairs selected among n = %zu but nbases = %zu", selected,
                         s->n, nbases);
    if (nbases && !bases)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "msm: bases is NULL with %zu bases", nbases);
    lists_t l;
    size_t pairs = 0;
    cuzk_status st = make_lists(&l, group, bases, base_size, density, s, &pairs, err);
    if (st)
        return st;
    /* the big scalars by size; a big scalar of value 0 or 1 counts as such */
    size_t hist[256] = {0};
    for (size_t i = 0; i < l.n_big; i++)
        hist[msm_scalar_bits(l.big_s[i])]++;
    size_t ones_from_big = hist[1];
    hist[1] += l.n_ones;
    unsigned t = msm_witness_split(hist, group->id, opts);
    msm_witness_stats_t sx = {.ones = hist[1], .small_bits = t};
    for (unsigned b = 2; b < 256; b++) {
        if (b <= t)
            sx.small += hist[b];
        else
            sx.full += hist[b];
    }
    sx.zeros = pairs - sx.ones - sx.small - sx.full;
    if (ones_from_big) { /* rare (a caller's choice): move them to the ones list */
        uint32_t *o = realloc(l.ones, (l.n_ones + ones_from_big) * sizeof *o);
        if (!o) {
            lists_free(&l);
            return cuzk_fail(err, CUZK_E_NOMEM, "msm: no memory for the ones");
        }
        l.ones = o;
        for (size_t i = 0; i < l.n_big; i++)
            if (msm_scalar_bits(l.big_s[i]) == 1)
                l.ones[l.n_ones++] = l.big[i];
    }
    /* total = full + short + ones */
    const unsigned lo[2] = {t ? t + 1 : 2, 2}, hi[2] = {255, t};
    const size_t count[2] = {sx.full, sx.small};
    msm_jac_any total, part;
    group->jac_set_infinity(&total);
    for (int c = 0; c < 2 && !st; c++) {
        if (!count[c])
            continue;
        uint32_t *idx;
        uint64_t *sc;
        if (!gather(&l, lo[c], hi[c], count[c], &idx, &sc)) {
            st = cuzk_fail(err, CUZK_E_NOMEM, "msm: no memory to gather %zu scalars", count[c]);
            break;
        }
        st = msm_run_phase(group, &part, bases, base_size, nbases, NULL, idx, sc, count[c], lo[c], hi[c], count[c],
                           opts, err);
        free(idx), free(sc);
        if (!st)
            group->jac_add(&total, &total, &part);
    }
    if (!st && l.n_ones) {
        st = msm_run_phase(group, &part, bases, base_size, nbases, NULL, l.ones, NULL, l.n_ones, 1, 1, l.n_ones, opts,
                           err);
        if (!st)
            group->jac_add(&total, &total, &part);
    }
    lists_free(&l);
    if (st)
        return st;
    group->jac_normalize(&total);
    memcpy(out, &total, group->jac_size);
    if (stats)
        *stats = sx;
    return CUZK_OK;
}
