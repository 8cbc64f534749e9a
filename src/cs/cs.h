/* Constraint-system builder in the bellperson model.
 *
 * A circuit is synthesised by calling cs_alloc / cs_alloc_input / cs_enforce in a fixed
 * order; the same synthesis code drives four interchangeable back ends:
 *
 *   CS_SHAPE   counts only: constraints, inputs, aux, nnz of A/B/C and (optionally) the
 *              A/B density counts. No values. Memory O(1) in the number of constraints
 *              (2 bits per variable when density tracking is requested).
 *   CS_RECORD  records A, B, C as CSR matrices (cs_matrices), including the rows
 *              `input_i * 0 = 0` that the bellperson prover appends for every input.
 *   CS_WITNESS values only: alloc stores values, enforce is skipped.
 *   CS_CHECK   values and constraints: every constraint is evaluated; the first one with
 *              A*B != C is reported by index and namespaced name.
 *   CS_PROVE   values and the evaluation vectors the Groth16 prover needs, as bellperson's
 *              ProvingAssignment builds them (bellperson prover/mod.rs): every constraint pushes
 *              a_i = A·w, b_i = B·w, c_i = C·w, and the A/B density of every variable is
 *              tracked; cs_take_assignment hands out a, b, c (input rows appended, padded to
 *              the evaluation domain), the contiguous witness [inputs | aux] and the density
 *              bitmaps. With a size hint (cs_init_prove) nothing is reallocated or copied.
 *
 * Variables (source: bellperson/bellpepper-core ConstraintSystem): input 0 is ONE (value 1),
 * allocated by cs_init; further inputs come from cs_alloc_input, private ("aux") variables
 * from cs_alloc. A cs_var encodes the kind in its top bit (CS_VAR_INPUT) and the index in
 * the low 31 bits; variable order inside each kind is allocation order.
 *
 * Linear combinations (cs_lc) are maps variable -> Fr coefficient. Adding a variable that is
 * already present sums the coefficients; a term whose coefficient is (or cancels to) zero is
 * absent: it counts neither for nnz nor for density, exactly as bellperson's prover skips
 * zero coefficients (bellperson src/lc.rs). Terms live in a caller-provided buffer, so
 * building an LC never mallocs unless it outgrows that buffer (then it moves to the heap;
 * cs_lc_release frees it). An LC stays in normal form (variables ascending in the cs_var
 * order, no repeat, no zero coefficient) while it is built in that order: a term for the last
 * variable is merged into it, an LC in normal form added to another is merged with it, and
 * coefficients 1 and -1 need no multiplication; only terms added out of order leave it to be
 * sorted when it is used (cs_lc_normalize, which cs_enforce calls).
 *
 * Errors are sticky: a failing call (out of memory, missing value in a value mode) records
 * the first error in the cs and later calls become no-ops; check cs_status() after synthesis.
 * Cancellation: every 65536th variable of a kind, the calling thread's bound cancel flag
 * (common/cancel.h) is read; once set, the cs records CUZK_E_CANCELLED.
 * Thread-safety: one cs_t per thread; different cs_t are independent. The coefficient
 * helpers (cs_pow2, cs_neg_one) are thread-safe.
 */
#ifndef CUZK_CS_CS_H
#define CUZK_CS_CS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#if defined(__SSE2__)
#include <emmintrin.h>
#endif

#include "common/region.h"
#include "common/status.h"
#include "cs/witness.h"
#include "field/fr.h"

typedef uint32_t cs_var;
#define CS_VAR_INPUT 0x80000000u
#define CS_VAR_INDEX(v) ((v) & 0x7fffffffu)
#define CS_VAR_IS_INPUT(v) (((v) & CS_VAR_INPUT) != 0)
#define CS_ONE ((cs_var)CS_VAR_INPUT)
/* Largest number of aux (or input) variables a cs can hold. */
#define CS_MAX_VARS 0x7fffffffu

/* One LC term. */
typedef struct {
    cs_var var;
    uint32_t _pad;
    fr_t coeff; /* Montgomery form */
} cs_term;

/* Linear combination: n terms in t[0..n), capacity cap. `heap` marks t as malloc'ed by the
 * LC itself; `failed` marks an allocation failure (the LC is then unusable and cs_enforce
 * records CUZK_E_NOMEM). */
