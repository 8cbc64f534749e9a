/* Properties of poly_h_compute on random satisfying rows (c_i = a_i b_i): the bellperson form
 * satisfies H(x) Z(x) = A(x) B(x) - C(x) at a random x and has h_{m-1} = 0; the snarkjs form
 * equals A B - C at the odd points of the 2m domain; thread-count independence; errors.
 * A, B, C come from poly_intt, itself checked against the naive DFT in test_ntt. (Vectors from
 * an independent BigInt oracle: test_ntt_oracle.c.) */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "poly/h.h"
#include "poly/ntt.h"
#include "poly_test_util.h"

/* Random satisfying rows: the first `rows` of m random with c = a b, the rest zero. */
static void make_rows(fr_t *a, fr_t *b, fr_t *c, size_t m, size_t rows)
{
    for (size_t i = 0; i < m; i++) {
        if (i < rows) {
            random_fr(&a[i], 1);
            random_fr(&b[i], 1);
            fr_mul(&c[i], &a[i], &b[i]);
        } else {
            a[i] = b[i] = c[i] = FR_ZERO;
        }
    }
}

/* coefficients of the polynomial with evaluations v on the family's domain */
static fr_t *coeffs(const fr_t *v, unsigned k, poly_roots roots)
{
    size_t m = (size_t)1 << k;
    fr_t *p = alloc_fr(m);
    memcpy(p, v, m * sizeof *p);
    CHECK(poly_intt(p, k, roots, 1, NULL) == CUZK_OK, "intt");
    return p;
}

static void test_bellperson(unsigned k, size_t rows, unsigned threads)
{
    size_t m = (size_t)1 << k;
    fr_t *a = alloc_fr(m), *b = alloc_fr(m), *c = alloc_fr(m);
    make_rows(a, b, c, m, rows);
    fr_t *A = coeffs(a, k, POLY_ROOTS_FF), *B = coeffs(b, k, POLY_ROOTS_FF), *C = coeffs(c, k, POLY_ROOTS_FF);
    CHECK(poly_h_compute(a, b, c, k, POLY_H_BELLPERSON, threads, NULL) == CUZK_OK, "h 2^%u", k);
    CHECK(poly_h_len(POLY_H_BELLPERSON, m) == m - 1, "h_len");
    CHECK(fr_is_zero(&a[m - 1]), "bellperson 2^%u: h_{m-1} != 0", k);
    for (int trial = 0; trial < 3; trial++) {
        fr_t x, va, vb, vc, vh, z, lhs, rhs;
        random_fr(&x, 1);
        eval_at(&va, A, m, &x);
        eval_at(&vb, B, m, &x);
        eval_at(&vc, C, m, &x);
        eval_at(&vh, a, m - 1, &x);
        fr_pow_u64(&z, &x, m);
        fr_sub(&z, &z, &FR_ONE);
        fr_mul(&lhs, &vh, &z);
        fr_mul(&rhs, &va, &vb);
        fr_sub(&rhs, &rhs, &vc);
        CHECK(fr_eq(&lhs, &rhs), "bellperson 2^%u rows %zu: H Z != A B - C at random x", k, rows);
    }
    free(a), free(b), free(c), free(A), free(B), free(C);
}

