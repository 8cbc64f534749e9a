/* Startup check of the daemon's [[circuits]] entries: each .r1cs and .zkey exists, is a
 * readable regular file, and its header describes a BLS12-381 circuit that matches its
 * partner, without loading the constraint matrices or the key's points (those stay lazy:
 * circuit_registry.h loads them on first use or PreloadSRS).
 *
 * What is read: the iden3 container's section table (cs/iden3_bin.h: one 12-byte header per
 * section), the .r1cs header section 1 (iden3 r1csfile doc/r1cs_bin_format.md: n8, prime,
 * nWires, nPubOut, nPubIn, nPrvIn, nLabels, nConstraints) and the .zkey sections 1 and 2
 * (snarkjs 0.7.6 src/zkey_utils.js readHeaderGroth16: protocol, n8q, q, n8r, r, nVars,
 * nPublic, domainSize). The files are mapped read-only, so only the pages holding those
 * headers are touched. The pairing rules are the ones builtin_r1cs_create applies at load:
 * nWires = nVars, nPubOut + nPubIn = nPublic, nConstraints + nPublic + 1 <= domainSize.
 * A file that passes can still fail to load later (a bad point or coefficient inside).
 *
 * Thread-safety: works on caller-owned data only.
 */
#ifndef CUZK_SERVER_CIRCUIT_FILES_H
#define CUZK_SERVER_CIRCUIT_FILES_H

#include "common/status.h"
#include "server/config.h"

/* Check one entry (c->name, c->r1cs, c->zkey; c->where may be NULL). Every message starts
 * with "<c->where>: circuit \"<name>\": " and names the file, then the problem (strerror,
 * or the field and byte offset). Errors: CUZK_E_IO (missing, unreadable, not a regular
 * file), CUZK_E_FORMAT (bad magic, truncated or missing header section, domainSize not a
 * power of two), CUZK_E_UNSUPPORTED (container version, protocol other than Groth16, a
 * field other than BLS12-381's), CUZK_E_INVALID_ARG (the .r1cs and .zkey disagree),
 * CUZK_E_NOMEM. */
cuzk_status cuzk_circuit_files_check(const cuzk_circuit_config *c, cuzk_error *err);

#endif
