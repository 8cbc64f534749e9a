/* Pre-compiled constraint evaluator (PCE): the A, B, C matrices of one circuit shape,
 * recorded once, so that a partition is synthesized in witness-only mode (CS_WITNESS)
 * and its evaluation vectors a = A·w, b = B·w, c = C·w come from sparse products instead
 * of building every linear combination again (curio extern/cuzk/cuzk-pce; docs/engine.md#pce).
 *
 * Layout (compact CSR): rows = num_constraints + num_inputs (input row i is A = input_i,
 * B = C = 0, the rows bellperson's prover appends); columns index the full assignment
 * (inputs first, ONE = column 0, then aux at num_inputs + j), ascending within a row.
 * Coefficients are not stored per entry: each entry holds a 16-bit index into a dictionary
 * of the circuit's distinct coefficients (dict[0] = 1, dict[1] = -1; Filecoin circuits use
 * a few thousand: ±2^k bit packing, Poseidon constants), so an entry costs 6 bytes instead
 * of 36 (the reference's 25.7 GiB PoRep 32 GiB PCE becomes about 6 GB). The A and B
 * densities over all variables (as cs_assignment) are part of the PCE, so the PCE path
 * yields the same density bitmaps as CS_PROVE.
 *
 * Results are bit-identical to CS_PROVE: every a_i, b_i, c_i is the same field element
 * (sums in Fr are exact, and Fr values are kept fully reduced).
 *
 * File (`cs_pce_write` / `cs_pce_map`), little-endian, sections 4 KiB aligned:
 *   header (4096 bytes, zero-padded), byte offsets: 0 magic "CUZKPCE\0", 8 u32 layout
 *     version (1), 12 u32 header bytes (4096), 16 u32 Fr bytes (32), 20 u32 n_dict,
 *     24 circuit id (32 bytes, NUL-terminated), 56 key_id (32), 88 u64 rows,
 *     96 num_constraints, 104 num_inputs, 112 num_aux, 120 nnz A, B, C (3 x u64),
 *     144 a_count, 152 b_count, 160 section offsets (12 x u64), 256 section lengths
 *     (12 x u64), 352 fingerprint (32 bytes);
 *   sections in this order: row_ptr A, B, C (u32, rows + 1 each), col A, B, C (u32, nnz),
 *     coef A, B, C (u16, nnz), dict (n_dict Fr, Montgomery limbs), a_density, b_density
 *     ((num_inputs + num_aux) / 64 + 1 u64 words each), the first at 4096, each next one
 *     at the end of the previous rounded up to 4096.
 * The fingerprint is a SHA-256 tree hash: SHA-256 over the header bytes before it and the
 * SHA-256 of every 64 MiB chunk of every section, in order; it binds the circuit id, the
 * parameters' id, the counts and every matrix entry, and doubles as the checksum (chunks
 * are hashed in parallel). Mapping a file checks the magic, version, the expected identity,
 * the section layout, the fingerprint, and the structure (row pointers monotone, columns
 * below the variable count, coefficient indices below n_dict, canonical dictionary
 * values, density popcounts), so a corrupt, truncated, foreign or crafted file is refused
 * before any evaluation reads it.
 *
 * Thread-safety: a finished cs_pce is immutable; any number of threads may evaluate it at
 * once. Recording uses one cs (single-threaded, as every cs).
 */
#ifndef CUZK_CS_PCE_H
#define CUZK_CS_PCE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"
#include "cs/cs.h"
#include "cs/witness.h"
#include "field/fr.h"

/* Largest dictionary (the coefficient index is 16 bits). */
#define CS_PCE_MAX_DICT 65536u

/* One matrix: row r has entries [row_ptr[r], row_ptr[r + 1]). */
typedef struct {
    const uint32_t *row_ptr; /* rows + 1 */
    const uint32_t *col;     /* nnz */
    const uint16_t *coef;    /* nnz, indices into cs_pce.dict */
    uint64_t nnz;
} cs_pce_matrix;

/* Who a PCE belongs to. `circuit` is a NUL-terminated id ("porep-8m"); key_id identifies
 * the parameters (e.g. the SHA-256 of their verifying key) so that a PCE is never used
 * with parameters of another circuit. */
typedef struct {
    char circuit[32];
    uint8_t key_id[32];
} cs_pce_identity;

typedef struct {
    cs_pce_matrix m[3]; /* A, B, C */
    const fr_t *dict;   /* n_dict values, Montgomery; dict[0] = 1, dict[1] = -1 */
    uint32_t n_dict;
    uint64_t rows, num_constraints, num_inputs, num_aux;
    const uint64_t *a_density, *b_density; /* (num_inputs + num_aux) / 64 + 1 words each */
    uint64_t a_count, b_count;             /* set bits (A: every input and the A-dense aux) */
    cs_pce_identity id;
    uint8_t fingerprint[32]; /* valid once written or mapped */
    /* storage: malloc'ed arrays (recorded) or one read-only mapping (mapped) */
    void *alloc[12];
    const uint8_t *map;
    size_t map_len;
} cs_pce;

