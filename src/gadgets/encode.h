/* Replica encoding of one node (storage-proofs-core gadgets/encode.rs `encode`;
 * stacked/circuit/proof.rs): encoded = key + value in Fr, where key is the last-layer label and
 * value the unsealed data node. In circuit it is constraint::add (anum_add): allocate encoded, then
 * `(key + value) · ONE = encoded` (1 aux / 1 constraint), in namespace "encode_add". The StackedDrg
 * PoRep circuit calls encode_circuit(label_L, data_leaf).
 */
#ifndef CUZK_GADGETS_ENCODE_H
#define CUZK_GADGETS_ENCODE_H

#include "gadgets/num.h"

/* In circuit: returns the allocated encoded node. Errors go to the cs's sticky status. Not
 * thread-safe on the same cs. */
anum encode_circuit(cs_t *cs, const anum *key, const anum *value);

/* Native: *out = key + value (mod r). out may alias an input. Thread-safe. */
void encode_native(fr_t *out, const fr_t *key, const fr_t *value);

#endif
