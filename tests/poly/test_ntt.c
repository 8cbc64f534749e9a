/* Properties of the poly NTT: roots of unity, agreement with the naive O(n^2) DFT and with
 * direct evaluation on cosets, inverse round trips up to 2^20, thread-count independence, and
 * argument errors. (Vectors from an independent BigInt oracle: test_ntt_oracle.c.) Run on the
 * CPU back end CUZK_CPU names (tests/common/cpu_select.h). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_select.h"
#include "poly/ntt.h"
#include "poly_test_util.h"

static const char *fam_name(poly_roots f) { return f == POLY_ROOTS_FF ? "ff" : "snarkjs"; }

static void test_roots(void)
{
    for (int f = 0; f < 2; f++) {
        fr_t prev = FR_ONE;
        for (unsigned k = 0; k <= 32; k++) {
            fr_t w, t;
            CHECK(poly_root_of_unity(&w, k, (poly_roots)f) == CUZK_OK, "root %s %u", fam_name(f), k);
            t = w;
            for (unsigned i = 0; i < k; i++)
                fr_sqr(&t, &t);
            CHECK(fr_is_one(&t), "root %s %u: w^(2^k) != 1", fam_name(f), k);
            if (k > 0) {
                t = w;
                for (unsigned i = 0; i + 1 < k; i++)
                    fr_sqr(&t, &t);
                fr_t minus_one;
                fr_neg(&minus_one, &FR_ONE);
                CHECK(fr_eq(&t, &minus_one), "root %s %u: w^(2^(k-1)) != -1 (not primitive)", fam_name(f), k);
                fr_sqr(&t, &w);
                CHECK(fr_eq(&t, &prev), "root %s %u: squared is not root(k-1)", fam_name(f), k);
            }
            prev = w;
        }
        fr_t w;
        CHECK(poly_root_of_unity(&w, 33, (poly_roots)f) == CUZK_E_INVALID_ARG, "root 33 accepted");
    }
    /* The two families are different generators of the same 2^32 subgroup. */
    fr_t a, b;
    poly_root_of_unity(&a, 32, POLY_ROOTS_FF);
    poly_root_of_unity(&b, 32, POLY_ROOTS_SNARKJS);
    CHECK(!fr_eq(&a, &b), "ff and snarkjs omega_32 coincide");
}

/* ntt and intt against the naive DFT, every size 2^0 .. 2^8, both families */
static void test_naive_dft(void)
{
    for (int f = 0; f < 2; f++) {
        for (unsigned k = 0; k <= 8; k++) {
            size_t n = (size_t)1 << k;
            fr_t *x = alloc_fr(n), *y = alloc_fr(n), *want = alloc_fr(n), w, pt = FR_ONE;
            random_fr(x, n);
            poly_root_of_unity(&w, k, (poly_roots)f);
            for (size_t j = 0; j < n; j++) {
                eval_at(&want[j], x, n, &pt);
                fr_mul(&pt, &pt, &w);
            }
            memcpy(y, x, n * sizeof *y);
            CHECK(poly_ntt(y, k, (poly_roots)f, 1, NULL) == CUZK_OK, "ntt %u", k);
            CHECK(memcmp(y, want, n * sizeof *y) == 0, "ntt %s 2^%u differs from naive DFT", fam_name(f), k);
            CHECK(poly_intt(y, k, (poly_roots)f, 1, NULL) == CUZK_OK, "intt %u", k);
            CHECK(memcmp(y, x, n * sizeof *y) == 0, "intt %s 2^%u is not the inverse", fam_name(f), k);
            free(x), free(y), free(want);
        }
    }
}

/* Large sizes reach the strided stages: check sampled outputs against direct evaluation. */
static void test_large_sampled(unsigned k, unsigned threads)
{
    size_t n = (size_t)1 << k;
    fr_t *x = alloc_fr(n), *y = alloc_fr(n), w;
    random_fr(x, n);
    memcpy(y, x, n * sizeof *y);
    CHECK(poly_ntt(y, k, POLY_ROOTS_FF, threads, NULL) == CUZK_OK, "ntt 2^%u", k);
    poly_root_of_unity(&w, k, POLY_ROOTS_FF);
    size_t idx[] = {0, 1, 2, n / 2 - 1, n / 2, n / 2 + 1, n - 1, n / 3, (size_t)(next_u64() % n)};
    for (size_t s = 0; s < sizeof idx / sizeof idx[0]; s++) {
        fr_t pt, v;
        fr_pow_u64(&pt, &w, idx[s]);
        eval_at(&v, x, n, &pt);
        CHECK(fr_eq(&v, &y[idx[s]]), "ntt 2^%u output %zu differs from direct evaluation", k, idx[s]);
    }
    free(x), free(y);
}

static void test_coset_naive(void)
{
    for (unsigned k = 0; k <= 7; k++) {
        size_t n = (size_t)1 << k;
        fr_t shifts[2];
        fr_generator(&shifts[0]);
        random_fr(&shifts[1], 1);
        for (int si = 0; si < 2; si++) {
            fr_t *x = alloc_fr(n), *y = alloc_fr(n), w, pt = shifts[si];
            random_fr(x, n);
            poly_root_of_unity(&w, k, POLY_ROOTS_FF);
            memcpy(y, x, n * sizeof *y);
            cuzk_status st = si == 0 ? poly_coset_ntt(y, k, POLY_ROOTS_FF, 1, NULL)
                                     : poly_coset_ntt_shift(y, k, POLY_ROOTS_FF, &shifts[si], 1, NULL);
            CHECK(st == CUZK_OK, "coset ntt %u", k);
            for (size_t j = 0; j < n; j++) {
                fr_t v;
                eval_at(&v, x, n, &pt);
                CHECK(fr_eq(&v, &y[j]), "coset ntt 2^%u shift %d: output %zu is not P(s w^j)", k, si, j);
                fr_mul(&pt, &pt, &w);
            }
            st = si == 0 ? poly_coset_intt(y, k, POLY_ROOTS_FF, 1, NULL)
                         : poly_coset_intt_shift(y, k, POLY_ROOTS_FF, &shifts[si], 1, NULL);
            CHECK(st == CUZK_OK && memcmp(y, x, n * sizeof *y) == 0, "coset intt 2^%u shift %d not inverse", k, si);
            free(x), free(y);
        }
    }
}

