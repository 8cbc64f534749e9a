/* Groth16 prover with the split start/finish API; contracts and formulas in groth16.h.
 * The witness queries A, B (G1 and G2) and L use the witness-aware MSM (msm_*_witness:
 * zeros skipped, ones summed, small values in a short Pippenger); H, whose scalars are
 * dense field elements, the plain one. */
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#include "groth16/groth16.h"
#include "msm/msm.h"

/* The witness in sparse form over [inputs | aux] (groth16.h, compact assignments). */
typedef struct {
    uint64_t *ones, *big; /* nvars / 64 + 1 words each */
    uint64_t *bigs;       /* canonical limbs of the big values, in variable order */
    size_t n_big, n_big_inputs;
    uint64_t *b_density;  /* a copy, for prove_finish */
} sparse_witness;

struct groth16_pending {
    const groth16_params_t *params;
    g1_jac_t a;   /* final A */
    g1_jac_t c;   /* final C */
    fr_t s;
    uint64_t *wb; /* canonical scalars of the B-dense variables, n_b x 4 limbs (plain witness) */
    size_t n_b;
    sparse_witness sw; /* compact witness: the B_G2 MSM reads this instead of wb */
    size_t nvars;
};

static void sparse_free(sparse_witness *sw)
{
    free(sw->ones);
    free(sw->big);
    free(sw->bigs);
    free(sw->b_density);
    memset(sw, 0, sizeof *sw);
}

static msm_sparse_scalars_t sparse_view(const sparse_witness *sw, size_t first, size_t n, bool aux_only)
{
    msm_sparse_scalars_t v = {n, first, sw->ones, sw->big, sw->bigs, sw->n_big};
    if (aux_only) {
        v.big_scalars = sw->bigs + 4 * sw->n_big_inputs;
        v.n_big = sw->n_big - sw->n_big_inputs;
    }
    return v;
}

/* The sparse form of a compact assignment: bitmaps over all variables, the inputs' big
 * values then the aux's, canonical. */
static cuzk_status make_sparse(const groth16_params_t *pp, const groth16_assignment_t *asg,
                               const groth16_compact_witness_t *cw, sparse_witness *sw, cuzk_error *err)
{
    size_t ni = pp->n_inputs, na = pp->n_aux, nv = ni + na, words = nv / 64 + 1;
    memset(sw, 0, sizeof *sw);
    size_t in_big = 0;
    for (size_t i = 0; i < ni; i++)
        if (!fr_is_zero(&cw->inputs[i]) && !fr_is_one(&cw->inputs[i]))
            in_big++;
    sw->ones = calloc(words, sizeof *sw->ones);
    sw->big = calloc(words, sizeof *sw->big);
    sw->bigs = malloc((in_big + cw->aux->n_big + 1) * 4 * sizeof *sw->bigs);
    if (asg->b_density)
        sw->b_density = malloc(words * sizeof *sw->b_density);
    if (!sw->ones || !sw->big || !sw->bigs || (asg->b_density && !sw->b_density)) {
        sparse_free(sw);
        return cuzk_fail(err, CUZK_E_NOMEM, "groth16_prove_start: out of memory for the sparse witness");
    }
    for (size_t i = 0; i < ni; i++) {
        const fr_t *x = &cw->inputs[i];
        if (fr_is_one(x))
            sw->ones[i / 64] |= 1ull << (i % 64);
        else if (!fr_is_zero(x)) {
            sw->big[i / 64] |= 1ull << (i % 64);
            fr_to_limbs(sw->bigs + 4 * sw->n_big++, x);
        }
    }
    sw->n_big_inputs = sw->n_big;
    cs_bits_copy(sw->ones, ni, cw->aux->ones, na);
    cs_bits_copy(sw->big, ni, cw->aux->big, na);
    for (uint64_t k = 0; k < cw->aux->n_big; k++)
        fr_to_limbs(sw->bigs + 4 * sw->n_big++, &cw->aux->vals[k]);
    if (asg->b_density)
        memcpy(sw->b_density, asg->b_density, words * sizeof *sw->b_density);
    return CUZK_OK;
}

