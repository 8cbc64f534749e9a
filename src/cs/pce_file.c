/* PCE files: layout, fingerprint (SHA-256 tree hash), atomic write, checked read-only
 * mapping. Format and contracts in pce.h. */
#include <errno.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/file_io.h"
#include "common/hex.h"
#include "common/par.h"
#include "common/sha256.h"
#include "cs/pce.h"

#define PCE_MAGIC "CUZKPCE"
#define PCE_VERSION 1u
#define PCE_HEADER_BYTES 4096u
#define PCE_ALIGN 4096u
#define PCE_CHUNK (64u << 20)
#define CHECK_ROWS 65536u

enum { S_RP = 0, S_COL = 3, S_COEF = 6, S_DICT = 9, S_DA = 10, S_DB = 11, S_COUNT = 12 };
static const char *const SEC_NAME[S_COUNT] = {"row_ptr A", "row_ptr B", "row_ptr C", "col A",    "col B",    "col C",
                                              "coef A",    "coef B",    "coef C",    "dict",     "a_density", "b_density"};

typedef struct {
    char magic[8];
    uint32_t version, header_bytes;
    uint32_t fr_bytes, n_dict;
    char circuit[32];
    uint8_t key_id[32];
    uint64_t rows, num_constraints, num_inputs, num_aux;
    uint64_t nnz[3];
    uint64_t a_count, b_count;
    uint64_t off[S_COUNT], len[S_COUNT];
    uint8_t fingerprint[32];
} pce_header;

_Static_assert(sizeof(pce_header) <= PCE_HEADER_BYTES, "PCE header fits its page");
_Static_assert(offsetof(pce_header, rows) == 88 && offsetof(pce_header, off) == 160 &&
                   offsetof(pce_header, fingerprint) == 352,
               "PCE header offsets as documented in pce.h");

static uint64_t align_up(uint64_t x) { return (x + PCE_ALIGN - 1) / PCE_ALIGN * PCE_ALIGN; }

static uint64_t density_words(const pce_header *h) { return (h->num_inputs + h->num_aux) / 64 + 1; }

/* Section lengths and offsets from the counts; returns the file size. */
static uint64_t layout(pce_header *h)
{
    for (int m = 0; m < 3; m++) {
        h->len[S_RP + m] = (h->rows + 1) * 4;
        h->len[S_COL + m] = h->nnz[m] * 4;
        h->len[S_COEF + m] = h->nnz[m] * 2;
    }
    h->len[S_DICT] = (uint64_t)h->n_dict * sizeof(fr_t);
    h->len[S_DA] = h->len[S_DB] = density_words(h) * 8;
    uint64_t off = PCE_HEADER_BYTES;
    for (int s = 0; s < S_COUNT; s++) {
        h->off[s] = off;
        off = align_up(off + h->len[s]);
    }
    return off;
}

static void sections_of(const cs_pce *p, const void *sec[S_COUNT])
{
    for (int m = 0; m < 3; m++) {
        sec[S_RP + m] = p->m[m].row_ptr;
        sec[S_COL + m] = p->m[m].col;
        sec[S_COEF + m] = p->m[m].coef;
    }
    sec[S_DICT] = p->dict;
    sec[S_DA] = p->a_density;
    sec[S_DB] = p->b_density;
}

static void header_of(const cs_pce *p, pce_header *h)
{
    memset(h, 0, sizeof *h);
    memcpy(h->magic, PCE_MAGIC, sizeof PCE_MAGIC);
    h->version = PCE_VERSION;
    h->header_bytes = PCE_HEADER_BYTES;
    h->fr_bytes = sizeof(fr_t);
    h->n_dict = p->n_dict;
    memcpy(h->circuit, p->id.circuit, sizeof h->circuit);
    h->circuit[sizeof h->circuit - 1] = 0;
    memcpy(h->key_id, p->id.key_id, sizeof h->key_id);
    h->rows = p->rows;
    h->num_constraints = p->num_constraints;
    h->num_inputs = p->num_inputs;
    h->num_aux = p->num_aux;
    for (int m = 0; m < 3; m++)
        h->nnz[m] = p->m[m].nnz;
    h->a_count = p->a_count;
    h->b_count = p->b_count;
    layout(h);
}

/* ---- fingerprint ---- */

typedef struct {
    const uint8_t *ptr;
    size_t len;
    uint8_t digest[32];
    bool ok;
} chunk;

static cuzk_status hash_chunk(void *arg, uint64_t i, unsigned worker, cuzk_error *err)
{
    chunk *c = &((chunk *)arg)[i];
    c->ok = cuzk_sha256(c->ptr, c->len, c->digest);
    return CUZK_OK;
}

