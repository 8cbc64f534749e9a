/* Vanilla proofs: the in-memory forms of what a sealing pipeline hands to the SNARK prover,
 * with readers and writers for every wire form Curio, lotus-bench and filecoin-ffi use, one
 * header per proof:
 *
 *   PoRep C1 output  SealCommitPhase1Output: serde JSON, Curio's envelope, bincode, the
 *                    C2Input fixture wrapper (filecoin/porep/vanilla.h)
 *   PoSt             FallbackPoStSectorProof bincode (filecoin/post/vanilla.h)
 *   SnapDeals        PartitionProof bincode and its Poseidon variant (filecoin/snap/vanilla.h)
 *
 * This header holds what they share: the rules below, the Merkle proofs (merkle_proof.h)
 * and the blob list of the CLI.
 *
 * bincode is the 1.x free-function encoding: little-endian fixed-width integers, Vec as u64
 * count then items, enums as u32 variant index, [u8; 32] as 32 raw bytes
 * (docs/formats.md#bincode-rules).
 *
 * Every reader validates structure as it goes and never allocates more than the input can
 * justify (a length prefix is checked against the bytes left before anything is
 * allocated), so truncated or hostile inputs fail with CUZK_E_FORMAT and a message naming
 * the field and the byte offset (bincode) or the JSON path (JSON, e.g.
 * "$.vanilla_proofs.StackedDrg2KiBV1[0][1].comm_d_proofs.data.Single.path.path[3].index").
 * Readers check structure (counts, shapes, canonical field elements where the format
 * says so); the semantic checks against challenges and graphs (fc_c1_validate and friends)
 * are separate.
 *
 * Ownership: every parsed object owns all its memory; free it with its *_free function
 * (which also accepts a zeroed object). Thread-safety: functions touch only their
 * arguments.
 */
#ifndef CUZK_FILECOIN_CORE_VANILLA_H
#define CUZK_FILECOIN_CORE_VANILLA_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/registry.h"

/* Curio stores SnapDeals vanilla proofs (and cuzk-bench reads PoSt ones) as a JSON array of
 * standard base64 strings (Go json.Marshal of [][]byte: a nil element is null, read as an
 * empty blob; a null list is an empty list). Decode it into `*out` (malloc'ed array of
 * malloc'ed buffers, free with fc_blob_list_free). The writer emits strings only. Errors:
 * CUZK_E_FORMAT with the JSON path ("$[3]") and byte offset, CUZK_E_NOMEM. */
typedef struct {
    size_t n;
    uint8_t **data;
    size_t *len;
} fc_blob_list;
cuzk_status fc_blob_list_from_json(fc_blob_list *out, const uint8_t *buf, size_t len, cuzk_error *err);
cuzk_status fc_blob_list_to_json(const fc_blob_list *in, uint8_t **out, size_t *len, cuzk_error *err);
void fc_blob_list_free(fc_blob_list *l);

#endif