static void test_roundtrip(unsigned k, unsigned threads)
{
    size_t n = (size_t)1 << k;
    fr_t *x = alloc_fr(n), *y = alloc_fr(n);
    random_fr(x, n);
    memcpy(y, x, n * sizeof *y);
    CHECK(poly_ntt(y, k, POLY_ROOTS_FF, threads, NULL) == CUZK_OK, "ntt 2^%u", k);
    CHECK(k == 0 || memcmp(y, x, n * sizeof *y) != 0, "ntt 2^%u left the input unchanged", k);
    CHECK(poly_intt(y, k, POLY_ROOTS_FF, threads, NULL) == CUZK_OK, "intt 2^%u", k);
    CHECK(memcmp(y, x, n * sizeof *y) == 0, "intt(ntt(x)) != x at 2^%u, %u threads", k, threads);
    CHECK(poly_coset_ntt(y, k, POLY_ROOTS_SNARKJS, threads, NULL) == CUZK_OK, "coset ntt 2^%u", k);
    CHECK(poly_coset_intt(y, k, POLY_ROOTS_SNARKJS, threads, NULL) == CUZK_OK, "coset intt 2^%u", k);
    CHECK(memcmp(y, x, n * sizeof *y) == 0, "coset round trip != x at 2^%u, %u threads", k, threads);
    free(x), free(y);
}

/* 1, 2, 3 and 5 threads give bit-identical results for every transform. */
static void test_thread_independence(unsigned k)
{
    size_t n = (size_t)1 << k;
    fr_t *x = alloc_fr(n), *ref = alloc_fr(n), *y = alloc_fr(n), shift;
    random_fr(x, n);
    random_fr(&shift, 1);
    for (int op = 0; op < 4; op++) {
        unsigned threads[] = {1, 2, 3, 5};
        for (int t = 0; t < 4; t++) {
            fr_t *out = t == 0 ? ref : y;
            memcpy(out, x, n * sizeof *out);
            cuzk_status st;
            switch (op) {
            case 0: st = poly_ntt(out, k, POLY_ROOTS_FF, threads[t], NULL); break;
            case 1: st = poly_intt(out, k, POLY_ROOTS_SNARKJS, threads[t], NULL); break;
            case 2: st = poly_coset_ntt(out, k, POLY_ROOTS_FF, threads[t], NULL); break;
            default: st = poly_coset_intt_shift(out, k, POLY_ROOTS_FF, &shift, threads[t], NULL); break;
            }
            CHECK(st == CUZK_OK, "op %d threads %u", op, threads[t]);
            if (t > 0)
                CHECK(memcmp(ref, y, n * sizeof *y) == 0, "op %d at 2^%u: %u threads differ from 1", op, k,
                      threads[t]);
        }
    }
    free(x), free(ref), free(y);
}

static void test_errors(void)
{
    fr_t v[4], orig[4], zero = FR_ZERO;
    random_fr(v, 4);
    memcpy(orig, v, sizeof v);
    cuzk_error err = {0};
    CHECK(poly_ntt(v, 29, POLY_ROOTS_FF, 1, &err) == CUZK_E_INVALID_ARG && err.code == CUZK_E_INVALID_ARG &&
              strstr(err.msg, "29"),
          "log2_n 29: %s", err.msg);
    CHECK(poly_intt(v, 2, POLY_ROOTS_FF, 0, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "threads"),
          "threads 0: %s", err.msg);
    CHECK(poly_coset_ntt(NULL, 2, POLY_ROOTS_FF, 1, &err) == CUZK_E_INVALID_ARG, "NULL v");
    CHECK(poly_ntt(v, 2, (poly_roots)7, 1, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "7"),
          "bad family: %s", err.msg);
    CHECK(poly_coset_ntt_shift(v, 2, POLY_ROOTS_FF, &zero, 1, &err) == CUZK_E_INVALID_ARG, "zero shift");
    CHECK(poly_coset_intt_shift(v, 2, POLY_ROOTS_FF, NULL, 1, NULL) == CUZK_E_INVALID_ARG, "NULL shift");
    CHECK(memcmp(v, orig, sizeof v) == 0, "v changed by a failed call");
}

int main(void)
{
    check_select_cpu();
    poly_test_seed(0x9e3779b97f4a7c15ULL);
    test_roots();
    test_naive_dft();
    test_coset_naive();
    test_large_sampled(14, 1);
    test_large_sampled(16, 3);
    unsigned sizes[] = {0, 1, 2, 10, 16};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++) {
        test_roundtrip(sizes[i], 1);
        test_roundtrip(sizes[i], 2);
    }
    test_roundtrip(20, 2);
    test_thread_independence(14);
    test_thread_independence(17);
    test_errors();
    return check_summary("test_ntt");
}
