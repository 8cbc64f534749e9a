/* MSM against @noble/curves vectors (tests/oracle/gen-msm.mjs, block format described
 * there), G1 and G2, dense and density-filtered.
 *
 * Every case runs under several plans (thread counts 1-4, window sizes from 1 to 13,
 * explicit chunk counts) and each result must equal the oracle's sum; all plans must
 * give bit-identical Jacobian outputs. Properties checked on the same inputs: the
 * density variant with all bits set equals the dense MSM; a density case equals the
 * dense MSM over all bases with the scalars of clear bits zeroed; for small n the MSM
 * equals the sum of g1_mul / g2_mul products; the witness-aware MSM (msm_*_witness,
 * density and dense) equals the oracle and is bit-identical to msm_*_density, and over
 * all cases it must have taken its ones, short and full paths. At least MIN_CASES cases
 * must be read, so a generator that stops early fails the test.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_select.h"
#include "curve/curve.h"
#include "msm/msm.h"

#define MIN_CASES 20
#define MAX_TOKENS 8

static const msm_opts_t PLANS[] = {
    {1, 0, 0, NULL}, {2, 0, 0, NULL}, {3, 0, 3, NULL}, {4, 10, 2, NULL}, {1, 4, 0, NULL}, {2, 9, 2, NULL}, {1, 1, 0, NULL}, {3, 6, 7, NULL},
};
#define NPLANS (sizeof PLANS / sizeof PLANS[0])

typedef struct {
    int g2;
    char name[64];
    size_t n, got;
    uint8_t *bits;
    g1_affine_t *b1;
    g2_affine_t *b2;
    uint64_t *scalars;
} msm_case;

static long line_no;

static bool parse_fp(fp_t *r, const char *tok)
{
    uint8_t buf[FP_BYTES];
    return hex_decode(buf, sizeof buf, tok) == FP_BYTES && fp_from_bytes_be(r, buf) == CUZK_OK;
}

static bool parse_fp2(fp2_t *r, const char *tok)
{
    uint8_t buf[2 * FP_BYTES];
    return hex_decode(buf, sizeof buf, tok) == 2 * FP_BYTES &&
           fp_from_bytes_be(&r->c0, buf) == CUZK_OK &&
           fp_from_bytes_be(&r->c1, buf + FP_BYTES) == CUZK_OK;
}

static bool parse_scalar(uint64_t s[4], const char *tok)
{
    uint8_t buf[32];
    if (hex_decode(buf, sizeof buf, tok) != 32)
        return false;
    for (int i = 0; i < 4; i++) {
        s[i] = 0;
        for (int j = 0; j < 8; j++)
            s[i] |= (uint64_t)buf[31 - 8 * i - j] << (8 * j);
    }
    return true;
}

static uint64_t *make_bitmap(const msm_case *c, size_t *nset)
{
    uint64_t *bm = calloc(c->n / 64 + 1, sizeof *bm);
    *nset = 0;
    for (size_t i = 0; i < c->n; i++) {
        if (c->bits[i]) {
            bm[i / 64] |= (uint64_t)1 << (i % 64);
            (*nset)++;
        }
    }
    return bm;
}

/* Checks of one case for group G (g1/g2); instantiated below for both groups. */
#define DEFINE_CHECK_CASE(G, BASES)                                                          \
    static void check_case_##G(const msm_case *c, const G##_affine_t *expect,                \
                               msm_witness_stats_t *tally)                                   \
    {                                                                                        \
        size_t nset;                                                                         \
        uint64_t *bm = make_bitmap(c, &nset);                                                \
        G##_affine_t *compact = malloc((nset + 1) * sizeof *compact);                        \
        uint64_t *zeroed = malloc((c->n + 1) * 4 * sizeof *zeroed);                          \
        size_t k = 0;                                                                        \
        for (size_t i = 0; i < c->n; i++) {                                                  \
            if (c->bits[i])                                                                  \
                compact[k++] = c->BASES[i];                                                  \
            for (int l = 0; l < 4; l++)                                                      \
                zeroed[4 * i + l] = c->bits[i] ? c->scalars[4 * i + l] : 0;                  \
        }                                                                                    \
        G##_jac_t first, out, dense;                                                         \
        G##_affine_t a;                                                                      \
        cuzk_error err;                                                                      \
        for (size_t p = 0; p < NPLANS; p++) {                                                \
            const msm_opts_t *o = &PLANS[p];                                                 \
            if (o->window_bits && o->window_bits < 4 && c->n > 100)                          \
                continue; /* 256 windows: too slow for the big cases, covered by small */    \
            cuzk_status st = msm_##G##_density(&out, compact, nset, bm, c->scalars, c->n, o, \
                                               &err);                                        \
            CHECK(st == CUZK_OK, "%s plan %zu: density status %d", c->name, p, (int)st);     \
            G##_affine_from_jac(&a, &out);                                                   \
            CHECK(G##_affine_eq(&a, expect), "%s plan %zu (t=%u c=%u k=%u): density != oracle", \
                  c->name, p, o->threads, o->window_bits, o->chunks);                        \
            if (p == 0)                                                                      \
                first = out;                                                                 \
            else                                                                             \
                CHECK(memcmp(&first, &out, sizeof out) == 0,                                 \
                      "%s plan %zu: output not bit-identical to plan 0", c->name, p);        \
            st = msm_##G(&dense, c->BASES, zeroed, c->n, o, &err);                           \
            CHECK(st == CUZK_OK, "%s plan %zu: dense status %d", c->name, p, (int)st);       \
            CHECK(memcmp(&dense, &out, sizeof out) == 0,                                     \
                  "%s plan %zu: dense MSM with zeroed scalars != density MSM", c->name, p);  \
            msm_witness_stats_t ws;                                                          \
            st = msm_##G##_witness(&out, compact, nset, bm, c->scalars, c->n, o, &ws, &err); \
            CHECK(st == CUZK_OK, "%s plan %zu: witness status %d", c->name, p, (int)st);     \
            G##_affine_from_jac(&a, &out);                                                   \
            CHECK(G##_affine_eq(&a, expect), "%s plan %zu: witness MSM != oracle", c->name, p); \
            CHECK(memcmp(&first, &out, sizeof out) == 0,                                     \
                  "%s plan %zu: witness MSM not bit-identical to plan 0", c->name, p);       \
            CHECK(ws.zeros + ws.ones + ws.small + ws.full == nset,                           \
                  "%s plan %zu: witness split counts %zu pairs of %zu", c->name, p,          \
                  ws.zeros + ws.ones + ws.small + ws.full, nset);                            \
            tally->ones += ws.ones;                                                          \
            tally->small += ws.small;                                                        \
            tally->full += ws.full;                                                          \
            st = msm_##G##_witness(&dense, c->BASES, c->n, NULL, zeroed, c->n, o, NULL, &err); \
            CHECK(st == CUZK_OK && memcmp(&dense, &out, sizeof out) == 0,                    \
                  "%s plan %zu: dense witness MSM with zeroed scalars != density MSM",       \
                  c->name, p);                                                               \
        }                                                                                    \
        if (c->n <= 100) {                                                                   \
            G##_jac_t sum, t, pj;                                                            \
            G##_jac_set_infinity(&sum);                                                      \
            for (size_t i = 0; i < c->n; i++) {                                              \
                if (!c->bits[i])                                                             \
                    continue;                                                                \
                G##_jac_from_affine(&pj, &c->BASES[i]);                                      \
                G##_mul(&t, &pj, c->scalars + 4 * i, 4);                                     \
                G##_add(&sum, &sum, &t);                                                     \
            }                                                                                \
            CHECK(G##_jac_eq(&sum, &first), "%s: MSM != sum of " #G "_mul products", c->name); \
        }                                                                                    \
        free(bm);                                                                            \
        free(compact);                                                                       \
        free(zeroed);                                                                        \
    }

DEFINE_CHECK_CASE(g1, b1)
DEFINE_CHECK_CASE(g2, b2)

static void free_case(msm_case *c)
{
    free(c->bits);
    free(c->b1);
    free(c->b2);
    free(c->scalars);
    memset(c, 0, sizeof *c);
}

int main(void)
{
    check_select_cpu();
    char *line = NULL;
    size_t cap = 0;
    char *t[MAX_TOKENS];
    msm_case c = {0};
    int in_case = 0, cases = 0, g2_cases = 0, density_cases = 0;
    msm_witness_stats_t tally = {0};

    while (getline(&line, &cap, stdin) >= 0) {
        line_no++;
        int nt = split_tokens(line, t, MAX_TOKENS);
        if (nt == 0)
            continue;
        if (strcmp(t[0], "case") == 0 && nt == 4) {
            free_case(&c);
            c.g2 = strcmp(t[1], "g2") == 0;
            snprintf(c.name, sizeof c.name, "%s/%s", t[1], t[2]);
            c.n = strtoul(t[3], NULL, 10);
            c.bits = calloc(c.n + 1, 1);
            c.b1 = calloc(c.n + 1, sizeof *c.b1);
            c.b2 = calloc(c.n + 1, sizeof *c.b2);
            c.scalars = calloc(4 * (c.n + 1), sizeof *c.scalars);
            in_case = 1;
        } else if (strcmp(t[0], "p") == 0 && nt == 5 && in_case && c.got < c.n) {
            size_t i = c.got++;
            c.bits[i] = t[1][0] == '1';
            bool ok = parse_scalar(c.scalars + 4 * i, t[4]);
            ok = ok && (c.g2 ? parse_fp2(&c.b2[i].x, t[2]) && parse_fp2(&c.b2[i].y, t[3])
                             : parse_fp(&c.b1[i].x, t[2]) && parse_fp(&c.b1[i].y, t[3]));
            CHECK(ok, "line %ld: bad point line", line_no);
        } else if (strcmp(t[0], "expect") == 0 && nt == 3 && in_case) {
            CHECK(c.got == c.n, "%s: %zu of %zu points", c.name, c.got, c.n);
            int dens = 0;
            for (size_t i = 0; i < c.n; i++)
                dens |= !c.bits[i];
            if (c.g2) {
                g2_affine_t e;
                bool ok = parse_fp2(&e.x, t[1]) && parse_fp2(&e.y, t[2]);
                CHECK(ok, "line %ld: bad expect", line_no);
                if (ok)
                    check_case_g2(&c, &e, &tally);
                g2_cases++;
            } else {
                g1_affine_t e;
                bool ok = parse_fp(&e.x, t[1]) && parse_fp(&e.y, t[2]);
                CHECK(ok, "line %ld: bad expect", line_no);
                if (ok)
                    check_case_g1(&c, &e, &tally);
            }
            density_cases += dens;
            cases++;
            in_case = 0;
        } else {
            CHECK(false, "line %ld: unexpected '%s' (%d tokens)", line_no, t[0], nt);
        }
    }
    free_case(&c);
    free(line);
    CHECK(cases >= MIN_CASES && g2_cases >= 1 && density_cases >= 2,
          "only %d cases (%d G2, %d density) read", cases, g2_cases, density_cases);
    /* the witness cases must have sent pairs down every path of the witness-aware MSM */
    CHECK(tally.ones > 0 && tally.small > 0 && tally.full > 0,
          "witness MSM paths not all taken: %zu ones, %zu small, %zu full", tally.ones,
          tally.small, tally.full);
    return check_summary("test_msm");
}