/* SHA-256(header bytes before the fingerprint || SHA-256 of every PCE_CHUNK chunk of every
 * section, in order). */
static cuzk_status fingerprint(const pce_header *h, const void *const sec[S_COUNT], unsigned threads, uint8_t out[32],
                               cuzk_error *err)
{
    size_t n = 0;
    for (int s = 0; s < S_COUNT; s++)
        n += (size_t)((h->len[s] + PCE_CHUNK - 1) / PCE_CHUNK);
    chunk *c = calloc(n ? n : 1, sizeof *c);
    if (!c)
        return cuzk_fail(err, CUZK_E_NOMEM, "pce: out of memory for %zu chunk digests", n);
    size_t k = 0;
    for (int s = 0; s < S_COUNT; s++)
        for (uint64_t o = 0; o < h->len[s]; o += PCE_CHUNK)
            c[k++] = (chunk){.ptr = (const uint8_t *)sec[s] + o, .len = h->len[s] - o < PCE_CHUNK ? h->len[s] - o : PCE_CHUNK};
    (void)cuzk_par_for(threads, n, hash_chunk, c, NULL);
    cuzk_status st = CUZK_OK;
    cuzk_sha256_ctx ctx;
    cuzk_sha256_init(&ctx);
    cuzk_sha256_update(&ctx, h, offsetof(pce_header, fingerprint));
    bool ok = true;
    for (size_t i = 0; i < n; i++) {
        ok = ok && c[i].ok;
        cuzk_sha256_update(&ctx, c[i].digest, 32);
    }
    if (!cuzk_sha256_final(&ctx, out) || !ok)
        st = cuzk_fail(err, CUZK_E_INTERNAL, "pce: SHA-256 failed in libcrypto");
    free(c);
    return st;
}

/* ---- write ---- */

typedef struct {
    const pce_header *h;
    const void *const *sec;
} emit_ctx;

/* errno of a failed fwrite (ENOSPC on a full disk), never 0. */
static int write_errno(void) { return errno ? errno : EIO; }

static int emit(FILE *out, const void *arg)
{
    const emit_ctx *e = arg;
    static const uint8_t zeros[PCE_ALIGN];
    if (fwrite(e->h, sizeof *e->h, 1, out) != 1 || fwrite(zeros, PCE_HEADER_BYTES - sizeof *e->h, 1, out) != 1)
        return write_errno();
    uint64_t pos = PCE_HEADER_BYTES;
    for (int s = 0; s < S_COUNT; s++) {
        if (e->h->len[s] && fwrite(e->sec[s], e->h->len[s], 1, out) != 1)
            return write_errno();
        pos += e->h->len[s];
        uint64_t pad = align_up(pos) - pos;
        if (pad && fwrite(zeros, pad, 1, out) != 1)
            return write_errno();
        pos += pad;
    }
    return 0;
}

/* Bytes of the file emit writes for h. */
static uint64_t file_bytes(const pce_header *h)
{
    uint64_t pos = PCE_HEADER_BYTES;
    for (int s = 0; s < S_COUNT; s++)
        pos = align_up(pos + h->len[s]);
    return pos;
}

cuzk_status cs_pce_write(cs_pce *p, const char *path, unsigned threads, cuzk_error *err)
{
    pce_header h;
    header_of(p, &h);
    const void *sec[S_COUNT];
    sections_of(p, sec);
    cuzk_status st = fingerprint(&h, sec, threads, h.fingerprint, err);
    if (st)
        return st;
    emit_ctx e = {&h, sec};
    st = cuzk_write_atomic_sized(path, file_bytes(&h), emit, &e, err); /* a full disk: "no space" */
    if (!st)
        memcpy(p->fingerprint, h.fingerprint, 32);
    return st;
}

/* ---- map ---- */

static bool canonical(const fr_t *x)
{
    for (int i = FR_LIMBS - 1; i >= 0; i--)
        if (x->l[i] != FR_MODULUS[i])
            return x->l[i] < FR_MODULUS[i];
    return false;
}

typedef struct {
    const cs_pce *p;
    size_t blocks; /* per matrix */
    _Atomic size_t bad; /* first bad item, SIZE_MAX = none */
} struct_job;

