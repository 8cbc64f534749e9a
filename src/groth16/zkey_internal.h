/* Shared by zkey_read.c, zkey_write.c and zkey.c only: section ids and sizes, and the
 * snarkjs ("LEM": little-endian Montgomery) encodings of Fq, points and coefficients. */
#ifndef CUZK_GROTH16_ZKEY_INTERNAL_H
#define CUZK_GROTH16_ZKEY_INTERNAL_H

#include "groth16/zkey.h"

enum {
    ZS_HEADER = 1, ZS_GROTH = 2, ZS_IC = 3, ZS_COEFS = 4, ZS_A = 5,
    ZS_B1 = 6, ZS_B2 = 7, ZS_C = 8, ZS_H = 9, ZS_CONTRIB = 10,
};

#define ZKEY_N8Q 48u
#define ZKEY_N8R 32u
#define ZKEY_G1_BYTES 96u
#define ZKEY_G2_BYTES 192u
#define ZKEY_COEF_BYTES (12u + ZKEY_N8R)
/* n8q, q, n8r, r, nVars, nPublic, domainSize, 3 G1 and 3 G2 points: 964 bytes. */
#define ZKEY_GROTH_HEADER_BYTES \
    (4u + ZKEY_N8Q + 4u + ZKEY_N8R + 12u + 3u * ZKEY_G1_BYTES + 3u * ZKEY_G2_BYTES)
#define ZKEY_CONTRIB_MIN_BYTES 68u /* 64-byte circuit hash + u32 count */

/* Section name for messages ("A", "IC", ...). */
const char *zkey_section_name(uint32_t type);

/* Payload size of section `type` for z's counts (section 10: contributions_len). */
uint64_t zkey_section_size(const zkey_t *z, uint32_t type);

/* Raw fr_t / fp_t limbs <-> 32 / 48 LE bytes, no conversion (the file stores Montgomery
 * limbs). */
void zkey_put_fp(uint8_t *out, const fp_t *a);
void zkey_put_g1(uint8_t out[ZKEY_G1_BYTES], const g1_affine_t *p);
void zkey_put_g2(uint8_t out[ZKEY_G2_BYTES], const g2_affine_t *p);
/* Coefficient v (Montgomery fr_t) -> 32 bytes of v * R^2 mod r. */
void zkey_put_coef_value(uint8_t out[ZKEY_N8R], const fr_t *v);

/* A run of consecutive points of one array, for the parallel subgroup check. */
typedef struct {
    uint32_t sec;         /* section id, for messages */
    const char *field;    /* field name, for messages */
    bool g2;              /* points are g2_affine_t (else g1_affine_t) */
    const void *pts;      /* n points */
    uint64_t n;
    uint64_t file_offset; /* byte offset of pts[0] in the file */
} zkey_point_run;

/* Check that every point of every run is in its prime-order subgroup (infinity passes),
 * with `threads` threads (0 = online CPUs). On failure reports the first failing point in
 * run order: CUZK_E_POINT_NOT_IN_SUBGROUP naming section, field, index and byte offset.
 * Also CUZK_E_NOMEM. */
cuzk_status zkey_check_subgroup_runs(const zkey_point_run *runs, size_t n_runs, unsigned threads,
                                     cuzk_error *err);

#endif
