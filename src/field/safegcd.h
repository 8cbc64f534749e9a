/* Modular inversion by Bernstein-Yang divsteps (internal to field/).
 *
 * field_inv_safegcd computes out = in^-1 mod m for plain integers (not Montgomery form):
 * in, out and m are `n` little-endian 64-bit limbs (n <= 6), m odd and below 2^(64n - 2),
 * in < m; the inverse of 0 is 0. Variable time (the number of steps depends on the input,
 * as the field layer's other non-constant-time code; fp.h).
 *
 * Algorithm: Bernstein, Yang, "Fast constant-time gcd computation and modular inversion"
 * (TCHES 2019), divstep(delta, f, g) starting from (1, m, in): while g != 0, batches of 62
 * divsteps are computed on the low 64 bits of f and g only (the decisions depend only on
 * their parities), giving a 2x2 transition matrix T with 2^62 (f', g') = T (f, g); T is
 * then applied to the full f, g (signed 62-bit limbs, exact division by 2^62) and to the
 * Bezout coefficients d, e with f = d in, g = e in (mod m), where the division by 2^62 is
 * made exact by adding a multiple of m (m^-1 mod 2^62) and the results are brought back
 * into [0, m). Runs of even g are skipped with a count-trailing-zeros, the "var" variant
 * described in P. Wuille, "The safegcd implementation in libsecp256k1 explained"
 * (doc/safegcd_implementation.md of bitcoin-core/secp256k1). At the end g = 0, f = +-1 and
 * the inverse is +-d. About 2 us for the 381-bit Fp here, against 14 us for Fermat.
 */
#ifndef CUZK_FIELD_SAFEGCD_H
#define CUZK_FIELD_SAFEGCD_H

#include <stddef.h>
#include <stdint.h>

void field_inv_safegcd(uint64_t *out, const uint64_t *in, const uint64_t *m, size_t n);

#endif
