/* The inline fast paths of synthesis (cs_alloc_bit / cs_alloc_bits, CS_PROVE's cs_row_push
 * from the Boolean, UInt32, MultiEq and packing gadgets, the word-wise paths of gb_word_*)
 * against the general path, on a workload made to reach their corner cases: operands
 * with constant, negated and repeated bits (x xor x, ch / maj with b = c or b = ¬c), words
 * without constants (the word paths) and with some, MultiEq additions whose operands share
 * a variable at one position (x + ¬x: the coefficients cancel, so the variable must not
 * count as A-dense), packing with repeated bits, values other than 0 and 1.
 *
 * The oracle is the recorded constraint system (CS_RECORD builds every LC through the
 * general path) evaluated on the CS_CHECK witness by the PCE's plain products, which share
 * no code with the gadgets' own evaluations; CS_CHECK must hold. Checked against it:
 * CS_PROVE (compact witness, rows verified) with an exact hint (fast paths throughout) and
 * without one (a, b, c grow: the fast and general paths alternate), its a, b, c and A / B
 * densities; CS_WITNESS's compact witness; and the compact PCE products (small-integer
 * counts, ±2^e digits of the long rows) on that witness. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cs/pce.h"
#include "gadget_util.h"
#include "gadgets/num.h"
#include "gadgets/uint32.h"

#define POOL 40

/* bits that only the MultiEq row could make A-dense, where their coefficients cancel */
static u32g g_lone;

/* A word of pool bits: each position constant, the pool bit or its negation, by `mix`
 * (0: no constants, 1: some). Few distinct bits, so words share variables. */
static u32g pool_word(const gbool *pool, uint64_t *s, int mix)
{
    gbool b[32];
    for (int i = 0; i < 32; i++) {
        uint64_t r = tu_rand(s);
        if (mix && r % 5 == 0)
            b[i] = gb_const((r >> 8) & 1);
        else
            b[i] = (r >> 9) & 1 ? gb_not(pool[(r >> 12) % POOL]) : pool[(r >> 12) % POOL];
    }
    return u32_from_bits_be(b);
}

static u32g negated(const u32g *x)
{
    gbool b[32];
    u32_into_bits_be(x, b);
    for (int i = 0; i < 32; i++)
        b[i] = gb_not(b[i]);
    return u32_from_bits_be(b);
}

