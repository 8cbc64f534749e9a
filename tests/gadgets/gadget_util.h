/* Helpers shared by the gadget tests: deterministic PRNG, bytes <-> message bits, and a
 * checker that evaluates recorded CSR matrices on a witness (independent of CS_CHECK). */
#ifndef CUZK_TESTS_GADGET_UTIL_H
#define CUZK_TESTS_GADGET_UTIL_H

#include <stdint.h>

#include "cs/cs.h"
#include "gadgets/boolean.h"

static inline uint64_t tu_rand(uint64_t *s)
{
    *s ^= *s << 13;
    *s ^= *s >> 7;
    *s ^= *s << 17;
    return *s;
}

/* Message bits of bytes (MSB first per byte); allocated (alloc) or constant. */
static inline void tu_bytes_to_bits(cs_t *cs, const uint8_t *in, size_t n, gbool *out, int alloc)
{
    for (size_t i = 0; i < 8 * n; i++) {
        int v = (in[i / 8] >> (7 - i % 8)) & 1;
        out[i] = alloc ? gb_alloc(cs, v) : gb_const(v);
    }
}

static inline void tu_bits_to_bytes(const gbool *bits, size_t n, uint8_t *out)
{
    for (size_t i = 0; i < n; i++) {
        out[i] = 0;
        for (int k = 0; k < 8; k++)
            out[i] |= (uint8_t)(bits[8 * i + k].value << (7 - k));
    }
}

/* Returns -1 if every row of m satisfies (A w)(B w) = C w, else the first bad row. */
static inline long long tu_matrices_check(const cs_matrices *m, const fr_t *in, const fr_t *aux)
{
    const cs_csr *x[3] = {&m->a, &m->b, &m->c};
    for (uint64_t r = 0; r < m->a.rows; r++) {
        fr_t v[3];
        for (int k = 0; k < 3; k++) {
            v[k] = FR_ZERO;
            for (uint64_t j = x[k]->row_ptr[r]; j < x[k]->row_ptr[r + 1]; j++) {
                uint64_t c = x[k]->col[j];
                const fr_t *w = c < m->num_inputs ? &in[c] : &aux[c - m->num_inputs];
                fr_t t;
                fr_mul(&t, w, &x[k]->val[j]);
                fr_add(&v[k], &v[k], &t);
            }
        }
        fr_t ab;
        fr_mul(&ab, &v[0], &v[1]);
        if (!fr_eq(&ab, &v[2]))
            return (long long)r;
    }
    return -1;
}

#endif
