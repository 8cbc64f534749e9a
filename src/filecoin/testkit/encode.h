/* Replica encoding of PoRep and SnapDeals, one 32-byte node at a time
 * (storage-proofs-porep encode.rs; storage-proofs-update
 * vanilla.rs encode_into / decode_from).
 *
 *   PoRep:     replica = (data + key) mod r, key = the last-layer label of the node
 *   SnapDeals: new = (old + data * rho) mod r, rho = Pc(phi, node >> bits_shr)
 *
 * All values are canonical little-endian field encodings. Pure; thread-safe.
 */
#ifndef CUZK_FILECOIN_TESTKIT_ENCODE_H
#define CUZK_FILECOIN_TESTKIT_ENCODE_H

#include <stdint.h>

#include "common/status.h"
#include "field/fr.h"

/* out = data + key (mod r). Errors: CUZK_E_FIELD_NONCANONICAL naming "data" or "key". */
cuzk_status fc_encode_node(const uint8_t data[32], const uint8_t key[32], uint8_t out[32], cuzk_error *err);
/* out = old + data * rho (mod r). Errors: CUZK_E_FIELD_NONCANONICAL naming "old" or "data". */
cuzk_status fc_snap_encode_node(const uint8_t old[32], const uint8_t data[32], const fr_t *rho, uint8_t out[32],
                                cuzk_error *err);

#endif