typedef struct {
    cs_term *t;
    uint32_t n, cap;
    bool heap, failed, normal; /* normal: sorted, merged, no zero coefficient */
} cs_lc;

/* Declare an LC `name` backed by an on-stack buffer of N terms. */
#define CS_LC(name, N)                                                                        \
    cs_term name##_buf_[N];                                                                   \
    cs_lc name = {name##_buf_, 0, (N), false, false, true}

/* Coefficient tables (Montgomery Fr): 2^k for k < 256, and the small integers -4 .. 4 (index
 * v + CS_SMALL_INT_MAX). Filled before main by a constructor (cs_lc.c), read-only afterwards,
 * so the accessors below are plain loads (the gadgets use them for every bit). */
#define CS_SMALL_INT_MAX 4
extern fr_t cs_coeff_pow2[256];
extern fr_t cs_coeff_small[2 * CS_SMALL_INT_MAX + 1];

/* 2^k as an Fr coefficient, k < 256 (k is taken mod 256). */
static inline const fr_t *cs_pow2(unsigned k) { return &cs_coeff_pow2[k & 255]; }
/* -1 in Fr. */
static inline const fr_t *cs_neg_one(void) { return &cs_coeff_small[CS_SMALL_INT_MAX - 1]; }
/* Small integers v, |v| <= CS_SMALL_INT_MAX, in Fr (0 for others): the known evaluations of
 * bit expressions (cs_enforce_values). Thread-safe. */
static inline const fr_t *cs_small_int(int v)
{
    if (v < -CS_SMALL_INT_MAX || v > CS_SMALL_INT_MAX)
        v = 0;
    return &cs_coeff_small[v + CS_SMALL_INT_MAX];
}

/* Initialise `lc` over a caller buffer of `cap` terms (buf may be NULL when cap is 0). */
void cs_lc_init(cs_lc *lc, cs_term *buf, uint32_t cap);
/* Free heap storage (if any) and reset to an empty LC with no storage. */
void cs_lc_release(cs_lc *lc);
/* Remove all terms, keeping the storage. */
void cs_lc_clear(cs_lc *lc);
/* lc += coeff * v (cs_lc_add_slow: the general case, out of line). */
void cs_lc_add_slow(cs_lc *lc, cs_var v, const fr_t *coeff);
static inline void cs_lc_add(cs_lc *lc, cs_var v, const fr_t *coeff)
{
    /* the common case inline: a non-zero term after the last one, with room */
    if (lc->n < lc->cap && (lc->n == 0 || lc->t[lc->n - 1].var < v) &&
        (coeff->l[0] | coeff->l[1] | coeff->l[2] | coeff->l[3])) {
        cs_term *t = &lc->t[lc->n++];
        t->var = v;
        t->_pad = 0;
        t->coeff = *coeff;
        return;
    }
    cs_lc_add_slow(lc, v, coeff);
}
/* lc += v (coefficient 1) / lc -= v (coefficient -1). */
static inline void cs_lc_add_var(cs_lc *lc, cs_var v) { cs_lc_add(lc, v, &FR_ONE); }
static inline void cs_lc_sub_var(cs_lc *lc, cs_var v) { cs_lc_add(lc, v, cs_neg_one()); }
/* lc += scale * src (scale NULL means 1). src is not modified. */
void cs_lc_add_lc(cs_lc *lc, const cs_lc *src, const fr_t *scale);
/* Sort by variable (inputs after aux in the cs_var order), merge repeats, drop zeros.
 * Inline: most LCs are built in normal form and need nothing (cs_lc_normalize_slow: the
 * others). */
void cs_lc_normalize_slow(cs_lc *lc);
static inline void cs_lc_normalize(cs_lc *lc)
{
    if (!lc->normal)
        cs_lc_normalize_slow(lc);
}

typedef enum { CS_SHAPE = 0, CS_RECORD, CS_WITNESS, CS_CHECK, CS_PROVE } cs_mode;

/* Flags for cs_init. */
#define CS_TRACK_DENSITY 1u /* keep a/b density bitmaps (2 bits per aux variable) */
#define CS_VERIFY_ROWS 2u   /* CS_PROVE: also check a_i * b_i = c_i (first failure by index) */
#define CS_COMPACT_AUX 4u   /* CS_WITNESS / CS_PROVE: aux values kept compactly (cs/witness.h: two
                               bits each, full elements only for values other than 0 and 1) */

