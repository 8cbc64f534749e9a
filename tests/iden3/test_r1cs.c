/* .r1cs / .wtns readers and SpMV on circom fixtures (tests/iden3/make-fixtures.sh).
 *
 * Oracles: `snarkjs r1cs info` counts (<c>.info), circom's own witness calculator (the
 * R1CS must be satisfied row by row: (A.w)(B.w) == C.w), circom's BN254 output for the
 * prime check. Usage: test_iden3_r1cs FIXTURES_DIR
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "iden3_test_util.h"
#include "cs/iden3_bin.h"
#include "cs/r1cs.h"
#include "cs/spmv.h"
#include "cs/wtns.h"

/* "# of Wires: 520" style counts from snarkjs r1cs info output; -1 if absent. */
static long long info_count(const char *info_path, const char *key)
{
    size_t len;
    uint8_t *b = slurp(info_path, &len);
    if (!b)
        return -1;
    char *text = malloc(len + 1);
    memcpy(text, b, len);
    text[len] = 0;
    free(b);
    char pat[64];
    snprintf(pat, sizeof pat, "# of %s: ", key);
    char *p = strstr(text, pat);
    long long v = p ? atoll(p + strlen(pat)) : -1;
    free(text);
    return v;
}

static uint64_t nnz(const cs_csr *m) { return m->row_ptr[m->rows]; }

/* Number of rows with a_i * b_i != c_i. */
static uint64_t unsatisfied(const fr_t *a, const fr_t *b, const fr_t *c, uint64_t n)
{
    uint64_t bad = 0;
    for (uint64_t i = 0; i < n; i++) {
        fr_t t;
        fr_mul(&t, &a[i], &b[i]);
        bad += !fr_eq(&t, &c[i]);
    }
    return bad;
}

