/* snarkjs .zkey reader/writer on snarkjs-made fixtures (tests/iden3/make-fixtures.sh).
 *
 * Oracles: snarkjs's own zkey reader (tests/oracle/gen-zkey.mjs on stdin: header counts,
 * sampled points as canonical affine coordinates, coefficients divided by R^2), the
 * circuit's .r1cs (counts, coefficient values, snarkjs's extra public-input rows), and the
 * original file bytes (read + write must reproduce them exactly).
 * Environment: IDEN3_FIXTURES = fixtures folder.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "iden3_test_util.h"
#include "cs/iden3_bin.h"
#include "cs/r1cs.h"
#include "groth16/zkey.h"

static void fp_hex(char out[97], const fp_t *a)
{
    uint8_t b[FP_BYTES];
    fp_to_bytes_be(b, a);
    hex_encode(out, b, FP_BYTES);
}

static bool g1_matches(const g1_affine_t *p, char **tok, int nt)
{
    if (nt == 1)
        return strcmp(tok[0], "inf") == 0 && g1_affine_is_infinity(p);
    char x[97], y[97];
    fp_hex(x, &p->x);
    fp_hex(y, &p->y);
    return nt == 2 && !g1_affine_is_infinity(p) && !strcmp(x, tok[0]) && !strcmp(y, tok[1]);
}

static bool g2_matches(const g2_affine_t *p, char **tok, int nt)
{
    if (nt == 1)
        return strcmp(tok[0], "inf") == 0 && g2_affine_is_infinity(p);
    const fp_t *c[4] = {&p->x.c0, &p->x.c1, &p->y.c0, &p->y.c1};
    if (nt != 4 || g2_affine_is_infinity(p))
        return false;
    for (int i = 0; i < 4; i++) {
        char h[97];
        fp_hex(h, c[i]);
        if (strcmp(h, tok[i]))
            return false;
    }
    return true;
}

static const g1_affine_t *g1_by_name(const zkey_t *z, const char *name, unsigned long i)
{
    if (!strcmp(name, "alpha1")) return &z->alpha1;
    if (!strcmp(name, "beta1")) return &z->beta1;
    if (!strcmp(name, "delta1")) return &z->delta1;
    if (!strcmp(name, "IC") && i <= z->n_public) return &z->ic[i];
    if (!strcmp(name, "A") && i < z->n_vars) return &z->a[i];
    if (!strcmp(name, "B1") && i < z->n_vars) return &z->b1[i];
    if (!strcmp(name, "C") && i < z->n_vars - z->n_public - 1) return &z->c[i];
    if (!strcmp(name, "H") && i < z->domain_size) return &z->h[i];
    return NULL;
}

static const g2_affine_t *g2_by_name(const zkey_t *z, const char *name, unsigned long i)
{
    if (!strcmp(name, "beta2")) return &z->beta2;
    if (!strcmp(name, "gamma2")) return &z->gamma2;
    if (!strcmp(name, "delta2")) return &z->delta2;
    if (!strcmp(name, "B2") && i < z->n_vars) return &z->b2[i];
    return NULL;
}

/* Write z to a temporary path and compare with the original file's bytes. */
static void check_roundtrip(const zkey_t *z, const char *orig)
{
    size_t n0, n1;
    uint8_t *b0 = slurp(orig, &n0);
    char out[4200];
    snprintf(out, sizeof out, "%s.rewrite", orig);
    cuzk_error err = {0};
    cuzk_status st = zkey_write_file(z, out, &err);
    CHECK(st == CUZK_OK, "write %s: %s", out, err.msg);
    uint8_t *b1 = slurp(out, &n1);
    CHECK(b0 && b1 && n0 == n1 && n1 == zkey_file_size(z) && !memcmp(b0, b1, n0),
          "%s: rewrite is byte-identical (%zu vs %zu bytes)", orig, n0, n1);
    free(b0);
    free(b1);
    remove(out);
}

