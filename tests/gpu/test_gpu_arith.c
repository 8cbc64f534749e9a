/* Device field and curve arithmetic against the @noble/curves vectors and the CPU code, on every
 * device (gpu_test_util.h).
 *
 * stdin: the lines of tests/oracle/gen-field.mjs and gen-curve.mjs (format: tests/oracle/
 * README.md). Used: fp_/fr_ add, sub, mul, neg, dbl, sqr, inv and bytes (canonical <->
 * Montgomery), g1_ add, dbl, neg. Inputs are decoded by the CPU code into its Montgomery
 * fp_t / fr_t / g1_affine_t arrays and uploaded byte for byte; every device result must equal
 * the CPU's bytes of the oracle's value (so a non-reduced device result, or any layout
 * difference between the CPU and device forms, fails). Each operation runs as one launch over
 * all its vectors (kernels gpu_test_fp / gpu_test_fr / gpu_test_g1, test_kernels.h).
 *
 * Beyond the vectors, with the CPU code as the twin: eq / is_zero / one / pow_u32, the G1
 * "mixed chain" ([6]p + [8]q through XYZZ and Jacobian formulas on projective operands), and
 * the batch-affine pairwise sum (gpu_g1_sum_affine) of point lists with infinities, repeated
 * points (doubling inside a batch), opposite points and sums that meet again at later levels.
 * Every operation must have had vectors, so a generator that stops emitting one fails the test.
 *
 * `--cpu-twin` (tests/gpu/device-check.sh, where node and the oracle's npm packages may be
 * missing): no stdin; the vectors are edge values (0, 1, 2, m - 1, m - 2, (m - 1) / 2, powers
 * of two) and seeded random values, G1 points with infinity, P + P and P + (-P), and every
 * expected value comes from the CPU code, which the oracle checks in every CI run.
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "curve/curve.h"
#include "field/fp.h"
#include "field/fr.h"
#include "gpu/g1_sum.h"
#include "gpu/kernels/test_ops.h"
#include "gpu_test_util.h"

#define MAX_TOK 8

/* A growing array of vectors: per entry, inputs a and b and the expected result r, each `es`
 * bytes (device element layout = CPU bytes). */
typedef struct {
    size_t n, cap, es;
    uint8_t *a, *b, *r;
} vecs;

static void vecs_push(vecs *v, const void *a, const void *b, const void *r)
{
    if (v->n == v->cap) {
        v->cap = v->cap ? 2 * v->cap : 64;
        v->a = realloc(v->a, v->cap * v->es);
        v->b = realloc(v->b, v->cap * v->es);
        v->r = realloc(v->r, v->cap * v->es);
        if (!v->a || !v->b || !v->r) {
            fprintf(stderr, "out of memory\n");
            exit(1);
        }
    }
    memcpy(v->a + v->n * v->es, a, v->es);
    memcpy(v->b + v->n * v->es, b ? b : a, v->es);
    memcpy(v->r + v->n * v->es, r, v->es);
    v->n++;
}

static void vecs_free(vecs *v)
{
    free(v->a);
    free(v->b);
    free(v->r);
}

#define NFIELD_OPS 13
static vecs fld[2][NFIELD_OPS]; /* [0] Fp, [1] Fr */
static const char *const field_op_names[NFIELD_OPS] = {"add", "sub", "mul", "sqr", "neg", "dbl", "inv",
                                                        "to_mont", "from_mont", "eq", "is_zero", "one", "pow_u32"};
#define NG1_OPS 9
static vecs g1v[NG1_OPS];
static const char *const g1_op_names[NG1_OPS] = {"xyzz_add", "xyzz_add_affine", "xyzz_dbl", "xyzz_neg", "jac_add",
                                                  "jac_add_affine", "jac_dbl", "affine_add", "mixed_chain"};
static long line_no;

/* canonical big-endian hex -> CPU Montgomery bytes of field f (0 Fp, 1 Fr) */
static bool decode_elem(int f, uint8_t *out, const char *hex)
{
    uint8_t be[48];
    size_t nb = f ? FR_BYTES : FP_BYTES;
    if (hex_decode(be, sizeof be, hex) != (long)nb) {
        CHECK(false, "line %ld: bad field token", line_no);
        return false;
    }
    cuzk_status st = f ? fr_from_bytes_be((fr_t *)out, be) : fp_from_bytes_be((fp_t *)out, be);
    CHECK(st == CUZK_OK, "line %ld: token is not canonical", line_no);
    return st == CUZK_OK;
}

