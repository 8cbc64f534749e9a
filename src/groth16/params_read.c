/* bellperson .params reader: structural validation over a mapping, lazy range decoding,
 * circuit consistency and the threaded full load (format and contracts:
 * bellperson_params.h; docs/formats.md#parameters-params). */
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "common/file_io.h"
#include "groth16/bp_internal.h"

static const char *const SECTION_NAMES[BP_SEC_COUNT] = {"h", "l", "a", "b_g1", "b_g2"};

const char *bp_section_name(bp_section s) { return (unsigned)s < BP_SEC_COUNT ? SECTION_NAMES[s] : "?"; }

static cuzk_status check_h(bp_params_t *p, uint32_t n_ic, cuzk_error *err);

/* Walk the counts; fills p->sec and p->log2_m. */
static cuzk_status layout(bp_params_t *p, uint32_t n_ic, cuzk_error *err)
{
    uint64_t len = p->len, off = BP_VK_IC_OFFSET + (uint64_t)n_ic * BP_G1_BYTES;
    if (off > len)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section vk: n_ic = %u at offset %u needs ic up to offset %llu, the file has %llu "
                         "bytes",
                         n_ic, BP_VK_FIXED_BYTES, (unsigned long long)off, (unsigned long long)len);
    for (int s = 0; s < BP_SEC_COUNT; s++) {
        bp_section_layout *L = &p->sec[s];
        if (len - off < 4)
            return cuzk_fail(err, CUZK_E_FORMAT,
                             "params: section %s: count at offset %llu lies past the end of the file (%llu bytes)",
                             SECTION_NAMES[s], (unsigned long long)off, (unsigned long long)len);
        L->count_offset = off;
        L->offset = off + 4;
        L->count = bp_be32(p->buf + off);
        L->point_bytes = s == BP_SEC_B_G2 ? BP_G2_BYTES : BP_G1_BYTES;
        cuzk_status st = s == BP_SEC_H ? check_h(p, n_ic, err) : CUZK_OK;
        if (st)
            return st;
        uint64_t bytes = L->count * L->point_bytes, left = len - L->offset;
        if (bytes > left)
            return cuzk_fail(err, CUZK_E_FORMAT,
                             "params: section %s: count %llu at offset %llu needs %llu bytes of points, only %llu "
                             "remain in the file",
                             SECTION_NAMES[s], (unsigned long long)L->count, (unsigned long long)off,
                             (unsigned long long)bytes, (unsigned long long)left);
        off = L->offset + bytes;
    }
    if (off != len)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section b_g2: count %llu at offset %llu ends the sections at offset %llu, "
                         "followed by %llu trailing bytes",
                         (unsigned long long)p->sec[BP_SEC_B_G2].count,
                         (unsigned long long)p->sec[BP_SEC_B_G2].count_offset, (unsigned long long)off,
                         (unsigned long long)(len - off));
    return CUZK_OK;
}

/* h = m - 1 with m = 2^k >= n_ic; checked as soon as the h count is read, so that a
 * corrupted h count is reported at its own offset. */
static cuzk_status check_h(bp_params_t *p, uint32_t n_ic, cuzk_error *err)
{
    const bp_section_layout *h = &p->sec[BP_SEC_H];
    uint64_t m = h->count + 1;
    if (m & (m - 1))
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section h: count %llu at offset %llu is not 2^k - 1 (h has m - 1 points for a "
                         "domain of m = 2^k)",
                         (unsigned long long)h->count, (unsigned long long)h->count_offset);
    p->log2_m = (unsigned)__builtin_ctzll(m);
    if (m < n_ic)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section h: count %llu at offset %llu gives a domain of %llu rows, fewer than the "
                         "n_ic = %u input rows",
                         (unsigned long long)h->count, (unsigned long long)h->count_offset, (unsigned long long)m,
                         n_ic);
    return CUZK_OK;
}

/* The other count relations that hold for every bellperson .params. */
static cuzk_status consistency(bp_params_t *p, uint32_t n_ic, cuzk_error *err)
{
    const bp_section_layout *l = &p->sec[BP_SEC_L], *a = &p->sec[BP_SEC_A], *b1 = &p->sec[BP_SEC_B_G1],
                            *b2 = &p->sec[BP_SEC_B_G2];
    uint64_t nv = (uint64_t)n_ic + l->count;
    if (a->count < n_ic || a->count > nv)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section a: count %llu at offset %llu is outside n_ic .. n_ic + l = %u .. %llu "
                         "(every input is A-dense, at most every variable)",
                         (unsigned long long)a->count, (unsigned long long)a->count_offset, n_ic,
                         (unsigned long long)nv);
    if (b1->count > nv)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section b_g1: count %llu at offset %llu exceeds the %llu variables (n_ic + l)",
                         (unsigned long long)b1->count, (unsigned long long)b1->count_offset,
                         (unsigned long long)nv);
    if (b2->count != b1->count)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section b_g2: count %llu at offset %llu differs from the b_g1 count %llu at "
                         "offset %llu",
                         (unsigned long long)b2->count, (unsigned long long)b2->count_offset,
                         (unsigned long long)b1->count, (unsigned long long)b1->count_offset);
    return CUZK_OK;
}

