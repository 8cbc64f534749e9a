/* Device NTTs and the H polynomial (src/gpu/ntt.h) on every device (gpu_test_util.h), against two
 * independent twins:
 *   - the node BigInt oracle, tests/oracle/gen-ntt.mjs on stdin (naive DFTs, direct coset
 *     evaluation, polynomial long division by X^m - 1): records `ntt`, `coset` (shift 7, the
 *     device's coset), `hbell` and `hsnark` (record formats in that script);
 *   - the CPU code of src/poly (itself checked against the same oracle): poly_ntt, poly_intt,
 *     poly_coset_ntt, poly_coset_intt and poly_h_compute, byte for byte, on seeded random vectors
 *     of every size 2^0 .. 2^14, both root families (bellperson's 7^t, snarkjs's 5^t) and both H
 *     forms -- the device result must be the CPU's bytes of the whole vector.
 * Plus gpu_fr_from_mont against fr_to_limbs, and the argument errors of the API.
 * `--cpu-twin` (tests/gpu/device-check.sh, where node may be missing): no stdin, the CPU twin
 * only, up to 2^--max-log (default 14).
 */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "gpu/ntt.h"
#include "gpu_test_util.h"
#include "poly/ntt.h"

#define MAX_TOK 1024
static unsigned max_log = 14;

typedef struct {
    int kind; /* 0 ntt, 1 coset, 2 hbell, 3 hsnark */
    poly_roots fam;
    unsigned k;
    fr_t *in[3], *want;
    size_t nwant;
} record;

static record *recs;
static size_t nrecs, coset_skipped;

static bool parse_fr(fr_t *out, const char *hex)
{
    uint8_t be[FR_BYTES];
    return hex_decode(be, sizeof be, hex) == FR_BYTES && fr_from_bytes_be(out, be) == CUZK_OK;
}

static fr_t *parse_vec(char **tok, size_t n)
{
    fr_t *v = malloc((n ? n : 1) * sizeof *v);
    for (size_t i = 0; v && i < n; i++)
        if (!parse_fr(&v[i], tok[i])) {
            CHECK(false, "bad field element '%.20s'", tok[i]);
            free(v);
            return NULL;
        }
    return v;
}

static void read_records(void)
{
    char *line = NULL, **tok = malloc(MAX_TOK * sizeof *tok);
    size_t cap = 0;
    while (getline(&line, &cap, stdin) > 0) {
        int nt = split_tokens(line, tok, MAX_TOK);
        if (nt == 0 || tok[0][0] == '#' || !strcmp(tok[0], "root"))
            continue;
        record r;
        memset(&r, 0, sizeof r);
        size_t m;
        if (!strcmp(tok[0], "ntt") && nt >= 3) {
            r.kind = 0;
            r.fam = !strcmp(tok[1], "snarkjs") ? POLY_ROOTS_SNARKJS : POLY_ROOTS_FF;
            r.k = (unsigned)atoi(tok[2]);
            m = (size_t)1 << r.k;
            if ((size_t)nt != 3 + 2 * m)
                goto bad;
            r.in[0] = parse_vec(tok + 3, m);
            r.want = parse_vec(tok + 3 + m, m);
            r.nwant = m;
        } else if (!strcmp(tok[0], "coset") && nt >= 3) {
            fr_t s, seven;
            r.kind = 1;
            r.fam = POLY_ROOTS_FF;
            r.k = (unsigned)atoi(tok[1]);
            m = (size_t)1 << r.k;
            fr_from_u64(&seven, 7);
            if ((size_t)nt != 3 + 2 * m || !parse_fr(&s, tok[2]))
                goto bad;
            if (!fr_eq(&s, &seven)) { /* the device coset is g = 7 only */
                coset_skipped++;
                continue;
            }
            r.in[0] = parse_vec(tok + 3, m);
            r.want = parse_vec(tok + 3 + m, m);
            r.nwant = m;
        } else if ((!strcmp(tok[0], "hbell") || !strcmp(tok[0], "hsnark")) && nt >= 2) {
            bool bell = tok[0][1] == 'b';
            r.kind = bell ? 2 : 3;
            r.fam = bell ? POLY_ROOTS_FF : POLY_ROOTS_SNARKJS;
            r.k = (unsigned)atoi(tok[1]);
            m = (size_t)1 << r.k;
            r.nwant = bell ? m - 1 : m;
            if ((size_t)nt != 2 + 3 * m + r.nwant)
                goto bad;
            for (int i = 0; i < 3; i++)
                r.in[i] = parse_vec(tok + 2 + i * m, m);
            r.want = parse_vec(tok + 2 + 3 * m, r.nwant);
        } else {
            continue;
        }
        recs = realloc(recs, (nrecs + 1) * sizeof *recs);
        recs[nrecs++] = r;
        continue;
    bad:
        CHECK(false, "malformed %s record (%d tokens)", tok[0], nt);
    }
    free(line);
    free(tok);
}

