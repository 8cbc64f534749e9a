/* Filecoin registered proofs: every RegisteredSealProof (0-19), RegisteredPoStProof (0-14)
 * and RegisteredUpdateProof (0-4) id with its sector shape, API version, feature,
 * partitions and challenges, porep_id and official v28 parameter file stem.
 *
 * Sources: rust-filecoin-proofs-api registry.rs, filecoin-proofs constants.rs (tree shapes) /
 * parameters.rs, storage-proofs-core parameter_cache.rs, storage-proofs-update constants.rs
 * (SnapDeals parameters), docs/engine.md#inputs-per-proof-kind (numeric ids).
 *
 * All tables are immutable static data: every function is thread-safe and the returned
 * pointers stay valid for the life of the process.
 */
#ifndef CUZK_FILECOIN_CORE_REGISTRY_H
#define CUZK_FILECOIN_CORE_REGISTRY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

/* Published sector sizes, in the order the registered ids use (id % 5 for seal ids). */
typedef enum {
    FC_SIZE_2KIB = 0,
    FC_SIZE_8MIB,
    FC_SIZE_512MIB,
    FC_SIZE_32GIB,
    FC_SIZE_64GIB,
    FC_SIZE_COUNT
} fc_size_class;

/* Shape of a sector: node count, SDR layers and the tree R / tree C shape (base arity 8
 * over base_levels levels per base tree, then an optional sub level and top level; 0 =
 * absent). Tree D is always one binary SHA-256 tree of depth log2_nodes. */
typedef struct {
    fc_size_class size;
    const char *name;      /* "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" */
    uint64_t sector_bytes; /* padded bytes = nodes * 32 */
    uint64_t nodes;
    unsigned log2_nodes;
    unsigned layers;      /* 2 or 11 */
    unsigned base_arity;  /* 8 */
    unsigned base_levels; /* levels per base tree: 2, 6, 8, 9, 9 */
    unsigned sub_arity;   /* 0 or 8 */
    unsigned top_arity;   /* 0 or 2 */
} fc_sector_shape;

/* Shape of a published size. size must be < FC_SIZE_COUNT. */
const fc_sector_shape *fc_sector_shape_of(fc_size_class size);
/* Shape by sector size in bytes (2048, 8388608, ...). Errors: CUZK_E_UNSUPPORTED naming the
 * size. */
cuzk_status fc_sector_shape_by_bytes(uint64_t bytes, const fc_sector_shape **out, cuzk_error *err);
/* Shape by name: "2KiB", "8MiB", "512MiB", "32GiB", "64GiB" (case-insensitive; "2k", "8m",
 * "512m", "32g", "64g" accepted too). Errors: CUZK_E_UNSUPPORTED naming the string. */
cuzk_status fc_sector_shape_by_name(const char *name, const fc_sector_shape **out, cuzk_error *err);
/* Base trees per sector: 1, 1, 1, 8, 16. */
uint64_t fc_sector_base_trees(const fc_sector_shape *s);

typedef enum { FC_API_1_0 = 0, FC_API_1_1, FC_API_1_2 } fc_api_version;
/* "1.0.0", "1.1.0", "1.2.0". */
const char *fc_api_version_name(fc_api_version v);

typedef enum {
    FC_POREP_INTERACTIVE = 0, /* V1 (API 1.0.0) and V1_1 (API 1.1.0) */
    FC_POREP_SYNTHETIC,       /* V1_1_Feat_SyntheticPoRep (API 1.2.0) */
    FC_POREP_NON_INTERACTIVE, /* V1_2_Feat_NonInteractivePoRep (API 1.2.0) */
} fc_porep_feature;

/* One RegisteredSealProof. */
typedef struct {
    unsigned id;                 /* 0..19 */
    const char *name;            /* e.g. "StackedDrg32GiBV1_1" */
    const char *vanilla_variant; /* C1 JSON vanilla_proofs key: "StackedDrg32GiBV1" */
    const fc_sector_shape *shape;
    fc_api_version api;
    fc_porep_feature feature;
    unsigned partitions;               /* 1 / 10 interactive and synthetic, 13 / 126 NI */
    unsigned challenges_per_partition; /* 2 (small sizes) / 18 (32 / 64 GiB) */
    unsigned min_challenges;           /* 2 / 176 interactive and synthetic, 26 / 2253 NI */
    uint8_t porep_id[32];              /* id as u64 LE, then 24 zero bytes (nonce 0) */
} fc_seal_proof;

#define FC_SEAL_PROOF_COUNT 20u
/* Errors: CUZK_E_UNSUPPORTED "unknown RegisteredSealProof id N (known 0..19)". */
cuzk_status fc_seal_proof_get(uint64_t id, const fc_seal_proof **out, cuzk_error *err);
/* By name as in C1 JSON "registered_proof". Errors: CUZK_E_UNSUPPORTED naming the string. */
cuzk_status fc_seal_proof_by_name(const char *name, const fc_seal_proof **out, cuzk_error *err);

