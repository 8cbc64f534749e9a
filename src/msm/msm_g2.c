/* G2 instance of the MSM bucket kernel (msm_bucket.inc) over Fp2. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "field/tower.h"
#include "msm/msm_internal.h"

static inline bool g2k_fe_eq(const fp2_t *a, const fp2_t *b)
{
    /* fully reduced: equal values, equal limbs (inline: a libc memcmp call per insertion
     * cost about 10% of an MSM) */
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    uint64_t diff = 0;
    for (size_t i = 0; i < sizeof *a / sizeof *x; i++)
        diff |= x[i] ^ y[i];
    return diff == 0;
}

static inline bool g2k_aff_is_inf(const g2_affine_t *p)
{
    uint64_t acc = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        acc |= p->x.c0.l[i] | p->x.c1.l[i] | p->y.c0.l[i] | p->y.c1.l[i];
    return acc == 0;
}

#define AFF g2_affine_t
#define JAC g2_jac_t
#define FE fp2_t
#define FE_ADD fp2_add
#define FE_SUB fp2_sub
#define FE_DBL fp2_dbl
#define FE_NEG fp2_neg
#define FE_MUL fp2_mul
#define FE_SQR fp2_sqr
#define FE_INV fp2_inv
#define FE_EQ g2k_fe_eq
#define AFF_IS_INF g2k_aff_is_inf
#define JAC_SET_INF g2_jac_set_infinity
#define JAC_FROM_AFF g2_jac_from_affine
#define JAC_ADD g2_add
#define JAC_ADD_MIXED g2_add_mixed
#define JAC_DBL g2_dbl
#define AFF_FROM_JAC g2_affine_from_jac
#define GROUP_ID MSM_G2
#define KERNEL(name) g2_kernel_##name
#ifdef CUZK_HAVE_IFMA
#define FLUSH_IFMA msm_g2_flush_ifma
#endif

#include "msm/msm_bucket.inc"

const msm_group_t msm_group_g2 = KERNEL_GROUP_TABLE;