/* ---------------------------------------------------------------- device helpers */

typedef struct {
    gpu_test_dev *d;
    gpu_ntt_cache *cache;
} ctx;

/* Upload the 1 or 3 host vectors of 2^k elements, run op (0..3 gpu_ntt_op, 4/5 H bellperson /
 * snarkjs through gpu_h_compute, 6/7 the same through gpu_h_to_coset and gpu_h_combine with each
 * vector uploaded on a second queue and its transform ordered after it by an event, as the GPU
 * backend overlaps them), download the first into out. */
static cuzk_status run(ctx *c, int op, poly_roots fam, unsigned k, fr_t *const in[3], fr_t *out, cuzk_error *err)
{
    size_t m = (size_t)1 << k, bytes = m * sizeof(fr_t);
    int nv = op >= 4 ? 3 : 1;
    bool split = op >= 6;
    poly_h_form form = op == 4 || op == 6 ? POLY_H_BELLPERSON : POLY_H_SNARKJS;
    gpu_buffer *b[3] = {NULL, NULL, NULL};
    gpu_queue *uq = NULL;
    gpu_event *up[3] = {NULL, NULL, NULL};
    const gpu_ntt_domain *dom = NULL;
    cuzk_status st = gpu_ntt_domain_get(c->cache, c->d->q, fam, k, &dom, err);
    if (!st && split)
        st = gpu_queue_create(c->d->dev, &uq, err);
    for (int i = 0; i < nv && !st; i++) {
        st = gpu_buffer_alloc(c->d->dev, bytes, &b[i], err);
        if (!st)
            st = gpu_upload(split ? uq : c->d->q, b[i], 0, in[i], bytes, err);
        if (!st && split)
            st = gpu_event_record(uq, &up[i], err);
        if (!st && split)
            st = gpu_queue_wait_event(c->d->q, up[i], err);
        if (!st && split)
            st = gpu_h_to_coset(c->d->q, dom, b[i], form, err);
    }
    if (!st && split)
        st = gpu_h_combine(c->d->q, dom, b[0], b[1], b[2], form, err);
    else if (!st)
        st = op >= 4 ? gpu_h_compute(c->d->q, dom, b[0], b[1], b[2], form, err)
                     : gpu_ntt(c->d->q, dom, b[0], (gpu_ntt_op)op, err);
    if (!st)
        st = gpu_download(c->d->q, out, b[0], 0, bytes, err);
    if (!st)
        st = gpu_queue_sync(c->d->q, err);
    else
        gpu_queue_sync(c->d->q, NULL);
    if (uq)
        gpu_queue_sync(uq, NULL);
    for (int i = 0; i < 3; i++) {
        gpu_event_destroy(up[i]);
        gpu_buffer_free(b[i]);
    }
    gpu_queue_destroy(uq);
    return st;
}

static const char *const op_names[8] = {"ntt",          "intt",      "coset_ntt",          "coset_intt",
                                        "h_bellperson", "h_snarkjs", "h_bellperson_split", "h_snarkjs_split"};

static void test_oracle(ctx *c)
{
    unsigned done[4] = {0};
    for (size_t i = 0; i < nrecs; i++) {
        record *r = &recs[i];
        if (!r->in[0] || !r->want)
            continue;
        size_t m = (size_t)1 << r->k;
        fr_t *out = malloc(m * sizeof *out);
        int op = r->kind == 0 ? GPU_NTT_FORWARD : r->kind == 1 ? GPU_NTT_COSET_FORWARD : r->kind == 2 ? 4 : 5;
        cuzk_error err = {0};
        cuzk_status st = run(c, op, r->fam, r->k, r->in, out, &err);
        char what[64];
        snprintf(what, sizeof what, "oracle %s 2^%u (%s)", op_names[op], r->k, r->fam ? "snarkjs" : "ff");
        if (!gpu_test_ok(st, &err, what, c->d->label)) {
            CHECK(!memcmp(out, r->want, r->nwant * sizeof(fr_t)), "%s: %s differs from the BigInt oracle",
                  c->d->label, what);
            done[r->kind]++;
        }
        free(out);
    }
    static const char *const kinds[4] = {"ntt", "coset", "hbell", "hsnark"};
    for (int k = 0; k < 4; k++)
        CHECK(done[k] > 0, "%s: no oracle %s record checked", c->d->label, kinds[k]);
    printf("%s: oracle records: ntt %u, coset %u (%zu with other shifts skipped), hbell %u, hsnark %u\n",
           c->d->label, done[0], done[1], coset_skipped, done[2], done[3]);
}

