/* PCE products a = A·w, b = B·w, c = C·w and the row check (contracts in pce.h). Filecoin
 * witnesses are mostly bits and most coefficients are ±1, so most entries cost one
 * addition or nothing. */
#include <stdatomic.h>
#include <stdlib.h>
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
    const cs_witness *aux; /* compact aux, and from both */
    const uint64_t *kinds; /* every column's kind in 2 bits (column_kinds) */
    const int16_t *small;  /* per coefficient index: the coefficient when a small integer, else 0 */
    const int16_t *pow2;   /* per coefficient index: e + 1 for 2^e, -(e + 1) for -2^e, else 0 */
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

/* Rows [lo, hi) of matrix m over the plain witness. */
static void eval_rows_plain(const eval_job *j, int m, uint64_t lo, uint64_t hi)
{
    const cs_pce_matrix *mx = &j->p->m[m];
    const fr_t *dict = j->p->dict, *w = j->w;
    fr_t *out = j->out[m];
    for (uint64_t r = lo; r < hi; r++) {
        fr_t acc = FR_ZERO;
        for (uint32_t k = mx->row_ptr[r], e = mx->row_ptr[r + 1]; k < e; k++)
            if (!is_zero(&w[mx->col[k]]))
                add_term(&acc, &w[mx->col[k]], mx->coef[k], dict);
        out[r] = acc;
    }
}

/* Column kinds of the compact path: column j's kind in bits 2(j % 32) (value 1) and
 * 2(j % 32) + 1 (value neither 0 nor 1) of word j / 32, over [inputs | aux] as the columns
 * index them: one load finds an entry's kind. */
#define KIND_ONE 1u
#define KIND_BIG 2u

/* Sums of coefficients ±2^e over values 1 (the MultiEq and packing rows: hundreds of
 * entries each): counted as an integer in 32-bit digits held in 64-bit words (no carry
 * between words for fewer than 2^32 entries), turned into Fr once per row. */
typedef struct {
    uint64_t d[2][8]; /* [0] the +2^e, [1] the -2^e entries */
} pow2_sum;

/* Rows of at least this many entries count their ±2^e entries in digits. */
#define LONG_ROW 16u

/* The Montgomery form of Σ_j d[j] 2^(32 j) mod r. */
static void digits_to_fr(const uint64_t d[8], fr_t *out)
{
    uint64_t l[5];
    unsigned __int128 carry = 0;
    for (int t = 0; t < 4; t++) {
        unsigned __int128 x = carry + d[2 * t] + ((unsigned __int128)d[2 * t + 1] << 32);
        l[t] = (uint64_t)x;
        carry = x >> 64;
    }
    l[4] = (uint64_t)carry;
    fr_from_limbs_reduce(out, l);
    if (l[4]) { /* + l[4] 2^256 */
        fr_t hi, two256;
        fr_dbl(&two256, cs_pow2(255));
        fr_from_u64(&hi, l[4]);
        fr_mul(&hi, &hi, &two256);
        fr_add(out, out, &hi);
    }
}

/* The general entries of the compact path: coefficients other than small integers on
 * values 1 (±2^e into digits in long rows, where they repay the conversion), values other
 * than 0 and 1. */
static inline void general_entry(const eval_job *j, uint32_t col, uint16_t ci, unsigned kind, fr_t *acc,
                                 pow2_sum *ps, bool long_row, bool *digits)
{
    const fr_t *dict = j->p->dict;
    if (kind == KIND_ONE) {
        int e = long_row ? j->pow2[ci] : 0;
        if (e) {
            if (!*digits) {
                memset(ps, 0, sizeof *ps);
                *digits = true;
            }
            unsigned x = (unsigned)(e > 0 ? e : -e) - 1;
            ps->d[e < 0][x >> 5] += 1ull << (x & 31);
        } else {
            fr_add(acc, acc, &dict[ci]);
        }
        return;
    }
    if (kind == KIND_BIG) {
        uint32_t ni = (uint32_t)j->p->num_inputs;
        add_term(acc, col < ni ? &j->inputs[col] : cs_witness_at(j->aux, col - ni), ci, dict);
    }
}