static cuzk_status random_fr(fr_t *out, cuzk_error *err)
{
    /* 512 uniform bits reduced mod r (bias < 2^-250): lo + hi * 2^256. */
    uint64_t buf[8];
    size_t got = 0;
    while (got < sizeof buf) {
        ssize_t n = getrandom((uint8_t *)buf + got, sizeof buf - got, 0);
        if (n <= 0)
            return cuzk_fail(err, CUZK_E_IO, "getrandom failed while drawing proof randomness");
        got += (size_t)n;
    }
    static const uint64_t two128[4] = {0, 0, 1, 0};
    fr_t lo, hi, shift;
    fr_from_limbs_reduce(&lo, buf);
    fr_from_limbs_reduce(&hi, buf + 4);
    fr_from_limbs(&shift, two128);
    fr_sqr(&shift, &shift); /* 2^256 mod r */
    fr_mul(&hi, &hi, &shift);
    fr_add(out, &hi, &lo);
    return CUZK_OK;
}

cuzk_status groth16_random_rs(fr_t *r, fr_t *s, cuzk_error *err)
{
    cuzk_status st = random_fr(r, err);
    return st ? st : random_fr(s, err);
}

static size_t popcount_bits(const uint64_t *bits, size_t n)
{
    size_t c = 0;
    for (size_t i = 0; i < n / 64; i++)
        c += (size_t)__builtin_popcountll(bits[i]);
    if (n % 64)
        c += (size_t)__builtin_popcountll(bits[n / 64] & ((1ULL << (n % 64)) - 1));
    return c;
}

void groth16_assignment_free_abc(groth16_assignment_t *asg)
{
    if (!asg)
        return;
    free(asg->a);
    free(asg->b);
    free(asg->c);
    asg->a = asg->b = asg->c = NULL;
}

/* a/b/c are done with: tell the caller (groth16_assignment_t.release_abc). */
static void done_abc(const groth16_assignment_t *asg)
{
    if (asg)
        cuzk_release_cb_call(&asg->release_abc);
}

/* out = sum over variables (density-filtered when bits != NULL) of w_i * bases, with the
 * witness-aware MSM (most witness values are 0 or 1). */
static cuzk_status msm_query_g1(g1_jac_t *out, const g1_affine_t *bases, size_t nbases, const uint64_t *bits,
                                const uint64_t *w, size_t nvars, unsigned threads, cuzk_error *err)
{
    msm_opts_t opts = {.threads = threads};
    return msm_g1_witness(out, bases, nbases, bits, w, nvars, &opts, NULL, err);
}

static void jac_add_mul(g1_jac_t *acc, const g1_jac_t *p, const fr_t *k)
{
    g1_jac_t t;
    g1_mul_fr(&t, p, k);
    g1_add(acc, acc, &t);
}

static void jac_add_affine_mul(g1_jac_t *acc, const g1_affine_t *p, const fr_t *k)
{
    g1_jac_t pj;
    g1_jac_from_affine(&pj, p);
    jac_add_mul(acc, &pj, k);
}

static cuzk_status check_inputs(const groth16_params_t *pp, const groth16_assignment_t *asg,
                                const groth16_compact_witness_t *cw, cuzk_error *err)
{
    size_t nvars = pp->n_inputs + pp->n_aux;
    if (cw && cw->aux->n != pp->n_aux)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "the compact witness has %llu aux values, the key %zu",
                         (unsigned long long)cw->aux->n, pp->n_aux);
    if (g1_affine_is_infinity(&pp->vk.delta_g1) || g2_affine_is_infinity(&pp->vk.delta_g2))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "proving key: delta is the point at infinity");
    if (pp->n_h != poly_h_len(pp->h_form, (size_t)1 << pp->log2_m))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "proving key: h has %zu points, domain 2^%u needs %zu", pp->n_h,
                         pp->log2_m, poly_h_len(pp->h_form, (size_t)1 << pp->log2_m));
    if (pp->n_l != pp->n_aux)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "proving key: l has %zu points, expected n_aux = %zu", pp->n_l,
                         pp->n_aux);
    size_t na = asg->a_density ? popcount_bits(asg->a_density, nvars) : nvars;
    size_t nb = asg->b_density ? popcount_bits(asg->b_density, nvars) : nvars;
    if (na != pp->n_a)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "A density selects %zu variables but the key has %zu A points",
                         na, pp->n_a);
    if (nb != pp->n_b)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "B density selects %zu variables but the key has %zu B points",
                         nb, pp->n_b);
    return CUZK_OK;
}

