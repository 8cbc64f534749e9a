/* 32-byte field values in the vanilla-proof readers: the canonical-field-element test that
 * bincode.h and the JSON readers apply to Poseidon domain values, SHA-256 (254-bit) digests,
 * commitments and replica_id (docs/formats.md#c1-output-json: "every 32-byte value is a
 * canonical field element"), and serde's [u8; 32] read from JSON with that test.
 * Thread-safety: functions touch only their arguments.
 */
#ifndef CUZK_FILECOIN_CORE_FIELD_BYTES_H
#define CUZK_FILECOIN_CORE_FIELD_BYTES_H

#include <stdbool.h>
#include <stdint.h>

#include "common/json_read.h"
#include "common/status.h"

/* Whether 32 bytes read little-endian are a canonical Fr (< r). */
bool fc_bytes32_canonical(const uint8_t b[32]);

/* cuzk_json_read_bytes32; with `field`, a value >= r (read little-endian) is then refused with
 * CUZK_E_FIELD_NONCANONICAL at the array's '['. */
cuzk_status fc_json_bytes32(cuzk_json_reader *j, uint8_t out[32], bool field);

#endif