static void test_circuit(const char *name)
{
    char f[256];
    cuzk_error err = {0};
    r1cs_t r;
    snprintf(f, sizeof f, "%s.r1cs", name);
    cuzk_status st = r1cs_read_file(&r, fixture_path(f), &err);
    CHECK(st == CUZK_OK, "%s: r1cs_read_file: %s", name, err.msg);
    if (st != CUZK_OK)
        return;
    snprintf(f, sizeof f, "%s.info", name);
    const char *info = fixture_path(f);
    CHECK(info_count(info, "Wires") == r.n_wires, "%s: wires %u vs snarkjs %lld", name,
          r.n_wires, info_count(info, "Wires"));
    CHECK(info_count(info, "Constraints") == r.n_constraints, "%s: constraints %u vs %lld", name,
          r.n_constraints, info_count(info, "Constraints"));
    CHECK(info_count(info, "Private Inputs") == r.n_prv_in, "%s: private inputs", name);
    CHECK(info_count(info, "Public Inputs") == r.n_pub_in, "%s: public inputs", name);
    CHECK(info_count(info, "Outputs") == r.n_pub_out, "%s: outputs", name);
    CHECK(info_count(info, "Labels") == (long long)r.n_labels, "%s: labels", name);
    CHECK(r.wire_to_label && r.wire_to_label[0] == 0, "%s: wire 0 has label 0", name);
    CHECK(r.a.rows == r.n_constraints && r.a.cols == r.n_wires && nnz(&r.a) > 0,
          "%s: A shape", name);
    /* CSR invariants: sorted unique columns, non-zero values. */
    bool ok = true;
    const cs_csr *ms[3] = {&r.a, &r.b, &r.c};
    for (int k = 0; k < 3; k++)
        for (uint64_t i = 0; i < ms[k]->rows; i++)
            for (uint64_t j = ms[k]->row_ptr[i]; j < ms[k]->row_ptr[i + 1]; j++)
                ok &= ms[k]->col[j] < r.n_wires && !fr_is_zero(&ms[k]->val[j]) &&
                      (j == ms[k]->row_ptr[i] || ms[k]->col[j - 1] < ms[k]->col[j]);
    CHECK(ok, "%s: CSR rows sorted, in range, non-zero", name);

    wtns_t w;
    snprintf(f, sizeof f, "%s.wtns", name);
    st = wtns_read_file(&w, fixture_path(f), &err);
    CHECK(st == CUZK_OK, "%s: wtns_read_file: %s", name, err.msg);
    if (st != CUZK_OK) {
        r1cs_free(&r);
        return;
    }
    CHECK(wtns_check_count(&w, r.n_wires, "r1cs", &err) == CUZK_OK, "%s: count: %s", name,
          err.msg);

    if (!strcmp(name, "sha256_block")) {
        /* Output wires 1..256 are the digest bits, MSB first: compare with node's crypto. */
        size_t dlen;
        uint8_t *hex = slurp(fixture_path("sha256_block.digest"), &dlen);
        uint8_t digest[32];
        char txt[65] = "";
        if (hex && dlen >= 64)
            memcpy(txt, hex, 64);
        free(hex);
        bool same = hex_decode(digest, sizeof digest, txt) == 32 && r.n_pub_out == 256;
        for (unsigned i = 0; i < 256 && same; i++) {
            fr_t bit;
            fr_from_u64(&bit, digest[i / 8] >> (7 - i % 8) & 1);
            same = fr_eq(&w.w[1 + i], &bit);
        }
        CHECK(same, "sha256_block: output wires are node's SHA-256 digest %s", txt);
    }
    uint64_t n = r.n_constraints;
    fr_t *a = malloc(n * sizeof *a), *b = malloc(n * sizeof *b), *c = malloc(n * sizeof *c);
    fr_t *a3 = malloc(n * sizeof *a), *b3 = malloc(n * sizeof *b), *c3 = malloc(n * sizeof *c);
    st = cs_spmv_abc(a, b, c, &r.a, &r.b, &r.c, w.w, w.n, 1, &err);
    CHECK(st == CUZK_OK, "%s: spmv: %s", name, err.msg);
    CHECK(unsatisfied(a, b, c, n) == 0, "%s: %llu of %llu constraints unsatisfied", name,
          (unsigned long long)unsatisfied(a, b, c, n), (unsigned long long)n);
    st = cs_spmv_abc(a3, b3, c3, &r.a, &r.b, &r.c, w.w, w.n, 3, &err);
    CHECK(st == CUZK_OK && !memcmp(a, a3, n * sizeof *a) && !memcmp(b, b3, n * sizeof *b) &&
              !memcmp(c, c3, n * sizeof *c),
          "%s: 3 threads give the same a, b, c as 1", name);
    st = cs_spmv(a3, &r.a, w.w, w.n, 0, &err);
    CHECK(st == CUZK_OK && !memcmp(a, a3, n * sizeof *a), "%s: cs_spmv(A) with all CPUs", name);

    /* A witness with one wire changed must break some constraint (the check can fail). */
    uint32_t wire = 0;
    for (int k = 0; k < 3 && wire == 0; k++)
        for (uint64_t j = 0; j < nnz(ms[k]) && wire == 0; j++)
            wire = ms[k]->col[j];
    fr_add(&w.w[wire], &w.w[wire], &FR_ONE);
    cs_spmv_abc(a3, b3, c3, &r.a, &r.b, &r.c, w.w, w.n, 2, &err);
    CHECK(unsatisfied(a3, b3, c3, n) > 0, "%s: tampered wire %u not detected", name, wire);

    /* Too short an assignment is an error, not a read past the end. */
    CHECK(cs_spmv(a3, &r.a, w.w, r.n_wires - 1, 1, &err) == CUZK_E_INVALID_ARG,
          "%s: short assignment rejected", name);
    printf("%s: %u wires, %u constraints, nnz %llu/%llu/%llu, satisfied\n", name, r.n_wires,
           r.n_constraints, (unsigned long long)nnz(&r.a), (unsigned long long)nnz(&r.b),
           (unsigned long long)nnz(&r.c));
    free(a), free(b), free(c), free(a3), free(b3), free(c3);
    wtns_free(&w);
    r1cs_free(&r);
}

/* truncation_reader callbacks */
static cuzk_status read_r1cs(const uint8_t *buf, size_t len)
{
    r1cs_t r;
    cuzk_status st = r1cs_read_mem(&r, buf, len, NULL);
    if (st == CUZK_OK)
        r1cs_free(&r);
    return st;
}

static cuzk_status read_wtns(const uint8_t *buf, size_t len)
{
    wtns_t w;
    cuzk_status st = wtns_read_mem(&w, buf, len, NULL);
    if (st == CUZK_OK)
        wtns_free(&w);
    return st;
}

