/* Vanilla proofs: the in-memory forms of what a sealing pipeline hands to the SNARK prover,
 * with readers and writers for every wire form Curio, lotus-bench and filecoin-ffi use.
 *
 *   PoRep C1 output  SealCommitPhase1Output (rust-filecoin-proofs-api seal.rs):
 *                    serde JSON (docs/formats.md#c1-output-json; what Curio sends, base64-wrapped
 *                    in the envelope {"SectorNum","Phase1Out","SectorSize"},
 *                    docs/formats.md#curios-c2-envelope), bincode (the bare struct), and the
 *                    fixture wrapper
 *                    C2Input::V0 {c1out, prover_id, sector_id}
 *                    (docs/formats.md#c1-output-in-bincode).
 *   PoSt             FallbackPoStSectorProof bincode, one per sector
 *                    (docs/formats.md#fallbackpostsectorproof).
 *   SnapDeals        PartitionProof bincode, one per partition, and the Poseidon variant
 *                    (docs/formats.md#snapdeals-partitionproof).
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

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/registry.h"

#define FC_LABEL_PARENTS 37
#define FC_DRG_PARENTS 6
#define FC_EXP_PARENTS 8

/* ---- PoRep C1 ---- */

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

/* ---- PoSt ---- */

/* SectorProof: one inclusion proof per challenge in tree R_last, plus comm_c, comm_r_last. */
typedef struct {
    uint32_t ninclusion;
    fc_merkle_proof *inclusion; /* owned */
    uint8_t comm_c[32], comm_r_last[32];
} fc_post_sector_proof;

/* FallbackPoStSectorProof (what filecoin-ffi GenerateSingleVanillaProof returns). */
typedef struct {
    uint64_t sector_id;
    uint8_t comm_r[32];
    uint32_t nsectors;              /* SectorProofs (1 as produced upstream) */
    fc_post_sector_proof *sectors;  /* owned */
} fc_post_vanilla;

void fc_post_vanilla_free(fc_post_vanilla *v);
/* Parse one FallbackPoStSectorProof for sector shape `shape` (the tag must be Single for
 * <= 512 MiB, Sub for 32 GiB, Top for 64 GiB; every path of tree R shape; every 32-byte
 * value canonical). The sector and inclusion-proof counts are free (bounded by the bytes
 * left); callers check them against the PoSt type. Trailing bytes are refused (the whole
 * buffer is one proof). Errors: CUZK_E_FORMAT (field, byte offset),
 * CUZK_E_FIELD_NONCANONICAL, CUZK_E_NOMEM. The writer needs every inclusion proof
 * allocated (CUZK_E_INVALID_ARG otherwise). */
cuzk_status fc_post_vanilla_read(fc_post_vanilla *out, const fc_sector_shape *shape, const uint8_t *buf,
                                 size_t len, cuzk_error *err);
cuzk_status fc_post_vanilla_write(const fc_post_vanilla *v, uint8_t **out, size_t *len, cuzk_error *err);

/* ---- SnapDeals ---- */

typedef struct {
    fc_merkle_proof r_old; /* tree R_old, sector shape */
    fc_merkle_proof d_new; /* tree D_new: SHA-256 binary (Poseidon variant: sector shape) */
    fc_merkle_proof r_new; /* tree R_new, sector shape */
} fc_snap_challenge_proof;

/* PartitionProof (storage-proofs-update vanilla.rs; poseidon/vanilla.rs without apex). */
typedef struct {
    bool poseidon;               /* the EmptySectorUpdate-Poseidon form (no apex leaves) */
    uint8_t comm_c[32];
    uint32_t napex;
    uint8_t (*apex)[32];         /* owned */
    uint32_t nchallenges;
    fc_snap_challenge_proof *challenges; /* owned */
} fc_snap_partition_proof;

void fc_snap_partition_free(fc_snap_partition_proof *p);
/* Parse one PartitionProof for sector shape `shape`; poseidon selects the variant. The
 * counts are those of the size's RegisteredUpdateProof (registry.h): apex_leaves apex leaves
 * and `challenges` challenge proofs (Poseidon: no apex leaves, poseidon_challenges). Tree
 * R_old / R_new proofs have the tree R shape, tree D_new proofs are Single binary of
 * log2 N levels (Poseidon variant: the tree R shape). Trailing bytes are refused. Errors as
 * fc_post_vanilla_read. Sizes (docs/formats.md#snapdeals-partitionproof): 15,064 bytes for 2
 * KiB, 561,768 for 32 GiB. */
cuzk_status fc_snap_partition_read(fc_snap_partition_proof *out, const fc_sector_shape *shape, bool poseidon,
                                   const uint8_t *buf, size_t len, cuzk_error *err);
cuzk_status fc_snap_partition_write(const fc_snap_partition_proof *p, uint8_t **out, size_t *len,
                                    cuzk_error *err);

/* ---- helpers shared with the CLI ---- */

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