static bool decode_g1(g1_affine_t *p, const char *hex)
{
    uint8_t b[G1_UNCOMPRESSED_BYTES];
    if (hex_decode(b, sizeof b, hex) != G1_UNCOMPRESSED_BYTES) {
        CHECK(false, "line %ld: bad G1 token", line_no);
        return false;
    }
    cuzk_status st = g1_from_bytes(p, b, sizeof b, false);
    CHECK(st == CUZK_OK, "line %ld: G1 token does not decode: %s", line_no, cuzk_status_name(st));
    return st == CUZK_OK;
}

static void cpu_pow(int f, uint8_t *r, const uint8_t *a, uint32_t e)
{
    uint64_t ee = e;
    if (f)
        fr_pow((fr_t *)r, (const fr_t *)a, &ee, 1);
    else
        fp_pow((fp_t *)r, (const fp_t *)a, &ee, 1);
}

static void field_line(int f, const char *op, char **tok, int nt)
{
    size_t es = f ? sizeof(fr_t) : sizeof(fp_t);
    uint8_t a[48] = {0}, b[48] = {0}, r[48] = {0}, z[48] = {0};
    int code = -1;
    if (!strcmp(op, "add"))
        code = GPU_TEST_ADD;
    else if (!strcmp(op, "sub"))
        code = GPU_TEST_SUB;
    else if (!strcmp(op, "mul"))
        code = GPU_TEST_MUL;
    if (code >= 0) {
        if (nt != 4 || !decode_elem(f, a, tok[1]) || !decode_elem(f, b, tok[2]) || !decode_elem(f, r, tok[3]))
            return;
        vecs_push(&fld[f][code], a, b, r);
        if (code == GPU_TEST_ADD) { /* eq, is_zero and pow_u32 ride on the add vectors */
            uint8_t one[48] = {1};
            vecs_push(&fld[f][GPU_TEST_EQ], a, b, memcmp(a, b, es) ? z : one);
            vecs_push(&fld[f][GPU_TEST_EQ], a, a, one);
            vecs_push(&fld[f][GPU_TEST_IS_ZERO], a, a, memcmp(a, z, es) ? z : one);
            uint32_t e = (uint32_t)line_no * 2654435761u;
            uint8_t eb[48] = {0};
            memcpy(eb, &e, 4);
            cpu_pow(f, r, a, e);
            vecs_push(&fld[f][GPU_TEST_POW_U32], a, eb, r);
        }
        return;
    }
    static const struct {
        const char *name;
        int code;
    } unary[] = {{"neg", GPU_TEST_NEG}, {"dbl", GPU_TEST_DBL}, {"sqr", GPU_TEST_SQR}, {"inv", GPU_TEST_INV}};
    for (size_t i = 0; i < sizeof unary / sizeof unary[0]; i++)
        if (!strcmp(op, unary[i].name)) {
            if (nt == 3 && decode_elem(f, a, tok[1]) && decode_elem(f, r, tok[2]))
                vecs_push(&fld[f][unary[i].code], a, NULL, r);
            return;
        }
    if (!strcmp(op, "bytes")) {
        /* F_bytes be le: the canonical value as little-endian bytes is its canonical limb form */
        uint8_t le[48];
        if (nt != 3 || !decode_elem(f, a, tok[1]) || hex_decode(le, sizeof le, tok[2]) != (long)es)
            return;
        vecs_push(&fld[f][GPU_TEST_TO_MONT], le, NULL, a);
        vecs_push(&fld[f][GPU_TEST_FROM_MONT], a, NULL, le);
        if (fld[f][GPU_TEST_ONE].n == 0)
            vecs_push(&fld[f][GPU_TEST_ONE], a, NULL, f ? (const void *)&FR_ONE : (const void *)&FP_ONE);
    }
}