/* A hand-made .r1cs (format: github.com/iden3/r1csfile doc/r1cs_bin_format.md): one wire,
 * n_constraints constraints of three empty linear combinations, then `extra` stray bytes in
 * the constraints section. Returns the length written into buf (>= 200 + 12 n + extra). */
static size_t tiny_r1cs(uint8_t *buf, uint32_t n_constraints, uint32_t extra)
{
    static const uint8_t r_le[32] = {0x01, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff, 0xff, 0xfe, 0x5b, 0xfe,
                                     0xff, 0x02, 0xa4, 0xbd, 0x53, 0x05, 0xd8, 0xa1, 0x09, 0x08, 0xd8,
                                     0x39, 0x33, 0x48, 0x7d, 0x9d, 0x29, 0x53, 0xa7, 0xed, 0x73};
    size_t p = 0;
    memcpy(buf, "r1cs", 4);
    iden3_put32(buf + 4, 1);
    iden3_put32(buf + 8, 2);
    p = 12;
    iden3_put32(buf + p, 1); /* header: n8, r, nWires, nPubOut, nPubIn, nPrvIn, nLabels, nConstraints */
    iden3_put64(buf + p + 4, 4 + 32 + 4 * 4 + 8 + 4);
    p += 12;
    iden3_put32(buf + p, 32);
    memcpy(buf + p + 4, r_le, 32);
    p += 36;
    iden3_put32(buf + p, 1), iden3_put32(buf + p + 4, 0), iden3_put32(buf + p + 8, 0), iden3_put32(buf + p + 12, 0);
    iden3_put64(buf + p + 16, 1);
    iden3_put32(buf + p + 24, n_constraints);
    p += 28;
    iden3_put32(buf + p, 2);
    iden3_put64(buf + p + 4, 12ull * n_constraints + extra);
    p += 12;
    memset(buf + p, 0, 12ull * n_constraints + extra);
    return p + 12ull * n_constraints + extra;
}

/* Issue 13 item 5: bytes after the last constraint name its real index (n - 1). */
static void test_trailing_bytes(void)
{
    uint8_t buf[512];
    r1cs_t r;
    cuzk_error err = {0};
    size_t len = tiny_r1cs(buf, 6, 0);
    CHECK(r1cs_read_mem(&r, buf, len, &err) == CUZK_OK && r.n_constraints == 6, "tiny r1cs: %s", err.msg);
    r1cs_free(&r);
    len = tiny_r1cs(buf, 6, 4);
    cuzk_status st = r1cs_read_mem(&r, buf, len, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "4 bytes after its last constraint (constraint 5 of nConstraints 6") &&
              !strstr(err.msg, "constraint 6 "),
          "6 constraints + 4 bytes: %s", err.msg);
    len = tiny_r1cs(buf, 0, 4);
    st = r1cs_read_mem(&r, buf, len, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "4 bytes but the header declares no constraints") &&
              !strstr(err.msg, "constraint 0"),
          "0 constraints + 4 bytes: %s", err.msg);
}