static void test_snarkjs(unsigned k, size_t rows, unsigned threads)
{
    size_t m = (size_t)1 << k;
    fr_t *a = alloc_fr(m), *b = alloc_fr(m), *c = alloc_fr(m);
    make_rows(a, b, c, m, rows);
    fr_t *A = coeffs(a, k, POLY_ROOTS_SNARKJS), *B = coeffs(b, k, POLY_ROOTS_SNARKJS),
         *C = coeffs(c, k, POLY_ROOTS_SNARKJS);
    CHECK(poly_h_compute(a, b, c, k, POLY_H_SNARKJS, threads, NULL) == CUZK_OK, "h 2^%u", k);
    CHECK(poly_h_len(POLY_H_SNARKJS, m) == m, "h_len");
    fr_t w2;
    poly_root_of_unity(&w2, k + 1, POLY_ROOTS_SNARKJS);
    size_t idx[] = {0, 1, m / 2, m - 1, (size_t)(next_u64() % m)};
    for (size_t s = 0; s < sizeof idx / sizeof idx[0]; s++) {
        if (idx[s] >= m)
            continue;
        fr_t pt, va, vb, vc, want;
        fr_pow_u64(&pt, &w2, 2 * idx[s] + 1);
        eval_at(&va, A, m, &pt);
        eval_at(&vb, B, m, &pt);
        eval_at(&vc, C, m, &pt);
        fr_mul(&want, &va, &vb);
        fr_sub(&want, &want, &vc);
        CHECK(fr_eq(&want, &a[idx[s]]), "snarkjs 2^%u: h_%zu != (AB - C)(w_2m^(2i+1))", k, idx[s]);
    }
    free(a), free(b), free(c), free(A), free(B), free(C);
}

static void test_threads(poly_h_form form, unsigned k)
{
    size_t m = (size_t)1 << k;
    fr_t *a0 = alloc_fr(m), *b0 = alloc_fr(m), *c0 = alloc_fr(m);
    fr_t *ref = alloc_fr(m), *a = alloc_fr(m), *b = alloc_fr(m), *c = alloc_fr(m);
    make_rows(a0, b0, c0, m, m - 7);
    unsigned threads[] = {1, 2, 3};
    for (int t = 0; t < 3; t++) {
        memcpy(a, a0, m * sizeof *a), memcpy(b, b0, m * sizeof *b), memcpy(c, c0, m * sizeof *c);
        CHECK(poly_h_compute(a, b, c, k, form, threads[t], NULL) == CUZK_OK, "h threads %u", threads[t]);
        if (t == 0)
            memcpy(ref, a, m * sizeof *a);
        else
            CHECK(memcmp(ref, a, poly_h_len(form, m) * sizeof *a) == 0, "form %d 2^%u: %u threads differ", form, k,
                  threads[t]);
    }
    free(a0), free(b0), free(c0), free(ref), free(a), free(b), free(c);
}

static void test_errors(void)
{
    fr_t a[2], b[2], c[2];
    cuzk_error err = {0};
    CHECK(poly_h_compute(a, b, c, 29, POLY_H_BELLPERSON, 1, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "29"),
          "log2_m 29: %s", err.msg);
    CHECK(poly_h_compute(a, NULL, c, 1, POLY_H_SNARKJS, 1, &err) == CUZK_E_INVALID_ARG, "NULL b");
    CHECK(poly_h_compute(a, b, c, 1, POLY_H_SNARKJS, 0, &err) == CUZK_E_INVALID_ARG, "threads 0");
    CHECK(poly_h_compute(a, b, c, 1, (poly_h_form)9, 1, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "9"),
          "bad form: %s", err.msg);
    CHECK(poly_h_len((poly_h_form)9, 8) == 0 && poly_h_len(POLY_H_BELLPERSON, 1) == 0, "h_len edge cases");
}

int main(void)
{
    poly_test_seed(0x2545f4914f6cdd1dULL);
    unsigned sizes[] = {0, 1, 3, 10};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        size_t m = (size_t)1 << sizes[i];
        test_bellperson(sizes[i], m, 1);
        test_bellperson(sizes[i], m / 2 + 1, 1);
        test_snarkjs(sizes[i], m, 1);
        test_snarkjs(sizes[i], m / 2 + 1, 1);
    }
    test_bellperson(14, 12345, 2);
    test_snarkjs(14, 16000, 2);
    test_threads(POLY_H_BELLPERSON, 15);
    test_threads(POLY_H_SNARKJS, 15);
    test_errors();
    return check_summary("test_h");
}
