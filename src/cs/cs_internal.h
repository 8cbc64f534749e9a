/* Private state of the cs back ends, shared by the cs_*.c and pce_record.c files only. */
#ifndef CUZK_CS_CS_INTERNAL_H
#define CUZK_CS_CS_INTERNAL_H

#include "cs/cs.h"
#include "cs/witness.h"

#define NS_MAX 1024
#define NS_DEPTH 64

typedef struct {
    uint64_t *row_ptr; /* num_constraints + 1 entries used */
    cs_var *col;       /* tagged variables until cs_take_matrices */
    fr_t *val;
    uint64_t rows_cap, nnz, col_cap, val_cap;
} rec_matrix;

typedef struct cs_pce_rec cs_pce_rec; /* compact recording (pce_record.c) */

struct cs_impl {
    uint64_t *dens[3]; /* a_aux, b_aux, b_input bitmaps */
    uint64_t dens_words[3];
    fr_t *vals[2]; /* [0] inputs, [1] aux (unused with `compact`) */
    uint64_t vals_cap[2];
    bool compact;    /* CS_COMPACT_AUX: aux values in `aux` */
    cs_witness aux;
    rec_matrix rec[3];
    cs_pce_rec *pce; /* CS_RECORD through cs_init_record_pce: replaces rec */
    /* CS_PROVE: evaluation vectors (abc_cap rows each) and the shared witness buffer that
     * vals[0] (inputs) and vals[1] (aux) point into while `packed` */
    fr_t *abc[3];
    uint64_t abc_cap;
    void *abc_region; /* a/b/c in one region of abc_alloc (cs_prove_hint), or NULL */
    const cuzk_region_alloc *abc_alloc;
    fr_t *wbuf;
    bool packed;
    bool failed;
    uint64_t fail_index;
    char fail_name[NS_MAX + 128];
    char ns[NS_MAX];
    uint32_t ns_len[NS_DEPTH];
    unsigned ns_depth, ns_overflow;
};

enum { D_A_AUX = 0, D_B_AUX = 1, D_B_IN = 2 };

/* The value of a variable in the value modes. */
static inline const fr_t *cs_val(const cs_impl *im, cs_var v)
{
    if (CS_VAR_IS_INPUT(v))
        return &im->vals[0][CS_VAR_INDEX(v)];
    return im->compact ? cs_witness_at(&im->aux, CS_VAR_INDEX(v)) : &im->vals[1][CS_VAR_INDEX(v)];
}

/* Set cs->fast from the back end's state (after anything that moves or grows its buffers,
 * changes the counts' word or the status). */
void cs_fast_refresh(cs_t *cs);
/* Set bits of bitmap w over its first n bits. */
uint64_t cs_popcount_bits(const uint64_t *w, uint64_t n);
/* The compact aux's count, which cs_alloc_bit leaves behind (value modes with `compact`). */
static inline void cs_sync_aux(cs_t *cs)
{
    if (cs->impl->compact)
        cs->impl->aux.n = cs->num_aux;
}

/* Shared by cs.c and cs_prove.c. */
bool cs_grow(void **p, uint64_t *cap, uint64_t need, size_t elem);
/* CS_PROVE / CS_WITNESS: allocate the buffers a hint describes (a/b/c and densities only
 * in CS_PROVE; cs->err set on failure). */
cuzk_status cs_prove_presize(cs_t *cs, const cs_prove_hint *hint);
/* Value modes: make room for value `need - 1` of kind (0 inputs, 1 aux), leaving the shared
 * witness buffer when it is too small; false when out of memory. */
bool cs_reserve_value(cs_t *cs, int kind, uint64_t need);
/* Give inputs and aux arrays of their own when they share the witness buffer (before
 * handing them out separately); false when out of memory. */
bool cs_unpack_values(cs_t *cs);
/* CS_PROVE: store row cs->num_constraints: the evaluations `ev` when given, else those of
 * the LCs (normalised). */
bool cs_prove_row(cs_t *cs, cs_lc *lc[3], const fr_t *ev);

/* Compact recording (pce_record.c): store row cs->num_constraints; free the state. */
bool cs_pce_record_row(cs_t *cs, cs_lc *lc[3]);
void cs_pce_rec_free(cs_pce_rec *r);

/* One recorded row, terms in normalised order (aux ascending, then inputs ascending, as
 * tagged variables sort): turn tagged variables into assignment columns (input i -> i, aux
 * j -> num_inputs + j) and move the input terms to the front, so columns ascend. `payload`
 * holds one element of `psize` bytes per term (coefficients or their indices), moved along. */
void cs_row_to_columns(uint32_t *col, void *payload, size_t psize, uint64_t lo, uint64_t hi, uint64_t num_inputs);

/* The A and B density bitmaps over all variables (inputs first; A: every input and the
 * A-dense aux, B: the B-dense inputs and aux), (inputs + aux) / 64 + 1 words each,
 * calloc'ed, with their popcounts. False when out of memory (nothing allocated). */
bool cs_full_density(const cs_t *cs, uint64_t **a, uint64_t **b, uint64_t *a_count, uint64_t *b_count);

#endif