cuzk_status bp_params_open_mem(bp_params_t *p, const uint8_t *buf, size_t len, unsigned flags, cuzk_error *err)
{
    memset(p, 0, sizeof *p);
    if (len < BP_VK_IC_OFFSET)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "params: section vk: the file has %zu bytes and ends before the n_ic count at offset %u",
                         len, BP_VK_FIXED_BYTES);
    uint32_t n_ic = bp_be32(buf + BP_VK_FIXED_BYTES);
    if (n_ic == 0)
        return cuzk_fail(err, CUZK_E_FORMAT, "params: section vk: n_ic = 0 at offset %u (ONE is always an input)",
                         BP_VK_FIXED_BYTES);
    bp_params_t q = {.buf = buf, .len = len, .flags = flags};
    cuzk_status st = layout(&q, n_ic, err);
    if (!st)
        st = consistency(&q, n_ic, err);
    if (!st)
        /* the vk's few points are checked in full whenever any check is asked for: a damaged
         * vk point would otherwise surface only as proofs failing their self-check */
        st = bp_vk_decode(&q.vk, buf, n_ic, (flags & (BP_CHECK_POINTS | BP_CHECK_ON_CURVE)) != 0, "params", err);
    if (st)
        return st;
    *p = q;
    return CUZK_OK;
}

cuzk_status bp_params_open(bp_params_t *p, const char *path, unsigned flags, cuzk_error *err)
{
    memset(p, 0, sizeof *p);
    cuzk_mapped_file m;
    cuzk_status st = cuzk_file_map(&m, path, err);
    if (st)
        return st;
    cuzk_error e = {0};
    st = bp_params_open_mem(p, m.data, m.len, flags, &e);
    if (st) {
        cuzk_file_unmap(&m);
        return cuzk_fail(err, st, "%s: %s", path, e.msg);
    }
    p->mapped = true;
    return CUZK_OK;
}

void bp_params_close(bp_params_t *p)
{
    if (!p)
        return;
    if (p->mapped)
        cuzk_file_unmap(&(cuzk_mapped_file){p->buf, (size_t)p->len});
    bp_vk_free(&p->vk);
    memset(p, 0, sizeof *p);
}

cuzk_status bp_params_decode(const bp_params_t *p, bp_section s, uint64_t first, uint64_t n, g1_affine_t *out_g1,
                             g2_affine_t *out_g2, cuzk_error *err)
{
    if ((unsigned)s >= BP_SEC_COUNT)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "params: no section %d", (int)s);
    const bp_section_layout *L = &p->sec[s];
    if (first > L->count || n > L->count - first)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "params: section %s: points %llu .. +%llu past its count %llu",
                         SECTION_NAMES[s], (unsigned long long)first, (unsigned long long)n,
                         (unsigned long long)L->count);
    bool g2 = s == BP_SEC_B_G2;
    if (n && (g2 ? !out_g2 : !out_g1))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "params: section %s needs a %s output array", SECTION_NAMES[s],
                         g2 ? "G2" : "G1");
    unsigned check = p->flags & (BP_CHECK_POINTS | BP_CHECK_ON_CURVE);
    bp_loc loc = {"params", SECTION_NAMES[s], true};
    for (uint64_t i = 0; i < n; i++) {
        uint64_t off = L->offset + (first + i) * L->point_bytes;
        cuzk_status st = g2 ? bp_get_g2(&out_g2[i], p->buf + off, off, check, &loc, first + i, err)
                            : bp_get_g1(&out_g1[i], p->buf + off, off, check, &loc, first + i, err);
        if (st)
            return st;
    }
    return CUZK_OK;
}

cuzk_status bp_params_check_circuit(const bp_params_t *p, const cs_counts *c, cuzk_error *err)
{
    uint64_t rows = c->constraints + c->inputs, m = 1;
    while (m < rows)
        m <<= 1;
    struct {
        const char *what;
        uint64_t got, want, off;
    } t[] = {
        {"vk n_ic (inputs incl. ONE)", p->vk.n_ic, c->inputs, BP_VK_FIXED_BYTES},
        {"h count (domain - 1)", p->sec[BP_SEC_H].count, m - 1, p->sec[BP_SEC_H].count_offset},
        {"l count (aux variables)", p->sec[BP_SEC_L].count, c->aux, p->sec[BP_SEC_L].count_offset},
        {"a count (inputs + A-dense aux)", p->sec[BP_SEC_A].count, c->inputs + c->a_aux_density,
         p->sec[BP_SEC_A].count_offset},
        {"b_g1 count (B-dense inputs + aux)", p->sec[BP_SEC_B_G1].count, c->b_input_density + c->b_aux_density,
         p->sec[BP_SEC_B_G1].count_offset},
    };
    for (size_t i = 0; i < sizeof t / sizeof t[0]; i++)
        if (t[i].got != t[i].want)
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "params: %s at offset %llu is %llu, the circuit needs %llu (%llu constraints, %llu "
                             "inputs, %llu aux)",
                             t[i].what, (unsigned long long)t[i].off, (unsigned long long)t[i].got,
                             (unsigned long long)t[i].want, (unsigned long long)c->constraints,
                             (unsigned long long)c->inputs, (unsigned long long)c->aux);
    return CUZK_OK;
}

