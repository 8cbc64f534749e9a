/* Field arithmetic against @noble/curves vectors (tests/oracle/gen-field.mjs).
 *
 * Reads vector lines from stdin (format: tests/oracle/README.md), runs the named operation
 * of src/field/{fp,fr,tower}.h and compares with the oracle's value. Binary operations are
 * also run with the output aliasing each input, since the headers allow any aliasing.
 * Square roots are checked as r^2 == a (either root is valid), non-squares as "false and
 * r untouched". At the end every known operation must have had at least one vector, so a
 * generator that stops emitting an operation fails the test instead of silently passing.
 *
 * The build flavour compiled in must be CUZK_EXPECT_BACKEND (set by
 * tests/field/CMakeLists.txt), which proves that the portable build really runs the portable
 * code; every vector runs on each run-time back end (field/cpu.h) this CPU supports.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field/cpu.h"
#include "field/fp.h"
#include "field/fr.h"
#include "field/tower.h"
#include "field/wide.h"

#ifndef CUZK_EXPECT_BACKEND
#error "CUZK_EXPECT_BACKEND must name the field back end under test"
#endif

#define MAX_TOKENS 64

static long line_no;
static const char *cur_op;

#define FAILV(...) CHECK(false, __VA_ARGS__)

/* ---------------------------------------------------------------- token parsing */

/* Decode a hex token of exactly n bytes; reports and returns false otherwise. */
static bool hex_exact(uint8_t *out, size_t n, const char *tok)
{
    long got = hex_decode(out, n, tok);
    if (got != (long)n) {
        FAILV("line %ld %s: token '%.40s...' is not %zu bytes of hex", line_no, cur_op, tok, n);
        return false;
    }
    return true;
}

/* Big-endian bytes -> little-endian 64-bit limbs (nlimbs = ceil(n / 8)). */
static size_t be_to_limbs(uint64_t *limbs, const uint8_t *be, size_t n)
{
    size_t nl = (n + 7) / 8;
    memset(limbs, 0, nl * sizeof *limbs);
    for (size_t i = 0; i < n; i++)
        limbs[i / 8] |= (uint64_t)be[n - 1 - i] << (8 * (i % 8));
    return nl;
}

static bool parse_u64(uint64_t *v, const char *tok)
{
    uint8_t b[8];
    if (!hex_exact(b, 8, tok))
        return false;
    uint64_t l;
    be_to_limbs(&l, b, 8);
    *v = l;
    return true;
}

/* Exponent token: big-endian hex of any length up to 128 bytes. */
static bool parse_exp(uint64_t *limbs, size_t *nlimbs, const char *tok)
{
    uint8_t b[128];
    long n = hex_decode(b, sizeof b, tok);
    if (n <= 0) {
        FAILV("line %ld %s: bad exponent token", line_no, cur_op);
        return false;
    }
    *nlimbs = be_to_limbs(limbs, b, (size_t)n);
    return true;
}

static bool parse_small(int *v, const char *tok)
{
    char *end;
    long x = strtol(tok, &end, 10);
    if (*end || end == tok) {
        FAILV("line %ld %s: bad integer token '%s'", line_no, cur_op, tok);
        return false;
    }
    *v = (int)x;
    return true;
}

/* ---------------------------------------------------------------- Fp / Fr as one interface */

typedef union { fp_t fp; fr_t fr; } elem;

typedef struct {
    const char *name;
    size_t nbytes, nlimbs;
    const uint64_t *modulus;
    void (*add)(elem *, const elem *, const elem *);
    void (*sub)(elem *, const elem *, const elem *);
    void (*mul)(elem *, const elem *, const elem *);
    void (*neg)(elem *, const elem *);
    void (*dbl)(elem *, const elem *);
    void (*sqr)(elem *, const elem *);
    void (*inv)(elem *, const elem *);
    void (*pow)(elem *, const elem *, const uint64_t *, size_t);
    bool (*sqrt)(elem *, const elem *);
    int (*legendre)(const elem *);
    bool (*eq)(const elem *, const elem *);
    bool (*is_zero)(const elem *);
    bool (*is_one)(const elem *);
    void (*from_u64)(elem *, uint64_t);
    cuzk_status (*from_be)(elem *, const uint8_t *);
    cuzk_status (*from_le)(elem *, const uint8_t *);
    void (*to_be)(uint8_t *, const elem *);
    void (*to_le)(uint8_t *, const elem *);
    cuzk_status (*from_limbs)(elem *, const uint64_t *);
    void (*to_limbs)(uint64_t *, const elem *);
} prime_field;