/* The canonical scalars of the G1 queries (groth16_query_scalars_t); with_a also fills wa. */
static cuzk_status query_scalars(const groth16_params_t *pp, const groth16_assignment_t *asg,
                                 const groth16_compact_witness_t *cw, bool with_a, groth16_query_scalars_t *qs,
                                 cuzk_error *err)
{
    size_t nvars = pp->n_inputs + pp->n_aux;
    memset(qs, 0, sizeof *qs);
    qs->w = malloc(nvars * 32 + 1);
    qs->wb = malloc(pp->n_b * 32 + 1);
    if (with_a)
        qs->wa = malloc(pp->n_a * 32 + 1);
    if (!qs->w || !qs->wb || (with_a && !qs->wa)) {
        groth16_query_scalars_free(qs);
        return cuzk_fail(err, CUZK_E_NOMEM, "groth16_prove_start: out of memory for %zu witness scalars", nvars);
    }
    for (size_t i = 0; i < nvars; i++) {
        const fr_t *x = !cw                   ? &asg->w[i]
                        : i < pp->n_inputs    ? &cw->inputs[i]
                                              : cs_witness_at(cw->aux, i - pp->n_inputs);
        fr_to_limbs(qs->w + 4 * i, x);
    }
    for (size_t i = 0, kb = 0, ka = 0; i < nvars; i++) {
        if (!asg->b_density || (asg->b_density[i / 64] >> (i % 64) & 1))
            memcpy(qs->wb + 4 * kb++, qs->w + 4 * i, 32);
        if (with_a && (!asg->a_density || (asg->a_density[i / 64] >> (i % 64) & 1)))
            memcpy(qs->wa + 4 * ka++, qs->w + 4 * i, 32);
    }
    return CUZK_OK;
}

/* The G1 half of the proof from the four query sums (groth16.h):
 *   A = alpha_1 + A_raw + r delta_1;  B1 = beta_1 + B1_raw + s delta_1
 *   C = H + L + s A + r B1 - r s delta_1                                  (p->s holds s) */
static void assemble(groth16_pending_t *p, const groth16_g1_sums_t *sums, const fr_t *r)
{
    const groth16_params_t *pp = p->params;
    const fr_t *s = &p->s;
    g1_jac_t b1;
    g1_add_mixed(&p->a, &sums->a, &pp->vk.alpha_g1);
    jac_add_affine_mul(&p->a, &pp->vk.delta_g1, r);
    g1_add_mixed(&b1, &sums->b_g1, &pp->vk.beta_g1);
    jac_add_affine_mul(&b1, &pp->vk.delta_g1, s);
    fr_t rs;
    fr_mul(&rs, r, s);
    fr_neg(&rs, &rs);
    g1_add(&p->c, &sums->h, &sums->l);
    jac_add_mul(&p->c, &p->a, s);
    jac_add_mul(&p->c, &b1, r);
    jac_add_affine_mul(&p->c, &pp->vk.delta_g1, &rs);
}

