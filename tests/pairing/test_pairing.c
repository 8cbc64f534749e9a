/* Pairing tests: values against @noble/curves (gen-pairing.mjs on stdin) and algebraic
 * properties (bilinearity e(aP, bQ) = e(P, Q)^(ab), non-degeneracy, GT order r). */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "cpu_select.h"
#include "curve/pairing.h"

static bool parse_fp(fp_t *r, const char *hex)
{
    uint8_t b[FP_BYTES];
    return hex_decode(b, sizeof b, hex) == FP_BYTES && fp_from_bytes_be(r, b) == CUZK_OK;
}

static bool parse_fp_n(fp_t *r, const char *hex, size_t n)
{
    char buf[2 * FP_BYTES + 1];
    if (strlen(hex) != n * 2 * FP_BYTES)
        return false;
    for (size_t i = 0; i < n; i++) {
        memcpy(buf, hex + i * 2 * FP_BYTES, 2 * FP_BYTES);
        buf[2 * FP_BYTES] = 0;
        if (!parse_fp(&r[i], buf))
            return false;
    }
    return true;
}

static bool parse_g1(g1_affine_t *p, char **tok)
{
    return parse_fp(&p->x, tok[0]) && parse_fp(&p->y, tok[1]);
}

static bool parse_g2(g2_affine_t *q, char **tok)
{
    return parse_fp_n(&q->x.c0, tok[0], 2) && parse_fp_n(&q->y.c0, tok[1], 2);
}

static void oracle_vectors(void)
{
    char line[16384], *tok[64];
    unsigned lines = 0;
    while (fgets(line, sizeof line, stdin)) {
        int n = split_tokens(line, tok, 64);
        if (n == 0)
            continue;
        lines++;
        if (!strcmp(tok[0], "pairing") && n == 6) {
            g1_affine_t p;
            g2_affine_t q;
            fp12_t want, got;
            CHECK(parse_g1(&p, tok + 1) && parse_g2(&q, tok + 3) && parse_fp_n(&want.c0.c0.c0, tok[5], 12),
                  "pairing: unparsable vector %u", lines);
            /* pairing(): lines as computed (pairing_prepare_g2_once), the general path */
            pairing(&got, &p, &q);
            CHECK(fp12_eq(&got, &want), "pairing: value differs from noble (vector %u)", lines);
            g2_prepared_t *prep = malloc(sizeof *prep);
            const g2_prepared_t *qs[1] = {prep};
            fp12_t f;
            pairing_prepare_g2_once(prep, &q);
            CHECK(!prep->normalized, "pairing: vector %u normalised by pairing_prepare_g2_once", lines);
            /* the normalised lines through the unit path, then through the general path */
            pairing_prepare_g2(prep, &q);
            CHECK(prep->normalized || prep->infinity, "pairing: vector %u did not normalise", lines);
            pairing_miller_loop(&f, &p, qs, 1);
            pairing_final_exp(&got, &f);
            CHECK(fp12_eq(&got, &want), "pairing: normalised line path differs from noble (vector %u)", lines);
            prep->normalized = false;
            pairing_miller_loop(&f, &p, qs, 1);
            pairing_final_exp(&got, &f);
            CHECK(fp12_eq(&got, &want), "pairing: general path on normalised lines differs from noble (vector %u)",
                  lines);
            free(prep);
        } else if (!strcmp(tok[0], "product_one")) {
            size_t k = (size_t)atoi(tok[1]);
            g1_affine_t p[4];
            g2_affine_t q[4];
            g2_prepared_t *prep = malloc(4 * sizeof *prep);
            const g2_prepared_t *qp[4] = {&prep[0], &prep[1], &prep[2], &prep[3]};
            bool ok = k <= 4 && n == (int)(3 + 4 * k);
            for (size_t i = 0; ok && i < k; i++) {
                ok = parse_g1(&p[i], tok + 2 + 4 * i) && parse_g2(&q[i], tok + 4 + 4 * i);
                /* normalised and as-computed lines in one shared loop */
                (i & 1 ? pairing_prepare_g2_once : pairing_prepare_g2)(&prep[i], &q[i]);
            }
            CHECK(ok, "product_one: unparsable vector %u", lines);
            if (ok) {
                bool want = tok[n - 1][0] == '1';
                CHECK(pairing_product_is_one(p, qp, k) == want, "product_one: vector %u expected %d", lines,
                      want);
            }
            free(prep);
        } else {
            CHECK(0, "unknown vector op '%s'", tok[0]);
        }
    }
    CHECK(lines >= 10, "expected oracle vectors on stdin, got %u lines", lines);
}

