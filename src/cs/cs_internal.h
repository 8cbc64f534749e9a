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
    bool failed;
    uint64_t fail_index;
    char fail_name[NS_MAX + 128];
    char ns[NS_MAX];
    uint32_t ns_len[NS_DEPTH];
    unsigned ns_depth, ns_overflow;
};

enum { D_A_AUX = 0, D_B_AUX = 1, D_B_IN = 2 };

#endif