/* Exact storage of a PCE with these counts (what cs_init_record_pce allocates, and the
 * file size without the header's page), for memory budgets. counts as cs_get_counts of a
 * CS_SHAPE synthesis of the circuit (constraints, inputs, aux, nnz_a/b/c). */
uint64_t cs_pce_bytes(const cs_counts *counts);

/* cs_init(cs, CS_RECORD, 0) recording into the compact form, with every array sized from
 * `presize` (may be NULL: arrays then grow by doubling), typically the counts of a CS_SHAPE
 * pass of the same circuit. The cs records no cs_matrices (cs_take_matrices refuses).
 * More than CS_PCE_MAX_DICT distinct coefficients, or 2^32 entries in one matrix, make
 * synthesis fail with CUZK_E_UNSUPPORTED. Errors: CUZK_E_NOMEM naming the size. */
cuzk_status cs_init_record_pce(cs_t *cs, const cs_counts *presize);

/* Finish a recording started with cs_init_record_pce: append the input rows, turn tagged
 * variables into columns, build the density bitmaps, and move everything into *out (owned
 * by the caller: cs_pce_free), with identity `id` (fingerprint zero until written). The cs
 * may only be freed afterwards. Errors: CUZK_E_INVALID_ARG (not a PCE recording), the
 * sticky synthesis error, CUZK_E_NOMEM. On error *out is zeroed. */
cuzk_status cs_take_pce(cs_t *cs, const cs_pce_identity *id, cs_pce *out);

/* Free or unmap; zeroes *p. NULL or a zeroed struct is a no-op. */
void cs_pce_free(cs_pce *p);

/* Bytes a PCE occupies in memory (its arrays, or its mapping). */
uint64_t cs_pce_size(const cs_pce *p);

/* a, b, c (each p->rows elements; NULL skips that product) = A·w, B·w, C·w for the full
 * assignment w of n_w = num_inputs + num_aux values (inputs first, w[0] = 1). Zero values
 * are skipped, coefficients ±1 and values 1 need no multiplication. Rows are split into
 * blocks shared by `threads` threads (0 = online CPUs, the caller is one of them).
 * Errors: CUZK_E_INVALID_ARG (n_w differs from the PCE's variable count, both named). */
cuzk_status cs_pce_eval(const cs_pce *p, const fr_t *w, uint64_t n_w, fr_t *a, fr_t *b, fr_t *c, unsigned threads,
                        cuzk_error *err);

/* The same products for a witness in compact form: the inputs (num_inputs values, ONE
 * first) and the aux vector (cs/witness.h). Bit-identical to cs_pce_eval on the expanded
 * witness, and faster: every column's kind (0, 1, other) is read from one array of two bits
 * a column built from the bitmaps ((num_inputs + aux->n) / 4 bytes, freed on return), entries
 * with small integer coefficients on values 0 / 1 are counted without a branch on the value,
 * and the ±2^e entries of long rows (MultiEq, packing) summed as an integer. Errors:
 * CUZK_E_INVALID_ARG (counts differ from the PCE's, named), CUZK_E_NOMEM (the kinds). */
cuzk_status cs_pce_eval_compact(const cs_pce *p, const fr_t *inputs, uint64_t num_inputs, const cs_witness *aux,
                                fr_t *a, fr_t *b, fr_t *c, unsigned threads, cuzk_error *err);

/* Whether a_i * b_i = c_i for every circuit row i < p->num_constraints (the appended input
 * rows hold trivially). On failure *row (may be NULL) receives the first failing row.
 * Cheap next to the products (most rows have a or b equal to 0 or 1). Same threading as
 * cs_pce_eval; the result does not depend on the thread count. */
bool cs_pce_rows_hold(const cs_pce *p, const fr_t *a, const fr_t *b, const fr_t *c, unsigned threads, uint64_t *row);

/* Write p to `path` atomically (cuzk_write_atomic: temporary file, fsync, rename) and set
 * p->fingerprint. `threads` hash the chunks (0 = online CPUs). Errors: CUZK_E_IO (path and
 * strerror), CUZK_E_NOMEM, CUZK_E_INTERNAL (SHA-256 unavailable). */
cuzk_status cs_pce_write(cs_pce *p, const char *path, unsigned threads, cuzk_error *err);

/* Map the PCE file `path` read-only into *out after checking it (see the file comment)
 * against `expect` (may be NULL: any identity). Errors: CUZK_E_IO (open / map: path and
 * strerror), CUZK_E_FORMAT (not a PCE, another layout version, truncated, inconsistent
 * section table, bad structure: the section and the entry named), CUZK_E_VERIFY_FAILED
 * (the fingerprint does not match the contents, or the identity is another circuit's or
 * another parameter set's: both values named). On error *out is zeroed. */
cuzk_status cs_pce_map(const char *path, const cs_pce_identity *expect, unsigned threads, cs_pce *out,
                       cuzk_error *err);

#endif
