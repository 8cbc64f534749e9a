/* PoRep vanilla proofs: the C1 output SealCommitPhase1Output (rust-filecoin-proofs-api
 * seal.rs) in memory, and its wire forms: serde JSON (docs/formats.md#c1-output-json; what
 * Curio sends, base64-wrapped in the envelope {"SectorNum","Phase1Out","SectorSize"},
 * docs/formats.md#curios-c2-envelope), bincode (the bare struct), and the fixture wrapper
 * C2Input::V0 {c1out, prover_id, sector_id} (docs/formats.md#c1-output-in-bincode).
 * Reading rules, ownership and thread-safety: filecoin/core/vanilla.h.
 */
#ifndef CUZK_FILECOIN_POREP_VANILLA_H
#define CUZK_FILECOIN_POREP_VANILLA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/vanilla.h"

#define FC_LABEL_PARENTS 37
#define FC_DRG_PARENTS 6
#define FC_EXP_PARENTS 8

/* Column proof: the column of node `index` (rows[l] = label of layer l + 1) and its tree C
 * inclusion proof. */
typedef struct {
    uint32_t index;
    uint32_t nrows;
    uint8_t (*rows)[32]; /* nrows values; owned */
    fc_merkle_proof proof;
} fc_column_proof;

/* LabelingProof / EncodingProof: the 37 parent slots of one label preimage. */
typedef struct {
    uint8_t parents[FC_LABEL_PARENTS][32];
    uint32_t layer_index;
    uint64_t node;
} fc_labeling_proof;

/* Vanilla proof of one challenge (storage-proofs-porep stacked Proof). */
typedef struct {
    fc_merkle_proof comm_d_proof;     /* tree D (SHA-256, binary, Single) */
    fc_merkle_proof comm_r_last_proof; /* tree R_last */
    fc_column_proof c_x;
    fc_column_proof drg[FC_DRG_PARENTS];
    fc_column_proof exp[FC_EXP_PARENTS];
    uint32_t nlabeling;
    fc_labeling_proof *labeling; /* nlabeling (= layers) entries; owned */
    fc_labeling_proof encoding;
} fc_porep_challenge_proof;

/* SealCommitPhase1Output. proofs[k * challenges + i] is challenge i of partition k. */
typedef struct {
    const fc_seal_proof *registered_proof;
    uint32_t partitions;
    uint32_t challenges; /* per partition */
    fc_porep_challenge_proof *proofs;
    uint8_t comm_r[32], comm_d[32], replica_id[32], seed[32], ticket[32];
    /* Set when the input carried them (C2Input wrapper, or filled in by the caller). */
    bool has_sector;
    uint8_t prover_id[32];
    uint64_t sector_id;
    /* sector_id known without prover_id (the envelope's SectorNum); implied by has_sector */
    bool has_sector_number;
} fc_c1_output;

void fc_c1_free(fc_c1_output *c1);

/* The C1 wire forms. */
typedef enum {
    FC_C1_JSON = 0,     /* serde JSON SealCommitPhase1Output */
    FC_C1_ENVELOPE,     /* Curio's {"SectorNum","Phase1Out" (base64 of the JSON),"SectorSize"} */
    FC_C1_BINCODE,      /* bare SealCommitPhase1Output bincode */
    FC_C1_BINCODE_C2IN, /* C2Input::V0 {c1out, prover_id, sector_id} bincode (fixture file) */
} fc_c1_format;

/* Whether the structure matches c1->registered_proof: partitions x challenges proofs, tree D
 * proofs Single of log2 N binary levels, tree R / tree C proofs of the sector's shape,
 * `layers` rows per column and `layers` labeling proofs (what the writers require and the
 * readers guarantee). Errors: CUZK_E_INVALID_ARG naming the proof (partition, challenge) and
 * the field. */
cuzk_status fc_c1_check_shape(const fc_c1_output *c1, cuzk_error *err);

/* Detect the form from the first bytes: a JSON object with one of the envelope keys
 * "Phase1Out", "SectorNum", "SectorSize" in its first 4 KiB -> envelope, other JSON -> JSON;
 * u32 0, a seal id and that id's vanilla variant -> C2Input (a bare output has its partition
 * count, >= 1, where the variant would be), also with another variant unless the bytes read
 * as a bare output of registered proof 0 (its variant and partition count), so a C2Input's
 * bad variant is reported at its offset 8; a JSON array ('[') -> JSON (refused there as not
 * an object); else bare bincode. Never fails; the reader of the detected form validates. */
fc_c1_format fc_c1_detect(const uint8_t *buf, size_t len);

/* Parse a C1 output in the given form (or detected with fc_c1_detect when `auto_detect`).
 * JSON parsing streams over the input (no DOM) and ignores unknown fields (e.g. "_h"); field
 * order is free, duplicate and missing fields are refused. Structure is checked while
 * parsing: registered_proof known, the vanilla_proofs variant key of its size, exactly its
 * partitions x challenges proofs, every Merkle proof of its tree's shape, `layers` rows per
 * column and labeling proofs, 37 parents, every 32-byte value canonical except seed, ticket
 * and prover_id (raw bytes). Bincode refuses trailing bytes. Envelope: SectorNum is stored
 * as sector_id with has_sector = false (no prover id) and has_sector_number = true; SectorSize must be the registered
 * proof's sector size.
 * Errors: CUZK_E_FORMAT (path/offset and what was expected), CUZK_E_UNSUPPORTED (unknown
 * registered_proof, vanilla variant not matching its size), CUZK_E_FIELD_NONCANONICAL,
 * CUZK_E_NOMEM. On error *out is zeroed. */
cuzk_status fc_c1_read(fc_c1_output *out, const uint8_t *buf, size_t len, fc_c1_format format,
                       bool auto_detect, cuzk_error *err);

/* Serialize. JSON is serde_json's compact form (no spaces, fields in declaration order,
 * Column with "_h":null), byte-identical to what filecoin-ffi writes. FC_C1_BINCODE_C2IN
 * needs has_sector. *out is malloc'ed (caller frees), *len its size. Errors:
 * CUZK_E_INVALID_ARG, CUZK_E_NOMEM. */
cuzk_status fc_c1_write(const fc_c1_output *c1, fc_c1_format format, uint8_t **out, size_t *len,
                        cuzk_error *err);

#endif
