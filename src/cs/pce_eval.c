/* PCE products a = A·w, b = B·w, c = C·w and the row check (contracts in pce.h). Filecoin
 * witnesses are mostly bits and most coefficients are ±1, so most entries cost one
 * addition or nothing. */
#include <stdatomic.h>
#include <string.h>

#include "common/par.h"
#include "cs/cs.h"
#include "cs/pce.h"

#define BLOCK_ROWS 8192u

static inline bool is_zero(const fr_t *x) { return !(x->l[0] | x->l[1] | x->l[2] | x->l[3]); }
static inline bool is_one(const fr_t *x)
{
    return !((x->l[0] ^ FR_ONE.l[0]) | (x->l[1] ^ FR_ONE.l[1]) | (x->l[2] ^ FR_ONE.l[2]) | (x->l[3] ^ FR_ONE.l[3]));
}

typedef struct {
    const cs_pce *p;
    const fr_t *w;         /* plain witness, or */
    const fr_t *inputs;    /* inputs and */
    const cs_witness *aux; /* compact aux */
    fr_t *out[3];
    size_t blocks; /* row blocks (one item each) */
    int mats[3];   /* the matrices computed, -1 after the last */
    unsigned threads;
} eval_job;

/* acc += coefficient dict[ci] (ci 0: +1, 1: -1) times a value x other than 0 */
static inline void add_term(fr_t *acc, const fr_t *x, uint16_t ci, const fr_t *dict)
{
    if (ci == 0) {
        fr_add(acc, acc, x);
    } else if (ci == 1) {
        fr_sub(acc, acc, x);
    } else if (is_one(x)) {
        fr_add(acc, acc, &dict[ci]);
    } else {
        fr_t t;
        fr_mul(&t, x, &dict[ci]);
        fr_add(acc, acc, &t);
    }
}

/* acc += ones (a small count of +1 / -1 entries on values 1) */
static inline void add_ones(fr_t *acc, int64_t ones)
{
    if (!ones)
        return;
    if (ones >= -CS_SMALL_INT_MAX && ones <= CS_SMALL_INT_MAX) {
        fr_add(acc, acc, cs_small_int((int)ones));
        return;
    }
    fr_t k;
    fr_from_u64(&k, (uint64_t)(ones < 0 ? -ones : ones));
    if (ones < 0)
        fr_sub(acc, acc, &k);
    else
        fr_add(acc, acc, &k);
}

/* Rows [lo, hi) of matrix m; `compact` selects the witness form (a constant at each call,
 * so each form gets its own loop). The compact form reads an aux value's kind from its
 * bitmaps (0: nothing to do; 1 with coefficient +1 / -1: counted, added once a row). */
static inline __attribute__((always_inline)) void eval_rows(const eval_job *j, int m, uint64_t lo, uint64_t hi,
                                                            bool compact)
{
    const cs_pce_matrix *mx = &j->p->m[m];
    const fr_t *dict = j->p->dict, *w = j->w, *inputs = j->inputs;
    const cs_witness *aux = j->aux;
    const uint32_t ni = (uint32_t)j->p->num_inputs;
    fr_t *out = j->out[m];
    for (uint64_t r = lo; r < hi; r++) {
        fr_t acc = FR_ZERO;
        int64_t ones = 0;
        for (uint32_t k = mx->row_ptr[r], e = mx->row_ptr[r + 1]; k < e; k++) {
            uint32_t col = mx->col[k];
            uint16_t ci = mx->coef[k];
            const fr_t *x;
            if (!compact) {
                x = &w[col];
            } else if (col < ni) {
                x = &inputs[col];
            } else {
                uint64_t i = col - ni, word = i >> 6, bit = 1ull << (i & 63);
                if (aux->big[word] & bit) {
                    add_term(&acc, &aux->vals[aux->rank[word] + (uint64_t)__builtin_popcountll(aux->big[word] & (bit - 1))],
                             ci, dict);
                } else if (aux->ones[word] & bit) {
                    if (ci <= 1)
                        ones += ci ? -1 : 1;
                    else
                        fr_add(&acc, &acc, &dict[ci]);
                }
                continue;
            }
            if (!is_zero(x))
                add_term(&acc, x, ci, dict);
        }
        add_ones(&acc, ones);
        out[r] = acc;
    }
}

/* One block of rows of every matrix asked for (A, B and C of the same rows read much the
 * same witness values). */
