/* The iden3 binary container shared by circom's .r1cs, circom's .wtns and snarkjs's .zkey.
 *
 * Layout (source: iden3 "binfileutils" and the r1cs spec, github.com/iden3/r1csfile
 * doc/r1cs_bin_format.md), all integers little-endian:
 *
 *   magic[4] ("r1cs", "wtns", "zkey")  u32 version  u32 n_sections
 *   n_sections times: u32 type  u64 size  size bytes of payload
 *
 * Sections may appear in any order. This module only splits a buffer into sections and
 * checks that they tile the buffer exactly; the file-specific readers interpret them
 * (files are mapped with cuzk_file_map, common/file_io.h). Also here: little-endian field
 * readers.
 *
 * Thread-safety: every function works on caller-owned data only.
 */
#ifndef CUZK_CS_IDEN3_BIN_H
#define CUZK_CS_IDEN3_BIN_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

typedef struct {
    uint32_t type;   /* section id */
    uint64_t offset; /* byte offset of the payload in the buffer */
    uint64_t size;   /* payload size in bytes */
} iden3_section;

typedef struct {
    uint32_t version;
    uint32_t n_sections;
    iden3_section *sections; /* n_sections entries, file order; malloc'ed */
} iden3_bin;

/* Split `buf` (len bytes) into sections. `magic` is the expected 4-character tag, versions
 * 1..max_version are accepted, `what` names the file in messages (e.g. "r1cs").
 * Errors: CUZK_E_FORMAT (empty or short file, wrong magic, a section running past the end,
 * trailing bytes; message names the byte offset), CUZK_E_UNSUPPORTED (version),
 * CUZK_E_NOMEM. On success *out owns its section table (free with iden3_bin_free). */
cuzk_status iden3_bin_parse(iden3_bin *out, const uint8_t *buf, size_t len, const char *magic,
                            uint32_t max_version, const char *what, cuzk_error *err);
void iden3_bin_free(iden3_bin *b);

/* The unique section of `type`. Errors: CUZK_E_FORMAT when it is missing (if `required`)
 * or appears more than once. Returns CUZK_OK with *out = NULL when it is absent and not
 * required. `name` names the section in messages. */
cuzk_status iden3_bin_section(const iden3_bin *b, uint32_t type, int required, const char *what,
                              const char *name, const iden3_section **out, cuzk_error *err);

static inline uint32_t iden3_le32(const uint8_t *p)
{
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static inline uint64_t iden3_le64(const uint8_t *p)
{
    return (uint64_t)iden3_le32(p) | (uint64_t)iden3_le32(p + 4) << 32;
}

static inline void iden3_put32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static inline void iden3_put64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

/* Little-endian bytes <-> 64-bit limbs (n limbs = 8n bytes). */
static inline void iden3_bytes_to_limbs(uint64_t *limbs, const uint8_t *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        limbs[i] = iden3_le64(p + 8 * i);
}

static inline void iden3_limbs_to_bytes(uint8_t *p, const uint64_t *limbs, size_t n)
{
    for (size_t i = 0; i < n; i++)
        iden3_put64(p + 8 * i, limbs[i]);
}

/* Compare little-endian limb integers: -1, 0, 1. */
static inline int iden3_limbs_cmp(const uint64_t *a, const uint64_t *b, size_t n)
{
    for (size_t i = n; i-- > 0;) {
        if (a[i] != b[i])
            return a[i] < b[i] ? -1 : 1;
    }
    return 0;
}

/* Prefix err->msg with "path: " (no-op when err is NULL). */
void iden3_error_prefix(cuzk_error *err, const char *path);

/* Describe a prime given as `n8` little-endian bytes for error messages: writes the curve
 * name when known (scalar fields "BLS12-381 r", "BN254 (bn128) r", "BLS12-377 r",
 * "Goldilocks"; base fields "BLS12-381 q", "BN254 (bn128) q") plus the value in hex into
 * out (cap bytes, NUL-terminated); otherwise the hex and "(not a known curve order)". */
void iden3_describe_prime(char *out, size_t cap, const uint8_t *prime, size_t n8);

#endif
