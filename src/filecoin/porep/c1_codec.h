/* The C1 (SealCommitPhase1Output) codecs behind fc_c1_read / fc_c1_write (vanilla.h), one
 * file per wire form: c1_bincode.c (bare and C2Input::V0), c1_json.c (serde JSON),
 * envelope.c (Curio's base64 envelope). Shared pieces live in c1.c.
 *
 * Readers fill a zeroed *out and leave partial allocations in it on error (the caller,
 * fc_c1_read, frees with fc_c1_free). Writers expect fc_c1_check_shape to have passed.
 * Thread-safety: functions touch only their arguments.
 */
#ifndef CUZK_FILECOIN_POREP_C1_CODEC_H
#define CUZK_FILECOIN_POREP_C1_CODEC_H

#include "common/outbuf.h"
#include "filecoin/porep/vanilla.h"

/* c2in: the C2Input::V0 wrapper (u32 0, SealCommitPhase1Output, prover_id, sector_id). */
cuzk_status fc_c1_read_bincode(fc_c1_output *out, const uint8_t *buf, size_t len, bool c2in, cuzk_error *err);
void fc_c1_write_bincode(const fc_c1_output *c1, bool c2in, cuzk_outbuf *o);

/* `what` names the document in messages ("C1 JSON", "C1 JSON in the envelope's Phase1Out"). */
cuzk_status fc_c1_read_json(fc_c1_output *out, const uint8_t *buf, size_t len, const char *what, cuzk_error *err);
void fc_c1_write_json(const fc_c1_output *c1, cuzk_outbuf *o);

cuzk_status fc_c1_read_envelope(fc_c1_output *out, const uint8_t *buf, size_t len, cuzk_error *err);
cuzk_status fc_c1_write_envelope(const fc_c1_output *c1, cuzk_outbuf *o, cuzk_error *err);

/* The seal proof whose vanilla variant key is `name` (the first, V1, of that size), NULL if
 * none. */
const fc_seal_proof *fc_c1_variant_proof(const char *name, size_t n);
/* The largest partition count any registered proof of this size has (13 or 126: NI). */
unsigned fc_c1_max_partitions(const fc_sector_shape *s);

#endif