/* Counts of a synthesised circuit. `constraints` excludes the appended input rows;
 * `inputs` includes ONE; nnz_* count non-zero terms of the circuit's constraints (appended
 * input rows excluded: they would add `inputs` to nnz_a). Density counts (valid when
 * CS_TRACK_DENSITY was set, or in record mode): number of aux variables with a non-zero
 * coefficient in some A (a_aux_density), in some B (b_aux_density), and of inputs with a
 * non-zero coefficient in some B (b_input_density). */
typedef struct {
    uint64_t constraints, inputs, aux;
    uint64_t nnz_a, nnz_b, nnz_c;
    uint64_t a_aux_density, b_aux_density, b_input_density;
} cs_counts;

/* One sparse matrix in CSR form. Row r has entries [row_ptr[r], row_ptr[r+1]); columns index
 * the full assignment (inputs first, ONE = column 0, then aux: column num_inputs + j), sorted
 * ascending within a row; values are Montgomery Fr, never zero. */
typedef struct {
    uint64_t rows, cols;
    uint64_t *row_ptr; /* rows + 1 */
    uint32_t *col;     /* row_ptr[rows] */
    fr_t *val;         /* row_ptr[rows] */
} cs_csr;

/* The recorded R1CS: rows = num_constraints + num_inputs (input row i is A = input_i,
 * B = C = 0, as bellperson's prover appends). Owned by the caller; free with
 * cs_matrices_free. */
typedef struct {
    cs_csr a, b, c;
    uint64_t num_constraints, num_inputs, num_aux;
} cs_matrices;

void cs_matrices_free(cs_matrices *m);

typedef struct cs_impl cs_impl;

/* State of the inline fast paths (cs_alloc_bit, cs_row_fast / cs_row_push), kept by the back
 * ends and read only by those helpers; all zero while a path is closed (then every call takes
 * the general path). */
typedef struct {
    uint64_t alloc_end; /* cs_alloc_bit inline while num_aux < alloc_end: the rest of the current
                           64-variable word, with the status OK and the aux values compact or absent */
    uint64_t *ones;     /* value modes: the compact aux's bitmap of ones (else NULL) */
    uint64_t rows_end;  /* CS_PROVE: rows inline while num_constraints < rows_end (the status OK) */
    fr_t *abc[3];       /* CS_PROVE: a, b, c */
    uint64_t *dens[3];  /* CS_PROVE: the A aux, B aux and B input density bitmaps */
} cs_fast;

typedef struct {
    cs_mode mode;
    unsigned flags;
    uint64_t num_constraints, num_inputs, num_aux;
    uint64_t nnz[3];
    cuzk_status status;
    cuzk_error err;
    cs_impl *impl; /* back-end state */
    cs_fast fast;
} cs_t;

/* Create a cs in `mode` with ONE already allocated as input 0. Errors: CUZK_E_NOMEM,
 * CUZK_E_INVALID_ARG (unknown mode). */
cuzk_status cs_init(cs_t *cs, cs_mode mode, unsigned flags);
/* Free everything the cs owns (not matrices or witnesses already taken out). */
void cs_free(cs_t *cs);

/* True when the back end stores values (CS_WITNESS, CS_CHECK, CS_PROVE): gadgets must then pass
 * values to alloc. In other modes values passed are ignored and may be NULL. */
static inline bool cs_has_values(const cs_t *cs) { return cs->mode >= CS_WITNESS; }
/* True when the back end uses constraints (all but CS_WITNESS); gadgets may skip building
 * LCs when false. */
static inline bool cs_wants_constraints(const cs_t *cs) { return cs->mode != CS_WITNESS; }
static inline cuzk_status cs_status(const cs_t *cs) { return cs->status; }

/* Allocate an aux / input variable. `value` must be non-NULL in value modes (else the cs
 * records CUZK_E_INVALID_ARG). Returns the variable (CS_ONE after an error). */
cs_var cs_alloc(cs_t *cs, const fr_t *value);
cs_var cs_alloc_input(cs_t *cs, const fr_t *value);
/* cs_alloc of a bit (value FR_ONE when v, else FR_ZERO), inline in the common case: the
 * gadgets allocate tens of millions of bits. Same result and errors as cs_alloc. */