static void properties(void)
{
    g1_affine_t g1, p;
    g2_affine_t g2, q;
    g1_generator(&g1);
    g2_generator(&g2);
    fp12_t e, e_ab, t;
    pairing(&e, &g1, &g2);
    CHECK(!fp12_is_one(&e), "e(G1, G2) must not be 1");

    /* GT has order r: e^r == 1 */
    fp12_pow(&t, &e, FR_MODULUS, FR_LIMBS);
    CHECK(fp12_is_one(&t), "e(G1, G2)^r must be 1");

    /* bilinearity with a = 0x1234567 * 2^200 + 99, b = 0xfedcba987654321 */
    uint64_t a[4] = {99, 0, 0, 0x1234567ULL << 8}, b[4] = {0xfedcba987654321ULL, 0, 0, 0};
    fr_t fa, fb, fab;
    fr_from_limbs(&fa, a);
    fr_from_limbs(&fb, b);
    fr_mul(&fab, &fa, &fb);
    g1_jac_t pj;
    g2_jac_t qj;
    g1_jac_from_affine(&pj, &g1);
    g1_mul_fr(&pj, &pj, &fa);
    g1_affine_from_jac(&p, &pj);
    g2_jac_from_affine(&qj, &g2);
    g2_mul_fr(&qj, &qj, &fb);
    g2_affine_from_jac(&q, &qj);
    pairing(&e_ab, &p, &q);
    uint64_t ab[4];
    fr_to_limbs(ab, &fab);
    fp12_pow(&t, &e, ab, 4);
    CHECK(fp12_eq(&e_ab, &t), "e(aP, bQ) != e(P, Q)^(ab)");

    /* more pairs than one shared loop takes (16): prod e(a_i P, Q_i) e(-a_i P, Q_i) = 1,
     * with normalised, general and as-computed (pairing_prepare_g2_once) prepared points
     * mixed; one pair changed gives != 1 */
    enum { NP = 19 };
    g1_affine_t ps[2 * NP];
    g2_prepared_t *qp = malloc(2 * NP * sizeof *qp);
    const g2_prepared_t *qptr[2 * NP];
    for (int i = 0; i < NP; i++) {
        uint64_t k[4] = {0x9e3779b97f4a7c15ULL * (uint64_t)(i + 1), (uint64_t)i, 0, 0};
        fr_t fk;
        fr_from_limbs(&fk, k);
        g1_jac_from_affine(&pj, &g1);
        g1_mul_fr(&pj, &pj, &fk);
        g1_affine_from_jac(&ps[2 * i], &pj);
        g1_affine_neg(&ps[2 * i + 1], &ps[2 * i]);
        g2_jac_from_affine(&qj, &g2);
        g2_mul_fr(&qj, &qj, &fk);
        g2_affine_from_jac(&q, &qj);
        (i % 3 == 1 ? pairing_prepare_g2_once : pairing_prepare_g2)(&qp[2 * i], &q);
        qp[2 * i + 1] = qp[2 * i];
        if (i % 3 == 0)
            qp[2 * i + 1].normalized = false;
        qptr[2 * i] = &qp[2 * i];
        qptr[2 * i + 1] = &qp[2 * i + 1];
    }
    CHECK(pairing_product_is_one(ps, qptr, 2 * NP), "38-pair product must be 1");
    ps[2 * NP - 1] = ps[0];
    CHECK(!pairing_product_is_one(ps, qptr, 2 * NP), "changed 38-pair product must not be 1");
    free(qp);

    /* infinity gives 1 */
    g1_affine_t inf1;
    g1_affine_set_infinity(&inf1);
    pairing(&t, &inf1, &g2);
    CHECK(fp12_is_one(&t), "e(O, Q) must be 1");
}

int main(void)
{
    check_select_cpu();
    oracle_vectors();
    properties();
    return check_summary("pairing");
}
