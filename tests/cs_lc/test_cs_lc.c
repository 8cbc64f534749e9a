/* cs_lc_normalize on long LCs built out of order (both of its long paths: the dense one for
 * aux variables in a narrow range plus CS_ONE, the sort for wide ranges and other inputs)
 * against an integer oracle: the terms' small integer coefficients summed per variable in
 * int64, sorted by variable, zero sums dropped. Repeats, cancelling pairs and CS_ONE terms
 * are mixed in, and consecutive LCs on the same thread check the dense path's scratch is
 * left clean. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs/cs.h"

typedef struct {
    cs_var var;
    int64_t c;
} iterm;

static uint64_t g_rng = 0x9e3779b97f4a7c15ull;
static uint64_t rnd(void)
{
    g_rng ^= g_rng << 13;
    g_rng ^= g_rng >> 7;
    g_rng ^= g_rng << 17;
    return g_rng;
}

static void fr_of_int(fr_t *out, int64_t c)
{
    fr_from_u64(out, (uint64_t)(c < 0 ? -c : c));
    if (c < 0)
        fr_neg(out, out);
}

static int iterm_cmp(const void *x, const void *y)
{
    cs_var a = ((const iterm *)x)->var, b = ((const iterm *)y)->var;
    return (a > b) - (a < b);
}

/* the oracle: sorted, summed, zeros dropped; returns the count */
static size_t oracle(iterm *t, size_t n)
{
    qsort(t, n, sizeof *t, iterm_cmp);
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        iterm acc = t[i++];
        while (i < n && t[i].var == acc.var)
            acc.c += t[i++].c;
        if (acc.c)
            t[o++] = acc;
    }
    return o;
}

/* n terms over aux variables [lo, lo + range), a share of CS_ONE terms (one_pct %), one
 * other input when `input`; every fourth term is followed later by its negation. */
static void run_case(const char *what, uint32_t n, cs_var lo, uint32_t range, unsigned one_pct, bool input)
{
    iterm *it = malloc(2 * (size_t)n * sizeof *it);
    size_t m = 0;
    for (uint32_t i = 0; i < n; i++) {
        cs_var v = rnd() % 100 < one_pct ? CS_ONE : lo + (cs_var)(rnd() % range);
        int64_t c = (int64_t)(rnd() % 9) - 4;
        c = c ? c : 1;
        it[m++] = (iterm){v, c};
        if (i % 4 == 3)
            it[m++] = (iterm){v, -c};
    }
    if (input)
        it[m++] = (iterm){CS_VAR_INPUT | 5, 3};
    /* shuffle so the LC is far from sorted */
    for (size_t i = m; i > 1; i--) {
        size_t j = rnd() % i;
        iterm x = it[i - 1];
        it[i - 1] = it[j];
        it[j] = x;
    }
    cs_lc lc;
    cs_lc_init(&lc, NULL, 0);
    for (size_t i = 0; i < m; i++) {
        fr_t k;
        fr_of_int(&k, it[i].c);
        cs_lc_add(&lc, it[i].var, &k);
    }
    cs_lc_normalize(&lc);
    size_t want = oracle(it, m);
    bool same = !lc.failed && lc.normal && lc.n == want;
    for (size_t i = 0; same && i < want; i++) {
        fr_t k;
        fr_of_int(&k, it[i].c);
        same = lc.t[i].var == it[i].var && fr_eq(&lc.t[i].coeff, &k);
    }
    CHECK(same, "%s: %u terms over %u variables: %u terms after normalize, oracle %zu", what, n, range, lc.n,
          want);
    cs_lc_release(&lc);
    free(it);
}

int main(void)
{
    for (int rep = 0; rep < 3; rep++) {
        run_case("dense, few", 17, 1000, 12, 10, false);
        run_case("dense, MultiEq-like", 1200, 50000, 4000, 5, false);
        run_case("dense, no CS_ONE", 300, 7, 300, 0, false);
        run_case("dense, range at the limit", 100, 0, 6400, 20, false);
        run_case("sort, wide range", 500, 10, 1u << 24, 5, false);
        run_case("sort, another input", 400, 100, 800, 5, true);
        run_case("only CS_ONE", 40, 0, 1, 100, false);
        run_case("dense, long", 20000, 1u << 20, 60000, 1, false);
    }
    return check_summary("cs_lc");
}
