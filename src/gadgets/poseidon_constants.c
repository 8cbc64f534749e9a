/* Poseidon constants as neptune 11 derives them (round_numbers.rs, preprocessing.rs): Grain
 * LFSR round constants (round_constants.rs), Cauchy MDS (mds.rs), compressed constants
 * (preprocessing.rs) and the sparse factorisation (mds.rs factor_to_sparse_matrixes). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

#include "gadgets/poseidon.h"

static const unsigned ARITIES[] = {2, 4, 8, 11, 16, 24, 36};
static const unsigned PARTIAL[] = {55, 56, 57, 57, 59, 59, 60};
#define N_ARITIES (sizeof ARITIES / sizeof ARITIES[0])

static int arity_index(unsigned arity)
{
    for (unsigned i = 0; i < N_ARITIES; i++)
        if (ARITIES[i] == arity)
            return (int)i;
    return -1;
}

unsigned poseidon_partial_rounds(unsigned arity)
{
    int i = arity_index(arity);
    return i < 0 ? 0 : PARTIAL[i];
}

/* ---- Grain LFSR (neptune round_constants.rs) ---- */
typedef struct {
    uint8_t s[80];
} grain;

static unsigned grain_step(grain *g)
{
    unsigned nb = g->s[62] ^ g->s[51] ^ g->s[38] ^ g->s[23] ^ g->s[13] ^ g->s[0];
    memmove(g->s, g->s + 1, 79);
    g->s[79] = (uint8_t)nb;
    return nb;
}

static void grain_init(grain *g, unsigned t, unsigned rf, unsigned rp)
{
    unsigned pos = 0;
    struct {
        unsigned bits, value;
    } fields[6] = {{2, 1}, {4, 1}, {12, 255}, {12, t}, {10, rf}, {10, rp}};
    for (int f = 0; f < 6; f++)
        for (int b = (int)fields[f].bits - 1; b >= 0; b--)
            g->s[pos++] = (fields[f].value >> b) & 1;
    while (pos < 80)
        g->s[pos++] = 1;
    for (int i = 0; i < 160; i++)
        grain_step(g);
}

static unsigned grain_bit(grain *g)
{
    for (;;) {
        unsigned x = grain_step(g), y = grain_step(g);
        if (x)
            return y;
    }
}

static void grain_field(grain *g, fr_t *out)
{
    for (;;) {
        uint64_t l[4] = {0};
        for (int i = 254; i >= 0; i--)
            l[i / 64] |= (uint64_t)grain_bit(g) << (i % 64);
        if (fr_from_limbs(out, l) == CUZK_OK)
            return;
    }
}

/* ---- small matrix helpers (t x t, row-major) ---- */
static void mat_mul(fr_t *r, const fr_t *a, const fr_t *b, unsigned n)
{
    fr_t t;
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++) {
            fr_t acc = FR_ZERO;
            for (unsigned k = 0; k < n; k++) {
                fr_mul(&t, &a[i * n + k], &b[k * n + j]);
                fr_add(&acc, &acc, &t);
            }
            r[i * n + j] = acc;
        }
}

/* Gauss-Jordan inverse; false if singular. */
static bool mat_inv(fr_t *inv, const fr_t *m, unsigned n, fr_t *work)
{
    memcpy(work, m, (size_t)n * n * sizeof *work);
    for (unsigned i = 0; i < n; i++)
        for (unsigned j = 0; j < n; j++)
            inv[i * n + j] = i == j ? FR_ONE : FR_ZERO;
    fr_t t, f;
    for (unsigned c = 0; c < n; c++) {
        unsigned p = c;
        while (p < n && fr_is_zero(&work[p * n + c]))
            p++;
        if (p == n)
            return false;
        if (p != c)
            for (unsigned j = 0; j < n; j++) {
                t = work[p * n + j], work[p * n + j] = work[c * n + j], work[c * n + j] = t;
                t = inv[p * n + j], inv[p * n + j] = inv[c * n + j], inv[c * n + j] = t;
            }
        fr_inv(&f, &work[c * n + c]);
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&work[c * n + j], &work[c * n + j], &f);
            fr_mul(&inv[c * n + j], &inv[c * n + j], &f);
        }
        for (unsigned r = 0; r < n; r++) {
            if (r == c || fr_is_zero(&work[r * n + c]))
                continue;
            f = work[r * n + c];
            for (unsigned j = 0; j < n; j++) {
                fr_mul(&t, &f, &work[c * n + j]);
                fr_sub(&work[r * n + j], &work[r * n + j], &t);
                fr_mul(&t, &f, &inv[c * n + j]);
                fr_sub(&inv[r * n + j], &inv[r * n + j], &t);
            }
        }
    }
    return true;
}