static void test_bad_inputs(void)
{
    cuzk_error err = {0};
    r1cs_t r;
    wtns_t w;

    /* BN254 (circom's default prime) is rejected with the prime named. */
    cuzk_status st = r1cs_read_file(&r, fixture_path("bn254/mimc.r1cs"), &err);
    CHECK(st == CUZK_E_UNSUPPORTED && strstr(err.msg, "BN254") && strstr(err.msg, "mimc.r1cs"),
          "bn254 r1cs: %s (%s)", cuzk_status_name(st), err.msg);
    printf("bn254 r1cs -> %s\n", err.msg);
    st = wtns_read_file(&w, fixture_path("bn254/mimc.wtns"), &err);
    CHECK(st == CUZK_E_UNSUPPORTED && strstr(err.msg, "BN254"), "bn254 wtns: %s (%s)",
          cuzk_status_name(st), err.msg);

    /* Witness of another circuit. */
    CHECK(r1cs_read_file(&r, fixture_path("mimc.r1cs"), &err) == CUZK_OK, "mimc: %s", err.msg);
    CHECK(wtns_read_file(&w, fixture_path("poseidon.wtns"), &err) == CUZK_OK, "poseidon wtns");
    st = wtns_check_count(&w, r.n_wires, "mimc.r1cs", &err);
    CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "another circuit") &&
              strstr(err.msg, "mimc.r1cs"),
          "foreign witness: %s", err.msg);
    printf("foreign witness -> %s\n", err.msg);
    wtns_free(&w);
    r1cs_free(&r);

    /* Missing and zero-length files. */
    st = r1cs_read_file(&r, fixture_path("does-not-exist.r1cs"), &err);
    CHECK(st == CUZK_E_IO && strstr(err.msg, "does-not-exist"), "missing file: %s", err.msg);
    const char *empty = fixture_path("empty.r1cs");
    FILE *fe = fopen(empty, "wb");
    CHECK(fe != NULL, "create %s", empty);
    if (fe)
        fclose(fe);
    st = r1cs_read_file(&r, empty, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "empty") && strstr(err.msg, "empty.r1cs"),
          "empty r1cs: %s", err.msg);
    st = wtns_read_file(&w, empty, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "empty"), "empty wtns: %s", err.msg);
    remove(empty);

    /* Truncation at every offset of the first 512 bytes and a stride over the rest. */
    size_t len;
    uint8_t *buf = slurp(fixture_path("mimc.r1cs"), &len);
    CHECK(buf != NULL, "read mimc.r1cs");
    if (!buf)
        return;
    unsigned truncs, rejected = truncations_rejected(buf, len, 512, 977, read_r1cs, &truncs);
    CHECK(rejected == truncs, "r1cs: %u of %u truncations rejected with FORMAT", rejected,
          truncs);

    /* Corruptions inside the constraints section: wire id out of range, coefficient >= r. */
    iden3_bin bin;
    CHECK(iden3_bin_parse(&bin, buf, len, "r1cs", 1, "r1cs", &err) == CUZK_OK, "container");
    uint64_t cons = 0;
    for (uint32_t i = 0; i < bin.n_sections; i++)
        if (bin.sections[i].type == 2)
            cons = bin.sections[i].offset;
    iden3_bin_free(&bin);
    /* constraint 0: A's term count, then its first term (wire, coefficient). Find the first
     * non-empty LC of constraint 0. */
    uint64_t pos = cons;
    while (iden3_le32(buf + pos) == 0)
        pos += 4;
    uint8_t *bad = malloc(len);
    memcpy(bad, buf, len);
    iden3_put32(bad + pos + 4, 0xfffffff0u);
    st = r1cs_read_mem(&r, bad, len, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "wire"), "bad wire id: %s", err.msg);
    memcpy(bad, buf, len);
    memset(bad + pos + 8, 0xff, 32);
    st = r1cs_read_mem(&r, bad, len, &err);
    CHECK(st == CUZK_E_FIELD_NONCANONICAL && strstr(err.msg, "coefficient"),
          "coefficient >= r: %s", err.msg);
    memcpy(bad, buf, len);
    bad[0] = 'x';
    CHECK(r1cs_read_mem(&r, bad, len, &err) == CUZK_E_FORMAT && strstr(err.msg, "magic"),
          "bad magic: %s", err.msg);
    memcpy(bad, buf, len);
    iden3_put32(bad + 4, 2);
    CHECK(r1cs_read_mem(&r, bad, len, &err) == CUZK_E_UNSUPPORTED, "version 2: %s", err.msg);
    free(bad);
    free(buf);

    /* Witness: truncations and a value >= r. */
    buf = slurp(fixture_path("mimc.wtns"), &len);
    CHECK(buf != NULL, "read mimc.wtns");
    if (!buf)
        return;
    rejected = truncations_rejected(buf, len, 200, 331, read_wtns, &truncs);
    CHECK(rejected == truncs, "wtns: %u of %u truncations rejected", rejected, truncs);
    memset(buf + len - 32, 0xff, 32);
    st = wtns_read_mem(&w, buf, len, &err);
    CHECK(st == CUZK_E_FIELD_NONCANONICAL && strstr(err.msg, "value"), "wtns value >= r: %s",
          err.msg);
    free(buf);
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: %s FIXTURES_DIR\n", argv[0]);
        return 2;
    }
    fixtures_dir = argv[1];
    test_circuit("sha256_block");
    test_circuit("poseidon");
    test_circuit("mimc");
    test_bad_inputs();
    test_trailing_bytes();
    return check_summary("iden3_r1cs");
}