static cuzk_status prove_start(const groth16_params_t *pp, const groth16_assignment_t *asg,
                               const groth16_compact_witness_t *cw, const fr_t *r, const fr_t *s, unsigned threads,
                               groth16_pending_t **out, cuzk_error *err)
{
    if (!pp || !asg || !r || !s || !out || !asg->a || !asg->b || !asg->c || (!cw && !asg->w) ||
        (cw && (!cw->inputs || !cw->aux)) || threads == 0) {
        done_abc(asg);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "groth16_prove_start: NULL argument or zero threads");
    }
    cuzk_status st = check_inputs(pp, asg, cw, err);
    if (st) {
        done_abc(asg);
        return st;
    }

    /* H from a, b, c in place (b and c are scratch) */
    st = poly_h_compute(asg->a, asg->b, asg->c, pp->log2_m, pp->h_form, threads, err);
    if (st) {
        done_abc(asg);
        return st;
    }
    uint64_t *hs = (uint64_t *)asg->a; /* canonical limbs in place: same 32-byte stride */
    for (size_t i = 0; i < pp->n_h; i++)
        fr_to_limbs(hs + 4 * i, &asg->a[i]);
    g1_jac_t h_sum;
    msm_opts_t opts = {.threads = threads};
    st = msm_g1(&h_sum, pp->h, hs, pp->n_h, &opts, err);
    done_abc(asg);
    if (st)
        return st;

    size_t nvars = pp->n_inputs + pp->n_aux;
    groth16_pending_t *p = calloc(1, sizeof *p);
    if (!p)
        return cuzk_fail(err, CUZK_E_NOMEM, "groth16_prove_start: out of memory");
    p->n_b = pp->n_b;
    p->params = pp;
    p->s = *s;
    p->nvars = nvars;
    g1_jac_t l_sum, a_raw, b1_raw;
    if (cw) {
        /* compact witness: the MSMs read its bitmaps and big values */
        if ((st = make_sparse(pp, asg, cw, &p->sw, err))) {
            groth16_pending_free(p);
            return st;
        }
        msm_opts_t o = {.threads = threads};
        msm_sparse_scalars_t all = sparse_view(&p->sw, 0, nvars, false);
        msm_sparse_scalars_t aux = sparse_view(&p->sw, pp->n_inputs, pp->n_aux, true);
        st = msm_g1_witness_sparse(&l_sum, pp->l, pp->n_aux, NULL, &aux, &o, NULL, err);
        if (!st)
            st = msm_g1_witness_sparse(&a_raw, pp->a, pp->n_a, asg->a_density, &all, &o, NULL, err);
        if (!st)
            st = msm_g1_witness_sparse(&b1_raw, pp->b_g1, pp->n_b, asg->b_density, &all, &o, NULL, err);
    } else {
        groth16_query_scalars_t qs;
        if ((st = query_scalars(pp, asg, NULL, false, &qs, err))) {
            groth16_pending_free(p);
            return st;
        }
        p->wb = qs.wb;
        qs.wb = NULL;
        st = msm_query_g1(&l_sum, pp->l, pp->n_aux, NULL, qs.w + 4 * pp->n_inputs, pp->n_aux, threads, err);
        if (!st)
            st = msm_query_g1(&a_raw, pp->a, pp->n_a, asg->a_density, qs.w, nvars, threads, err);
        if (!st)
            st = msm_query_g1(&b1_raw, pp->b_g1, pp->n_b, asg->b_density, qs.w, nvars, threads, err);
        groth16_query_scalars_free(&qs);
    }
    if (st) {
        groth16_pending_free(p);
        return st;
    }
    assemble(p, &(groth16_g1_sums_t){h_sum, l_sum, a_raw, b1_raw}, r);
    *out = p;
    return CUZK_OK;
}

cuzk_status groth16_query_scalars(const groth16_params_t *pp, const groth16_assignment_t *asg,
                                  const groth16_compact_witness_t *cw, bool with_a, groth16_query_scalars_t *out,
                                  cuzk_error *err)
{
    if (!pp || !asg || !out || (!cw && !asg->w) || (cw && (!cw->inputs || !cw->aux)))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "groth16_query_scalars: NULL argument");
    memset(out, 0, sizeof *out);
    cuzk_status st = check_inputs(pp, asg, cw, err);
    return st ? st : query_scalars(pp, asg, cw, with_a, out, err);
}

