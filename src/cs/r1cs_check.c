/* Witness satisfaction of a parsed .r1cs (contract in r1cs.h). */
#include <stdlib.h>

#include "cs/r1cs.h"
#include "cs/spmv.h"

cuzk_status r1cs_check_witness(const r1cs_t *r, const fr_t *w, uint64_t n_w, unsigned threads, uint32_t *first_bad,
                               cuzk_error *err)
{
    *first_bad = UINT32_MAX;
    if (n_w != r->n_wires)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "the witness has %llu values but the circuit has %u wires",
                         (unsigned long long)n_w, r->n_wires);
    size_t rows = r->n_constraints;
    fr_t *abc = malloc((rows ? rows : 1) * 3 * sizeof *abc);
    if (!abc)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory checking %zu constraints", rows);
    fr_t *a = abc, *b = abc + rows, *c = abc + 2 * rows;
    cuzk_status st = cs_spmv_abc(a, b, c, &r->a, &r->b, &r->c, w, n_w, threads, err);
    for (size_t i = 0; !st && i < rows; i++) {
        fr_t ab;
        fr_mul(&ab, &a[i], &b[i]);
        if (!fr_eq(&ab, &c[i])) {
            *first_bad = (uint32_t)i;
            st = cuzk_fail(err, CUZK_E_INVALID_ARG,
                           "the witness does not satisfy the circuit: constraint %zu of %zu fails (A.w * B.w != C.w)",
                           i, rows);
        }
    }
    free(abc);
    return st;
}