/* One RegisteredPoStProof. */
typedef struct {
    unsigned id;   /* 0..14 */
    const char *name; /* "StackedDrgWinning32GiBV1", "StackedDrgWindow32GiBV1", "StackedDrgWindow32GiBV1_2" */
    const fc_sector_shape *shape;
    fc_api_version api; /* 1.0.0 for 0-9, 1.2.0 for 10-14 */
    bool winning;
    unsigned sector_count;    /* sectors in the circuit: 66 winning; 2 / 2349 / 2300 window */
    unsigned challenge_count; /* challenges per sector in the circuit: 1 winning, 10 window */
    /* The vanilla proof Curio sends per sector holds this many inclusion proofs:
     * 66 winning (unrolled into 66 circuit sectors), 10 window. */
    unsigned vanilla_challenges;
} fc_post_proof;

#define FC_POST_PROOF_COUNT 15u
cuzk_status fc_post_proof_get(uint64_t id, const fc_post_proof **out, cuzk_error *err);

/* One RegisteredUpdateProof (EmptySectorUpdate, SnapDeals). */
typedef struct {
    unsigned id; /* 0..4 */
    const char *name; /* "StackedDrg32GiBV1" (proofs-api update names) */
    const fc_sector_shape *shape;
    unsigned partitions;     /* 1 / 4 / 16 / 16 / 16 */
    unsigned challenges;     /* per partition: 10 / 10 / 86 / 86 / 86 */
    unsigned apex_leaves;    /* 8 / 128 / 128 / 128 / 128 */
    unsigned hs[6];          /* [1;6] for 2KiB, [7..12] otherwise */
    unsigned h;              /* h_default = hs[3] */
    unsigned h_select;       /* 2^(first index of h in hs): 1 for 2KiB, 8 otherwise */
    unsigned poseidon_challenges; /* EmptySectorUpdate-Poseidon: challenges * partitions */
} fc_snap_proof;

#define FC_SNAP_PROOF_COUNT 5u
cuzk_status fc_snap_proof_get(uint64_t id, const fc_snap_proof **out, cuzk_error *err);

/* ---- parameter files (docs/formats.md#parameter-file-names-and-digests) ---- */

typedef enum {
    FC_CIRCUIT_POREP = 0,
    FC_CIRCUIT_WINNING_POST,
    FC_CIRCUIT_WINDOW_POST,
    FC_CIRCUIT_SNAP,          /* EmptySectorUpdate (SHA-256 tree D) */
    FC_CIRCUIT_SNAP_POSEIDON, /* EmptySectorUpdate-Poseidon (32 / 64 GiB only published) */
    FC_CIRCUIT_COUNT
} fc_circuit_family;

/* "porep", "winning-post", "window-post", "snap", "snap-poseidon". */
const char *fc_circuit_family_name(fc_circuit_family f);
cuzk_status fc_circuit_family_by_name(const char *name, fc_circuit_family *out, cuzk_error *err);

/* Identity of one published circuit: its family and size. Every registered proof of the
 * same family and size shares the circuit, parameters and verifying key (filecoin-proofs
 * parameters.rs). */
typedef struct {
    fc_circuit_family family;
    const fc_sector_shape *shape;
} fc_circuit_id;

/* Short circuit id as the reference daemon names SRS entries in GetStatus:
 * "porep-32g", "winning-2k", "wpost-8m", "snap-512m", "snap-poseidon-64g". */
void fc_circuit_id_name(const fc_circuit_id *c, char *out, size_t cap);
/* Parse the short name back. Errors: CUZK_E_UNSUPPORTED. */
cuzk_status fc_circuit_id_parse(const char *name, fc_circuit_id *out, cuzk_error *err);

/* Official file stem, e.g.
 * "v28-stacked-proof-of-replication-merkletree-poseidon_hasher-8-0-0-sha256_hasher-032d...",
 * computed as "v28-" + prefix + "-" + hex(SHA-256(identifier string)) exactly as
 * parameter_cache.rs cache_identifier does. out must hold FC_PARAM_STEM_MAX bytes. */
#define FC_PARAM_STEM_MAX 192
void fc_param_stem(const fc_circuit_id *c, char out[FC_PARAM_STEM_MAX]);
/* The identifier string hashed into the stem (for tests and messages). */
void fc_param_identifier(const fc_circuit_id *c, char *out, size_t cap);

/* Published manifest digests (first 32 hex characters of BLAKE2b-512 of the file), NULL
 * when the manifest has no entry (SnapDeals-Poseidon below 32 GiB). */
const char *fc_param_digest(const fc_circuit_id *c, bool vk);

/* Circuit ids of each registered proof. */
fc_circuit_id fc_seal_circuit(const fc_seal_proof *p);
fc_circuit_id fc_post_circuit(const fc_post_proof *p);
fc_circuit_id fc_snap_circuit(const fc_snap_proof *p, bool poseidon);

/* ---- identifiers ---- */

/* prover_id from a miner actor id: unsigned LEB128 of the id at byte 0, rest zero
 * (docs/formats.md#prover-id). */
void fc_prover_id_from_actor(uint64_t actor_id, uint8_t out[32]);
/* Inverse: the actor id of a prover_id made that way. Errors: CUZK_E_FORMAT when the bytes
 * are not a minimal LEB128 varint followed by zeros. */
cuzk_status fc_actor_from_prover_id(const uint8_t prover_id[32], uint64_t *actor_id, cuzk_error *err);

#endif
