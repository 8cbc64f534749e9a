/* SDR label in circuit and natively (storage-proofs-porep stacked/circuit/create_label.rs,
 * vanilla create_label).
 *
 * Message = replica_id (256 bits, padded with Constant(false) if shorter) ‖ layer (u32 BE) ‖
 * node (u64 BE) ‖ zero bits up to 64 bytes ‖ each parent (padded to 256 bits); SHA-256; the
 * digest bit-reversed per byte, first 254 bits packed: label = SHA-256(...) with
 * digest[31] &= 0x3f read LE. Errors go to the cs's sticky status.
 */
#ifndef CUZK_GADGETS_CREATE_LABEL_H
#define CUZK_GADGETS_CREATE_LABEL_H

#include "gadgets/num.h"
#include "gadgets/uint32.h"
#include "gadgets/uint64.h"

#define LABEL_PARENTS 37

/* replica_id: nrep (32..256) bits; parents[i]: 256 bits each (LABEL_PARENTS of them). */
anum create_label_circuit(cs_t *cs, const gbool *replica_id, size_t nrep,
                          const gbool *const parents[LABEL_PARENTS], const u32g *layer,
                          const u64g *node);

/* Native: out = label bytes (LE Fr repr). parents: LABEL_PARENTS × 32 bytes, or NULL for the
 * 64-byte message of node 0, which has no parent slots (create_label/single.rs). */
void create_label_native(const uint8_t replica_id[32], uint32_t layer, uint64_t node,
                         const uint8_t (*parents)[32], uint8_t out[32]);

#endif