static void g1_line(const char *op, char **tok, int nt)
{
    g1_affine_t p, q, r;
    if (!strcmp(op, "add")) {
        if (nt != 4 || !decode_g1(&p, tok[1]) || !decode_g1(&q, tok[2]) || !decode_g1(&r, tok[3]))
            return;
        for (int c = 0; c < NG1_OPS; c++)
            if (c == GPU_TEST_G1_XYZZ_ADD || c == GPU_TEST_G1_XYZZ_ADD_AFFINE || c == GPU_TEST_G1_JAC_ADD ||
                c == GPU_TEST_G1_JAC_ADD_AFFINE || c == GPU_TEST_G1_AFFINE_ADD)
                vecs_push(&g1v[c], &p, &q, &r);
        /* CPU twin of the chain: [6]p + [8]q */
        g1_jac_t jp, jq, s;
        uint64_t six = 6, eight = 8;
        g1_jac_from_affine(&jp, &p);
        g1_jac_from_affine(&jq, &q);
        g1_mul(&jp, &jp, &six, 1);
        g1_mul(&jq, &jq, &eight, 1);
        g1_add(&s, &jp, &jq);
        g1_affine_from_jac(&r, &s);
        vecs_push(&g1v[GPU_TEST_G1_MIXED_CHAIN], &p, &q, &r);
    } else if (!strcmp(op, "dbl")) {
        if (nt != 3 || !decode_g1(&p, tok[1]) || !decode_g1(&r, tok[2]))
            return;
        vecs_push(&g1v[GPU_TEST_G1_XYZZ_DBL], &p, NULL, &r);
        vecs_push(&g1v[GPU_TEST_G1_JAC_DBL], &p, NULL, &r);
        vecs_push(&g1v[GPU_TEST_G1_XYZZ_ADD], &p, &p, &r);
        vecs_push(&g1v[GPU_TEST_G1_AFFINE_ADD], &p, &p, &r);
    } else if (!strcmp(op, "neg")) {
        if (nt == 3 && decode_g1(&p, tok[1]) && decode_g1(&r, tok[2]))
            vecs_push(&g1v[GPU_TEST_G1_XYZZ_NEG], &p, NULL, &r);
    }
}

/* ---------------------------------------------------------------- --cpu-twin vectors */