/* Rows [lo, hi) of matrix m over the compact witness. Most entries are a small integer
 * coefficient (±1, 2, ...) on a value 0 or 1: they are counted without a branch on the value
 * (a Filecoin witness is about half ones, so a branch on it mispredicts) and the count is
 * added once a row; the others take general_entry, added in any order (sums in Fr are
 * exact). A row with only counted entries is the small integer itself. */
static void eval_rows_compact(const eval_job *j, int m, uint64_t lo, uint64_t hi)
{
    const cs_pce_matrix *mx = &j->p->m[m];
    const uint32_t *row_ptr = mx->row_ptr, *colv = mx->col;
    const uint16_t *coefv = mx->coef;
    const uint64_t *kinds = j->kinds;
    const int16_t *small = j->small;
    fr_t *out = j->out[m];
    const int16_t *pow2 = j->pow2;
    uint32_t k = row_ptr[lo];
    for (uint64_t r = lo; r < hi; r++) {
        uint32_t e = row_ptr[r + 1];
        int64_t count = 0;
        bool general = false, digits = false, long_row = e - k >= LONG_ROW;
        fr_t acc;
        pow2_sum ps;
        if (long_row) {
            /* ±2^e entries on values 0 / 1 into the digits without a branch on the value
             * (a MultiEq batch's bits are as often 0 as 1) */
            memset(&ps, 0, sizeof ps);
            digits = true;
            for (; k < e; k++) {
                uint32_t col = colv[k];
                uint16_t ci = coefv[k];
                unsigned kind = (unsigned)(kinds[col >> 5] >> ((col & 31) << 1)) & 3;
                int pw = pow2[ci];
                if (__builtin_expect(pw && kind < 2, 1)) {
                    unsigned x = (unsigned)(pw > 0 ? pw : -pw) - 1;
                    ps.d[pw < 0][x >> 5] += (uint64_t)kind << (x & 31);
                    continue;
                }
                int sv = small[ci];
                if (kind < 2 && sv) {
                    count += sv * (int)kind;
                    continue;
                }
                if (!general) {
                    acc = FR_ZERO;
                    general = true;
                }
                general_entry(j, col, ci, kind, &acc, &ps, true, &digits);
            }
        }
        for (; k < e; k++) {
            uint32_t col = colv[k];
            uint16_t ci = coefv[k];
            unsigned kind = (unsigned)(kinds[col >> 5] >> ((col & 31) << 1)) & 3;
            int sv = small[ci];
            if (__builtin_expect(kind < 2 && sv, 1)) {
                count += sv * (int)kind;
                continue;
            }
            if (!general) {
                acc = FR_ZERO;
                general = true;
            }
            general_entry(j, col, ci, kind, &acc, &ps, long_row, &digits);
        }
        if (!general && !digits && count >= -CS_SMALL_INT_MAX && count <= CS_SMALL_INT_MAX) {
            out[r] = *cs_small_int((int)count);
            continue;
        }
        if (!general)
            acc = FR_ZERO;
        add_ones(&acc, count);
        for (int sign = 0; digits && sign < 2; sign++) {
            uint64_t any = 0;
            for (int t = 0; t < 8; t++)
                any |= ps.d[sign][t];
            if (!any)
                continue;
            fr_t x;
            digits_to_fr(ps.d[sign], &x);
            if (sign)
                fr_sub(&acc, &acc, &x);
            else
                fr_add(&acc, &acc, &x);
        }
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
            eval_rows_compact(j, j->mats[i], lo, hi);
        else
            eval_rows_plain(j, j->mats[i], lo, hi);
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

/* Bits [at, at + 32) of bitmap w (words beyond `words` read as 0). */
static inline uint64_t bits32(const uint64_t *w, uint64_t words, uint64_t at)
{
    uint64_t i = at / 64, sh = at % 64, x = i < words ? w[i] >> sh : 0;
    if (sh > 32 && i + 1 < words)
        x |= w[i + 1] << (64 - sh);
    return x & 0xffffffffull;
}

/* kinds (zeroed, (ni + aux->n) / 32 + 1 words): the inputs' kinds, then the aux's from its
 * bitmaps, 32 columns a word. */
static void column_kinds(const fr_t *inputs, uint64_t ni, const cs_witness *aux, uint64_t *kinds)
{
    for (uint64_t i = 0; i < ni; i++) {
        unsigned kd = is_zero(&inputs[i]) ? 0 : is_one(&inputs[i]) ? KIND_ONE : KIND_BIG;
        kinds[i / 32] |= (uint64_t)kd << (2 * (i % 32));
    }
    uint64_t na = aux->n, aw = (na + 63) / 64;
    /* aux column ni + j: its first (partial) word, then whole words */
    uint64_t j = 0;
    while (j < na) {
        uint64_t col = ni + j, take = 32 - col % 32;
        if (take > na - j)
            take = na - j;
        uint64_t mask = take < 32 ? (1ull << take) - 1 : 0xffffffffull;
        uint64_t ones = bits32(aux->ones, aw, j) & mask, big = bits32(aux->big, aw, j) & mask;
        kinds[col / 32] |= (cs_bits_spread(ones) | cs_bits_spread(big) << 1) << (2 * (col % 32));
        j += take;
    }
}

/* Per dictionary value: small[i] the value when it is an integer of magnitude below 2^15
 * (else 0), pow2[i] e + 1 when it is 2^e and -(e + 1) when -2^e (e < 256, else 0), from its
 * canonical form. */
static void coefficient_classes(const fr_t *dict, uint32_t n, int16_t *small, int16_t *pow2)
{
    static const uint64_t r[4] = FR_MODULUS_INIT;
    for (uint32_t i = 0; i < n; i++) {
        uint64_t v[4], neg[4], borrow = 0;
        fr_to_limbs(v, &dict[i]);
        for (int t = 0; t < 4; t++) { /* r - v */
            unsigned __int128 d = (unsigned __int128)r[t] - v[t] - borrow;
            neg[t] = (uint64_t)d;
            borrow = (uint64_t)(d >> 64) & 1;
        }
        small[i] = pow2[i] = 0;
        for (int sign = 0; sign < 2; sign++) {
            const uint64_t *x = sign ? neg : v;
            int pop = 0, top = 0;
            for (int t = 0; t < 4; t++) {
                pop += __builtin_popcountll(x[t]);
                if (x[t])
                    top = 64 * t + 63 - __builtin_clzll(x[t]);
            }
            bool one_limb = !(x[1] | x[2] | x[3]);
            if (one_limb && x[0] && x[0] < 32768)
                small[i] = (int16_t)(sign ? -(int64_t)x[0] : (int64_t)x[0]);
            if (pop == 1)
                pow2[i] = (int16_t)(sign ? -(top + 1) : top + 1);
        }
    }
}

cuzk_status cs_pce_eval_compact(const cs_pce *p, const fr_t *inputs, uint64_t num_inputs, const cs_witness *aux,
                                fr_t *a, fr_t *b, fr_t *c, unsigned threads, cuzk_error *err)
{
    if (num_inputs != p->num_inputs || aux->n != p->num_aux)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "pce: the witness has %llu inputs + %llu aux, the PCE %llu + %llu",
                         (unsigned long long)num_inputs, (unsigned long long)aux->n,
                         (unsigned long long)p->num_inputs, (unsigned long long)p->num_aux);
    uint64_t cols = num_inputs + aux->n, words = cols / 32 + 1;
    uint64_t *kinds = words <= SIZE_MAX / sizeof *kinds ? calloc((size_t)words, sizeof *kinds) : NULL;
    int16_t *small = malloc(2 * (p->n_dict ? p->n_dict : 1) * sizeof *small), *pow2 = small ? small + p->n_dict : NULL;
    if (!kinds || !small) {
        free(kinds);
        free(small);
        return cuzk_fail(err, CUZK_E_NOMEM, "pce: out of memory for the column kinds of %llu columns",
                         (unsigned long long)cols);
    }
    column_kinds(inputs, num_inputs, aux, kinds);
    coefficient_classes(p->dict, p->n_dict, small, pow2);
    eval_job j = {.p = p, .inputs = inputs, .aux = aux, .kinds = kinds, .small = small, .pow2 = pow2,
                  .out = {a, b, c}, .threads = threads};
    run_eval(&j);
    free(kinds);
    free(small);
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