/* ---- threaded load ---- */

typedef struct {
    const bp_params_t *p;
    bp_section s;
    uint64_t first, n;
    void *out;
    cuzk_status st;
    cuzk_error err;
} chunk_job;

static void *run_chunk(void *arg)
{
    chunk_job *j = arg;
    bool g2 = j->s == BP_SEC_B_G2;
    j->st = bp_params_decode(j->p, j->s, j->first, j->n, g2 ? NULL : (g1_affine_t *)j->out + j->first,
                             g2 ? (g2_affine_t *)j->out + j->first : NULL, &j->err);
    return NULL;
}

cuzk_status bp_params_decode_section(const bp_params_t *p, bp_section s, void *out, unsigned threads,
                                     cuzk_error *err)
{
    uint64_t n = p->sec[s].count;
    if (threads > 64)
        threads = 64;
    if (n < 4096 || threads < 2)
        threads = 1;
    chunk_job jobs[64];
    pthread_t tid[64];
    bool started[64] = {false};
    uint64_t per = (n + threads - 1) / threads;
    for (unsigned t = 0; t < threads; t++) {
        uint64_t a = per * t < n ? per * t : n, b = a + per < n ? a + per : n;
        jobs[t] = (chunk_job){p, s, a, b - a, out, CUZK_OK, {0}};
        if (t > 0)
            started[t] = pthread_create(&tid[t], NULL, run_chunk, &jobs[t]) == 0;
        if (t > 0 && !started[t])
            run_chunk(&jobs[t]);
    }
    run_chunk(&jobs[0]);
    for (unsigned t = 1; t < threads; t++)
        if (started[t])
            pthread_join(tid[t], NULL);
    for (unsigned t = 0; t < threads; t++)
        if (jobs[t].st) {
            if (err)
                *err = jobs[t].err;
            return jobs[t].st;
        }
    return CUZK_OK;
}

cuzk_status bp_params_load(const bp_params_t *p, unsigned threads, groth16_params_t *out, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (threads == 0) {
        long c = sysconf(_SC_NPROCESSORS_ONLN);
        threads = c > 0 ? (unsigned)c : 1;
    }
    groth16_params_t q = {0};
    q.vk = p->vk;
    q.vk.ic = malloc(p->vk.n_ic * sizeof *q.vk.ic);
    q.n_inputs = p->vk.n_ic;
    q.n_aux = p->sec[BP_SEC_L].count;
    q.log2_m = p->log2_m;
    q.h_form = POLY_H_BELLPERSON;
    q.n_h = p->sec[BP_SEC_H].count;
    q.n_l = p->sec[BP_SEC_L].count;
    q.n_a = p->sec[BP_SEC_A].count;
    q.n_b = p->sec[BP_SEC_B_G1].count;
    /* +1: malloc(0) may return NULL for an empty section */
    q.h = malloc((q.n_h + 1) * sizeof(g1_affine_t));
    q.l = malloc((q.n_l + 1) * sizeof(g1_affine_t));
    q.a = malloc((q.n_a + 1) * sizeof(g1_affine_t));
    q.b_g1 = malloc((q.n_b + 1) * sizeof(g1_affine_t));
    q.b_g2 = malloc((q.n_b + 1) * sizeof(g2_affine_t));
    if (!q.vk.ic || !q.h || !q.l || !q.a || !q.b_g1 || !q.b_g2) {
        groth16_params_free(&q);
        return cuzk_fail(err, CUZK_E_NOMEM, "params: out of memory loading %llu + %llu + %llu + 2 x %llu points",
                         (unsigned long long)q.n_h, (unsigned long long)q.n_l, (unsigned long long)q.n_a,
                         (unsigned long long)q.n_b);
    }
    memcpy(q.vk.ic, p->vk.ic, p->vk.n_ic * sizeof *q.vk.ic);
    void *dst[BP_SEC_COUNT] = {q.h, q.l, q.a, q.b_g1, q.b_g2};
    for (int s = 0; s < BP_SEC_COUNT; s++) {
        cuzk_status st = bp_params_decode_section(p, (bp_section)s, dst[s], threads, err);
        if (st) {
            groth16_params_free(&q);
            return st;
        }
    }
    *out = q;
    return CUZK_OK;
}