static uint64_t twin_seed = 0x7477696e5f766563ULL;
static uint64_t twin_rand(void)
{
    uint64_t z = (twin_seed += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* the CPU's result of field op `code` on Montgomery elements a, b (bytes of fp_t / fr_t) */
static void cpu_field_op(int f, int code, uint8_t *r, const uint8_t *a, const uint8_t *b)
{
    if (f) {
        fr_t *x = (fr_t *)a, *y = (fr_t *)b, *z = (fr_t *)r;
        switch (code) {
        case GPU_TEST_ADD: fr_add(z, x, y); break;
        case GPU_TEST_SUB: fr_sub(z, x, y); break;
        case GPU_TEST_MUL: fr_mul(z, x, y); break;
        case GPU_TEST_SQR: fr_sqr(z, x); break;
        case GPU_TEST_NEG: fr_neg(z, x); break;
        case GPU_TEST_DBL: fr_dbl(z, x); break;
        default: fr_inv(z, x); break;
        }
    } else {
        fp_t *x = (fp_t *)a, *y = (fp_t *)b, *z = (fp_t *)r;
        switch (code) {
        case GPU_TEST_ADD: fp_add(z, x, y); break;
        case GPU_TEST_SUB: fp_sub(z, x, y); break;
        case GPU_TEST_MUL: fp_mul(z, x, y); break;
        case GPU_TEST_SQR: fp_sqr(z, x); break;
        case GPU_TEST_NEG: fp_neg(z, x); break;
        case GPU_TEST_DBL: fp_dbl(z, x); break;
        default: fp_inv(z, x); break;
        }
    }
}

static void twin_field(int f)
{
    size_t nl = f ? FR_LIMBS : FP_LIMBS, es = f ? sizeof(fr_t) : sizeof(fp_t);
    const uint64_t *mod = f ? FR_MODULUS : FP_MODULUS;
    enum { NV = 48 };
    uint64_t canon[NV][FP_LIMBS];
    size_t nv = 0;
    memset(canon, 0, sizeof canon);
    for (uint64_t small = 0; small < 3; small++)
        canon[nv++][0] = small;                                  /* 0, 1, 2 */
    for (uint64_t d = 1; d <= 2; d++, nv++) {                    /* m - 1, m - 2 */
        memcpy(canon[nv], mod, nl * 8);
        canon[nv][0] -= d;
    }
    memcpy(canon[nv], mod, nl * 8);                              /* (m - 1) / 2 */
    canon[nv][0] -= 1;
    for (size_t i = 0; i < nl; i++)
        canon[nv][i] = (canon[nv][i] >> 1) | (i + 1 < nl ? canon[nv][i + 1] << 63 : 0);
    nv++;
    for (unsigned k = 63; k < 64 * nl - 3 && nv < 16; k += 64)   /* 2^63, 2^127, ... */
        canon[nv++][k / 64] = 1ULL << (k % 64);
    while (nv < NV) {                                            /* random, reduced by the CPU */
        for (size_t i = 0; i < nl; i++)
            canon[nv][i] = twin_rand();
        canon[nv][nl - 1] &= f ? 0x3fffffffffffffffULL : 0x0fffffffffffffffULL;
        nv++;
    }
    uint8_t mont[NV][48], r[48], z[48] = {0}, one[48] = {1};
    for (size_t i = 0; i < nv; i++) {
        cuzk_status st = f ? fr_from_limbs((fr_t *)mont[i], canon[i]) : fp_from_limbs((fp_t *)mont[i], canon[i]);
        CHECK(st == CUZK_OK, "twin value %zu is not canonical", i);
    }
    for (size_t i = 0; i < nv; i++) {
        for (size_t j = 0; j < nv; j++)
            for (int code = GPU_TEST_ADD; code <= GPU_TEST_MUL; code++) {
                cpu_field_op(f, code, r, mont[i], mont[j]);
                vecs_push(&fld[f][code], mont[i], mont[j], r);
            }
        for (int code = GPU_TEST_SQR; code <= GPU_TEST_INV; code++) {
            cpu_field_op(f, code, r, mont[i], NULL);
            vecs_push(&fld[f][code], mont[i], NULL, r);
        }
        vecs_push(&fld[f][GPU_TEST_TO_MONT], canon[i], NULL, mont[i]);
        vecs_push(&fld[f][GPU_TEST_FROM_MONT], mont[i], NULL, canon[i]);
        vecs_push(&fld[f][GPU_TEST_EQ], mont[i], mont[(i + 1) % nv], memcmp(mont[i], mont[(i + 1) % nv], es) ? z : one);
        vecs_push(&fld[f][GPU_TEST_EQ], mont[i], mont[i], one);
        vecs_push(&fld[f][GPU_TEST_IS_ZERO], mont[i], NULL, memcmp(mont[i], z, es) ? z : one);
        uint32_t e = (uint32_t)twin_rand();
        uint8_t eb[48] = {0};
        memcpy(eb, &e, 4);
        cpu_pow(f, r, mont[i], e);
        vecs_push(&fld[f][GPU_TEST_POW_U32], mont[i], eb, r);
    }
    vecs_push(&fld[f][GPU_TEST_ONE], mont[0], NULL, f ? (const void *)&FR_ONE : (const void *)&FP_ONE);
}

static void twin_g1(void)
{
    enum { NP = 24 };
    g1_affine_t pts[NP + 1], g;
    g1_jac_t j[NP];
    g1_generator(&g);
    for (int i = 0; i < NP; i++) {
        g1_jac_t gj;
        g1_jac_from_affine(&gj, &g);
        uint64_t k[4] = {twin_rand(), twin_rand(), twin_rand(), twin_rand() >> 3};
        g1_mul(&j[i], &gj, k, 4);
    }
    g1_batch_to_affine(pts, j, NP);
    g1_affine_set_infinity(&pts[NP]);
    for (int i = 0; i <= NP; i++) {
        g1_affine_t p = pts[i], qs[4], r;
        qs[0] = pts[(i + 1) % (NP + 1)];
        qs[1] = p;
        g1_affine_neg(&qs[2], &p);
        g1_affine_set_infinity(&qs[3]);
        for (int v = 0; v < 4; v++) {
            g1_jac_t jp, s;
            g1_jac_from_affine(&jp, &p);
            g1_add_mixed(&s, &jp, &qs[v]);
            g1_affine_from_jac(&r, &s);
            char ptok[2 * G1_UNCOMPRESSED_BYTES + 1], qtok[2 * G1_UNCOMPRESSED_BYTES + 1], rtok[2 * G1_UNCOMPRESSED_BYTES + 1];
            uint8_t enc[G1_UNCOMPRESSED_BYTES];
            g1_to_uncompressed(enc, &p);
            hex_encode(ptok, enc, sizeof enc);
            g1_to_uncompressed(enc, &qs[v]);
            hex_encode(qtok, enc, sizeof enc);
            g1_to_uncompressed(enc, &r);
            hex_encode(rtok, enc, sizeof enc);
            char *tok[4] = {"g1_add", ptok, qtok, rtok};
            g1_line("add", tok, 4);
        }
        g1_jac_t jp, d;
        g1_jac_from_affine(&jp, &p);
        g1_dbl(&d, &jp);
        g1_affine_from_jac(&r, &d);
        vecs_push(&g1v[GPU_TEST_G1_XYZZ_DBL], &p, NULL, &r);
        vecs_push(&g1v[GPU_TEST_G1_JAC_DBL], &p, NULL, &r);
        g1_affine_neg(&r, &p);
        vecs_push(&g1v[GPU_TEST_G1_XYZZ_NEG], &p, NULL, &r);
    }
}

static void read_vectors(void)
{
    char *line = NULL;
    size_t cap = 0;
    ssize_t len;
    while ((len = getline(&line, &cap, stdin)) > 0) {
        line_no++;
        char *tok[MAX_TOK];
        int nt = split_tokens(line, tok, MAX_TOK);
        if (nt == 0 || tok[0][0] == '#')
            continue;
        if (!strncmp(tok[0], "fp_", 3))
            field_line(0, tok[0] + 3, tok, nt);
        else if (!strncmp(tok[0], "fr_", 3))
            field_line(1, tok[0] + 3, tok, nt);
        else if (!strncmp(tok[0], "g1_", 3))
            g1_line(tok[0] + 3, tok, nt);
    }
    free(line);
}

/* Upload v's inputs, launch kernel(op, a, b, r, n), download r and compare with v->r. */
static void run_vecs(gpu_test_dev *d, const char *kernel, const char *what, int op, const vecs *v)
{
    CHECK(v->n > 0, "%s op %s: no vectors", kernel, what);
    if (!v->n)
        return;
    cuzk_error err = {0};
    size_t bytes = v->n * v->es;
    gpu_buffer *a = NULL, *b = NULL, *r = NULL;
    uint8_t *out = calloc(v->n, v->es);
    cuzk_status st = gpu_buffer_alloc(d->dev, bytes, &a, &err);
    if (!st)
        st = gpu_buffer_alloc(d->dev, bytes, &b, &err);
    if (!st)
        st = gpu_buffer_alloc(d->dev, bytes, &r, &err);
    if (!st)
        st = gpu_upload(d->q, a, 0, v->a, bytes, &err);
    if (!st)
        st = gpu_upload(d->q, b, 0, v->b, bytes, &err);
    if (!st) {
        gpu_arg args[] = {gpu_arg_u32((uint32_t)op), gpu_arg_buf(a), gpu_arg_buf(b), gpu_arg_buf(r),
                          gpu_arg_u32((uint32_t)v->n)};
        st = gpu_launch(d->q, kernel, (v->n + 63) / 64, 64, args, 5, &err);
    }
    if (!st)
        st = gpu_download(d->q, out, r, 0, bytes, &err);
    if (!st)
        st = gpu_queue_sync(d->q, &err);
    if (!gpu_test_ok(st, &err, what, d->label)) {
        unsigned bad = 0;
        for (size_t i = 0; i < v->n; i++)
            if (memcmp(out + i * v->es, v->r + i * v->es, v->es)) {
                if (bad++ < 3) {
                    char got[2 * 192 + 1], want[2 * 192 + 1];
                    hex_encode(got, out + i * v->es, v->es);
                    hex_encode(want, v->r + i * v->es, v->es);
                    fprintf(stderr, "  %s %s #%zu: device %s\n  expected %s\n", kernel, what, i, got, want);
                }
            }
        CHECK(bad == 0, "%s: %s %s: %u of %zu results differ from the oracle", d->label, kernel, what, bad, v->n);
        if (!bad)
            check_passed += v->n - 1; /* count every vector */
    }
    gpu_buffer_free(a);
    gpu_buffer_free(b);
    gpu_buffer_free(r);
    free(out);
}

/* ---------------------------------------------------------------- batch-affine sum */

static uint64_t rng_state = 0x6770755f73756dULL;
static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

/* n points: random multiples of the generator, with every shape the levels must handle */
static void make_points(g1_affine_t *pts, size_t n, int shape)
{
    g1_affine_t g;
    g1_generator(&g);
    g1_jac_t *j = malloc(n * sizeof *j + 1);
    for (size_t i = 0; i < n; i++) {
        g1_jac_t gj;
        g1_jac_from_affine(&gj, &g);
        uint64_t k[4] = {rnd(), rnd(), rnd(), rnd() >> 2};
        g1_mul(&j[i], &gj, k, 4);
    }
    g1_batch_to_affine(pts, j, n);
    free(j);
    for (size_t i = 0; i < n; i++) {
        switch (shape) {
        case 1: /* pairs P, P: doubling in the first level */
            if (i % 2)
                pts[i] = pts[i - 1];
            break;
        case 2: /* pairs P, -P: infinity in the first level */
            if (i % 2)
                g1_affine_neg(&pts[i], &pts[i - 1]);
            break;
        case 3: /* P, Q, P, Q: the sums meet in the second level (doubling) */
            if (i % 4 >= 2)
                pts[i] = pts[i - 2];
            break;
        case 4: /* P, Q, -P, -Q: opposite sums in the second level */
            if (i % 4 >= 2)
                g1_affine_neg(&pts[i], &pts[i - 2]);
            break;
        case 5: /* a third of the points at infinity */
            if (rnd() % 3 == 0)
                g1_affine_set_infinity(&pts[i]);
            break;
        case 6: /* everything at infinity */
            g1_affine_set_infinity(&pts[i]);
            break;
        default:
            break;
        }
    }
}

static void test_sum(gpu_test_dev *d)
{
    static const size_t sizes[] = {0, 1, 2, 3, 4, 5, 7, 8, 31, 64, 257, 1000, 4097};
    for (int shape = 0; shape <= 6; shape++)
        for (size_t si = 0; si < sizeof sizes / sizeof sizes[0]; si++) {
            size_t n = sizes[si];
            if (shape && n > 1000)
                continue;
            g1_affine_t *pts = malloc((n ? n : 1) * sizeof *pts);
            make_points(pts, n, shape);
            g1_jac_t acc;
            g1_jac_set_infinity(&acc);
            for (size_t i = 0; i < n; i++)
                g1_add_mixed(&acc, &acc, &pts[i]);
            g1_affine_t want, got;
            g1_affine_from_jac(&want, &acc);
            cuzk_error err = {0};
            gpu_buffer *b = NULL;
            cuzk_status st = gpu_buffer_alloc(d->dev, (n ? n : 1) * sizeof *pts, &b, &err);
            if (!st && n)
                st = gpu_upload(d->q, b, 0, pts, n * sizeof *pts, &err);
            if (!st)
                st = gpu_g1_sum_affine(d->q, b, n, &got, &err);
            char what[64];
            snprintf(what, sizeof what, "sum of %zu points, shape %d", n, shape);
            if (!gpu_test_ok(st, &err, what, d->label))
                CHECK(!memcmp(&got, &want, sizeof got), "%s: %s differs from the CPU sum", d->label, what);
            gpu_buffer_free(b);
            free(pts);
        }
}

int main(int argc, char **argv)
{
    bool twin = argc > 1 && !strcmp(argv[1], "--cpu-twin");
    if (argc > 1 && !twin) {
        fprintf(stderr, "usage: test_gpu_arith [--cpu-twin] (vectors of gen-field / gen-curve on stdin)\n");
        return 2;
    }
    for (int f = 0; f < 2; f++)
        for (int i = 0; i < NFIELD_OPS; i++)
            fld[f][i].es = f ? sizeof(fr_t) : sizeof(fp_t);
    for (int i = 0; i < NG1_OPS; i++)
        g1v[i].es = sizeof(g1_affine_t);
    if (twin) {
        twin_field(0);
        twin_field(1);
        twin_g1();
    } else {
        read_vectors();
        CHECK(line_no > 0, "no vectors on stdin");
    }

    gpu_test_dev devs[GPU_TEST_MAX_DEVICES];
    size_t nd = gpu_test_open_all(devs, &gpu_program_test_);
    for (size_t i = 0; i < nd; i++) {
        for (int op = 0; op < NFIELD_OPS; op++) {
            char what[32];
            snprintf(what, sizeof what, "fp_%s", field_op_names[op]);
            run_vecs(&devs[i], "gpu_test_fp", what, op, &fld[0][op]);
            snprintf(what, sizeof what, "fr_%s", field_op_names[op]);
            run_vecs(&devs[i], "gpu_test_fr", what, op, &fld[1][op]);
        }
        for (int op = 0; op < NG1_OPS; op++) {
            char what[32];
            snprintf(what, sizeof what, "g1_%s", g1_op_names[op]);
            run_vecs(&devs[i], "gpu_test_g1", what, op, &g1v[op]);
        }
        test_sum(&devs[i]);
    }
    gpu_test_close_all(devs, nd);
    for (int f = 0; f < 2; f++)
        for (int i = 0; i < NFIELD_OPS; i++)
            vecs_free(&fld[f][i]);
    for (int i = 0; i < NG1_OPS; i++)
        vecs_free(&g1v[i]);
    return check_summary("gpu_arith");
}
