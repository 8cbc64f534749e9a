/* Reader for .wtns witness files (circom's witness calculator, snarkjs wtns calculate).
 *
 * Source: snarkjs src/wtns_utils.js. Container: iden3_bin.h, magic "wtns", versions 1-2.
 * Sections (little-endian):
 *   1 header:  u32 n8, prime (n8 bytes), u32 nWitness
 *   2 values:  nWitness x n8 bytes, canonical little-endian (not Montgomery)
 * Value i is wire i of the matching .r1cs (value 0 is ONE). Only BLS12-381 r is accepted.
 */
#ifndef CUZK_CS_WTNS_H
#define CUZK_CS_WTNS_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "field/fr.h"

/* A parsed witness: n values in Montgomery form (malloc'ed, owned; free with wtns_free). */
typedef struct {
    uint32_t n;
    fr_t *w;
} wtns_t;

/* Parse a .wtns held in memory (not retained). Errors (message names the offset/index):
 *   CUZK_E_FORMAT       empty/truncated file, bad magic, section 2 size != nWitness * n8
 *   CUZK_E_UNSUPPORTED  version > 2, n8 != 32 or prime != BLS12-381 r (prime named)
 *   CUZK_E_FIELD_NONCANONICAL  a value >= r
 *   CUZK_E_NOMEM
 * On error *out is zeroed. */
cuzk_status wtns_read_mem(wtns_t *out, const uint8_t *buf, size_t len, cuzk_error *err);

/* wtns_read_mem on a file; messages prefixed with the path. Additional error: CUZK_E_IO. */
cuzk_status wtns_read_file(wtns_t *out, const char *path, cuzk_error *err);

void wtns_free(wtns_t *w);

/* Check that the witness fits a circuit with `n_wires` wires: count equal and value 0 == 1.
 * `circuit` names the circuit in the message (e.g. the .r1cs or .zkey path). Errors:
 * CUZK_E_INVALID_ARG ("witness has N values but CIRCUIT has M wires: witness of another
 * circuit?"), or when w[0] != 1. */
cuzk_status wtns_check_count(const wtns_t *w, uint64_t n_wires, const char *circuit,
                             cuzk_error *err);

#endif