/* Compare against snarkjs's view (stdin). */
static void test_oracle(void)
{
    char line[2048];
    char *tok[8];
    zkey_t z = {0};
    bool have = false;
    char file[4096] = "";
    unsigned long points = 0, coefs = 0;
    while (fgets(line, sizeof line, stdin)) {
        int nt = split_tokens(line, tok, 8);
        if (nt == 0 || tok[0][0] == '#')
            continue;
        if (!strcmp(tok[0], "file") && nt == 2) {
            snprintf(file, sizeof file, "%s", tok[1]);
            cuzk_error err = {0};
            cuzk_status st = zkey_read_file(&z, file, ZKEY_CHECK_SUBGROUP, &err);
            CHECK(st == CUZK_OK, "read %s: %s", file, err.msg);
            have = st == CUZK_OK;
        } else if (!have) {
            continue;
        } else if (!strcmp(tok[0], "header") && nt == 5) {
            CHECK(z.n_vars == strtoul(tok[1], NULL, 10) && z.n_public == strtoul(tok[2], NULL, 10) &&
                      z.domain_size == strtoul(tok[3], NULL, 10) &&
                      z.n_coefs == strtoul(tok[4], NULL, 10),
                  "%s: header %u %u %u %u vs snarkjs %s %s %s %s", file, z.n_vars, z.n_public,
                  z.domain_size, z.n_coefs, tok[1], tok[2], tok[3], tok[4]);
        } else if (!strcmp(tok[0], "g1") && nt >= 4) {
            const g1_affine_t *p = g1_by_name(&z, tok[1], strtoul(tok[2], NULL, 10));
            CHECK(p && g1_matches(p, tok + 3, nt - 3), "%s: G1 %s[%s] differs from snarkjs", file,
                  tok[1], tok[2]);
            points++;
        } else if (!strcmp(tok[0], "g2") && nt >= 4) {
            const g2_affine_t *p = g2_by_name(&z, tok[1], strtoul(tok[2], NULL, 10));
            CHECK(p && g2_matches(p, tok + 3, nt - 3), "%s: G2 %s[%s] differs from snarkjs", file,
                  tok[1], tok[2]);
            points++;
        } else if (!strcmp(tok[0], "coef") && nt == 6) {
            unsigned long i = strtoul(tok[1], NULL, 10);
            bool ok = i < z.n_coefs;
            if (ok) {
                const zkey_coef *c = &z.coefs[i];
                uint8_t v[FR_BYTES];
                char h[65];
                fr_to_bytes_be(v, &c->value);
                hex_encode(h, v, FR_BYTES);
                ok = c->matrix == strtoul(tok[2], NULL, 10) &&
                     c->constraint == strtoul(tok[3], NULL, 10) &&
                     c->signal == strtoul(tok[4], NULL, 10) && !strcmp(h, tok[5]);
            }
            CHECK(ok, "%s: coefficient %s differs from snarkjs", file, tok[1]);
            coefs++;
        } else if (!strcmp(tok[0], "end")) {
            check_roundtrip(&z, file);
            zkey_free(&z);
            have = false;
        }
    }
    CHECK(points > 100 && coefs > 10, "oracle gave %lu points, %lu coefficients", points, coefs);
}

/* Sections, coefficients and counts against the circuit's .r1cs (snarkjs zkey_new.js). */
static void test_against_r1cs(const char *name)
{
    char f[256];
    cuzk_error err = {0};
    r1cs_t r;
    zkey_t z;
    snprintf(f, sizeof f, "%s.r1cs", name);
    CHECK(r1cs_read_file(&r, fixture_path(f), &err) == CUZK_OK, "%s", err.msg);
    snprintf(f, sizeof f, "%s.zkey", name);
    CHECK(zkey_read_file(&z, fixture_path(f), 0, &err) == CUZK_OK, "%s", err.msg);
    uint32_t np = r1cs_n_public(&r);
    uint64_t rows = (uint64_t)r.n_constraints + np + 1, dom = 1;
    while (dom < rows) /* snarkjs: 2^(floor(log2(nConstraints + nPublic)) + 1) */
        dom <<= 1;
    CHECK(z.n_vars == r.n_wires && z.n_public == np && z.domain_size == dom,
          "%s: nVars %u/%u nPublic %u/%u domain %u/%llu", name, z.n_vars, r.n_wires,
          z.n_public, np, z.domain_size, (unsigned long long)dom);
    uint64_t want = r.a.row_ptr[r.a.rows] + r.b.row_ptr[r.b.rows] + np + 1;
    CHECK(z.n_coefs == want, "%s: %u coefficients, r1cs gives %llu", name, z.n_coefs,
          (unsigned long long)want);
    unsigned long bad = 0;
    for (uint32_t i = 0; i < z.n_coefs; i++) {
        const zkey_coef *c = &z.coefs[i];
        if (c->constraint >= r.n_constraints) { /* public-input row: A[nC + s][s] = 1 */
            bad += !(c->matrix == 0 && c->constraint - r.n_constraints == c->signal &&
                     fr_is_one(&c->value));
            continue;
        }
        const cs_csr *m = c->matrix == 0 ? &r.a : &r.b;
        bool found = false;
        for (uint64_t k = m->row_ptr[c->constraint]; k < m->row_ptr[c->constraint + 1]; k++)
            found |= m->col[k] == c->signal && fr_eq(&m->val[k], &c->value);
        bad += !found;
    }
    CHECK(bad == 0, "%s: %lu coefficients differ from the r1cs", name, bad);
    zkey_free(&z);
    r1cs_free(&r);
}

