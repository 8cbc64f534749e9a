/* Helpers shared by the poly tests: a seedable xorshift64 generator, random Fr vectors,
 * checked allocation and Horner evaluation (the independent reference for NTT outputs). */
#ifndef CUZK_TESTS_POLY_TEST_UTIL_H
#define CUZK_TESTS_POLY_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

void poly_test_seed(uint64_t seed);            /* non-zero */
uint64_t next_u64(void);                       /* xorshift64 */
void random_fr(fr_t *v, size_t n);             /* n uniform-ish elements (256 bits mod r) */
fr_t *alloc_fr(size_t n);                      /* malloc or exit(2) */
/* out = sum_{i<n} x_i pt^i (Horner) */
void eval_at(fr_t *out, const fr_t *x, size_t n, const fr_t *pt);

#endif
