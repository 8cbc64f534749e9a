/* PoSt vanilla proofs: FallbackPoStSectorProof bincode, one per sector
 * (docs/formats.md#fallbackpostsectorproof). Reading rules, ownership and thread-safety:
 * filecoin/core/vanilla.h.
 */
#ifndef CUZK_FILECOIN_POST_VANILLA_H
#define CUZK_FILECOIN_POST_VANILLA_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "filecoin/core/merkle_proof.h"
#include "filecoin/core/registry.h"
#include "filecoin/core/vanilla.h"

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

#endif