/* Offset of section `type`'s payload in buf. */
static uint64_t section_at(const uint8_t *buf, size_t len, uint32_t type)
{
    iden3_bin bin;
    uint64_t off = 0;
    if (iden3_bin_parse(&bin, buf, len, "zkey", 1, "zkey", NULL) != CUZK_OK)
        return 0;
    for (uint32_t i = 0; i < bin.n_sections; i++)
        if (bin.sections[i].type == type)
            off = bin.sections[i].offset;
    iden3_bin_free(&bin);
    return off;
}

static void put_g1_lem(uint8_t *out, const g1_affine_t *p)
{
    iden3_limbs_to_bytes(out, p->x.l, FP_LIMBS);
    iden3_limbs_to_bytes(out + 48, p->y.l, FP_LIMBS);
}

static bool all_zero(const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i])
            return false;
    return true;
}

/* Expect `code` and every needle in the message. */
static void expect(const uint8_t *buf, size_t len, unsigned flags, cuzk_status code,
                   const char *what, const char *needle1, const char *needle2)
{
    zkey_t z;
    cuzk_error err = {0};
    cuzk_status st = zkey_read_mem(&z, buf, len, flags, &err);
    CHECK(st == code && (!needle1 || strstr(err.msg, needle1)) &&
              (!needle2 || strstr(err.msg, needle2)),
          "%s: got %s (%s), want %s", what, cuzk_status_name(st), err.msg,
          cuzk_status_name(code));
    printf("%-22s -> %s\n", what, err.msg);
    if (st == CUZK_OK)
        zkey_free(&z);
}

/* truncation_reader callback */
static cuzk_status read_zkey(const uint8_t *buf, size_t len)
{
    zkey_t z;
    cuzk_status st = zkey_read_mem(&z, buf, len, 0, NULL);
    if (st == CUZK_OK)
        zkey_free(&z);
    return st;
}

