/* G2 = E'(Fp2), E': y^2 = x^3 + 4(u + 1): group law, conversions and scalar multiplication
 * (the shared Jacobian template jacobian_impl.h instantiated over Fp2) and the generator.
 */
#include "curve/curve.h"
#include "curve/curve_internal.h"

#define JFN(name) g2_##name
#define JF fp2_t
#define JAFF g2_affine_t
#define JJAC g2_jac_t
#define JF_ADD fp2_add
#define JF_SUB fp2_sub
#define JF_DBL fp2_dbl
#define JF_NEG fp2_neg
#define JF_MUL fp2_mul
#define JF_SQR fp2_sqr
#define JF_INV fp2_inv
#define JF_IS_ZERO fp2_is_zero
#define JF_EQ fp2_eq
#define JF_ZERO FP2_ZERO
#define JF_ONE FP2_ONE
#define JB (&CURVE_G2_B)
#include "curve/jacobian_impl.h"

void g2_generator(g2_affine_t *r)
{
    r->x = CURVE_G2_GEN_X;
    r->y = CURVE_G2_GEN_Y;
}