void groth16_query_scalars_free(groth16_query_scalars_t *qs)
{
    if (!qs)
        return;
    free(qs->w);
    free(qs->wa);
    free(qs->wb);
    memset(qs, 0, sizeof *qs);
}

cuzk_status groth16_pending_from_g1(const groth16_params_t *pp, const groth16_g1_sums_t *sums, const fr_t *r,
                                    const fr_t *s, uint64_t *wb, groth16_pending_t **out, cuzk_error *err)
{
    if (!pp || !sums || !r || !s || !wb || !out) {
        free(wb);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "groth16_pending_from_g1: NULL argument");
    }
    groth16_pending_t *p = calloc(1, sizeof *p);
    if (!p) {
        free(wb);
        return cuzk_fail(err, CUZK_E_NOMEM, "groth16_pending_from_g1: out of memory");
    }
    p->params = pp;
    p->s = *s;
    p->n_b = pp->n_b;
    p->nvars = pp->n_inputs + pp->n_aux;
    p->wb = wb;
    assemble(p, sums, r);
    *out = p;
    return CUZK_OK;
}

cuzk_status groth16_prove_start(const groth16_params_t *pp, const groth16_assignment_t *asg, const fr_t *r,
                                const fr_t *s, unsigned threads, groth16_pending_t **out, cuzk_error *err)
{
    return prove_start(pp, asg, NULL, r, s, threads, out, err);
}

cuzk_status groth16_prove_start_compact(const groth16_params_t *pp, const groth16_assignment_t *asg,
                                        const groth16_compact_witness_t *cw, const fr_t *r, const fr_t *s,
                                        unsigned threads, groth16_pending_t **out, cuzk_error *err)
{
    if (!cw) {
        done_abc(asg);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "groth16_prove_start_compact: no witness");
    }
    return prove_start(pp, asg, cw, r, s, threads, out, err);
}

cuzk_status groth16_prove_finish(groth16_pending_t *p, unsigned threads, groth16_proof_t *proof, cuzk_error *err)
{
    if (!p || !proof || threads == 0) {
        groth16_pending_free(p);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "groth16_prove_finish: NULL argument or zero threads");
    }
    const groth16_params_t *pp = p->params;
    g2_jac_t b;
    msm_opts_t opts = {.threads = threads};
    cuzk_status st;
    if (p->sw.ones) {
        msm_sparse_scalars_t all = sparse_view(&p->sw, 0, p->nvars, false);
        st = msm_g2_witness_sparse(&b, pp->b_g2, p->n_b, p->sw.b_density, &all, &opts, NULL, err);
    } else {
        st = msm_g2_witness(&b, pp->b_g2, p->n_b, NULL, p->wb, p->n_b, &opts, NULL, err);
    }
    if (!st) {
        /* B = beta_2 + B2_raw + s delta_2 */
        g2_jac_t d;
        g2_add_mixed(&b, &b, &pp->vk.beta_g2);
        g2_jac_from_affine(&d, &pp->vk.delta_g2);
        g2_mul_fr(&d, &d, &p->s);
        g2_add(&b, &b, &d);
        g1_affine_from_jac(&proof->a, &p->a);
        g1_affine_from_jac(&proof->c, &p->c);
        g2_affine_from_jac(&proof->b, &b);
    }
    groth16_pending_free(p);
    return st;
}

void groth16_pending_free(groth16_pending_t *p)
{
    if (!p)
        return;
    free(p->wb);
    sparse_free(&p->sw);
    free(p);
}

cuzk_status groth16_prove(const groth16_params_t *params, const groth16_assignment_t *asg, unsigned threads,
                          groth16_proof_t *proof, cuzk_error *err)
{
    fr_t r, s;
    groth16_pending_t *p = NULL;
    cuzk_status st = groth16_random_rs(&r, &s, err);
    if (st) {
        done_abc(asg);
        return st;
    }
    st = groth16_prove_start(params, asg, &r, &s, threads, &p, err);
    return st ? st : groth16_prove_finish(p, threads, proof, err);
}