static void test_bad_inputs(void)
{
    size_t len;
    uint8_t *orig = slurp(fixture_path("poseidon.zkey"), &len);
    CHECK(orig != NULL, "read poseidon.zkey");
    if (!orig)
        return;
    uint8_t *buf = malloc(len);

    unsigned truncs, rejected = truncations_rejected(orig, len, 1200, 4099, read_zkey, &truncs);
    CHECK(rejected == truncs, "zkey: %u of %u truncations rejected with FORMAT", rejected,
          truncs);
    expect(orig, 0, 0, CUZK_E_FORMAT, "zero-length", "empty", NULL);

    uint64_t s2 = section_at(orig, len, 2), s4 = section_at(orig, len, 4);
    uint64_t s5 = section_at(orig, len, 5), s7 = section_at(orig, len, 7);
    CHECK(s2 && s4 && s5 && s7, "sections found");
    uint64_t a_pt = s5;
    while (all_zero(orig + a_pt, 96)) /* first A point not at infinity */
        a_pt += 96;
    uint64_t b2_pt = s7;
    while (all_zero(orig + b2_pt, 192))
        b2_pt += 192;
    char off[64];

    memcpy(buf, orig, len);
    buf[a_pt + 48] ^= 1; /* y + or - 1: off the curve */
    snprintf(off, sizeof off, "offset %llu", (unsigned long long)a_pt);
    expect(buf, len, 0, CUZK_E_POINT_NOT_ON_CURVE, "A point off curve", "section 5 (A)", off);

    memcpy(buf, orig, len);
    memset(buf + a_pt, 0xff, 48);
    expect(buf, len, 0, CUZK_E_POINT_COORDINATE, "A coordinate >= q", "section 5 (A)", ">= q");

    memcpy(buf, orig, len);
    buf[b2_pt + 100] ^= 4;
    expect(buf, len, 0, CUZK_E_POINT_NOT_ON_CURVE, "B2 point off curve", "section 7 (B2)",
           "G2");

    memcpy(buf, orig, len);
    memset(buf + s2 + 100, 0, 96); /* alpha1 */
    expect(buf, len, 0, CUZK_E_POINT_INFINITY, "alpha1 at infinity", "alpha1", NULL);

    /* An on-curve point outside the prime-order subgroup: (x, sqrt(x^3 + 4)) for the first
     * small x that has one; the cofactor makes membership overwhelmingly unlikely. */
    g1_affine_t p;
    fp_t four, t;
    fp_from_u64(&four, 4);
    for (uint64_t x = 1;; x++) {
        fp_from_u64(&p.x, x);
        fp_sqr(&t, &p.x);
        fp_mul(&t, &t, &p.x);
        fp_add(&t, &t, &four);
        if (fp_sqrt(&p.y, &t))
            break;
    }
    CHECK(g1_affine_is_on_curve(&p) && !g1_affine_in_subgroup(&p), "non-subgroup point");
    memcpy(buf, orig, len);
    put_g1_lem(buf + a_pt, &p);
    expect(buf, len, 0, CUZK_OK, "non-subgroup, no check", NULL, NULL);
    expect(buf, len, ZKEY_CHECK_SUBGROUP, CUZK_E_POINT_NOT_IN_SUBGROUP, "non-subgroup, checked",
           "section 5 (A)", "subgroup");

    memcpy(buf, orig, len);
    memset(buf + s4 + 4 + 12, 0xff, 32);
    expect(buf, len, 0, CUZK_E_FIELD_NONCANONICAL, "coefficient >= r", "section 4", ">= r");
    memcpy(buf, orig, len);
    iden3_put32(buf + s4 + 4 + 8, 0x7fffffff);
    expect(buf, len, 0, CUZK_E_FORMAT, "coefficient signal", "section 4", "signal");

    memcpy(buf, orig, len);
    iden3_put32(buf + section_at(orig, len, 1), 2);
    expect(buf, len, 0, CUZK_E_UNSUPPORTED, "PLONK protocol", "PLONK", NULL);
    memcpy(buf, orig, len);
    buf[s2 + 4] ^= 0x10; /* q */
    expect(buf, len, 0, CUZK_E_UNSUPPORTED, "other curve q", "prime q", NULL);
    memcpy(buf, orig, len);
    iden3_put32(buf + s2 + 4 + 48 + 4 + 32 + 8, 1000); /* domainSize */
    expect(buf, len, 0, CUZK_E_FORMAT, "domain not 2^k", "power of two", NULL);
    memcpy(buf, orig, len);
    iden3_put32(buf + s2 + 4 + 48 + 4 + 32, 600); /* nVars */
    expect(buf, len, 0, CUZK_E_FORMAT, "nVars mismatch", "expected", NULL);
    memcpy(buf, orig, len);
    iden3_put32(buf + section_at(orig, len, 9) - 12, 8);
    expect(buf, len, 0, CUZK_E_FORMAT, "duplicate section", "twice", NULL);
    memcpy(buf, orig, len);
    iden3_put32(buf + section_at(orig, len, 9) - 12, 11);
    expect(buf, len, 0, CUZK_E_FORMAT, "unknown section", "unknown section", NULL);
    free(buf);
    free(orig);

    zkey_t z;
    cuzk_error err = {0};
    const char *empty = fixture_path("empty.zkey");
    FILE *fe = fopen(empty, "wb");
    if (fe)
        fclose(fe);
    CHECK(zkey_read_file(&z, empty, 0, &err) == CUZK_E_FORMAT && strstr(err.msg, "empty.zkey"),
          "empty file: %s", err.msg);
    remove(empty);

    /* A zkey snarkjs made for BN254 (make-fixtures.sh): the curve is named (issue 13). */
    cuzk_status st = zkey_read_file(&z, fixture_path("bn254/mimc.zkey"), 0, &err);
    CHECK(st == CUZK_E_UNSUPPORTED && strstr(err.msg, "BN254") && !strstr(err.msg, "not a known curve order") &&
              strstr(err.msg, "only BLS12-381"),
          "BN254 zkey: %s %s", cuzk_status_name(st), err.msg);
}

