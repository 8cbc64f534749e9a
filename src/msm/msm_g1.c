/* G1 instance of the MSM bucket kernel (msm_bucket.inc) over Fp. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "curve/curve.h"
#include "field/fp.h"
#include "msm/msm_internal.h"

static inline bool g1k_fe_eq(const fp_t *a, const fp_t *b)
{
    /* fully reduced: equal values, equal limbs (inline: a libc memcmp call per insertion
     * cost about 10% of an MSM) */
    const uint64_t *x = (const uint64_t *)a, *y = (const uint64_t *)b;
    uint64_t diff = 0;
    for (size_t i = 0; i < sizeof *a / sizeof *x; i++)
        diff |= x[i] ^ y[i];
    return diff == 0;
}

static inline bool g1k_aff_is_inf(const g1_affine_t *p)
{
    uint64_t acc = 0;
    for (int i = 0; i < FP_LIMBS; i++)
        acc |= p->x.l[i] | p->y.l[i];
    return acc == 0;
}

#define AFF g1_affine_t
#define JAC g1_jac_t
#define FE fp_t
#define FE_ADD fp_add
#define FE_SUB fp_sub
#define FE_DBL fp_dbl
#define FE_NEG fp_neg
#define FE_MUL fp_mul
#define FE_SQR fp_sqr
#define FE_INV fp_inv
#define FE_EQ g1k_fe_eq
#define AFF_IS_INF g1k_aff_is_inf
#define JAC_SET_INF g1_jac_set_infinity
#define JAC_FROM_AFF g1_jac_from_affine
#define JAC_ADD g1_add
#define JAC_ADD_MIXED g1_add_mixed
#define JAC_DBL g1_dbl
#define AFF_FROM_JAC g1_affine_from_jac
#define GROUP_ID MSM_G1
#define KERNEL(name) g1_kernel_##name
#ifdef CUZK_HAVE_IFMA
#define FLUSH_IFMA msm_g1_flush_ifma
#endif

#include "msm/msm_bucket.inc"

const msm_group_t msm_group_g1 = KERNEL_GROUP_TABLE;
