/* Field numbers in circuit (bellpepper-core gadgets/num.rs AllocatedNum), multipacking
 * (bellperson gadgets/multipack.rs) and bit-order helpers (storage-proofs-core util.rs);
 * storage-proofs-core util.rs, gadgets/constraint.rs.
 *
 * An anum is an allocated aux variable with its value (value meaningful only when the cs has
 * values). Errors go to the cs's sticky status. Not thread-safe on the same cs.
 */
#ifndef CUZK_GADGETS_NUM_H
#define CUZK_GADGETS_NUM_H

#include "gadgets/boolean.h"

typedef struct {
    cs_var var;
    fr_t value;
} anum;

/* AllocatedNum::alloc: 1 aux, no constraint. value may be NULL in modes without values. */
anum anum_alloc(cs_t *cs, const fr_t *value);
/* inputize: new input u = x, constraint `u * ONE = x` (1 input / 1 constraint). */
void anum_inputize(cs_t *cs, const anum *x);
/* to_bits_le (non-strict): 255 allocated bits LSB first (values = low 255 bits of the
 * canonical value), then `0 * 0 = Σ 2^i b_i − x` (255 aux / 256 constraints). out[255]. */
void anum_to_bits_le(cs_t *cs, const anum *x, gbool out[255]);
/* constraint::equal(a, b): `a * ONE = b` (0 / 1). */
void anum_enforce_equal(cs_t *cs, const anum *a, const anum *b);
/* constraint::add: r = a + b, `(a + b) * ONE = r` (1 / 1). Filecoin's encode(key, value). */
anum anum_add(cs_t *cs, const anum *a, const anum *b);
/* constraint::sub: r = a − b, `(r + b) * ONE = a` (1 / 1). Filecoin's decode. */
anum anum_sub(cs_t *cs, const anum *a, const anum *b);

/* Value Σ_{k<n} 2^k·bits[k] as Fr (bit values of the gbools). */
void bits_le_value(const gbool *bits, size_t n, fr_t *out);

/* multipack::pack_bits: first min(n, 254) bits, aux u, `(Σ 2^k b̄_k) * ONE = u` (1 / 1). */
anum pack_bits(cs_t *cs, const gbool *bits, size_t n);
/* multipack::pack_into_inputs: per chunk of 254 bits one input u and
 * `(Σ 2^k b̄_k) * ONE = u`. */
void pack_into_inputs(cs_t *cs, const gbool *bits, size_t n);
/* multipack::compute_multipacking (out of circuit): ceil(n / 254) field elements from bool
 * bits (0/1 bytes), bit k of a chunk has weight 2^k. out must hold that many. */
void compute_multipacking(const uint8_t *bits, size_t n, fr_t *out);

/* reverse_bit_numbering: pad with Constant(false) to a multiple of 8 and reverse every group
 * of 8. out must hold (n + 7) / 8 * 8 entries and not overlap in; returns that length. */
size_t reverse_bit_numbering(const gbool *in, size_t n, gbool *out);

#endif
