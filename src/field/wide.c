/* Double-width Fp / Fp2 arithmetic; contracts and sources in wide.h. The C code here is
 * the portable back end and the twin of fp_wide_adx.S. */
#include "field/wide.h"

#include "field/cpu.h"

#ifndef CUZK_FIELD_PORTABLE
/* fp_wide_adx.S; the structs are plain limb arrays (fpw_t 12 limbs, fp2_t 12, fp2w_t 24) */
void cuzk_fp_mulw_adx(fpw_t *r, const fp_t *a, const fp_t *b);
void cuzk_fp_redc_adx(fp_t *r, const fpw_t *t);
void cuzk_fp2_mulw_adx(fp2w_t *r, const fp2_t *a, const fp2_t *b);
void cuzk_fp2_sqrw_adx(fp2w_t *r, const fp2_t *a);
#define WIDE_ADX 1
#endif

void fp_mulw(fpw_t *r, const fp_t *a, const fp_t *b)
{
#ifdef WIDE_ADX
    if (cuzk_cpu_use_adx()) {
        cuzk_fp_mulw_adx(r, a, b);
        return;
    }
#endif
    mont_mulw(r->l, a->l, b->l, FP_LIMBS);
}

void fp_redc(fp_t *r, const fpw_t *t)
{
#ifdef WIDE_ADX
    if (cuzk_cpu_use_adx()) {
        cuzk_fp_redc_adx(r, t);
        return;
    }
#endif
    mont_redc(r->l, t->l, fp_modulus_inline_, FP_MINV, FP_LIMBS);
}

/* r = a + b as plain integers (both < p, so the sum is below 2p < 2^384) */
static void add_raw(fp_t *r, const fp_t *a, const fp_t *b)
{
    uint64_t c = 0;
    for (size_t i = 0; i < FP_LIMBS; i++)
        r->l[i] = adc64(a->l[i], b->l[i], c, &c);
}

/* r = a - b for a >= b as plain integers */
static void sub_raw_w(fpw_t *r, const fpw_t *a, const fpw_t *b)
{
    uint64_t br = 0;
    for (size_t i = 0; i < FPW_LIMBS; i++)
        r->l[i] = sbb64(a->l[i], b->l[i], br, &br);
}

void fp2_mulw(fp2w_t *r, const fp2_t *a, const fp2_t *b)
{
#ifdef WIDE_ADX
    if (cuzk_cpu_use_adx()) {
        cuzk_fp2_mulw_adx(r, a, b);
        return;
    }
#endif
    fp_t sa, sb;
    fpw_t t0, t1, t2;
    add_raw(&sa, &a->c0, &a->c1);
    add_raw(&sb, &b->c0, &b->c1);
    mont_mulw(t0.l, a->c0.l, b->c0.l, FP_LIMBS);
    mont_mulw(t1.l, a->c1.l, b->c1.l, FP_LIMBS);
    mont_mulw(t2.l, sa.l, sb.l, FP_LIMBS); /* < 4 p^2 */
    sub_raw_w(&t2, &t2, &t0);
    sub_raw_w(&r->c1, &t2, &t1);           /* a0 b1 + a1 b0 >= 0 */
    fpw_sub(&r->c0, &t0, &t1);
}

void fp2_sqrw(fp2w_t *r, const fp2_t *a)
{
#ifdef WIDE_ADX
    if (cuzk_cpu_use_adx()) {
        cuzk_fp2_sqrw_adx(r, a);
        return;
    }
#endif
    fp_t s, d, e;
    add_raw(&s, &a->c0, &a->c1);
    fp_sub(&d, &a->c0, &a->c1);
    add_raw(&e, &a->c0, &a->c0);
    mont_mulw(r->c0.l, s.l, d.l, FP_LIMBS); /* < 2 p^2 */
    mont_mulw(r->c1.l, e.l, a->c1.l, FP_LIMBS);
}
