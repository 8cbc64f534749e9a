/* Compact witness vector: Filecoin witnesses are mostly bits (the real 8 MiB PoRep partition:
 * 51% zeros, 46% ones, 3% other values), so each value costs two bits (is it 1, is it
 * "big": neither 0 nor 1) and only the big values are stored as field elements, in index
 * order. A rank table (big values before each 64-value word) makes a lookup O(1).
 * Memory: n / 4 bytes of bitmaps + n / 16 bytes of ranks + 32 bytes per big value, against
 * 32 n for a plain array (the 8 MiB partition's aux: 123 MB -> 4.7 MB).
 *
 * Values are Montgomery fr_t, as everywhere in the cs layer. Built by appending (the cs's
 * value back ends with CS_COMPACT_AUX, cs.h); read by lookups, the PCE products and the
 * Groth16 prover's MSMs (which take the bitmaps and the big values directly).
 * Thread-safety: appending is single-threaded; a finished vector may be read by any number
 * of threads.
 */
#ifndef CUZK_CS_WITNESS_H
#define CUZK_CS_WITNESS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "field/fr.h"

typedef struct {
    uint64_t n;      /* values */
    uint64_t *ones;  /* n / 64 + 1 words: bit i set iff value i is 1 */
    uint64_t *big;   /* n / 64 + 1 words: bit i set iff value i is neither 0 nor 1 */
    uint32_t *rank;  /* n / 64 + 1 entries: big values in words [0, w) */
    fr_t *vals;      /* n_big big values, in index order */
    uint64_t n_big;
    uint64_t words_cap, vals_cap; /* allocated words / values */
} cs_witness;

/* Values up to 2^32 - 1 big ones (the rank table is 32-bit). */
#define CS_WITNESS_MAX_BIG 0xffffffffu

/* Reserve room for n values of which n_big big ones (0 = grow as needed) so that appends
 * do not reallocate. False when out of memory (w unchanged). */
bool cs_witness_reserve(cs_witness *w, uint64_t n, uint64_t n_big);

/* Append one value. False when out of memory or past CS_WITNESS_MAX_BIG big values (w
 * unchanged). */
bool cs_witness_push(cs_witness *w, const fr_t *x);

/* Value i < w->n: a pointer to FR_ZERO, FR_ONE or the stored value (valid until the next
 * push). */
static inline const fr_t *cs_witness_at(const cs_witness *w, uint64_t i)
{
    uint64_t word = i >> 6, bit = 1ull << (i & 63);
    if (w->big[word] & bit)
        return &w->vals[w->rank[word] + (uint64_t)__builtin_popcountll(w->big[word] & (bit - 1))];
    return (w->ones[word] & bit) ? &FR_ONE : &FR_ZERO;
}

/* dst bits [off, off + n) |= src bits [0, n) (bitmaps LSB first; dst must have
 * (off + n) / 64 + 1 words). */
void cs_bits_copy(uint64_t *dst, uint64_t off, const uint64_t *src, uint64_t n);

/* Bits 0 .. 31 of x moved to bits 0, 2, .., 62 (two words interleaved: spread(x) |
 * spread(y) << 1). */
static inline uint64_t cs_bits_spread(uint64_t x)
{
    x &= 0xffffffffull;
    x = (x | x << 16) & 0x0000ffff0000ffffull;
    x = (x | x << 8) & 0x00ff00ff00ff00ffull;
    x = (x | x << 4) & 0x0f0f0f0f0f0f0f0full;
    x = (x | x << 2) & 0x3333333333333333ull;
    return (x | x << 1) & 0x5555555555555555ull;
}

/* Write all n values into out[0 .. n) (plain array). */
void cs_witness_expand(const cs_witness *w, fr_t *out);

/* Give back the spare room of the big values (after the last push). */
void cs_witness_shrink(cs_witness *w);

/* Bytes the vector holds (its allocations). */
uint64_t cs_witness_bytes(const cs_witness *w);

/* Free the arrays and zero *w. NULL or a zeroed struct is a no-op. */
void cs_witness_free(cs_witness *w);

#endif