/* Typed adapters from the union to each field's own functions. */
#define FIELD_ADAPTERS(P, M)                                                                   \
    static void P##_a_add(elem *r, const elem *a, const elem *b) { P##_add(&r->M, &a->M, &b->M); } \
    static void P##_a_sub(elem *r, const elem *a, const elem *b) { P##_sub(&r->M, &a->M, &b->M); } \
    static void P##_a_mul(elem *r, const elem *a, const elem *b) { P##_mul(&r->M, &a->M, &b->M); } \
    static void P##_a_neg(elem *r, const elem *a) { P##_neg(&r->M, &a->M); }                      \
    static void P##_a_dbl(elem *r, const elem *a) { P##_dbl(&r->M, &a->M); }                      \
    static void P##_a_sqr(elem *r, const elem *a) { P##_sqr(&r->M, &a->M); }                      \
    static void P##_a_inv(elem *r, const elem *a) { P##_inv(&r->M, &a->M); }                      \
    static void P##_a_pow(elem *r, const elem *a, const uint64_t *e, size_t n) { P##_pow(&r->M, &a->M, e, n); } \
    static bool P##_a_sqrt(elem *r, const elem *a) { return P##_sqrt(&r->M, &a->M); }             \
    static int P##_a_legendre(const elem *a) { return P##_legendre(&a->M); }                      \
    static bool P##_a_eq(const elem *a, const elem *b) { return P##_eq(&a->M, &b->M); }           \
    static bool P##_a_is_zero(const elem *a) { return P##_is_zero(&a->M); }                       \
    static bool P##_a_is_one(const elem *a) { return P##_is_one(&a->M); }                         \
    static void P##_a_from_u64(elem *r, uint64_t v) { P##_from_u64(&r->M, v); }                   \
    static cuzk_status P##_a_from_be(elem *r, const uint8_t *b) { return P##_from_bytes_be(&r->M, b); } \
    static cuzk_status P##_a_from_le(elem *r, const uint8_t *b) { return P##_from_bytes_le(&r->M, b); } \
    static void P##_a_to_be(uint8_t *b, const elem *a) { P##_to_bytes_be(b, &a->M); }             \
    static void P##_a_to_le(uint8_t *b, const elem *a) { P##_to_bytes_le(b, &a->M); }             \
    static cuzk_status P##_a_from_limbs(elem *r, const uint64_t *l) { return P##_from_limbs(&r->M, l); } \
    static void P##_a_to_limbs(uint64_t *l, const elem *a) { P##_to_limbs(l, &a->M); }