static cuzk_status eval_block(void *arg, uint64_t item, unsigned worker, cuzk_error *err)
{
    const eval_job *j = arg;
    uint64_t lo = (uint64_t)item * BLOCK_ROWS, hi = lo + BLOCK_ROWS;
    if (hi > j->p->rows)
        hi = j->p->rows;
    for (int i = 0; i < 3 && j->mats[i] >= 0; i++) {
        if (j->aux)
            eval_rows(j, j->mats[i], lo, hi, true);
        else
            eval_rows(j, j->mats[i], lo, hi, false);
    }
    return CUZK_OK;
}

static void run_eval(eval_job *j)
{
    j->blocks = (size_t)((j->p->rows + BLOCK_ROWS - 1) / BLOCK_ROWS);
    size_t n = 0;
    for (int m = 0; m < 3; m++)
        if (j->out[m])
            j->mats[n++] = m;
    for (size_t m = n; m < 3; m++)
        j->mats[m] = -1;
    (void)cuzk_par_for(j->threads, j->blocks, eval_block, j, NULL);
}

cuzk_status cs_pce_eval(const cs_pce *p, const fr_t *w, uint64_t n_w, fr_t *a, fr_t *b, fr_t *c, unsigned threads,
                        cuzk_error *err)
{
    if (n_w != p->num_inputs + p->num_aux)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "pce: the witness has %llu values, the PCE %llu inputs + %llu aux",
                         (unsigned long long)n_w, (unsigned long long)p->num_inputs, (unsigned long long)p->num_aux);
    eval_job j = {.p = p, .w = w, .out = {a, b, c}, .threads = threads};
    run_eval(&j);
    return CUZK_OK;
}

cuzk_status cs_pce_eval_compact(const cs_pce *p, const fr_t *inputs, uint64_t num_inputs, const cs_witness *aux,
                                fr_t *a, fr_t *b, fr_t *c, unsigned threads, cuzk_error *err)
{
    if (num_inputs != p->num_inputs || aux->n != p->num_aux)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "pce: the witness has %llu inputs + %llu aux, the PCE %llu + %llu",
                         (unsigned long long)num_inputs, (unsigned long long)aux->n,
                         (unsigned long long)p->num_inputs, (unsigned long long)p->num_aux);
    eval_job j = {.p = p, .inputs = inputs, .aux = aux, .out = {a, b, c}, .threads = threads};
    run_eval(&j);
    return CUZK_OK;
}

typedef struct {
    const fr_t *a, *b, *c;
    uint64_t rows;
    _Atomic uint64_t first_fail; /* UINT64_MAX: none */
} check_job;

static bool row_holds(const fr_t *a, const fr_t *b, const fr_t *c)
{
    if (is_zero(a) || is_zero(b))
        return is_zero(c);
    if (is_one(a))
        return !memcmp(b, c, sizeof *c);
    if (is_one(b))
        return !memcmp(a, c, sizeof *c);
    fr_t ab;
    fr_mul(&ab, a, b);
    return !memcmp(&ab, c, sizeof *c);
}

static cuzk_status check_block(void *arg, uint64_t item, unsigned worker, cuzk_error *err)
{
    check_job *j = arg;
    uint64_t lo = (uint64_t)item * BLOCK_ROWS, hi = lo + BLOCK_ROWS < j->rows ? lo + BLOCK_ROWS : j->rows;
    for (uint64_t r = lo; r < hi; r++) {
        if (!row_holds(&j->a[r], &j->b[r], &j->c[r])) {
            uint64_t cur = atomic_load(&j->first_fail);
            while (r < cur && !atomic_compare_exchange_weak(&j->first_fail, &cur, r))
                ;
            return CUZK_OK;
        }
    }
    return CUZK_OK;
}

bool cs_pce_rows_hold(const cs_pce *p, const fr_t *a, const fr_t *b, const fr_t *c, unsigned threads, uint64_t *row)
{
    check_job j = {.a = a, .b = b, .c = c, .rows = p->num_constraints};
    atomic_init(&j.first_fail, UINT64_MAX);
    (void)cuzk_par_for(threads, (j.rows + BLOCK_ROWS - 1) / BLOCK_ROWS, check_block, &j, NULL);
    uint64_t f = atomic_load(&j.first_fail);
    if (f != UINT64_MAX && row)
        *row = f;
    return f == UINT64_MAX;
}