static inline __attribute__((always_inline)) cs_var cs_alloc_bit(cs_t *cs, bool v)
{
    uint64_t n = cs->num_aux;
    if (n < cs->fast.alloc_end) {
        if (cs->fast.ones)
            cs->fast.ones[n >> 6] |= (uint64_t)v << (n & 63);
        cs->num_aux = n + 1;
        return (cs_var)n;
    }
    return cs_alloc(cs, v ? &FR_ONE : &FR_ZERO);
}

/* cs_alloc_bit of bits 0 .. n-1 of v (n <= 64), in that order: n consecutive aux variables,
 * the first returned (CS_ONE once the cs has failed). Whole runs of bits go into the compact
 * witness at once. */
cs_var cs_alloc_bits(cs_t *cs, uint64_t v, unsigned n);

/* Value of a variable in value modes (NULL otherwise or when out of range). */
const fr_t *cs_value(const cs_t *cs, cs_var v);

/* Append the constraint a * b = c. `name` (static string, may be NULL) is used only by the
 * check back end's message. The LCs are normalised in place (hence non-const). */
void cs_enforce(cs_t *cs, const char *name, cs_lc *a, cs_lc *b, cs_lc *c);

/* cs_enforce for a gadget that already knows the row's evaluations ev[0] = a·w, ev[1] = b·w,
 * ev[2] = c·w (ev may be NULL in the modes without values): CS_PROVE stores them instead of
 * evaluating the LCs again (a long LC, such as a Poseidon state element, then costs no
 * products); CS_CHECK evaluates the LCs as cs_enforce does and also reports the constraint
 * as failed when a given value differs from its evaluation (a gadget bug); the other modes
 * ignore ev. */
void cs_enforce_values(cs_t *cs, const char *name, cs_lc *a, cs_lc *b, cs_lc *c, const fr_t ev[3]);

/* *dst = *src for a, b and c (dst 16-byte aligned): a streaming store where the CPU has one
 * (SSE2), as a partition's a, b, c are gigabytes written once and read by another thread much
 * later; without it every 64-byte line would first be read from memory (a 32 GiB PoRep
 * partition's direct synthesis: 4.7 s -> 1.9 s on one thread). cs_take_assignment fences the
 * streamed stores before a, b, c leave the thread. */
static inline void cs_store_stream(fr_t *dst, const fr_t *src)
{
#if defined(__SSE2__)
    __m128i lo = _mm_loadu_si128((const __m128i *)src), hi = _mm_loadu_si128((const __m128i *)src + 1);
    _mm_stream_si128((__m128i *)dst, lo);
    _mm_stream_si128((__m128i *)dst + 1, hi);
#else
    *dst = *src;
#endif
}
/* The fast paths' out-of-line halves: cs_row_fail records the error of a row naming an
 * unallocated variable, as cs_enforce would (cs.c); cs_row_verify, under CS_VERIFY_ROWS,
 * checks a·b = c at row `row` of the written a, b, c and records the first row that fails
 * (cs_prove.c). */
void cs_row_fail(cs_t *cs);
void cs_row_verify(cs_t *cs, uint64_t row);
/* The CS_PROVE fast path for rows whose gadget knows, without building the LCs, which
 * variables have a non-zero coefficient in A and B and what the row evaluates to (the bit
 * gadgets): CS_PROVE keeps of a row only its evaluations and the A / B densities.
 * cs_row_fast: whether the next row may take it (CS_PROVE, status OK, room in a, b, c, which
 * are 16-byte aligned); when false the gadget builds the LCs and calls cs_enforce_values as
 * usual (every other mode).
 * cs_row_push: the row a * b = c where a[0..na) are the aux variables with a non-zero
 * coefficient in A after merging (a repeat is harmless), b[0..nb) those of B, b_one whether ONE
 * has a non-zero coefficient in B, c[0..nc) C's aux variables (checked only: CS_PROVE keeps no
 * C density; inputs in A or C need no listing), ea, eb, ec the evaluations a·w, b·w, c·w. The
 * result equals cs_enforce_values over the LCs these lists describe: the same evaluations,
 * densities, errors (a variable not allocated; with CS_VERIFY_ROWS a row that does not hold).
 * Only after cs_row_fast returned true. */