static void workload(cs_t *cs)
{
    uint64_t s = 0x9e3779b97f4a7c15ull;
    gbool pool[POOL];
    for (int i = 0; i < POOL; i++)
        pool[i] = gb_alloc(cs, tu_rand(&s) & 1);
    /* per-bit gadgets on repeated and negated operands */
    gbool x = pool[0], y = pool[1];
    gbool r[12] = {gb_xor(cs, x, x), gb_xor(cs, x, gb_not(x)), gb_and(cs, x, gb_not(x)),
                   gb_sha256_ch(cs, y, x, x), gb_sha256_ch(cs, y, x, gb_not(x)), gb_sha256_ch(cs, gb_const(true), x, y),
                   gb_sha256_maj(cs, y, x, x), gb_sha256_maj(cs, gb_not(y), x, gb_not(x)),
                   gb_sha256_maj(cs, y, gb_not(x), gb_not(x)), gb_alloc_nor(cs, x, y), gb_alloc_and(cs, x, y),
                   gb_xor(cs, gb_not(x), y)};
    for (int i = 0; i < 12; i++) {
        gb_enforce_equal(cs, r[i], gb_const(r[i].value));
        gb_enforce_equal(cs, gb_const(!r[i].value), gb_not(r[i]));
    }
    gb_enforce_equal(cs, x, x);
    gb_enforce_equal(cs, gb_not(y), gb_not(y));
    /* word operations with and without constants */
    u32g w[8];
    for (int i = 0; i < 8; i++)
        w[i] = pool_word(pool, &s, i % 2);
    u32g fresh = u32_xor(cs, &w[0], &w[2]); /* fresh bits: A-dense only where used in A */
    u32g t[6] = {u32_xor(cs, &w[1], &w[3]),           u32_sha256_ch(cs, &w[0], &w[2], &w[4]),
                 u32_sha256_ch(cs, &w[1], &w[2], &w[3]),  u32_sha256_maj(cs, &w[0], &w[2], &w[6]),
                 u32_sha256_maj(cs, &w[5], &w[2], &w[3]), u32_rotr(&fresh, 7)};
    /* the word paths with b = c and b = ¬c at every position, on fresh bits (A-dense only
     * where these rows make them so) */
    u32g f[4], nf[4], d[4];
    for (int i = 0; i < 4; i++) {
        f[i] = u32_xor(cs, &w[2 * i], &w[(2 * i + 2) % 8]);
        nf[i] = negated(&f[i]);
    }
    d[0] = u32_sha256_ch(cs, &w[0], &f[0], &f[0]);
    d[1] = u32_sha256_ch(cs, &w[4], &f[1], &nf[1]);
    d[2] = u32_sha256_maj(cs, &w[0], &f[2], &f[2]);
    d[3] = u32_sha256_maj(cs, &w[4], &nf[3], &f[3]);
    for (int i = 0; i < 4; i++)
        t[i] = u32_xor(cs, &t[i], &d[i]);
    u32g shifted = u32_shr(&t[0], 11);
    u32g t2 = u32_xor(cs, &t[5], &shifted);
    /* MultiEq: an addition with a repeated word, one whose operands cancel position by
     * position (fresh + ¬fresh), long ones, and a flush on overflow */
    multieq m;
    multieq_init(&m, cs);
    u32g lone = u32_xor(cs, &w[1], &w[5]), nl = negated(&lone), fresh2 = u32_xor(cs, &w[4], &w[6]);
    g_lone = lone;
    u32g ops1[3] = {lone, nl, t[1]}, ops2[2] = {t[2], t[2]}, ops3[7] = {t[3], t[4], t2, w[7], u32_const(0x6a09e667u),
                                                                           w[0], fresh2};
    u32g sum[6];
    sum[0] = u32_addmany(&m, ops1, 3);
    sum[1] = u32_addmany(&m, ops2, 2);
    for (int i = 2; i < 6; i++)
        sum[i] = u32_addmany(&m, ops3, 7);
    multieq_flush(&m);
    multieq_free(&m);
    /* packing with repeated and negated bits, unpacking, a non-bit value */
    gbool bits[254];
    for (int i = 0; i < 254; i++) {
        uint64_t q = tu_rand(&s);
        bits[i] = q % 7 == 0 ? gb_const(q & 1) : (q >> 3) & 1 ? gb_not(pool[(q >> 5) % POOL]) : pool[(q >> 5) % POOL];
    }
    anum packed = pack_bits(cs, bits, 254);
    gbool le[255];
    anum_to_bits_le(cs, &packed, le);
    u32g tail = u32_alloc(cs, sum[5].value ^ 0x5a5a5a5au);
    u32g last = u32_xor(cs, &tail, &sum[0]);
    gbool out[32];
    u32_into_bits_be(&last, out);
    pack_into_inputs(cs, out, 32);
}

static cuzk_status run(cs_t *cs, cuzk_error *err)
{
    workload(cs);
    if (cs_status(cs))
        *err = cs->err;
    return cs_status(cs);
}