static uint64_t seed = 0x6e74745f67707531ULL;
static void random_vec(fr_t *v, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        uint64_t l[4];
        for (int j = 0; j < 4; j++) {
            seed = seed * 6364136223846793005ULL + 1442695040888963407ULL;
            l[j] = seed ^ (seed >> 29);
        }
        fr_from_limbs_reduce(&v[i], l);
    }
}

/* every op, both families, 2^0 .. 2^MAX_LOG, against the CPU */
static void test_cpu_twin(ctx *c)
{
    size_t nmax = (size_t)1 << max_log;
    fr_t *in[3], *ref[3], *out = malloc(nmax * sizeof *out);
    for (int i = 0; i < 3; i++) {
        in[i] = malloc(nmax * sizeof(fr_t));
        ref[i] = malloc(nmax * sizeof(fr_t));
    }
    for (unsigned k = 0; k <= max_log; k++) {
        size_t m = (size_t)1 << k;
        for (int fam = 0; fam < 2; fam++)
            for (int op = 0; op < 8; op++) {
                if (op >= 4 && (op % 2 == 0) != (fam == POLY_ROOTS_FF))
                    continue;
                for (int i = 0; i < 3; i++) {
                    random_vec(in[i], m);
                    memcpy(ref[i], in[i], m * sizeof(fr_t));
                }
                cuzk_error err = {0};
                cuzk_status st;
                switch (op) {
                case 0: st = poly_ntt(ref[0], k, (poly_roots)fam, 2, &err); break;
                case 1: st = poly_intt(ref[0], k, (poly_roots)fam, 2, &err); break;
                case 2: st = poly_coset_ntt(ref[0], k, (poly_roots)fam, 2, &err); break;
                case 3: st = poly_coset_intt(ref[0], k, (poly_roots)fam, 2, &err); break;
                default:
                    st = poly_h_compute(ref[0], ref[1], ref[2], k, op % 2 == 0 ? POLY_H_BELLPERSON : POLY_H_SNARKJS,
                                        2, &err);
                    break;
                }
                CHECK(st == CUZK_OK, "CPU %s 2^%u: %s", op_names[op], k, err.msg);
                char what[64];
                snprintf(what, sizeof what, "%s 2^%u (%s)", op_names[op], k, fam ? "snarkjs" : "ff");
                st = run(c, op, (poly_roots)fam, k, in, out, &err);
                if (!gpu_test_ok(st, &err, what, c->d->label)) {
                    size_t bad = 0, first = 0;
                    for (size_t i = m; i-- > 0;)
                        if (memcmp(&out[i], &ref[0][i], sizeof(fr_t))) {
                            bad++;
                            first = i;
                        }
                    CHECK(bad == 0, "%s: %s: %zu of %zu elements differ from the CPU (first at %zu)", c->d->label,
                          what, bad, m, first);
                }
            }
    }
    /* canonical conversion */
    size_t n = 1000;
    random_vec(in[0], n);
    gpu_buffer *b = NULL;
    cuzk_error err = {0};
    cuzk_status st = gpu_buffer_alloc(c->d->dev, n * sizeof(fr_t), &b, &err);
    if (!st)
        st = gpu_upload(c->d->q, b, 0, in[0], n * sizeof(fr_t), &err);
    if (!st)
        st = gpu_fr_from_mont(c->d->q, b, n, &err);
    if (!st)
        st = gpu_download(c->d->q, out, b, 0, n * sizeof(fr_t), &err);
    if (!st)
        st = gpu_queue_sync(c->d->q, &err);
    if (!gpu_test_ok(st, &err, "gpu_fr_from_mont", c->d->label)) {
        size_t bad = 0;
        for (size_t i = 0; i < n; i++) {
            uint64_t l[4];
            fr_to_limbs(l, &in[0][i]);
            bad += memcmp(l, &out[i], sizeof l) != 0;
        }
        CHECK(bad == 0, "%s: gpu_fr_from_mont: %zu of %zu differ from fr_to_limbs", c->d->label, bad, n);
    }
    gpu_buffer_free(b);
    for (int i = 0; i < 3; i++) {
        free(in[i]);
        free(ref[i]);
    }
    free(out);
}

