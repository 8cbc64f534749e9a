/* Insertion and selection of field numbers by index bits (storage-proofs-core
 * gadgets/insertion.rs).
 *
 * pick: c = cond ? a : b, `(b − a) * cond = b − c` (1 aux / 1 constraint).
 * insert: the vector of size 2^nbits obtained by inserting `element` at position
 * n = Σ 2^k bits[k] into `siblings` (size − 1 entries). Hand-optimised for sizes 2, 4, 8
 * (2, 8, 22 constraints; size 8 needs allocated, non-negated bits[0], bits[1], else
 * CUZK_E_INVALID_ARG), generic otherwise (size·(size − 1) constraints, e.g. 240 for 16).
 * select: from[n] for n = Σ 2^k bits[k], size − 1 constraints.
 * insert accepts sizes up to 2^INSERT_MAX_BITS, select up to 2^SELECT_MAX_BITS (the
 * SnapDeals apex leaves: 128). Errors go to the cs's sticky status.
 */
#ifndef CUZK_GADGETS_INSERTION_H
#define CUZK_GADGETS_INSERTION_H

#include "gadgets/num.h"

#define INSERT_MAX_BITS 6
#define SELECT_MAX_BITS 8

anum gadget_pick(cs_t *cs, gbool cond, const anum *a, const anum *b);
/* out receives 2^nbits numbers. */
void gadget_insert(cs_t *cs, const anum *element, const gbool *bits, unsigned nbits,
                   const anum *siblings, anum *out);
anum gadget_select(cs_t *cs, const anum *from, const gbool *bits, unsigned nbits);

#endif
