/* The 8-lane AVX-512 IFMA Fp kernels (src/field/fpv_ifma.h) against @noble/curves vectors
 * (tests/oracle/gen-field.mjs; only the fp_mul, fp_sqr, fp_add and fp_sub lines are used,
 * the rest is skipped): the vectors are taken 8 at a time, one per lane, and each
 * operation's fully reduced result must equal the oracle's. Multiplication is also run on
 * the lazy representatives a + p and b + p (values up to 2p, the kernels' input bound),
 * the results are stored to fp_t and loaded back (transposition and radix 2^48 re-cut),
 * and dead lanes are checked to be left untouched by masked stores. Exits 77 (ctest
 * SKIP) when the CPU lacks AVX-512 IFMA; a run that reads no vectors fails.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "field/cpu.h"
#include "field/fpv_ifma.h"

#define MAX_TOKENS 8

enum { OP_MUL, OP_SQR, OP_ADD, OP_SUB, OP_COUNT };
static const char *const OPS[OP_COUNT] = {"fp_mul", "fp_sqr", "fp_add", "fp_sub"};

typedef struct {
    fp_t a[FPV_LANES], b[FPV_LANES], want[FPV_LANES];
    long line[FPV_LANES];
    int n;
} group_t;

static size_t checked[OP_COUNT];

static bool parse_fp(fp_t *r, const char *tok)
{
    uint8_t buf[FP_BYTES];
    return hex_decode(buf, sizeof buf, tok) == FP_BYTES && fp_from_bytes_be(r, buf) == CUZK_OK;
}

static void ptrs(const fp_t *p[FPV_LANES], const fp_t *v)
{
    for (int l = 0; l < FPV_LANES; l++)
        p[l] = &v[l];
}

/* fully reduce a value below 4p */
static void canon(fpv_t *x)
{
    fpv_csub(x, x, FPV_2P);
    fpv_csub(x, x, FPV_P);
}

static void run_group(int op, group_t *g)
{
    const fp_t *pa[FPV_LANES], *pb[FPV_LANES];
    fp_t got[FPV_LANES];
    fp_t *dst[FPV_LANES];
    for (int l = g->n; l < FPV_LANES; l++) /* pad with the first vector */
        g->a[l] = g->a[0], g->b[l] = g->b[0], g->want[l] = g->want[0];
    ptrs(pa, g->a);
    ptrs(pb, g->b);
    for (int l = 0; l < FPV_LANES; l++)
        dst[l] = &got[l];
    fpv_t a, b, r, p;
    fpv_load(&a, pa);
    fpv_load(&b, pb);
    fpv_const(&p, FPV_P);
    switch (op) {
    case OP_MUL: fpv_mul(&r, &a, &b); break;
    case OP_SQR: fpv_mul(&r, &a, &a); break;
    case OP_ADD: fpv_add(&r, &a, &b); break;
    default: fpv_sub_k(&r, &a, &b, FPV_P); break;
    }
    canon(&r);
    memset(got, 0xa5, sizeof got);
    fpv_store(dst, &r, 0xff);
    for (int l = 0; l < g->n; l++)
        CHECK(fp_eq(&got[l], &g->want[l]), "line %ld %s lane %d: IFMA result != oracle", g->line[l], OPS[op], l);
    if (op == OP_MUL || op == OP_SQR) {
        /* lazy inputs a + p, b + p (< 2p) give the same reduced product */
        fpv_t a2, b2;
        fpv_add(&a2, &a, &p);
        fpv_add(&b2, &b, &p);
        fpv_mul(&r, &a2, op == OP_MUL ? &b2 : &a2);
        canon(&r);
        memset(got, 0xa5, sizeof got);
        fpv_store(dst, &r, 0x55); /* even lanes only: odd lanes keep the fill */
        for (int l = 0; l < g->n; l++) {
            if (l & 1) {
                fp_t fill;
                memset(&fill, 0xa5, sizeof fill);
                CHECK(memcmp(&got[l], &fill, sizeof fill) == 0, "line %ld: masked store wrote lane %d", g->line[l], l);
            } else {
                CHECK(fp_eq(&got[l], &g->want[l]), "line %ld %s lane %d: lazy-input product != oracle", g->line[l],
                      OPS[op], l);
            }
        }
    }
    checked[op] += (size_t)g->n;
    g->n = 0;
}

int main(void)
{
    if (!cuzk_cpu_supported(CUZK_CPU_IFMA)) {
        printf("skipped: %s\n", "the CPU lacks AVX-512 IFMA");
        return 77;
    }
    char *line = NULL;
    size_t cap = 0;
    long line_no = 0;
    char *t[MAX_TOKENS];
    group_t groups[OP_COUNT] = {0};
    while (getline(&line, &cap, stdin) >= 0) {
        line_no++;
        int n = split_tokens(line, t, MAX_TOKENS);
        int op = -1;
        for (int i = 0; i < OP_COUNT && n > 0; i++)
            if (strcmp(t[0], OPS[i]) == 0)
                op = i;
        if (op < 0)
            continue;
        group_t *g = &groups[op];
        int binary = op != OP_SQR;
        bool ok = n == (binary ? 4 : 3) && parse_fp(&g->a[g->n], t[1]) &&
                  (!binary || parse_fp(&g->b[g->n], t[2])) && parse_fp(&g->want[g->n], t[binary ? 3 : 2]);
        CHECK(ok, "line %ld: bad %s vector", line_no, t[0]);
        if (!ok)
            continue;
        g->line[g->n] = line_no;
        if (++g->n == FPV_LANES)
            run_group(op, g);
    }
    for (int op = 0; op < OP_COUNT; op++) {
        if (groups[op].n)
            run_group(op, &groups[op]);
        CHECK(checked[op] >= 24, "only %zu %s vectors", checked[op], OPS[op]);
    }
    free(line);
    return check_summary("field_ifma");
}