int main(void)
{
    cuzk_error err = {0};
    cs_t cs;
    cs_counts n;
    CHECK(cs_init(&cs, CS_SHAPE, 0) == CUZK_OK && run(&cs, &err) == CUZK_OK, "shape: %s", err.msg);
    cs_get_counts(&cs, &n);
    cs_free(&cs);
    cs_pce pce = {0};
    cs_pce_identity id = {"fast-paths", {0}};
    CHECK(cs_init_record_pce(&cs, &n) == CUZK_OK && run(&cs, &err) == CUZK_OK && cs_take_pce(&cs, &id, &pce) == CUZK_OK,
          "record: %s %s", err.msg, cs.err.msg);
    cs_free(&cs);
    fr_t *in = NULL, *aux = NULL;
    uint64_t ni = 0, na = 0;
    CHECK(cs_init(&cs, CS_CHECK, 0) == CUZK_OK && run(&cs, &err) == CUZK_OK, "check: %s", err.msg);
    uint64_t bad = 0;
    char name[256] = "";
    CHECK(cs_check_satisfied(&cs, &bad, name, sizeof name), "satisfied (first failure %llu %s)",
          (unsigned long long)bad, name);
    CHECK(cs_take_witness(&cs, &in, &ni, &aux, &na) == CUZK_OK, "witness");
    cs_free(&cs);
    if (!in || !pce.rows)
        return check_summary("fast_paths");
    uint64_t rows = pce.rows, nv = ni + na, words = nv / 64 + 1;
    fr_t *w = malloc(nv * sizeof *w), *want[3], *got[3];
    memcpy(w, in, ni * sizeof *w);
    memcpy(w + ni, aux, na * sizeof *w);
    for (int k = 0; k < 3; k++) {
        want[k] = calloc(rows, sizeof(fr_t));
        got[k] = calloc(rows, sizeof(fr_t));
    }
    CHECK(cs_pce_eval(&pce, w, nv, want[0], want[1], want[2], 1, &err) == CUZK_OK, "products: %s", err.msg);
    /* some A-density is decided by the MultiEq row alone: the cancelling variables must be
     * left out, the others kept (the recorded densities are the general path's) */
    unsigned lone_dense = 0, lone_bits = 0;
    for (int i = 0; i < 32; i++) {
        if (((g_lone.konst >> i) & 1) || g_lone.var[i] < POOL) /* a constant or a pool bit (folded xor) */
            continue;
        uint64_t col = ni + g_lone.var[i];
        lone_bits++;
        lone_dense += (pce.a_density[col / 64] >> (col % 64)) & 1;
    }
    CHECK(lone_bits > 8 && lone_dense == 0, "%u of %u cancelled MultiEq bits A-dense", lone_dense, lone_bits);

    for (int hinted = 0; hinted < 2; hinted++) {
        cs_prove_hint h = {rows, ni, na, NULL};
        cs_assignment as;
        cuzk_status st = cs_init_prove(&cs, hinted ? &h : NULL, CS_COMPACT_AUX | CS_VERIFY_ROWS);
        if (!st)
            st = run(&cs, &err);
        if (!st && (st = cs_take_assignment(&cs, rows, &as)))
            err = cs.err;
        cs_free(&cs);
        CHECK(st == CUZK_OK, "prove (hint %d): %s", hinted, err.msg);
        if (st)
            continue;
        const fr_t *v[3] = {as.a, as.b, as.c};
        for (int k = 0; k < 3; k++) {
            uint64_t r = 0;
            while (r < rows && fr_eq(&v[k][r], &want[k][r]))
                r++;
            CHECK(r == rows, "prove (hint %d): %c differs from the recorded rows' products at row %llu", hinted,
                  "abc"[k], (unsigned long long)r);
        }
        CHECK(as.a_count == pce.a_count && as.b_count == pce.b_count &&
                  !memcmp(as.a_density, pce.a_density, words * 8) && !memcmp(as.b_density, pce.b_density, words * 8),
              "prove (hint %d): densities (a %llu / %llu, b %llu / %llu)", hinted, (unsigned long long)as.a_count,
              (unsigned long long)pce.a_count, (unsigned long long)as.b_count, (unsigned long long)pce.b_count);
        fr_t *x = malloc(na * sizeof *x);
        cs_witness_expand(&as.aux, x);
        CHECK(!memcmp(x, aux, na * sizeof *x) && !memcmp(as.inputs, in, ni * sizeof *in), "prove (hint %d): witness",
              hinted);
        free(x);
        if (hinted) { /* the compact products on the proving witness */
            CHECK(cs_pce_eval_compact(&pce, as.inputs, ni, &as.aux, got[0], got[1], got[2], 1, &err) == CUZK_OK,
                  "compact products: %s", err.msg);
            for (int k = 0; k < 3; k++)
                CHECK(!memcmp(got[k], want[k], rows * sizeof(fr_t)), "compact products: %c", "abc"[k]);
        }
        cs_assignment_free(&as);
    }
    /* witness only */
    cs_prove_hint h = {rows, ni, na, NULL};
    fr_t *win = NULL;
    uint64_t wni = 0;
    cs_witness wa = {0};
    CHECK(cs_init_witness(&cs, &h, CS_COMPACT_AUX) == CUZK_OK && run(&cs, &err) == CUZK_OK &&
              cs_take_witness_compact(&cs, &win, &wni, &wa) == CUZK_OK,
          "witness only: %s", err.msg);
    cs_free(&cs);
    if (win) {
        fr_t *x = malloc(na * sizeof *x);
        cs_witness_expand(&wa, x);
        CHECK(wa.n == na && !memcmp(x, aux, na * sizeof *x) && !memcmp(win, in, ni * sizeof *in),
              "witness only: values");
        free(x);
    }
    free(win);
    cs_witness_free(&wa);
    for (int k = 0; k < 3; k++) {
        free(want[k]);
        free(got[k]);
    }
    free(w);
    free(in);
    free(aux);
    cs_pce_free(&pce);
    return check_summary("fast_paths");
}