static void test_errors(ctx *c)
{
    cuzk_error err = {0};
    const gpu_ntt_domain *ff = NULL, *sj = NULL;
    CHECK(gpu_ntt_domain_get(c->cache, c->d->q, POLY_ROOTS_FF, POLY_MAX_LOG2 + 1, &ff, &err) == CUZK_E_INVALID_ARG,
          "log_n 29 accepted");
    CHECK(gpu_ntt_domain_get(c->cache, c->d->q, (poly_roots)9, 4, &ff, &err) == CUZK_E_INVALID_ARG,
          "unknown family accepted");
    if (gpu_ntt_domain_get(c->cache, c->d->q, POLY_ROOTS_FF, 6, &ff, &err) ||
        gpu_ntt_domain_get(c->cache, c->d->q, POLY_ROOTS_SNARKJS, 6, &sj, &err)) {
        CHECK(false, "domains: %s", err.msg);
        return;
    }
    gpu_buffer *small = NULL, *b1 = NULL, *b2 = NULL, *b3 = NULL;
    if (gpu_buffer_alloc(c->d->dev, 63 * sizeof(fr_t), &small, &err) ||
        gpu_buffer_alloc(c->d->dev, 64 * sizeof(fr_t), &b1, &err) ||
        gpu_buffer_alloc(c->d->dev, 64 * sizeof(fr_t), &b2, &err) ||
        gpu_buffer_alloc(c->d->dev, 64 * sizeof(fr_t), &b3, &err)) {
        CHECK(false, "buffers: %s", err.msg);
    } else {
        cuzk_status st = gpu_ntt(c->d->q, ff, small, GPU_NTT_FORWARD, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "2^6"), "short buffer: %s (%s)", cuzk_status_name(st),
              err.msg);
        st = gpu_ntt(c->d->q, ff, b1, (gpu_ntt_op)7, &err);
        CHECK(st == CUZK_E_INVALID_ARG, "unknown op: %s", cuzk_status_name(st));
        st = gpu_h_compute(c->d->q, sj, b1, b2, b3, POLY_H_BELLPERSON, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "family"), "bellperson H on a snarkjs domain: %s (%s)",
              cuzk_status_name(st), err.msg);
        st = gpu_h_compute(c->d->q, ff, b1, b1, b3, POLY_H_BELLPERSON, &err);
        CHECK(st == CUZK_E_INVALID_ARG, "aliased a, b: %s", cuzk_status_name(st));
        st = gpu_h_to_coset(c->d->q, ff, b1, POLY_H_SNARKJS, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "family"), "snarkjs to_coset on an ff domain: %s (%s)",
              cuzk_status_name(st), err.msg);
        st = gpu_h_to_coset(c->d->q, ff, small, POLY_H_BELLPERSON, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "2^6"), "to_coset of a short buffer: %s (%s)",
              cuzk_status_name(st), err.msg);
        st = gpu_h_combine(c->d->q, sj, b1, b2, b2, POLY_H_SNARKJS, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "distinct"), "combine with b == c: %s (%s)",
              cuzk_status_name(st), err.msg);
        st = gpu_h_combine(c->d->q, sj, b1, b2, b3, (poly_h_form)9, &err);
        CHECK(st == CUZK_E_INVALID_ARG && strstr(err.msg, "form"), "combine of an unknown form: %s",
              cuzk_status_name(st));
        st = gpu_fr_from_mont(c->d->q, b1, 65, &err);
        CHECK(st == CUZK_E_INVALID_ARG, "from_mont past the buffer: %s", cuzk_status_name(st));
    }
    gpu_buffer_free(small);
    gpu_buffer_free(b1);
    gpu_buffer_free(b2);
    gpu_buffer_free(b3);
    printf("%s: NTT domain tables on the device: %zu bytes\n", c->d->label, gpu_ntt_cache_bytes(c->cache));
}

int main(int argc, char **argv)
{
    bool twin = false;
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--cpu-twin")) {
            twin = true;
        } else if (!strcmp(argv[i], "--max-log") && i + 1 < argc && atoi(argv[i + 1]) >= 0 &&
                   atoi(argv[i + 1]) <= 24) {
            max_log = (unsigned)atoi(argv[++i]);
        } else {
            fprintf(stderr, "usage: test_gpu_ntt [--cpu-twin] [--max-log N <= 24] (gen-ntt records on stdin)\n");
            return 2;
        }
    }
    if (!twin) {
        read_records();
        CHECK(nrecs > 0, "no oracle records on stdin");
    }
    gpu_test_dev devs[GPU_TEST_MAX_DEVICES];
    size_t nd = gpu_test_open_all(devs, &gpu_program_test_);
    for (size_t i = 0; i < nd; i++) {
        ctx c = {&devs[i], NULL};
        cuzk_error err = {0};
        if (gpu_test_ok(gpu_ntt_cache_create(devs[i].dev, &c.cache, &err), &err, "cache", devs[i].label))
            continue;
        if (!twin)
            test_oracle(&c);
        test_cpu_twin(&c);
        test_errors(&c);
        gpu_ntt_cache_free(c.cache);
    }
    gpu_test_close_all(devs, nd);
    for (size_t i = 0; i < nrecs; i++) {
        for (int k = 0; k < 3; k++)
            free(recs[i].in[k]);
        free(recs[i].want);
    }
    free(recs);
    return check_summary("gpu_ntt");
}