/* out_j = Σ_i v_i · m[i][j] (row vector times matrix). */
static void vec_mat(fr_t *out, const fr_t *v, const fr_t *m, unsigned n)
{
    fr_t t;
    for (unsigned j = 0; j < n; j++) {
        fr_t acc = FR_ZERO;
        for (unsigned i = 0; i < n; i++) {
            fr_mul(&t, &v[i], &m[i * n + j]);
            fr_add(&acc, &acc, &t);
        }
        out[j] = acc;
    }
}

/* out_i = Σ_j m[i][j] · v_j (matrix times column vector; neptune left_apply_matrix). */
static void mat_vec(fr_t *out, const fr_t *m, const fr_t *v, unsigned n)
{
    fr_t t;
    for (unsigned i = 0; i < n; i++) {
        fr_t acc = FR_ZERO;
        for (unsigned j = 0; j < n; j++) {
            fr_mul(&t, &m[i * n + j], &v[j]);
            fr_add(&acc, &acc, &t);
        }
        out[i] = acc;
    }
}

/* partial_lc and partial_out (poseidon.h): the circuit's partial rounds on symbolic
 * variables, each state element a dense coefficient vector over [y, x_0, x_1, ...] (neptune
 * circuit.rs product_sparse: element 0 becomes sum_i w_hat_i * state_i, element j > 0 becomes
 * state_j + v_rest_{j-1} * state_0, after state_0 went through the S-box as the new x). */
static bool partial_lcs(poseidon_constants *pc)
{
    unsigned t = pc->t, rp = pc->rp, w = t + rp;
    pc->partial_lc = malloc(((size_t)rp * t + (size_t)rp * (rp - 1) / 2) * sizeof(fr_t));
    pc->partial_out = calloc((size_t)t * w, sizeof(fr_t));
    fr_t *o0 = malloc(w * sizeof(fr_t));
    bool ok = pc->partial_lc && pc->partial_out && o0;
    if (ok) {
        fr_t *d = pc->partial_out, *row = pc->partial_lc; /* d[j * w + k]: element j, basis k */
        for (unsigned j = 0; j < t; j++)
            for (unsigned k = 0; k < t; k++)
                d[j * w + k] = pc->pre_sparse[k * t + j];
        for (unsigned r = 0; r < rp; r++) {
            unsigned n = t + r; /* basis in use before x_r */
            memcpy(row, d, n * sizeof(fr_t));
            row += n;
            const fr_t *wh = pc->w_hat + (size_t)r * t, *vr = pc->v_rest + (size_t)r * (t - 1);
            for (unsigned k = 0; k < w; k++)
                o0[k] = FR_ZERO;
            for (unsigned i = 1; i < t; i++)
                for (unsigned k = 0; k < n; k++) {
                    fr_t x;
                    fr_mul(&x, &wh[i], &d[i * w + k]);
                    fr_add(&o0[k], &o0[k], &x);
                }
            o0[n] = wh[0]; /* state_0 is x_r */
            for (unsigned j = 1; j < t; j++)
                d[j * w + n] = vr[j - 1];
            memcpy(d, o0, w * sizeof(fr_t));
        }
    }
    free(o0);
    return ok;
}