#define FIELD_TABLE(P, NAME, NB, NL, MOD)                                                      \
    { NAME, NB, NL, MOD, P##_a_add, P##_a_sub, P##_a_mul, P##_a_neg, P##_a_dbl, P##_a_sqr,     \
      P##_a_inv, P##_a_pow, P##_a_sqrt, P##_a_legendre, P##_a_eq, P##_a_is_zero, P##_a_is_one, \
      P##_a_from_u64, P##_a_from_be, P##_a_from_le, P##_a_to_be, P##_a_to_le,                  \
      P##_a_from_limbs, P##_a_to_limbs }

FIELD_ADAPTERS(fp, fp)
FIELD_ADAPTERS(fr, fr)

static const prime_field FP_FIELD = FIELD_TABLE(fp, "fp", FP_BYTES, FP_LIMBS, FP_MODULUS);
static const prime_field FR_FIELD = FIELD_TABLE(fr, "fr", FR_BYTES, FR_LIMBS, FR_MODULUS);

/* Parse a canonical value token into a; reports and returns false if it does not load. */
static bool load(const prime_field *F, elem *a, const char *tok)
{
    uint8_t b[FP_BYTES];
    if (!hex_exact(b, F->nbytes, tok))
        return false;
    cuzk_status s = F->from_be(a, b);
    if (s != CUZK_OK) {
        FAILV("line %ld %s: canonical input %s rejected (%s)", line_no, cur_op, tok, cuzk_status_name(s));
        return false;
    }
    return true;
}

/* Compare a result with the expected token (hex of its big-endian encoding). */
static void expect(const prime_field *F, const elem *got, const char *want, const char *what)
{
    uint8_t b[FP_BYTES];
    char hex[2 * FP_BYTES + 1];
    F->to_be(b, got);
    hex_encode(hex, b, F->nbytes);
    CHECK(strcmp(hex, want) == 0, "line %ld %s%s:\n   got  %s\n   want %s", line_no, cur_op, what, hex, want);
}

/* op a b r, checked out of place, with r aliasing a and with r aliasing b. */
static void pf_binary(const prime_field *F, void (*op)(elem *, const elem *, const elem *), char **t)
{
    elem a, b, r;
    if (!load(F, &a, t[1]) || !load(F, &b, t[2]))
        return;
    op(&r, &a, &b);
    expect(F, &r, t[3], "");
    elem x = a;
    op(&x, &x, &b);
    expect(F, &x, t[3], " (r aliases a)");
    x = b;
    op(&x, &a, &x);
    expect(F, &x, t[3], " (r aliases b)");
}

/* op a r, out of place and in place. */
static void pf_unary(const prime_field *F, void (*op)(elem *, const elem *), char **t)
{
    elem a, r;
    if (!load(F, &a, t[1]))
        return;
    op(&r, &a);
    expect(F, &r, t[2], "");
    op(&a, &a);
    expect(F, &a, t[2], " (in place)");
}

static void pf_pow(const prime_field *F, char **t)
{
    elem a, r;
    uint64_t e[16];
    size_t ne;
    if (!load(F, &a, t[1]) || !parse_exp(e, &ne, t[2]))
        return;
    F->pow(&r, &a, e, ne);
    expect(F, &r, t[3], "");
    F->pow(&a, &a, e, ne);
    expect(F, &a, t[3], " (in place)");
}

static void pf_sqrt(const prime_field *F, char **t)
{
    elem a, r, sq;
    int want;
    if (!load(F, &a, t[1]) || !parse_small(&want, t[2]))
        return;
    F->from_u64(&r, 12345); /* sentinel: must survive a failed sqrt */
    elem sentinel = r;
    bool ok = F->sqrt(&r, &a);
    CHECK(ok == (want == 1), "line %ld %s %s: returned %d, want %d", line_no, cur_op, t[1], ok, want);
    if (ok) {
        F->sqr(&sq, &r);
        CHECK(F->eq(&sq, &a), "line %ld %s %s: root does not square back", line_no, cur_op, t[1]);
    } else {
        CHECK(F->eq(&r, &sentinel), "line %ld %s: output changed for a non-square", line_no, cur_op);
    }
}

static void pf_legendre(const prime_field *F, char **t)
{
    elem a;
    int want;
    if (!load(F, &a, t[1]) || !parse_small(&want, t[2]))
        return;
    int got = F->legendre(&a);
    CHECK(got == want, "line %ld %s %s: got %d want %d", line_no, cur_op, t[1], got, want);
}

/* value-be value-le: both decoders, both encoders, limbs both ways, zero/one predicates. */
static void pf_bytes(const prime_field *F, char **t)
{
    uint8_t be[FP_BYTES], le[FP_BYTES], out[FP_BYTES];
    uint64_t limbs[FP_LIMBS], got_limbs[FP_LIMBS];
    elem x, y, z;
    if (!hex_exact(be, F->nbytes, t[1]) || !hex_exact(le, F->nbytes, t[2]))
        return;
    CHECK(F->from_be(&x, be) == CUZK_OK, "line %ld %s: from_bytes_be rejected %s", line_no, cur_op, t[1]);
    CHECK(F->from_le(&y, le) == CUZK_OK, "line %ld %s: from_bytes_le rejected %s", line_no, cur_op, t[2]);
    CHECK(F->eq(&x, &y), "line %ld %s %s: be and le decodings differ", line_no, cur_op, t[1]);
    F->to_le(out, &x);
    CHECK(memcmp(out, le, F->nbytes) == 0, "line %ld %s %s: to_bytes_le differs", line_no, cur_op, t[1]);
    F->to_be(out, &y);
    CHECK(memcmp(out, be, F->nbytes) == 0, "line %ld %s %s: to_bytes_be differs", line_no, cur_op, t[1]);
    be_to_limbs(limbs, be, F->nbytes);
    F->to_limbs(got_limbs, &x);
    CHECK(memcmp(limbs, got_limbs, F->nlimbs * 8) == 0, "line %ld %s %s: to_limbs differs", line_no, cur_op, t[1]);
    CHECK(F->from_limbs(&z, limbs) == CUZK_OK && F->eq(&z, &x), "line %ld %s %s: from_limbs", line_no, cur_op, t[1]);

    bool zero = true, one = be[F->nbytes - 1] == 1;
    for (size_t i = 0; i < F->nbytes; i++) {
        zero &= be[i] == 0;
        if (i + 1 < F->nbytes)
            one &= be[i] == 0;
    }
    CHECK(F->is_zero(&x) == zero, "line %ld %s %s: is_zero", line_no, cur_op, t[1]);
    CHECK(F->is_one(&x) == one, "line %ld %s %s: is_one", line_no, cur_op, t[1]);
}

/* x (>= modulus): every decoder rejects it with NONCANONICAL and leaves r untouched. */
static void pf_noncanon(const prime_field *F, char **t)
{
    uint8_t be[FP_BYTES], le[FP_BYTES];
    uint64_t limbs[FP_LIMBS];
    if (!hex_exact(be, F->nbytes, t[1]))
        return;
    for (size_t i = 0; i < F->nbytes; i++)
        le[i] = be[F->nbytes - 1 - i];
    be_to_limbs(limbs, be, F->nbytes);
    elem sentinel, r;
    F->from_u64(&sentinel, 777);

    r = sentinel;
    cuzk_status s = F->from_be(&r, be);
    CHECK(s == CUZK_E_FIELD_NONCANONICAL && F->eq(&r, &sentinel),
          "line %ld %s %s: from_bytes_be gave %s", line_no, cur_op, t[1], cuzk_status_name(s));
    r = sentinel;
    s = F->from_le(&r, le);
    CHECK(s == CUZK_E_FIELD_NONCANONICAL && F->eq(&r, &sentinel),
          "line %ld %s %s: from_bytes_le gave %s", line_no, cur_op, t[1], cuzk_status_name(s));
    r = sentinel;
    s = F->from_limbs(&r, limbs);
    CHECK(s == CUZK_E_FIELD_NONCANONICAL && F->eq(&r, &sentinel),
          "line %ld %s %s: from_limbs gave %s", line_no, cur_op, t[1], cuzk_status_name(s));
}

static void pf_from_u64(const prime_field *F, char **t)
{
    uint64_t v;
    elem r;
    if (!parse_u64(&v, t[1]))
        return;
    F->from_u64(&r, v);
    expect(F, &r, t[2], "");
}

#define PF_HANDLERS(P, F)                                                          \
    static void P##_t_add(char **t) { pf_binary(&F, F.add, t); }                   \
    static void P##_t_sub(char **t) { pf_binary(&F, F.sub, t); }                   \
    static void P##_t_mul(char **t) { pf_binary(&F, F.mul, t); }                   \
    static void P##_t_neg(char **t) { pf_unary(&F, F.neg, t); }                    \
    static void P##_t_dbl(char **t) { pf_unary(&F, F.dbl, t); }                    \
    static void P##_t_sqr(char **t) { pf_unary(&F, F.sqr, t); }                    \
    static void P##_t_inv(char **t) { pf_unary(&F, F.inv, t); }                    \
    static void P##_t_pow(char **t) { pf_pow(&F, t); }                             \
    static void P##_t_sqrt(char **t) { pf_sqrt(&F, t); }                           \
    static void P##_t_legendre(char **t) { pf_legendre(&F, t); }                   \
    static void P##_t_bytes(char **t) { pf_bytes(&F, t); }                         \
    static void P##_t_noncanon(char **t) { pf_noncanon(&F, t); }                   \
    static void P##_t_from_u64(char **t) { pf_from_u64(&F, t); }

PF_HANDLERS(fp, FP_FIELD)
PF_HANDLERS(fr, FR_FIELD)

/* ---------------------------------------------------------------- Fp-only, Fr-only */

static void fp_half_adapter(elem *r, const elem *a) { fp_half(&r->fp, &a->fp); }
static void t_fp_half(char **t) { pf_unary(&FP_FIELD, fp_half_adapter, t); }

static void t_fp_lexlargest(char **t)
{
    elem a;
    int want;
    if (!load(&FP_FIELD, &a, t[1]) || !parse_small(&want, t[2]))
        return;
    CHECK(fp_is_lexicographically_largest(&a.fp) == (want == 1), "line %ld %s %s", line_no, cur_op, t[1]);
}

static void t_fr_reduce(char **t)
{
    uint8_t be[FR_BYTES];
    uint64_t limbs[FR_LIMBS];
    elem r;
    if (!hex_exact(be, FR_BYTES, t[1]))
        return;
    be_to_limbs(limbs, be, FR_BYTES);
    fr_from_limbs_reduce(&r.fr, limbs);
    expect(&FR_FIELD, &r, t[2], "");
}

static void t_fr_generator(char **t)
{
    elem g;
    fr_generator(&g.fr);
    expect(&FR_FIELD, &g, t[1], "");
}

static void t_fr_root_of_unity(char **t)
{
    int k;
    elem w;
    if (!parse_small(&k, t[1]))
        return;
    cuzk_status s = fr_root_of_unity(&w.fr, (unsigned)k);
    CHECK(s == CUZK_OK, "line %ld %s k=%d: %s", line_no, cur_op, k, cuzk_status_name(s));
    if (s == CUZK_OK)
        expect(&FR_FIELD, &w, t[2], "");
}

static void t_fr_pow_u64(char **t)
{
    elem a, r;
    uint64_t e;
    if (!load(&FR_FIELD, &a, t[1]) || !parse_u64(&e, t[2]))
        return;
    fr_pow_u64(&r.fr, &a.fr, e);
    expect(&FR_FIELD, &r, t[3], "");
}

/* a0 r0 a1 r1 ...: out of place, then in place. */
static void t_fr_batch_inv(char **t, int n)
{
    fr_t in[MAX_TOKENS / 2] = { 0 }, out[MAX_TOKENS / 2], scratch[MAX_TOKENS / 2];
    size_t m = (size_t)(n - 1) / 2;
    for (size_t i = 0; i < m; i++) {
        elem a;
        if (!load(&FR_FIELD, &a, t[1 + 2 * i]))
            return;
        in[i] = a.fr;
    }
    fr_batch_inv(out, in, scratch, m);
    fr_batch_inv(in, in, scratch, m);
    for (size_t i = 0; i < m; i++) {
        elem o = { .fr = out[i] }, p = { .fr = in[i] };
        expect(&FR_FIELD, &o, t[2 + 2 * i], " (out of place)");
        expect(&FR_FIELD, &p, t[2 + 2 * i], " (in place)");
    }
}

/* ---------------------------------------------------------------- Fp2, Fp6, Fp12 */

/* Extension elements are tokens of concatenated big-endian Fp coefficients. */
static bool load_coeffs(fp_t *c, size_t n, const char *tok)
{
    uint8_t b[12 * FP_BYTES];
    if (!hex_exact(b, n * FP_BYTES, tok))
        return false;
    for (size_t i = 0; i < n; i++) {
        cuzk_status s = fp_from_bytes_be(&c[i], b + i * FP_BYTES);
        if (s != CUZK_OK) {
            FAILV("line %ld %s: coefficient %zu of input rejected (%s)", line_no, cur_op, i, cuzk_status_name(s));
            return false;
        }
    }
    return true;
}

static void expect_coeffs(const fp_t *c, size_t n, const char *want, const char *what)
{
    char hex[2 * 12 * FP_BYTES + 1];
    uint8_t b[FP_BYTES];
    for (size_t i = 0; i < n; i++) {
        fp_to_bytes_be(b, &c[i]);
        hex_encode(hex + 2 * FP_BYTES * i, b, FP_BYTES);
    }
    CHECK(strcmp(hex, want) == 0, "line %ld %s%s:\n   got  %s\n   want %s", line_no, cur_op, what, hex, want);
}

/* The tower structs are plain nests of fp_t, so their coefficients are an fp_t array in
 * tower order; these pack/unpack explicitly rather than relying on layout. */
static void fp2_pack(fp_t *c, const fp2_t *a) { c[0] = a->c0; c[1] = a->c1; }
static void fp2_unpack(fp2_t *a, const fp_t *c) { a->c0 = c[0]; a->c1 = c[1]; }
static void fp6_pack(fp_t *c, const fp6_t *a) { fp2_pack(c, &a->c0); fp2_pack(c + 2, &a->c1); fp2_pack(c + 4, &a->c2); }
static void fp6_unpack(fp6_t *a, const fp_t *c) { fp2_unpack(&a->c0, c); fp2_unpack(&a->c1, c + 2); fp2_unpack(&a->c2, c + 4); }
static void fp12_pack(fp_t *c, const fp12_t *a) { fp6_pack(c, &a->c0); fp6_pack(c + 6, &a->c1); }
static void fp12_unpack(fp12_t *a, const fp_t *c) { fp6_unpack(&a->c0, c); fp6_unpack(&a->c1, c + 6); }

static bool load2(fp2_t *a, const char *tok) { fp_t c[2]; if (!load_coeffs(c, 2, tok)) return false; fp2_unpack(a, c); return true; }
static bool load6(fp6_t *a, const char *tok) { fp_t c[6]; if (!load_coeffs(c, 6, tok)) return false; fp6_unpack(a, c); return true; }
static bool load12(fp12_t *a, const char *tok) { fp_t c[12]; if (!load_coeffs(c, 12, tok)) return false; fp12_unpack(a, c); return true; }
static void expect2(const fp2_t *a, const char *want, const char *what) { fp_t c[2]; fp2_pack(c, a); expect_coeffs(c, 2, want, what); }
static void expect6(const fp6_t *a, const char *want, const char *what) { fp_t c[6]; fp6_pack(c, a); expect_coeffs(c, 6, want, what); }
static void expect12(const fp12_t *a, const char *want, const char *what) { fp_t c[12]; fp12_pack(c, a); expect_coeffs(c, 12, want, what); }

/* Binary and unary checks with aliasing, one set per tower level. */
#define TOWER_CHECKS(T, N)                                                                       \
    static void T##_bin(void (*op)(T##_t *, const T##_t *, const T##_t *), char **t)            \
    {                                                                                            \
        T##_t a, b, r, x;                                                                        \
        if (!load##N(&a, t[1]) || !load##N(&b, t[2]))                                            \
            return;                                                                              \
        op(&r, &a, &b);                                                                          \
        expect##N(&r, t[3], "");                                                                 \
        x = a;                                                                                   \
        op(&x, &x, &b);                                                                          \
        expect##N(&x, t[3], " (r aliases a)");                                                   \
        x = b;                                                                                   \
        op(&x, &a, &x);                                                                          \
        expect##N(&x, t[3], " (r aliases b)");                                                   \
    }                                                                                            \
    static void T##_un(void (*op)(T##_t *, const T##_t *), char **t)                            \
    {                                                                                            \
        T##_t a, r;                                                                              \
        if (!load##N(&a, t[1]))                                                                  \
            return;                                                                              \
        op(&r, &a);                                                                              \
        expect##N(&r, t[2], "");                                                                 \
        op(&a, &a);                                                                              \
        expect##N(&a, t[2], " (in place)");                                                      \
    }                                                                                            \
    static void T##_frob(void (*op)(T##_t *, const T##_t *, unsigned), char **t)                \
    {                                                                                            \
        T##_t a, r;                                                                              \
        int k;                                                                                   \
        if (!parse_small(&k, t[1]) || !load##N(&a, t[2]))                                        \
            return;                                                                              \
        op(&r, &a, (unsigned)k);                                                                 \
        expect##N(&r, t[3], "");                                                                 \
        op(&a, &a, (unsigned)k);                                                                 \
        expect##N(&a, t[3], " (in place)");                                                      \
    }

/* Exponentiation check (Fp2 and Fp12 have pow). */
#define TOWER_POW(T, N)                                                                          \
    static void T##_powt(void (*op)(T##_t *, const T##_t *, const uint64_t *, size_t), char **t) \
    {                                                                                            \
        T##_t a, r;                                                                              \
        uint64_t e[16];                                                                           \
        size_t ne;                                                                               \
        if (!load##N(&a, t[1]) || !parse_exp(e, &ne, t[2]))                                      \
            return;                                                                              \
        op(&r, &a, e, ne);                                                                       \
        expect##N(&r, t[3], "");                                                                 \
    }

TOWER_CHECKS(fp2, 2)
TOWER_CHECKS(fp6, 6)
TOWER_CHECKS(fp12, 12)
TOWER_POW(fp2, 2)
TOWER_POW(fp12, 12)

static void fp2_frob_adapter(fp2_t *r, const fp2_t *a, unsigned k) { (void)k; fp2_frobenius(r, a); }

static void t_fp2_frobenius(char **t)
{
    /* fp2_frobenius has no k; the line is `fp2_frobenius a r`. */
    char *shifted[4] = { t[0], "1", t[1], t[2] };
    fp2_frob(fp2_frob_adapter, shifted);
}

static void t_fp2_mul_fp(char **t)
{
    fp2_t a, r;
    elem b;
    if (!load2(&a, t[1]) || !load(&FP_FIELD, &b, t[2]))
        return;
    fp2_mul_fp(&r, &a, &b.fp);
    expect2(&r, t[3], "");
    fp2_mul_fp(&a, &a, &b.fp);
    expect2(&a, t[3], " (in place)");
}

static void t_fp2_inv(char **t)
{
    fp2_t a;
    fp2_un(fp2_inv, t);
    if (load2(&a, t[1]))
        CHECK(fp2_is_zero(&a) == (strspn(t[1], "0") == strlen(t[1])), "line %ld fp2_is_zero", line_no);
}

static void t_fp2_sqrt(char **t)
{
    fp2_t a, r, sq;
    int want;
    if (!load2(&a, t[1]) || !parse_small(&want, t[2]))
        return;
    r = FP2_ONE;
    bool ok = fp2_sqrt(&r, &a);
    CHECK(ok == (want == 1), "line %ld %s: returned %d, want %d", line_no, cur_op, ok, want);
    if (ok) {
        fp2_sqr(&sq, &r);
        CHECK(fp2_eq(&sq, &a), "line %ld %s: root does not square back", line_no, cur_op);
    } else {
        CHECK(fp2_eq(&r, &FP2_ONE), "line %ld %s: output changed for a non-square", line_no, cur_op);
    }
}

static void t_fp2_legendre(char **t)
{
    fp2_t a;
    int want;
    if (!load2(&a, t[1]) || !parse_small(&want, t[2]))
        return;
    int got = fp2_legendre(&a);
    CHECK(got == want, "line %ld %s: got %d want %d", line_no, cur_op, got, want);
}

static void t_fp2_lexlargest(char **t)
{
    fp2_t a;
    int want;
    if (!load2(&a, t[1]) || !parse_small(&want, t[2]))
        return;
    CHECK(fp2_is_lexicographically_largest(&a) == (want == 1), "line %ld %s", line_no, cur_op);
}

static void t_fp6_mul_by_01(char **t)
{
    fp6_t a, r;
    fp2_t b0, b1;
    if (!load6(&a, t[1]) || !load2(&b0, t[2]) || !load2(&b1, t[3]))
        return;
    fp6_mul_by_01(&r, &a, &b0, &b1);
    expect6(&r, t[4], "");
    fp6_mul_by_01(&a, &a, &b0, &b1);
    expect6(&a, t[4], " (in place)");
}

static void t_fp6_mul_by_1(char **t)
{
    fp6_t a, r;
    fp2_t b1;
    if (!load6(&a, t[1]) || !load2(&b1, t[2]))
        return;
    fp6_mul_by_1(&r, &a, &b1);
    expect6(&r, t[3], "");
    fp6_mul_by_1(&a, &a, &b1);
    expect6(&a, t[3], " (in place)");
}

static void t_fp12_inv(char **t)
{
    fp12_t a, r, one;
    fp12_un(fp12_inv, t);
    if (!load12(&a, t[1]))
        return;
    fp12_inv(&r, &a);
    fp12_mul(&one, &a, &r);
    CHECK(fp12_is_one(&one), "line %ld fp12_inv: a * a^-1 is not one", line_no);
}

static void t_fp12_mul_by_014(char **t)
{
    fp12_t a, r;
    fp2_t o0, o1, o4;
    if (!load12(&a, t[1]) || !load2(&o0, t[2]) || !load2(&o1, t[3]) || !load2(&o4, t[4]))
        return;
    fp12_mul_by_014(&r, &a, &o0, &o1, &o4);
    expect12(&r, t[5], "");
    fp12_mul_by_014(&a, &a, &o0, &o1, &o4);
    expect12(&a, t[5], " (in place)");
}

static void t_fp12_mul_by_014_unit(char **t)
{
    fp12_t a, r;
    fp2_t o0, o1;
    if (!load12(&a, t[1]) || !load2(&o0, t[2]) || !load2(&o1, t[3]))
        return;
    fp12_mul_by_014_unit(&r, &a, &o0, &o1);
    expect12(&r, t[4], "");
    fp12_mul_by_014_unit(&a, &a, &o0, &o1);
    expect12(&a, t[4], " (in place)");
}

static void t_fp12_cyclotomic_pow(char **t)
{
    fp12_t a, r;
    uint8_t b[8];
    if (!load12(&a, t[1]) || !hex_exact(b, 8, t[2]))
        return;
    uint64_t e = 0;
    for (int i = 0; i < 8; i++)
        e = e << 8 | b[i];
    fp12_cyclotomic_pow_u64(&r, &a, e);
    expect12(&r, t[3], "");
    fp12_cyclotomic_pow_u64(&a, &a, e);
    expect12(&a, t[3], " (in place)");
}

/* ---------------------------------------------------------------- double width (wide.h) */

/* A wide token: 192 hex digits, the big-endian 768-bit integer. */
static bool loadw(fpw_t *w, const char *tok)
{
    uint8_t b[2 * FP_BYTES];
    if (!hex_exact(b, sizeof b, tok))
        return false;
    for (size_t i = 0; i < FPW_LIMBS; i++) {
        uint64_t v = 0;
        for (size_t j = 0; j < 8; j++)
            v = v << 8 | b[8 * (FPW_LIMBS - 1 - i) + j];
        w->l[i] = v;
    }
    return true;
}

static void expectw(const fpw_t *w, const char *want, const char *what)
{
    char hex[4 * FP_BYTES + 1];
    uint8_t b[2 * FP_BYTES];
    for (size_t i = 0; i < FPW_LIMBS; i++)
        for (size_t j = 0; j < 8; j++)
            b[8 * (FPW_LIMBS - 1 - i) + j] = (uint8_t)(w->l[i] >> (56 - 8 * j));
    hex_encode(hex, b, sizeof b);
    CHECK(strcmp(hex, want) == 0, "line %ld %s%s:\n   got  %s\n   want %s", line_no, cur_op, what, hex, want);
}

static void t_fp_mulw(char **t)
{
    fp_t a[2];
    fpw_t r;
    if (!load_coeffs(&a[0], 1, t[1]) || !load_coeffs(&a[1], 1, t[2]))
        return;
    fp_mulw(&r, &a[0], &a[1]);
    expectw(&r, t[3], "");
}

static void t_fp_redc(char **t)
{
    fpw_t w;
    fp_t r;
    if (!loadw(&w, t[1]))
        return;
    fp_redc(&r, &w);
    expect_coeffs(&r, 1, t[2], "");
}

static void fpw_bin(void (*op)(fpw_t *, const fpw_t *, const fpw_t *), char **t)
{
    fpw_t a, b, r;
    if (!loadw(&a, t[1]) || !loadw(&b, t[2]))
        return;
    op(&r, &a, &b);
    expectw(&r, t[3], "");
    op(&a, &a, &b);
    expectw(&a, t[3], " (r aliases a)");
}

static void fpw_add_f(fpw_t *r, const fpw_t *a, const fpw_t *b) { fpw_add(r, a, b); }
static void fpw_sub_f(fpw_t *r, const fpw_t *a, const fpw_t *b) { fpw_sub(r, a, b); }
static void t_fpw_add(char **t) { fpw_bin(fpw_add_f, t); }
static void t_fpw_sub(char **t) { fpw_bin(fpw_sub_f, t); }

static void t_fp2_mulw(char **t)
{
    fp2_t a, b;
    fp2w_t r;
    if (!load2(&a, t[1]) || !load2(&b, t[2]))
        return;
    fp2_mulw(&r, &a, &b);
    expectw(&r.c0, t[3], " c0");
    expectw(&r.c1, t[4], " c1");
}

static void t_fp2_sqrw(char **t)
{
    fp2_t a;
    fp2w_t r;
    if (!load2(&a, t[1]))
        return;
    fp2_sqrw(&r, &a);
    expectw(&r.c0, t[2], " c0");
    expectw(&r.c1, t[3], " c1");
}

/* ---------------------------------------------------------------- dispatch */

typedef struct {
    const char *op;
    int ntok;           /* tokens including the op name; 0 = variable (handler checks) */
    void (*fn)(char **t);
    void (*fnv)(char **t, int n);
    long seen;
} handler;

#define H(name, n, f) { name, n, f, NULL, 0 }

static void t_fp2_add(char **t) { fp2_bin(fp2_add, t); }
static void t_fp2_sub(char **t) { fp2_bin(fp2_sub, t); }
static void t_fp2_mul(char **t) { fp2_bin(fp2_mul, t); }
static void t_fp2_neg(char **t) { fp2_un(fp2_neg, t); }
static void t_fp2_dbl(char **t) { fp2_un(fp2_dbl, t); }
static void t_fp2_conj(char **t) { fp2_un(fp2_conj, t); }
static void t_fp2_sqr(char **t) { fp2_un(fp2_sqr, t); }
static void t_fp2_mul_by_nonresidue(char **t) { fp2_un(fp2_mul_by_nonresidue, t); }
static void t_fp2_pow(char **t) { fp2_powt(fp2_pow, t); }
static void t_fp6_add(char **t) { fp6_bin(fp6_add, t); }
static void t_fp6_sub(char **t) { fp6_bin(fp6_sub, t); }
static void t_fp6_mul(char **t) { fp6_bin(fp6_mul, t); }
static void t_fp6_neg(char **t) { fp6_un(fp6_neg, t); }
static void t_fp6_sqr(char **t) { fp6_un(fp6_sqr, t); }
static void t_fp6_inv(char **t) { fp6_un(fp6_inv, t); }
static void t_fp6_mul_by_nonresidue(char **t) { fp6_un(fp6_mul_by_nonresidue, t); }
static void t_fp6_frobenius(char **t) { fp6_frob(fp6_frobenius, t); }
static void t_fp12_mul(char **t) { fp12_bin(fp12_mul, t); }
static void t_fp12_sqr(char **t) { fp12_un(fp12_sqr, t); }
static void t_fp12_conj(char **t) { fp12_un(fp12_conj, t); }
static void t_fp12_cyclotomic_sqr(char **t) { fp12_un(fp12_cyclotomic_sqr, t); }
static void t_fp12_frobenius(char **t) { fp12_frob(fp12_frobenius, t); }
static void t_fp12_pow(char **t) { fp12_powt(fp12_pow, t); }

static handler handlers[] = {
    H("fp_add", 4, fp_t_add), H("fp_sub", 4, fp_t_sub), H("fp_mul", 4, fp_t_mul),
    H("fp_neg", 3, fp_t_neg), H("fp_dbl", 3, fp_t_dbl), H("fp_sqr", 3, fp_t_sqr),
    H("fp_inv", 3, fp_t_inv), H("fp_pow", 4, fp_t_pow), H("fp_sqrt", 3, fp_t_sqrt),
    H("fp_legendre", 3, fp_t_legendre), H("fp_bytes", 3, fp_t_bytes),
    H("fp_noncanon", 2, fp_t_noncanon), H("fp_from_u64", 3, fp_t_from_u64),
    H("fp_half", 3, t_fp_half), H("fp_lexlargest", 3, t_fp_lexlargest),

    H("fr_add", 4, fr_t_add), H("fr_sub", 4, fr_t_sub), H("fr_mul", 4, fr_t_mul),
    H("fr_neg", 3, fr_t_neg), H("fr_dbl", 3, fr_t_dbl), H("fr_sqr", 3, fr_t_sqr),
    H("fr_inv", 3, fr_t_inv), H("fr_pow", 4, fr_t_pow), H("fr_sqrt", 3, fr_t_sqrt),
    H("fr_legendre", 3, fr_t_legendre), H("fr_bytes", 3, fr_t_bytes),
    H("fr_noncanon", 2, fr_t_noncanon), H("fr_from_u64", 3, fr_t_from_u64),
    H("fr_reduce", 3, t_fr_reduce), H("fr_generator", 2, t_fr_generator),
    H("fr_root_of_unity", 3, t_fr_root_of_unity), H("fr_pow_u64", 4, t_fr_pow_u64),
    { "fr_batch_inv", 0, NULL, t_fr_batch_inv, 0 },

    H("fp2_add", 4, t_fp2_add), H("fp2_sub", 4, t_fp2_sub), H("fp2_mul", 4, t_fp2_mul),
    H("fp2_mul_fp", 4, t_fp2_mul_fp), H("fp2_neg", 3, t_fp2_neg), H("fp2_dbl", 3, t_fp2_dbl),
    H("fp2_conj", 3, t_fp2_conj), H("fp2_sqr", 3, t_fp2_sqr),
    H("fp2_mul_by_nonresidue", 3, t_fp2_mul_by_nonresidue), H("fp2_inv", 3, t_fp2_inv),
    H("fp2_frobenius", 3, t_fp2_frobenius), H("fp2_legendre", 3, t_fp2_legendre),
    H("fp2_lexlargest", 3, t_fp2_lexlargest), H("fp2_sqrt", 3, t_fp2_sqrt),
    H("fp2_pow", 4, t_fp2_pow),

    H("fp_mulw", 4, t_fp_mulw), H("fp_redc", 3, t_fp_redc), H("fpw_add", 4, t_fpw_add),
    H("fpw_sub", 4, t_fpw_sub), H("fp2_mulw", 5, t_fp2_mulw), H("fp2_sqrw", 4, t_fp2_sqrw),

    H("fp6_add", 4, t_fp6_add), H("fp6_sub", 4, t_fp6_sub), H("fp6_mul", 4, t_fp6_mul),
    H("fp6_neg", 3, t_fp6_neg), H("fp6_sqr", 3, t_fp6_sqr), H("fp6_inv", 3, t_fp6_inv),
    H("fp6_mul_by_nonresidue", 3, t_fp6_mul_by_nonresidue),
    H("fp6_mul_by_01", 5, t_fp6_mul_by_01), H("fp6_mul_by_1", 4, t_fp6_mul_by_1),
    H("fp6_frobenius", 4, t_fp6_frobenius),

    H("fp12_mul", 4, t_fp12_mul), H("fp12_sqr", 3, t_fp12_sqr), H("fp12_inv", 3, t_fp12_inv),
    H("fp12_conj", 3, t_fp12_conj), H("fp12_frobenius", 4, t_fp12_frobenius),
    H("fp12_mul_by_014", 6, t_fp12_mul_by_014), H("fp12_mul_by_014_unit", 5, t_fp12_mul_by_014_unit),
    H("fp12_cyclotomic_sqr", 3, t_fp12_cyclotomic_sqr), H("fp12_pow", 4, t_fp12_pow),
    H("fp12_cyclotomic_pow", 4, t_fp12_cyclotomic_pow),
};

#define NHANDLERS (sizeof handlers / sizeof handlers[0])

/* Checks that need no oracle: the back end under test, and documented argument errors. */
static void static_checks(void)
{
    CHECK(strcmp(fp_backend_name(), CUZK_EXPECT_BACKEND) == 0, "back end is %s, expected %s",
          fp_backend_name(), CUZK_EXPECT_BACKEND);
    fr_t w;
    CHECK(fr_root_of_unity(&w, FR_TWO_ADICITY + 1) == CUZK_E_INVALID_ARG, "fr_root_of_unity(33) accepted");
}

int main(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    char *t[MAX_TOKENS];

    printf("field build: %s\n", fp_backend_name());
    static_checks();
    /* every vector runs on every back end this CPU supports (field/cpu.h) */
    cuzk_cpu_backend cpus[CUZK_CPU_COUNT];
    int ncpus = 0;
    for (int b = 0; b < CUZK_CPU_COUNT; b++)
        if (cuzk_cpu_supported((cuzk_cpu_backend)b))
            cpus[ncpus++] = (cuzk_cpu_backend)b;
    for (int k = 0; k < ncpus; k++)
        printf("CPU back end: %s\n", cuzk_cpu_name(cpus[k]));
    char op_name[96];
    while ((len = getline(&line, &cap, stdin)) >= 0) {
        line_no++;
        int n = split_tokens(line, t, MAX_TOKENS);
        if (n == 0 || t[0][0] == '#')
            continue;
        handler *h = NULL;
        for (size_t i = 0; i < NHANDLERS && !h; i++)
            if (strcmp(handlers[i].op, t[0]) == 0)
                h = &handlers[i];
        cur_op = t[0];
        if (!h) {
            FAILV("line %ld: unknown op '%s'", line_no, t[0]);
            continue;
        }
        if (h->ntok ? n != h->ntok : (n < 3 || n % 2 == 0 || n == MAX_TOKENS)) {
            FAILV("line %ld %s: %d tokens", line_no, t[0], n);
            continue;
        }
        h->seen++;
        for (int k = 0; k < ncpus; k++) {
            CHECK(cuzk_cpu_select(cpus[k], NULL) == CUZK_OK, "cannot select %s", cuzk_cpu_name(cpus[k]));
            snprintf(op_name, sizeof op_name, "%s [%s]", t[0], cuzk_cpu_name(cpus[k]));
            cur_op = op_name;
            if (h->fn)
                h->fn(t);
            else
                h->fnv(t, n);
        }
    }
    free(line);
    for (size_t i = 0; i < NHANDLERS; i++)
        CHECK(handlers[i].seen > 0, "no vectors for %s", handlers[i].op);
    return check_summary("field");
}