/* Rows [lo, hi) of matrix m: pointers monotone and within nnz, then columns and indices. */
static bool block_ok(const cs_pce *p, int m, uint64_t lo, uint64_t hi)
{
    const cs_pce_matrix *x = &p->m[m];
    uint64_t nv = p->num_inputs + p->num_aux;
    for (uint64_t r = lo; r < hi; r++)
        if (x->row_ptr[r] > x->row_ptr[r + 1] || x->row_ptr[r + 1] > x->nnz)
            return false;
    for (uint64_t k = x->row_ptr[lo]; k < x->row_ptr[hi]; k++)
        if (x->col[k] >= nv || x->coef[k] >= p->n_dict)
            return false;
    return true;
}

static cuzk_status check_block(void *arg, uint64_t item, unsigned worker, cuzk_error *err)
{
    struct_job *j = arg;
    int m = (int)(item / j->blocks);
    uint64_t lo = (uint64_t)(item % j->blocks) * CHECK_ROWS, hi = lo + CHECK_ROWS;
    if (hi > j->p->rows)
        hi = j->p->rows;
    if (!block_ok(j->p, m, lo, hi)) {
        size_t cur = atomic_load(&j->bad);
        while (item < cur && !atomic_compare_exchange_weak(&j->bad, &cur, item))
            ;
    }
    return CUZK_OK;
}

static uint64_t popcount(const uint64_t *w, uint64_t words)
{
    uint64_t n = 0;
    for (uint64_t i = 0; i < words; i++)
        n += (uint64_t)__builtin_popcountll(w[i]);
    return n;
}

/* The structure evaluation relies on (see the file comment of pce.h). */
static cuzk_status check_structure(const cs_pce *p, const char *path, unsigned threads, cuzk_error *err)
{
    for (int m = 0; m < 3; m++)
        if (p->m[m].row_ptr[0] != 0 || p->m[m].row_ptr[p->rows] != p->m[m].nnz)
            return cuzk_fail(err, CUZK_E_FORMAT, "%s: %s does not run from 0 to nnz %llu", path, SEC_NAME[S_RP + m],
                             (unsigned long long)p->m[m].nnz);
    struct_job j = {.p = p, .blocks = (size_t)((p->rows + CHECK_ROWS - 1) / CHECK_ROWS)};
    atomic_init(&j.bad, SIZE_MAX);
    (void)cuzk_par_for(threads, 3 * j.blocks, check_block, &j, NULL);
    size_t bad = atomic_load(&j.bad);
    if (bad != SIZE_MAX) {
        int m = (int)(bad / j.blocks);
        uint64_t lo = (uint64_t)(bad % j.blocks) * CHECK_ROWS;
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "%s: matrix %c rows from %llu: row pointers not monotone, a column >= %llu variables or a "
                         "coefficient index >= %u",
                         path, "ABC"[m], (unsigned long long)lo, (unsigned long long)(p->num_inputs + p->num_aux),
                         p->n_dict);
    }
    fr_t neg_one;
    fr_neg(&neg_one, &FR_ONE);
    if (p->n_dict < 2 || memcmp(&p->dict[0], &FR_ONE, sizeof(fr_t)) || memcmp(&p->dict[1], &neg_one, sizeof(fr_t)))
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: dict does not start with 1, -1", path);
    for (uint32_t i = 0; i < p->n_dict; i++)
        if (!canonical(&p->dict[i]))
            return cuzk_fail(err, CUZK_E_FORMAT, "%s: dict value %u is not a canonical Fr element", path, i);
    uint64_t words = (p->num_inputs + p->num_aux) / 64 + 1;
    for (uint64_t i = 0; i < p->num_inputs; i++)
        if (!(p->a_density[i / 64] >> (i % 64) & 1))
            return cuzk_fail(err, CUZK_E_FORMAT, "%s: a_density misses input %llu", path, (unsigned long long)i);
    if (popcount(p->a_density, words) != p->a_count || popcount(p->b_density, words) != p->b_count)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: density popcounts differ from a_count %llu / b_count %llu", path,
                         (unsigned long long)p->a_count, (unsigned long long)p->b_count);
    return CUZK_OK;
}

