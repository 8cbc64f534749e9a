/* bincode 1.x reading primitives and the MerkleProof codec shared by the C1, PoSt and
 * SnapDeals readers and writers (docs/formats.md#bincode-rules, docs/formats.md#merkleproof):
 * little-endian fixed-width integers, Vec = u64 count then items, enum = u32 variant index
 * then payload, [u8; 32] = 32 raw bytes.
 *
 * The reader never trusts a length prefix: fc_bin_count checks count x (encoded size of one
 * item) against the bytes left before the caller allocates anything. Every failure message
 * has the form "<what>: <field path> at byte offset <N>: <what was expected>", e.g.
 * "PoSt vanilla proof: vanilla_proof.sectors[0].inclusion_proofs[3].data.Sub.base_proof
 * .path[2].hashes[5] at byte offset 8020: value is not a canonical field element (>= r)".
 * Thread-safety: readers are caller-owned; functions touch only their arguments.
 */
#ifndef CUZK_FILECOIN_CORE_BINCODE_H
#define CUZK_FILECOIN_CORE_BINCODE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fieldpath.h"
#include "common/outbuf.h"
#include "common/status.h"
#include "filecoin/core/merkle_proof.h"

typedef struct {
    const uint8_t *buf;
    size_t len, pos;
    const char *what; /* names the value in messages, e.g. "C1 bincode" */
    cuzk_fieldpath fp;
    cuzk_error *err;
} fc_bin_reader;

void fc_bin_init(fc_bin_reader *r, const uint8_t *buf, size_t len, const char *what, cuzk_error *err);

/* Record "<what>: <path> at byte offset <off>: <fmt...>" with `code`; returns code. */
cuzk_status fc_bin_fail(fc_bin_reader *r, size_t off, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* Before reading bincode: refuse JSON text ('{' or '[' after optional white space, and the
 * first 32 bytes all printable or white space: a bincode value starting with the byte 0x7b
 * has zero bytes among them), so that e.g. a C1 JSON given where a bincode proof belongs
 * is named as such instead of failing on a nonsense length. Errors: CUZK_E_FORMAT "<what>
 * is bincode, but the bytes are JSON text ('{' at byte offset N)" (the location every bincode
 * refusal gives, as the fuzz targets require). */
cuzk_status fc_bin_refuse_json(fc_bin_reader *r);

/* Fixed-width reads. Errors: CUZK_E_FORMAT when fewer bytes are left ("truncated"). */
cuzk_status fc_bin_u32(fc_bin_reader *r, uint32_t *v);
cuzk_status fc_bin_u64(fc_bin_reader *r, uint64_t *v);
/* 32 raw bytes; with `field`, a value >= r is refused (CUZK_E_FIELD_NONCANONICAL). */
cuzk_status fc_bin_bytes32(fc_bin_reader *r, uint8_t out[32], bool field);

/* A Vec's u64 count. want = FC_BIN_ANY accepts any count that fits; otherwise the count must
 * equal want. Either way count x item_bytes (the smallest encoding of one item, >= 1) must
 * not exceed the bytes left after the prefix. Errors: CUZK_E_FORMAT. */
#define FC_BIN_ANY UINT64_MAX
cuzk_status fc_bin_count(fc_bin_reader *r, uint64_t want, uint64_t item_bytes, uint64_t *n);

/* The whole buffer must have been consumed. Errors: CUZK_E_FORMAT ("N trailing bytes"). */
cuzk_status fc_bin_end(fc_bin_reader *r);

/* ---- MerkleProof<H, Base, Sub, Top> ---- */

/* Encoded size of a MerkleProof of shape s: u32 tag, 64 bytes root + leaf, per path a u64
 * count and per element 8 + 32 (arity - 1) + 8 bytes (docs/formats.md#merkleproof: 2,484 for a
 * 32 GiB tree R, 1,516 for a 32 GiB tree D). */
uint64_t fc_merkle_bincode_size(const merkle_shape *s);

/* Read one MerkleProof that must have shape s (tag Single / Sub / Top as the shape implies,
 * every path length and hashes count exact, index < arity, every value canonical) into *p
 * (allocated here; freed and zeroed on error). The field path names the variant and paths as
 * the JSON form does ("data.Single.path.path[3].index"). Errors: CUZK_E_FORMAT,
 * CUZK_E_FIELD_NONCANONICAL, CUZK_E_NOMEM. */
cuzk_status fc_merkle_read_bincode(fc_bin_reader *r, fc_merkle_proof *p, const merkle_shape *s);

/* Append the bincode of p (its own kind and levels). */
void fc_merkle_write_bincode(cuzk_outbuf *o, const fc_merkle_proof *p);

/* "Single" / "Sub" / "Top" for a kind (the serde variant names); "?" otherwise. */
const char *fc_merkle_kind_name(unsigned kind);

/* Whether p has exactly shape s. */
bool fc_merkle_proof_is(const fc_merkle_proof *p, const merkle_shape *s);

#endif