static bool build(poseidon_constants *pc, unsigned arity, unsigned rp)
{
    unsigned t = arity + 1, rf = 8, half = rf / 2, tt = t * t;
    pc->arity = arity, pc->t = t, pc->rf = rf, pc->rp = rp;
    size_t nrc = (size_t)t * (rf + rp);
    pc->rc = malloc(nrc * sizeof(fr_t));
    pc->m = malloc(tt * sizeof(fr_t));
    pc->minv = malloc(tt * sizeof(fr_t));
    pc->compressed = malloc(((size_t)rf * t + rp) * sizeof(fr_t));
    pc->pre_sparse = malloc(tt * sizeof(fr_t));
    pc->w_hat = malloc((size_t)rp * t * sizeof(fr_t));
    pc->v_rest = malloc((size_t)rp * (t - 1) * sizeof(fr_t));
    fr_t *work = malloc(6 * tt * sizeof(fr_t)), *vec = malloc(2 * t * sizeof(fr_t));
    fr_t *cur = work + tt, *mp = work + 2 * tt, *minor = work + 3 * tt, *minor_inv = work + 4 * tt,
         *scratch = work + 5 * tt;
    bool ok = pc->rc && pc->m && pc->minv && pc->compressed && pc->pre_sparse && pc->w_hat &&
              pc->v_rest && work && vec;
    if (!ok)
        goto out;

    grain g;
    grain_init(&g, t, rf, rp);
    for (size_t i = 0; i < nrc; i++)
        grain_field(&g, &pc->rc[i]);

    /* Cauchy MDS: M[i][j] = 1 / (i + (t + j)) */
    for (unsigned i = 0; i < t; i++)
        for (unsigned j = 0; j < t; j++) {
            fr_t x;
            fr_from_u64(&x, (uint64_t)i + t + j);
            fr_inv(&pc->m[i * t + j], &x);
        }
    if (!(ok = mat_inv(pc->minv, pc->m, t, work)))
        goto out;

    /* compressed round constants */
    fr_t *c = pc->compressed;
    const fr_t *rk = pc->rc;
    memcpy(c, rk, t * sizeof(fr_t));
    c += t;
    for (unsigned i = 0; i < half - 1; i++, c += t)
        vec_mat(c, rk + (size_t)(i + 1) * t, pc->minv, t);
    fr_t *acc = vec, *inv = vec + t;
    memcpy(acc, rk + (size_t)(half + rp) * t, t * sizeof(fr_t));
    fr_t *partial = malloc(rp * sizeof(fr_t));
    if (!(ok = partial != NULL))
        goto out;
    for (unsigned i = 0; i < rp; i++) {
        vec_mat(inv, acc, pc->minv, t);
        partial[i] = inv[0];
        inv[0] = FR_ZERO;
        const fr_t *prev = rk + (size_t)(half + rp - 1 - i) * t;
        for (unsigned j = 0; j < t; j++)
            fr_add(&acc[j], &prev[j], &inv[j]);
    }
    vec_mat(c, acc, pc->minv, t);
    c += t;
    for (unsigned i = 0; i < rp; i++)
        *c++ = partial[rp - 1 - i];
    free(partial);
    for (unsigned i = 1; i < half; i++, c += t)
        vec_mat(c, rk + (size_t)(half + rp + i) * t, pc->minv, t);

    /* sparse factorisation; matrices are produced last-first, then reversed */
    memcpy(cur, pc->m, tt * sizeof(fr_t));
    unsigned n1 = t - 1;
    for (unsigned k = 0; k < rp; k++) {
        for (unsigned i = 0; i < n1; i++)
            for (unsigned j = 0; j < n1; j++)
                minor[i * n1 + j] = cur[(i + 1) * t + (j + 1)];
        if (!(ok = mat_inv(minor_inv, minor, n1, scratch)))
            goto out;
        unsigned dst = rp - 1 - k;
        fr_t *wh = pc->w_hat + (size_t)dst * t, *vr = pc->v_rest + (size_t)dst * n1;
        for (unsigned i = 0; i < n1; i++)
            vec[i] = cur[(i + 1) * t];
        wh[0] = cur[0];
        mat_vec(wh + 1, minor_inv, vec, n1);
        memcpy(vr, cur + 1, n1 * sizeof(fr_t));
        for (unsigned i = 0; i < t; i++)
            for (unsigned j = 0; j < t; j++)
                mp[i * t + j] = (i == 0) ? (j == 0 ? FR_ONE : FR_ZERO)
                                         : (j == 0 ? FR_ZERO : cur[i * t + j]);
        mat_mul(cur, pc->m, mp, t);
    }
    memcpy(pc->pre_sparse, cur, tt * sizeof(fr_t));
    ok = partial_lcs(pc);
out:
    free(work);
    free(vec);
    return ok;
}

static poseidon_constants g_pc[N_ARITIES];
static bool g_ready[N_ARITIES];
static pthread_mutex_t g_lock = PTHREAD_MUTEX_INITIALIZER;

cuzk_status poseidon_get_constants(unsigned arity, const poseidon_constants **out, cuzk_error *err)
{
    int i = arity_index(arity);
    if (i < 0)
        return cuzk_fail(err, CUZK_E_UNSUPPORTED, "poseidon: arity %u not supported "
                         "(2, 4, 8, 11, 16, 24, 36)", arity);
    pthread_mutex_lock(&g_lock);
    if (!g_ready[i]) {
        if (!build(&g_pc[i], arity, PARTIAL[i])) {
            poseidon_constants *pc = &g_pc[i];
            free(pc->rc), free(pc->m), free(pc->minv), free(pc->compressed);
            free(pc->pre_sparse), free(pc->w_hat), free(pc->v_rest);
            free(pc->partial_lc), free(pc->partial_out);
            memset(pc, 0, sizeof *pc);
            pthread_mutex_unlock(&g_lock);
            return cuzk_fail(err, CUZK_E_NOMEM, "poseidon: constants for arity %u", arity);
        }
        g_ready[i] = true;
    }
    pthread_mutex_unlock(&g_lock);
    *out = &g_pc[i];
    return CUZK_OK;
}

void poseidon_tag_merkle(unsigned arity, fr_t *tag)
{
    fr_from_u64(tag, (arity >= 64 ? 0 : (1ull << arity)) - 1);
}

void poseidon_tag_custom(unsigned id, fr_t *tag)
{
    fr_from_u64(tag, (uint64_t)id << 40);
}