static inline bool cs_row_fast(const cs_t *cs) { return cs->num_constraints < cs->fast.rows_end; }
static inline __attribute__((always_inline)) void cs_row_push(cs_t *cs, const cs_var *a, unsigned na, const cs_var *b,
                                                             unsigned nb, bool b_one, const cs_var *c, unsigned nc,
                                                             const fr_t *ea, const fr_t *eb, const fr_t *ec)
{
    uint64_t n = cs->num_aux; /* an input variable (top bit set) is never below it */
    bool ok = true;
    for (unsigned i = 0; i < na; i++)
        ok &= a[i] < n;
    for (unsigned i = 0; i < nb; i++)
        ok &= b[i] < n;
    for (unsigned i = 0; i < nc; i++)
        ok &= c[i] < n;
    if (!ok) {
        cs_row_fail(cs);
        return;
    }
    for (unsigned i = 0; i < na; i++)
        cs->fast.dens[0][a[i] >> 6] |= 1ull << (a[i] & 63);
    for (unsigned i = 0; i < nb; i++)
        cs->fast.dens[1][b[i] >> 6] |= 1ull << (b[i] & 63);
    if (b_one)
        cs->fast.dens[2][0] |= 1;
    uint64_t r = cs->num_constraints;
    cs_store_stream(&cs->fast.abc[0][r], ea);
    cs_store_stream(&cs->fast.abc[1][r], eb);
    cs_store_stream(&cs->fast.abc[2][r], ec);
    if (cs->flags & CS_VERIFY_ROWS)
        cs_row_verify(cs, r);
    cs->num_constraints = r + 1;
}

/* Namespaces prefix constraint names in check-mode messages ("ns/sub/name"); no-ops in
 * the other modes. Pushes and pops must balance. */
void cs_ns_push(cs_t *cs, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cs_ns_pop(cs_t *cs);

/* Record cuzk error `code` in the cs unless one is already recorded. */
void cs_set_error(cs_t *cs, cuzk_status code, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));

/* Counts so far (valid in every mode; nnz only in CS_SHAPE/CS_RECORD/CS_CHECK). */
void cs_get_counts(const cs_t *cs, cs_counts *out);

/* CS_CHECK (and CS_PROVE with CS_VERIFY_ROWS): true when every constraint so far held. On failure, *index receives the
 * 0-based constraint index of the first unsatisfied constraint and `name` (cap bytes,
 * may be NULL) its namespaced name (CS_CHECK only; CS_PROVE keeps no names: "(unnamed)"). */
bool cs_check_satisfied(const cs_t *cs, uint64_t *index, char *name, size_t cap);

/* CS_RECORD: move the recorded matrices out (with the appended input rows) into *m. The cs
 * may only be freed afterwards. Errors: CUZK_E_INVALID_ARG (wrong mode), CUZK_E_NOMEM, or
 * the sticky synthesis error. */
cuzk_status cs_take_matrices(cs_t *cs, cs_matrices *m);

/* CS_WITNESS / CS_CHECK: move the assignment out: *inputs (num_inputs values, ONE first)
 * and *aux (num_aux values), malloc'ed, owned by the caller. */
cuzk_status cs_take_witness(cs_t *cs, fr_t **inputs, uint64_t *num_inputs, fr_t **aux,
                            uint64_t *num_aux);

/* Value modes: move the assignment out as one array *w = [inputs | aux] (num_inputs +
 * num_aux values, w[0] = ONE), malloc'ed, owned by the caller. After cs_init_witness with an
 * exact hint this is the buffer synthesis wrote into (no copy). The cs may only be freed
 * afterwards. Errors: CUZK_E_INVALID_ARG (no values), the sticky synthesis error,
 * CUZK_E_NOMEM. */
cuzk_status cs_take_witness_packed(cs_t *cs, fr_t **w, uint64_t *num_inputs, uint64_t *num_aux);

/* ---- proving mode ---- */

/* Expected sizes of a CS_PROVE synthesis, known from the circuit's parameters (n_ic, the l
 * count, the h count + 1) or an earlier synthesis of the same shape. 0 = unknown (vectors
 * then grow by doubling and cs_take_assignment copies once). */
typedef struct {
    uint64_t rows;   /* capacity of a, b, c: the evaluation domain m >= constraints + inputs */
    uint64_t inputs; /* inputs including ONE */
    uint64_t aux;
    /* where a, b, c live (CS_PROVE with rows > 0): one region of 3 * rows elements from this
     * allocator (borrowed; must outlive the cs and the assignment taken from it), a at its
     * start, b and c after it; NULL: three malloc blocks. With a region the vectors never
     * grow: a circuit of more than `rows` rows is CUZK_E_INVALID_ARG. */
    const cuzk_region_alloc *abc_alloc;
} cs_prove_hint;

