/* poly NTT, coset NTT, roots of unity and both Groth16 H forms against tests/oracle/gen-ntt.mjs
 * (plain BigInt: naive DFT, direct evaluation, polynomial long division by X^m - 1), read from
 * stdin; the record formats are described in that script. */
#define _GNU_SOURCE
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_select.h"
#include "poly/h.h"
#include "poly/ntt.h"

#define MAX_TOK 1024

static unsigned records;

static bool parse_fr(fr_t *out, const char *hex)
{
    uint8_t be[FR_BYTES];
    return hex_decode(be, sizeof be, hex) == FR_BYTES && fr_from_bytes_be(out, be) == CUZK_OK;
}

/* parse n field elements from tok[0..n) into a new array; NULL (and a failed CHECK) if bad */
static fr_t *parse_vec(char **tok, size_t n)
{
    fr_t *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++) {
        if (!parse_fr(&v[i], tok[i])) {
            CHECK(0, "bad field element '%s'", tok[i]);
            free(v);
            return NULL;
        }
    }
    return v;
}

static bool family(poly_roots *f, const char *name)
{
    if (!strcmp(name, "ff"))
        *f = POLY_ROOTS_FF;
    else if (!strcmp(name, "snarkjs"))
        *f = POLY_ROOTS_SNARKJS;
    else
        return false;
    return true;
}

static void do_root(char **tok, int nt)
{
    poly_roots f;
    fr_t want, got;
    if (nt != 4 || !family(&f, tok[1]) || !parse_fr(&want, tok[3])) {
        CHECK(0, "malformed root record");
        return;
    }
    unsigned k = (unsigned)atoi(tok[2]);
    CHECK(poly_root_of_unity(&got, k, f) == CUZK_OK && fr_eq(&got, &want), "root %s %u", tok[1], k);
    records++;
}

static void do_ntt(char **tok, int nt)
{
    poly_roots f;
    unsigned k = (unsigned)atoi(tok[2]);
    size_t n = (size_t)1 << k;
    if (k > 10 || nt != 3 + 2 * (int)n || !family(&f, tok[1])) {
        CHECK(0, "malformed ntt record");
        return;
    }
    fr_t *x = parse_vec(tok + 3, n), *y = parse_vec(tok + 3 + n, n);
    if (x && y) {
        fr_t *v = malloc(n * sizeof *v);
        memcpy(v, x, n * sizeof *v);
        CHECK(poly_ntt(v, k, f, 1, NULL) == CUZK_OK && !memcmp(v, y, n * sizeof *v), "ntt %s 2^%u", tok[1], k);
        CHECK(poly_intt(v, k, f, 2, NULL) == CUZK_OK && !memcmp(v, x, n * sizeof *v), "intt %s 2^%u", tok[1], k);
        free(v);
        records++;
    }
    free(x), free(y);
}

static void do_coset(char **tok, int nt)
{
    unsigned k = (unsigned)atoi(tok[1]);
    size_t n = (size_t)1 << k;
    fr_t s, g;
    if (k > 10 || nt != 3 + 2 * (int)n || !parse_fr(&s, tok[2])) {
        CHECK(0, "malformed coset record");
        return;
    }
    fr_generator(&g);
    bool is_g = fr_eq(&s, &g);
    fr_t *x = parse_vec(tok + 3, n), *y = parse_vec(tok + 3 + n, n);
    if (x && y) {
        fr_t *v = malloc(n * sizeof *v);
        memcpy(v, x, n * sizeof *v);
        cuzk_status st = is_g ? poly_coset_ntt(v, k, POLY_ROOTS_FF, 1, NULL)
                              : poly_coset_ntt_shift(v, k, POLY_ROOTS_FF, &s, 1, NULL);
        CHECK(st == CUZK_OK && !memcmp(v, y, n * sizeof *v), "coset ntt 2^%u shift %s", k, tok[2]);
        st = is_g ? poly_coset_intt(v, k, POLY_ROOTS_FF, 1, NULL)
                  : poly_coset_intt_shift(v, k, POLY_ROOTS_FF, &s, 1, NULL);
        CHECK(st == CUZK_OK && !memcmp(v, x, n * sizeof *v), "coset intt 2^%u shift %s", k, tok[2]);
        free(v);
        records++;
    }
    free(x), free(y);
}

static void do_h(char **tok, int nt, poly_h_form form)
{
    unsigned k = (unsigned)atoi(tok[1]);
    size_t m = (size_t)1 << k, hl = poly_h_len(form, m);
    if (k > 10 || nt != 2 + 3 * (int)m + (int)hl) {
        CHECK(0, "malformed %s record", tok[0]);
        return;
    }
    fr_t *a = parse_vec(tok + 2, m), *b = parse_vec(tok + 2 + m, m), *c = parse_vec(tok + 2 + 2 * m, m);
    fr_t *h = parse_vec(tok + 2 + 3 * m, hl);
    if (a && b && c && h) {
        CHECK(poly_h_compute(a, b, c, k, form, 1, NULL) == CUZK_OK && !memcmp(a, h, hl * sizeof *h), "%s 2^%u",
              tok[0], k);
        records++;
    }
    free(a), free(b), free(c), free(h);
}

int main(void)
{
    check_select_cpu();
    char *line = NULL, **tok = malloc(MAX_TOK * sizeof *tok);
    size_t cap = 0;
    unsigned h_records = 0;
    while (getline(&line, &cap, stdin) > 0) {
        int nt = split_tokens(line, tok, MAX_TOK);
        if (nt == 0)
            continue;
        if (!strcmp(tok[0], "root"))
            do_root(tok, nt);
        else if (!strcmp(tok[0], "ntt"))
            do_ntt(tok, nt);
        else if (!strcmp(tok[0], "coset"))
            do_coset(tok, nt);
        else if (!strcmp(tok[0], "hbell"))
            do_h(tok, nt, POLY_H_BELLPERSON), h_records++;
        else if (!strcmp(tok[0], "hsnark"))
            do_h(tok, nt, POLY_H_SNARKJS), h_records++;
        else
            CHECK(0, "unknown record '%s'", tok[0]);
    }
    /* guard against an empty or truncated oracle stream */
    CHECK(records >= 90 && h_records >= 8, "only %u records (%u H) read from the oracle", records, h_records);
    free(line);
    free(tok);
    return check_summary("test_ntt_oracle");
}
