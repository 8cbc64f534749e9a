/* Private state of the cs back ends, shared by cs.c and cs_take.c only. */
#ifndef CUZK_CS_CS_INTERNAL_H
#define CUZK_CS_CS_INTERNAL_H

#include "cs/cs.h"

#define NS_MAX 1024
#define NS_DEPTH 64

typedef struct {
    uint64_t *row_ptr; /* num_constraints + 1 entries used */
    cs_var *col;       /* tagged variables until cs_take_matrices */
    fr_t *val;
    uint64_t rows_cap, nnz, col_cap, val_cap;
} rec_matrix;

struct cs_impl {
    uint64_t *dens[3]; /* a_aux, b_aux, b_input bitmaps */
    uint64_t dens_words[3];
    uint64_t dens_count[3];
    fr_t *vals[2]; /* [0] inputs, [1] aux */
    uint64_t vals_cap[2];
    rec_matrix rec[3];
    /* CS_PROVE: evaluation vectors (abc_cap rows each) and the shared witness buffer that
     * vals[0] (inputs) and vals[1] (aux) point into while `packed` */
    fr_t *abc[3];
    uint64_t abc_cap;
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

/* Shared by cs.c and cs_prove.c. */
bool cs_grow(void **p, uint64_t *cap, uint64_t need, size_t elem);
/* CS_PROVE: allocate the buffers a hint describes (cs->err set on failure). */
cuzk_status cs_prove_presize(cs_t *cs, const cs_prove_hint *hint);
/* CS_PROVE: make room for value `need - 1` of kind (0 inputs, 1 aux); false when out of
 * memory. */
bool cs_prove_reserve_value(cs_t *cs, int kind, uint64_t need);
/* CS_PROVE: evaluate and store row cs->num_constraints (LCs normalised). */
bool cs_prove_row(cs_t *cs, cs_lc *lc[3]);

#endif