/* cs_init(cs, CS_PROVE, flags | CS_TRACK_DENSITY) with buffers pre-sized from `hint` (may
 * be NULL): a, b, c of hint->rows elements (in hint->abc_alloc's region when given) and one
 * witness buffer of inputs + aux elements, so that synthesis writes where the prover reads.
 * Memory: 32 (3 rows + inputs + aux) bytes plus 3 bits per variable. Errors: CUZK_E_NOMEM
 * naming the size (also when the region allocator has none). */
cuzk_status cs_init_prove(cs_t *cs, const cs_prove_hint *hint, unsigned flags);

/* cs_init(cs, CS_WITNESS, flags) with the witness storage sized from `hint` (hint->rows is
 * ignored; hint may be NULL): one buffer of hint->inputs + hint->aux values for
 * cs_take_witness_packed (32 bytes a value), or with CS_COMPACT_AUX (the only flag taken)
 * an inputs array and a compact aux vector for cs_take_witness_compact. The witness-only
 * synthesis of the PCE path (pce.h). Errors: CUZK_E_NOMEM naming the size. */
cuzk_status cs_init_witness(cs_t *cs, const cs_prove_hint *hint, unsigned flags);

/* Value modes with CS_COMPACT_AUX: move the inputs (*inputs, num_inputs values, ONE first,
 * malloc'ed) and the compact aux vector (*aux, cs_witness_free) out. The cs may only be
 * freed afterwards. Errors: CUZK_E_INVALID_ARG (no compact values), the sticky synthesis
 * error. */
cuzk_status cs_take_witness_compact(cs_t *cs, fr_t **inputs, uint64_t *num_inputs, cs_witness *aux);

/* What the Groth16 prover consumes (groth16.h groth16_assignment_t), owned by the caller:
 * free with cs_assignment_free (each pointer may also be taken over and freed with free()).
 *   a, b, c     `rows` elements each (Montgomery Fr): rows [0, num_constraints) from the
 *               circuit, rows [num_constraints, num_constraints + num_inputs) the appended
 *               `input_i * 0 = 0` rows (a = input value, b = c = 0), the rest zero.
 *   w           num_inputs + num_aux values: inputs (w[0] = ONE) then aux; NULL with
 *               CS_COMPACT_AUX, which gives instead
 *   inputs, aux the num_inputs input values (ONE first) and the compact aux vector.
 *   a_density   bitmap over the num_inputs + num_aux variables (bit i of word i / 64, LSB
 *               first): every input, and the aux variables with a non-zero coefficient in
 *               some A; a_count bits set (= length of the .params `a` section).
 *   b_density   inputs and aux with a non-zero coefficient in some B; b_count bits set.
 *   abc_region  non-NULL when a, b, c lie in one region of the hint's abc_alloc (a ==
 *               abc_region, b = a + rows, c = b + rows): give it back with abc_alloc->put
 *               (cs_assignment_free does), never free() a, b or c then. */
typedef struct {
    fr_t *a, *b, *c;
    uint64_t rows;
    void *abc_region;
    const cuzk_region_alloc *abc_alloc;
    fr_t *w;
    uint64_t num_constraints, num_inputs, num_aux;
    uint64_t *a_density, *b_density;
    uint64_t a_count, b_count;
    fr_t *inputs;   /* CS_COMPACT_AUX */
    cs_witness aux; /* CS_COMPACT_AUX */
} cs_assignment;

/* CS_PROVE: move the vectors out, padded to `rows` (>= constraints + inputs, usually the
 * power-of-two domain). The cs may only be freed afterwards. Errors: CUZK_E_INVALID_ARG
 * (wrong mode, rows too small: both counts named), CUZK_E_NOMEM, the sticky synthesis
 * error; with CS_VERIFY_ROWS an unsatisfied constraint is CUZK_E_INVALID_ARG naming its
 * index. On error *out is zeroed. */
cuzk_status cs_take_assignment(cs_t *cs, uint64_t rows, cs_assignment *out);
void cs_assignment_free(cs_assignment *as);

#endif