/* zkey_alloc + fill + write + read gives the same values; failed writes leave no file. */
static void test_writer(void)
{
    zkey_t z, back;
    cuzk_error err = {0};
    CHECK(zkey_alloc(&z, 6, 2, 8, 3, &err) == CUZK_OK, "alloc: %s", err.msg);
    g1_jac_t gj, acc;
    g1_affine_t g1;
    g2_affine_t g2;
    g1_generator(&g1);
    g2_generator(&g2);
    z.alpha1 = z.beta1 = z.delta1 = g1;
    z.beta2 = z.gamma2 = z.delta2 = g2;
    g1_jac_from_affine(&gj, &g1);
    acc = gj;
    for (uint32_t i = 0; i < z.domain_size; i++) { /* h[i] = (i + 1) G */
        g1_affine_from_jac(&z.h[i], &acc);
        g1_add(&acc, &acc, &gj);
    }
    z.a[1] = z.h[3];
    z.b2[2] = g2;
    z.c[0] = z.h[5];
    for (uint32_t i = 0; i < z.n_coefs; i++) {
        z.coefs[i] = (zkey_coef){i & 1, i, i + 1, FR_ONE};
        fr_from_u64(&z.coefs[i].value, 1000 + i);
    }
    fr_neg(&z.coefs[2].value, &z.coefs[2].value);
    const char *path = fixture_path("writer-test.zkey");
    remove(path);
    CHECK(zkey_write_file(&z, path, &err) == CUZK_OK, "write: %s", err.msg);
    mode_t mask = umask(022);
    umask(mask);
    struct stat sb;
    CHECK(stat(path, &sb) == 0 && (sb.st_mode & 0777) == (0666 & ~mask),
          "new file mode %o, want %o", (unsigned)(sb.st_mode & 0777), (unsigned)(0666 & ~mask));
    CHECK(zkey_read_file(&back, path, ZKEY_CHECK_SUBGROUP, &err) == CUZK_OK, "reread: %s",
          err.msg);
    bool same = back.n_vars == 6 && back.n_public == 2 && back.domain_size == 8 &&
                back.n_coefs == 3 && g1_affine_eq(&back.alpha1, &g1) &&
                g2_affine_eq(&back.delta2, &g2) && g1_affine_eq(&back.a[1], &z.h[3]) &&
                g1_affine_is_infinity(&back.a[0]) && g2_affine_eq(&back.b2[2], &g2) &&
                g1_affine_eq(&back.c[0], &z.h[5]) && g1_affine_eq(&back.h[7], &z.h[7]) &&
                back.contributions_len == 68;
    for (uint32_t i = 0; i < 3 && same; i++)
        same = back.coefs[i].matrix == (i & 1) && back.coefs[i].signal == i + 1 &&
               fr_eq(&back.coefs[i].value, &z.coefs[i].value);
    CHECK(same, "written key reads back equal");
    zkey_free(&back);

    /* Failed write: missing directory; nothing left behind, old file untouched. */
    char bad[4200];
    snprintf(bad, sizeof bad, "%s/no-such-dir/x.zkey", fixtures_dir);
    CHECK(zkey_write_file(&z, bad, &err) == CUZK_E_IO && strstr(err.msg, "no-such-dir"),
          "write into a missing directory: %s", err.msg);
    z.section_order[3] = z.section_order[4];
    CHECK(zkey_write_file(&z, path, &err) == CUZK_E_INVALID_ARG, "repeated section: %s",
          err.msg);
    CHECK(zkey_read_file(&back, path, 0, &err) == CUZK_OK, "old file still intact: %s",
          err.msg);
    zkey_free(&back);
    remove(path);
    zkey_free(&z);
}

int main(void)
{
    fixtures_dir = getenv("IDEN3_FIXTURES");
    if (!fixtures_dir) {
        fprintf(stderr, "IDEN3_FIXTURES is not set\n");
        return 2;
    }
    test_oracle();
    test_against_r1cs("poseidon");
    test_against_r1cs("mimc");
    test_bad_inputs();
    test_writer();
    return check_summary("iden3_zkey");
}