static cuzk_status check_header(const pce_header *h, uint64_t file_len, const char *path, cuzk_error *err)
{
    if (memcmp(h->magic, PCE_MAGIC, sizeof PCE_MAGIC))
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: not a cuzk PCE file (magic at offset 0)", path);
    if (h->version != PCE_VERSION || h->header_bytes != PCE_HEADER_BYTES || h->fr_bytes != sizeof(fr_t))
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: PCE layout version %u (header %u, Fr %u bytes); this build reads %u",
                         path, h->version, h->header_bytes, h->fr_bytes, PCE_VERSION);
    if (h->num_inputs == 0 || h->rows != h->num_constraints + h->num_inputs || h->num_constraints > UINT32_MAX ||
        h->num_inputs + h->num_aux > UINT32_MAX || h->n_dict > CS_PCE_MAX_DICT || h->nnz[0] > UINT32_MAX ||
        h->nnz[1] > UINT32_MAX || h->nnz[2] > UINT32_MAX || memchr(h->circuit, 0, sizeof h->circuit) == NULL)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: inconsistent PCE counts in the header", path);
    pce_header want = *h;
    uint64_t size = layout(&want);
    for (int s = 0; s < S_COUNT; s++)
        if (want.off[s] != h->off[s] || want.len[s] != h->len[s])
            return cuzk_fail(err, CUZK_E_FORMAT, "%s: section %s at %llu (%llu bytes), the counts give %llu (%llu)", path,
                             SEC_NAME[s], (unsigned long long)h->off[s], (unsigned long long)h->len[s],
                             (unsigned long long)want.off[s], (unsigned long long)want.len[s]);
    if (file_len < size)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: truncated: %llu bytes, the header needs %llu", path,
                         (unsigned long long)file_len, (unsigned long long)size);
    return CUZK_OK;
}

cuzk_status cs_pce_map(const char *path, const cs_pce_identity *expect, unsigned threads, cs_pce *out,
                       cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    cuzk_mapped_file f;
    cuzk_status st = cuzk_file_map(&f, path, err);
    if (st)
        return st;
    pce_header h;
    if (f.len < PCE_HEADER_BYTES) {
        cuzk_file_unmap(&f);
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: truncated: %zu bytes, shorter than the %u-byte header", path, f.len,
                         PCE_HEADER_BYTES);
    }
    memcpy(&h, f.data, sizeof h);
    if ((st = check_header(&h, f.len, path, err))) {
        cuzk_file_unmap(&f);
        return st;
    }
    if (expect && (strncmp(h.circuit, expect->circuit, sizeof h.circuit) || memcmp(h.key_id, expect->key_id, 32))) {
        char got[65], want[65];
        cuzk_hex(got, h.key_id, 32);
        cuzk_hex(want, expect->key_id, 32);
        cuzk_file_unmap(&f);
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED,
                         "%s: recorded for circuit %s with parameters %s, not for %.32s with parameters %s", path,
                         h.circuit, got, expect->circuit, want);
    }
    const void *sec[S_COUNT];
    for (int s = 0; s < S_COUNT; s++)
        sec[s] = f.data + h.off[s];
    uint8_t fp[32];
    if ((st = fingerprint(&h, sec, threads, fp, err))) {
        cuzk_file_unmap(&f);
        return st;
    }
    if (memcmp(fp, h.fingerprint, 32)) {
        char got[65], want[65];
        cuzk_hex(got, fp, 32);
        cuzk_hex(want, h.fingerprint, 32);
        cuzk_file_unmap(&f);
        return cuzk_fail(err, CUZK_E_VERIFY_FAILED,
                         "%s: fingerprint mismatch: the contents hash to %s, the header says %s (corrupt or edited)",
                         path, got, want);
    }
    for (int m = 0; m < 3; m++)
        out->m[m] = (cs_pce_matrix){sec[S_RP + m], sec[S_COL + m], sec[S_COEF + m], h.nnz[m]};
    out->dict = sec[S_DICT];
    out->n_dict = h.n_dict;
    out->rows = h.rows;
    out->num_constraints = h.num_constraints;
    out->num_inputs = h.num_inputs;
    out->num_aux = h.num_aux;
    out->a_density = sec[S_DA];
    out->b_density = sec[S_DB];
    out->a_count = h.a_count;
    out->b_count = h.b_count;
    memcpy(out->id.circuit, h.circuit, sizeof out->id.circuit);
    memcpy(out->id.key_id, h.key_id, 32);
    memcpy(out->fingerprint, h.fingerprint, 32);
    out->map = f.data;
    out->map_len = f.len;
    if ((st = check_structure(out, path, threads, err))) {
        cuzk_file_unmap(&f);
        memset(out, 0, sizeof *out);
    }
    return st;
}

void cs_pce_free(cs_pce *p)
{
    if (!p)
        return;
    for (int i = 0; i < 12; i++)
        free(p->alloc[i]);
    if (p->map) {
        cuzk_mapped_file f = {p->map, p->map_len};
        cuzk_file_unmap(&f);
    }
    memset(p, 0, sizeof *p);
}

uint64_t cs_pce_size(const cs_pce *p)
{
    if (p->map)
        return p->map_len;
    pce_header h;
    header_of(p, &h);
    uint64_t n = 0;
    for (int s = 0; s < S_COUNT; s++)
        n += h.len[s];
    return n;
}
