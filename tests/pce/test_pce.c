/* The pre-compiled constraint evaluator (cs/pce.h) against direct synthesis (CS_PROVE):
 * for the PoRep 2 KiB circuit (a consistent tiny C1), the PoRep 8 MiB circuit (the real C1
 * of the shared fixtures) and the SnapDeals 2 KiB circuit (random values: a = A·w holds for
 * any witness), a PCE recorded once, written, mapped back and evaluated on the witness-only
 * synthesis (CS_WITNESS) gives a, b, c, the witness and both density bitmaps byte for byte
 * equal to CS_PROVE's, with the same counts; the row check agrees with CS_VERIFY_ROWS
 * (satisfied PoRep witnesses hold, the random SnapDeals witness fails at the same row).
 * The file is checked against its specification in pce.h by an independent reading (header
 * offsets, section layout, the SHA-256 tree fingerprint recomputed here with libcrypto),
 * and every kind of bad file is refused with its reason: a flipped byte in a section or in
 * the header, truncation, another circuit id or parameter id (fingerprint of another
 * circuit), and a structurally bad file that carries a correct fingerprint.
 * Usage: test_pce <fixtures dir> <scratch dir> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <openssl/evp.h>

#include "check.h"
#include "common/file_io.h"
#include "cs/pce.h"
#include "filecoin/porep/porep.h"
#include "filecoin/snap/snap.h"
#include "tiny_c1.h"

static const char *g_dir;

static double now(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

/* ---- circuits under test ---- */

typedef struct {
    const char *name;
    cuzk_status (*synth)(const void *ctx, cs_t *cs, bool values, cuzk_error *err);
    const void *ctx;
    bool satisfied; /* the witness satisfies the circuit */
} circuit;

typedef struct {
    fc_porep_circuit_params cp;
    const fc_c1_output *c1;
} porep_ctx;

static cuzk_status porep_synth(const void *ctx, cs_t *cs, bool values, cuzk_error *err)
{
    const porep_ctx *p = ctx;
    return fc_porep_synthesize(cs, &p->cp, values ? p->c1 : NULL, 0, err);
}

typedef struct {
    fc_snap_shape s;
    fc_snap_public pub;
    fc_snap_witness w;
} snap_ctx;

static cuzk_status snap_synth(const void *ctx, cs_t *cs, bool values, cuzk_error *err)
{
    const snap_ctx *p = ctx;
    return fc_snap_synthesize(cs, &p->s, values ? &p->pub : NULL, values ? &p->w : NULL, err);
}

static uint64_t g_rng = 0x243f6a8885a308d3ull;
static uint64_t next64(void)
{
    uint64_t z = (g_rng += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}

static void random_fr(fr_t *x)
{
    uint64_t l[4] = {next64(), next64(), next64(), next64() >> 2};
    fr_from_limbs_reduce(x, l);
}

/* ---- the comparison ---- */

typedef struct {
    cs_assignment as; /* CS_PROVE */
    uint64_t fail_row; /* CS_VERIFY_ROWS: first unsatisfied row, UINT64_MAX when none */
} direct;

static bool run_direct(const circuit *c, direct *d)
{
    cs_t cs;
    cuzk_error err = {0};
    memset(d, 0, sizeof *d);
    d->fail_row = UINT64_MAX;
    if (cs_init_prove(&cs, NULL, CS_VERIFY_ROWS) != CUZK_OK)
        return false;
    bool ok = c->synth(c->ctx, &cs, true, &err) == CUZK_OK;
    CHECK(ok, "%s: direct synthesis: %s", c->name, err.msg);
    uint64_t row;
    if (ok && !cs_check_satisfied(&cs, &row, NULL, 0)) {
        d->fail_row = row;
        /* take the vectors anyway: clear the failure the way an unsatisfied witness is still
         * evaluated (the products do not depend on satisfaction) */
        cs_free(&cs);
        ok = cs_init_prove(&cs, NULL, 0) == CUZK_OK && c->synth(c->ctx, &cs, true, &err) == CUZK_OK;
    }
    ok = ok && cs_take_assignment(&cs, cs.num_constraints + cs.num_inputs, &d->as) == CUZK_OK;
    CHECK(ok, "%s: direct assignment: %s", c->name, cs.err.msg);
    cs_free(&cs);
    return ok;
}

static bool record(const circuit *c, const cs_pce_identity *id, cs_pce *pce)
{
    cs_t cs;
    cuzk_error err = {0};
    cs_counts counts;
    bool ok = cs_init(&cs, CS_SHAPE, 0) == CUZK_OK && c->synth(c->ctx, &cs, false, &err) == CUZK_OK;
    cs_get_counts(&cs, &counts);
    cs_free(&cs);
    CHECK(ok, "%s: shape: %s", c->name, err.msg);
    if (!ok)
        return false;
    ok = cs_init_record_pce(&cs, &counts) == CUZK_OK && c->synth(c->ctx, &cs, false, &err) == CUZK_OK &&
         cs_take_pce(&cs, id, pce) == CUZK_OK;
    CHECK(ok, "%s: record: %s %s", c->name, err.msg, cs.err.msg);
    cs_free(&cs);
    if (ok)
        CHECK(cs_pce_size(pce) <= cs_pce_bytes(&counts), "%s: PCE of %llu bytes, estimate %llu", c->name,
              (unsigned long long)cs_pce_size(pce), (unsigned long long)cs_pce_bytes(&counts));
    return ok;
}

static uint64_t words_of(const cs_assignment *as) { return (as->num_inputs + as->num_aux) / 64 + 1; }

static void compare(const circuit *c, const char *how, const cs_pce *pce, const direct *d)
{
    const cs_assignment *as = &d->as;
    uint64_t nv = as->num_inputs + as->num_aux;
    CHECK(pce->num_constraints == as->num_constraints && pce->num_inputs == as->num_inputs &&
              pce->num_aux == as->num_aux && pce->a_count == as->a_count && pce->b_count == as->b_count,
          "%s (%s): counts differ", c->name, how);
    if (pce->num_inputs != as->num_inputs || pce->num_aux != as->num_aux)
        return;
    CHECK(!memcmp(pce->a_density, as->a_density, words_of(as) * 8) &&
              !memcmp(pce->b_density, as->b_density, words_of(as) * 8),
          "%s (%s): density bitmaps differ", c->name, how);

    cs_t cs;
    cuzk_error err = {0};
    cs_prove_hint hint = {0, pce->num_inputs, pce->num_aux, NULL};
    double t0 = now();
    fr_t *w = NULL;
    uint64_t ni = 0, na = 0;
    bool ok = cs_init_witness(&cs, &hint, 0) == CUZK_OK && c->synth(c->ctx, &cs, true, &err) == CUZK_OK &&
              cs_take_witness_packed(&cs, &w, &ni, &na) == CUZK_OK;
    cs_free(&cs);
    double t1 = now();
    CHECK(ok && ni == as->num_inputs && na == as->num_aux, "%s (%s): witness synthesis: %s", c->name, how, err.msg);
    if (!ok)
        return;
    CHECK(!memcmp(w, as->w, nv * sizeof(fr_t)), "%s (%s): witness differs from CS_PROVE's", c->name, how);
    uint64_t rows = pce->rows;
    fr_t *v[3];
    for (int m = 0; m < 3; m++)
        v[m] = malloc(rows * sizeof(fr_t));
    CHECK(cs_pce_eval(pce, w, nv - 1, v[0], v[1], v[2], 2, &err) == CUZK_E_INVALID_ARG, "%s: short witness accepted",
          c->name);
    double t2 = now();
    CHECK(cs_pce_eval(pce, w, nv, v[0], v[1], v[2], 2, &err) == CUZK_OK, "%s (%s): eval: %s", c->name, how, err.msg);
    double t3 = now();
    const fr_t *want[3] = {as->a, as->b, as->c};
    for (int m = 0; m < 3; m++) {
        uint64_t first = UINT64_MAX;
        for (uint64_t r = 0; r < rows && first == UINT64_MAX; r++)
            if (memcmp(&v[m][r], &want[m][r], sizeof(fr_t)))
                first = r;
        CHECK(first == UINT64_MAX, "%s (%s): %c differs from CS_PROVE first at row %llu of %llu", c->name, how,
              "abc"[m], (unsigned long long)first, (unsigned long long)rows);
    }
    /* the same products from the compact witness */
    fr_t *in = NULL;
    uint64_t cni = 0;
    cs_witness aux = {0};
    ok = cs_init_witness(&cs, &hint, CS_COMPACT_AUX) == CUZK_OK && c->synth(c->ctx, &cs, true, &err) == CUZK_OK &&
         cs_take_witness_compact(&cs, &in, &cni, &aux) == CUZK_OK;
    cs_free(&cs);
    CHECK(ok, "%s (%s): compact witness synthesis: %s", c->name, how, err.msg);
    if (ok) {
        fr_t *u[3];
        for (int m = 0; m < 3; m++)
            u[m] = malloc(rows * sizeof(fr_t));
        double t4 = now();
        CHECK(cs_pce_eval_compact(pce, in, cni, &aux, u[0], u[1], u[2], 2, &err) == CUZK_OK, "%s: compact eval: %s",
              c->name, err.msg);
        double t5 = now();
        for (int m = 0; m < 3; m++)
            CHECK(!memcmp(u[m], v[m], rows * sizeof(fr_t)), "%s (%s): %c from the compact witness differs", c->name,
                  how, "abc"[m]);
        printf("  %s (%s): compact witness %llu bytes (plain %llu), %llu values not 0/1; products %.3f s\n", c->name,
               how, (unsigned long long)cs_witness_bytes(&aux), (unsigned long long)(aux.n * sizeof(fr_t)),
               (unsigned long long)aux.n_big, t5 - t4);
        for (int m = 0; m < 3; m++)
            free(u[m]);
        cs_witness_free(&aux);
        free(in);
    }
    uint64_t row = UINT64_MAX;
    bool holds = cs_pce_rows_hold(pce, v[0], v[1], v[2], 2, &row);
    CHECK(holds == (d->fail_row == UINT64_MAX) && (holds || row == d->fail_row),
          "%s (%s): row check %d at %llu, CS_VERIFY_ROWS %llu", c->name, how, holds, (unsigned long long)row,
          (unsigned long long)d->fail_row);
    CHECK(holds == c->satisfied, "%s (%s): satisfied %d, expected %d", c->name, how, holds, c->satisfied);
    printf("  %s (%s): %llu rows, witness %.3f s + products %.3f s (2 threads)\n", c->name, how,
           (unsigned long long)rows, t1 - t0, t3 - t2);
    for (int m = 0; m < 3; m++)
        free(v[m]);
    free(w);
}

/* ---- the file against its specification ---- */

static uint64_t rd64(const uint8_t *p)
{
    uint64_t v;
    memcpy(&v, p, 8);
    return v;
}

/* SHA-256(header[0, 352) || SHA-256 of every 64 MiB chunk of every section). */
static void spec_fingerprint(const uint8_t *f, uint8_t out[32])
{
    EVP_MD_CTX *ctx = EVP_MD_CTX_new();
    EVP_DigestInit_ex(ctx, EVP_sha256(), NULL);
    EVP_DigestUpdate(ctx, f, 352);
    for (int s = 0; s < 12; s++) {
        uint64_t off = rd64(f + 160 + 8 * s), len = rd64(f + 256 + 8 * s);
        for (uint64_t o = 0; o < len; o += 64u << 20) {
            uint8_t d[32];
            unsigned dl;
            EVP_Digest(f + off + o, len - o < (64u << 20) ? len - o : (64u << 20), d, &dl, EVP_sha256(), NULL);
            EVP_DigestUpdate(ctx, d, 32);
        }
    }
    EVP_DigestFinal_ex(ctx, out, NULL);
    EVP_MD_CTX_free(ctx);
}

static bool read_file(const char *path, uint8_t **buf, size_t *len)
{
    cuzk_error err;
    return cuzk_file_read(path, (size_t)1 << 32, false, (char **)buf, len, &err) == CUZK_OK;
}

static bool write_file(const char *path, const uint8_t *buf, size_t len)
{
    FILE *f = fopen(path, "wb");
    bool ok = f && fwrite(buf, 1, len, f) == len;
    if (f)
        ok = fclose(f) == 0 && ok;
    return ok;
}

static void expect_refused(const char *path, const cs_pce_identity *id, cuzk_status code, const char *what,
                           const char *msg_part)
{
    cs_pce p;
    cuzk_error err = {0};
    cuzk_status st = cs_pce_map(path, id, 1, &p, &err);
    CHECK(st == code && strstr(err.msg, msg_part), "%s: status %d (%s), want %d with '%s'", what, st, err.msg, code,
          msg_part);
    if (st == CUZK_OK)
        cs_pce_free(&p);
}

static void file_checks(const cs_pce *pce, const char *path, const cs_pce_identity *id)
{
    uint8_t *f;
    size_t len;
    if (!read_file(path, &f, &len)) {
        CHECK(false, "read %s", path);
        return;
    }
    /* the header as pce.h documents it */
    CHECK(!memcmp(f, "CUZKPCE\0", 8) && rd64(f + 8) == (4096ull << 32 | 1) && rd64(f + 16) == (32 | (uint64_t)pce->n_dict << 32),
          "header magic / version / sizes");
    CHECK(!strcmp((const char *)f + 24, id->circuit) && !memcmp(f + 56, id->key_id, 32), "header identity");
    CHECK(rd64(f + 88) == pce->rows && rd64(f + 96) == pce->num_constraints && rd64(f + 104) == pce->num_inputs &&
              rd64(f + 112) == pce->num_aux && rd64(f + 120) == pce->m[0].nnz && rd64(f + 128) == pce->m[1].nnz &&
              rd64(f + 136) == pce->m[2].nnz && rd64(f + 144) == pce->a_count && rd64(f + 152) == pce->b_count,
          "header counts");
    uint64_t expect_off = 4096, words = (pce->num_inputs + pce->num_aux) / 64 + 1;
    uint64_t lens[12] = {(pce->rows + 1) * 4, (pce->rows + 1) * 4, (pce->rows + 1) * 4, pce->m[0].nnz * 4,
                         pce->m[1].nnz * 4,   pce->m[2].nnz * 4,   pce->m[0].nnz * 2,   pce->m[1].nnz * 2,
                         pce->m[2].nnz * 2,   pce->n_dict * 32ull, words * 8,           words * 8};
    for (int s = 0; s < 12; s++) {
        CHECK(rd64(f + 160 + 8 * s) == expect_off && rd64(f + 256 + 8 * s) == lens[s], "section %d layout", s);
        expect_off = (expect_off + lens[s] + 4095) / 4096 * 4096;
    }
    CHECK(len == expect_off, "file size %zu, layout %llu", len, (unsigned long long)expect_off);
    /* sections hold the PCE's arrays */
    uint64_t col_off = rd64(f + 160 + 8 * 3), dict_off = rd64(f + 160 + 8 * 9);
    CHECK(!memcmp(f + col_off, pce->m[0].col, pce->m[0].nnz * 4) && !memcmp(f + dict_off, pce->dict, pce->n_dict * 32ull),
          "sections hold the arrays");
    uint8_t fp[32];
    spec_fingerprint(f, fp);
    CHECK(!memcmp(fp, f + 352, 32) && !memcmp(fp, pce->fingerprint, 32), "fingerprint is the specified SHA-256 tree");

    char bad[512];
    snprintf(bad, sizeof bad, "%s/bad.pce", g_dir);
    /* a flipped bit in a column: fingerprint mismatch */
    f[col_off + 4 * (pce->m[0].nnz / 2)] ^= 1;
    write_file(bad, f, len);
    expect_refused(bad, id, CUZK_E_VERIFY_FAILED, "flipped column", "fingerprint mismatch");
    f[col_off + 4 * (pce->m[0].nnz / 2)] ^= 1;
    /* a flipped bit in the last dictionary value */
    f[dict_off + 32ull * (pce->n_dict - 1)] ^= 0x10;
    write_file(bad, f, len);
    expect_refused(bad, id, CUZK_E_VERIFY_FAILED, "flipped dict", "fingerprint mismatch");
    f[dict_off + 32ull * (pce->n_dict - 1)] ^= 0x10;
    /* header edits: another nnz (layout inconsistent), another version */
    f[120] ^= 1;
    write_file(bad, f, len);
    expect_refused(bad, id, CUZK_E_FORMAT, "header nnz", "section");
    f[120] ^= 1;
    f[8] = 2;
    write_file(bad, f, len);
    expect_refused(bad, id, CUZK_E_FORMAT, "version", "layout version 2");
    f[8] = 1;
    /* truncated by one page, and to half a header */
    write_file(bad, f, len - 4096);
    expect_refused(bad, id, CUZK_E_FORMAT, "truncated", "truncated");
    write_file(bad, f, 2048);
    expect_refused(bad, id, CUZK_E_FORMAT, "half header", "truncated");
    /* the same contents under another circuit id or parameter id: the identity is part of the
     * fingerprint, so neither the expected identity nor a rewritten header passes */
    write_file(bad, f, len);
    cs_pce_identity other = *id;
    snprintf(other.circuit, sizeof other.circuit, "porep-32g");
    expect_refused(bad, &other, CUZK_E_VERIFY_FAILED, "other circuit", "not for porep-32g");
    other = *id;
    other.key_id[31] ^= 1;
    expect_refused(bad, &other, CUZK_E_VERIFY_FAILED, "other parameters", "recorded for circuit");
    memcpy(f + 24, "porep-32g", 10);
    write_file(bad, f, len);
    expect_refused(bad, &other, CUZK_E_VERIFY_FAILED, "renamed circuit, other parameters", "recorded for circuit");
    snprintf(other.circuit, sizeof other.circuit, "porep-32g");
    memcpy(other.key_id, id->key_id, 32);
    expect_refused(bad, &other, CUZK_E_VERIFY_FAILED, "renamed circuit in the header", "fingerprint mismatch");
    memcpy(f + 24, id->circuit, sizeof id->circuit);
    /* a column beyond the variables with a correct fingerprint: refused by the structure check */
    uint32_t big = (uint32_t)(pce->num_inputs + pce->num_aux);
    memcpy(f + col_off, &big, 4);
    spec_fingerprint(f, f + 352);
    write_file(bad, f, len);
    expect_refused(bad, id, CUZK_E_FORMAT, "column out of range", "matrix A rows from 0");
    free(f);
    remove(bad);
}

static void test_circuit(const circuit *c, const char *id_name, bool files)
{
    printf("%s\n", c->name);
    direct d;
    if (!run_direct(c, &d))
        return;
    cs_pce_identity id = {{0}, {0}};
    snprintf(id.circuit, sizeof id.circuit, "%s", id_name);
    for (int i = 0; i < 32; i++)
        id.key_id[i] = (uint8_t)(i * 7 + 1);
    cs_pce rec;
    if (!record(c, &id, &rec)) {
        cs_assignment_free(&d.as);
        return;
    }
    CHECK(rec.n_dict >= 2 && rec.n_dict <= CS_PCE_MAX_DICT, "%s: %u coefficients", c->name, rec.n_dict);
    compare(c, "recorded", &rec, &d);
    char path[512];
    snprintf(path, sizeof path, "%s/%s.pce", g_dir, id_name);
    cuzk_error err = {0};
    CHECK(cs_pce_write(&rec, path, 2, &err) == CUZK_OK, "%s: write: %s", c->name, err.msg);
    cs_pce mapped;
    CHECK(cs_pce_map(path, &id, 2, &mapped, &err) == CUZK_OK, "%s: map: %s", c->name, err.msg);
    if (mapped.map) {
        CHECK(!memcmp(mapped.fingerprint, rec.fingerprint, 32) && cs_pce_size(&mapped) >= cs_pce_size(&rec),
              "%s: mapped fingerprint / size", c->name);
        compare(c, "mapped", &mapped, &d);
        if (files)
            file_checks(&mapped, path, &id);
        cs_pce_free(&mapped);
    }
    printf("  %u coefficients, nnz %llu / %llu / %llu, %.1f MB\n", rec.n_dict, (unsigned long long)rec.m[0].nnz,
           (unsigned long long)rec.m[1].nnz, (unsigned long long)rec.m[2].nnz, cs_pce_size(&rec) / 1e6);
    cs_pce_free(&rec);
    remove(path);
    cs_assignment_free(&d.as);
}

static void test_porep_2k(void)
{
    const fc_seal_proof *p;
    cuzk_error err;
    CHECK(fc_seal_proof_get(0, &p, &err) == CUZK_OK, "seal proof 0");
    porep_ctx ctx;
    fc_porep_circuit_params_of(p, &ctx.cp);
    fc_c1_output c1;
    uint64_t ch[2];
    uint32_t par[2][FC_POREP_PARENTS];
    if (!tiny_c1_build(&ctx.cp, 11, &c1, ch, par)) {
        CHECK(false, "tiny C1 for 2 KiB");
        return;
    }
    ctx.c1 = &c1;
    circuit c = {"PoRep 2 KiB", porep_synth, &ctx, true};
    test_circuit(&c, "porep-2k", true);
    tiny_c1_free(&c1);
}

static void test_porep_8m(const char *fixtures)
{
    char path[512];
    snprintf(path, sizeof path, "%s/porep-8MiB-c1.bincode", fixtures);
    char *buf;
    size_t len;
    cuzk_error err;
    if (cuzk_file_read(path, 1 << 24, false, &buf, &len, &err) != CUZK_OK) {
        CHECK(false, "%s", err.msg);
        return;
    }
    fc_c1_output c1;
    if (fc_c1_read(&c1, (const uint8_t *)buf, len, FC_C1_BINCODE_C2IN, false, &err) != CUZK_OK) {
        CHECK(false, "C1: %s", err.msg);
        free(buf);
        return;
    }
    porep_ctx ctx = {.c1 = &c1};
    fc_porep_circuit_params_of(c1.registered_proof, &ctx.cp);
    circuit c = {"PoRep 8 MiB (real C1)", porep_synth, &ctx, true};
    test_circuit(&c, "porep-8m", false);
    fc_c1_free(&c1);
    free(buf);
}

static void test_snap_2k(void)
{
    snap_ctx ctx;
    cuzk_error err;
    CHECK(fc_snap_shape_for_nodes(64, false, &ctx.s, &err) == CUZK_OK, "snap shape: %s", err.msg);
    unsigned sib_r = merkle_shape_siblings(&ctx.s.tree_r);
    unsigned sib_d = ctx.s.challenge_bits - ctx.s.partition_bits - ctx.s.apex_bits;
    unsigned C = ctx.s.challenges;
    fr_t *vals = malloc((C * (2 + 2 * sib_r + sib_d) + ctx.s.apex_leaves + ctx.s.partition_bits + 8) * sizeof(fr_t));
    fc_snap_challenge_witness *chw = calloc(C, sizeof *chw);
    if (!vals || !chw) {
        CHECK(false, "out of memory");
        free(vals);
        free(chw);
        return;
    }
    size_t k = 0;
    ctx.pub.k = 0;
    random_fr(&ctx.pub.comm_r_old);
    random_fr(&ctx.pub.comm_d_new);
    random_fr(&ctx.pub.comm_r_new);
    random_fr(&ctx.w.comm_c);
    random_fr(&ctx.w.root_r_old);
    random_fr(&ctx.w.root_r_new);
    ctx.w.apex = vals + k;
    for (unsigned i = 0; i < ctx.s.apex_leaves; i++)
        random_fr(&vals[k++]);
    ctx.w.partition_path = vals + k;
    for (unsigned i = 0; i < ctx.s.partition_bits; i++)
        random_fr(&vals[k++]);
    for (unsigned c = 0; c < C; c++) {
        random_fr(&chw[c].leaf_r_old);
        random_fr(&chw[c].leaf_d_new);
        chw[c].sib_r_old = vals + k;
        for (unsigned i = 0; i < sib_r; i++)
            random_fr(&vals[k++]);
        chw[c].sib_r_new = vals + k;
        for (unsigned i = 0; i < sib_r; i++)
            random_fr(&vals[k++]);
        chw[c].sib_d = vals + k;
        for (unsigned i = 0; i < sib_d; i++)
            random_fr(&vals[k++]);
    }
    ctx.w.challenges = chw;
    circuit c = {"SnapDeals 2 KiB (random values)", snap_synth, &ctx, false};
    test_circuit(&c, "snap-2k", false);
    free(vals);
    free(chw);
}

/* Recording a cs that is not a PCE recording, and taking a PCE from the wrong mode. */
static void test_misuse(void)
{
    cs_t cs;
    cs_pce p;
    cs_matrices mx;
    CHECK(cs_init(&cs, CS_RECORD, 0) == CUZK_OK, "init");
    CHECK(cs_take_pce(&cs, NULL, &p) == CUZK_E_INVALID_ARG, "take_pce from a full recording");
    cs_free(&cs);
    CHECK(cs_init_record_pce(&cs, NULL) == CUZK_OK, "init pce");
    CHECK(cs_take_matrices(&cs, &mx) == CUZK_E_INVALID_ARG, "take_matrices from a PCE recording");
    cs_free(&cs);
    cuzk_error err = {0};
    char path[512];
    snprintf(path, sizeof path, "%s/missing.pce", g_dir);
    CHECK(cs_pce_map(path, NULL, 1, &p, &err) == CUZK_E_IO && strstr(err.msg, "missing.pce"), "missing file: %s",
          err.msg);
}

/* The compact products' own paths on a handmade circuit: column kinds of inputs and aux
 * (0, 1, other), small integer coefficients counted, ±2^e entries of long rows summed as an
 * integer (one of them past 2^256), values other than 0 / 1 times every kind of
 * coefficient; against the plain products and, for the long rows, the closed form. */
static void test_compact_paths(void)
{
    cs_t cs;
    CHECK(cs_init_record_pce(&cs, NULL) == CUZK_OK, "init");
    fr_t big, one = FR_ONE, zero = FR_ZERO, c7, c1000;
    random_fr(&big);
    fr_from_u64(&c7, 7);
    fr_neg(&c7, &c7);
    fr_from_u64(&c1000, 1000);
    cs_var in_big = cs_alloc_input(&cs, &big), in_one = cs_alloc_input(&cs, &one), in_zero = cs_alloc_input(&cs, &zero);
    cs_var x[70];
    fr_t xv[70];
    for (int i = 0; i < 70; i++) {
        if (i % 9 == 4)
            random_fr(&xv[i]);
        else
            xv[i] = (i * 7 + 3) % 5 < 3 ? FR_ONE : FR_ZERO;
        x[i] = cs_alloc(&cs, &xv[i]);
    }
    CS_LC(empty, 1);
    for (int row = 0; row < 8; row++) {
        cs_lc a, b, c;
        cs_lc_init(&a, NULL, 0);
        cs_lc_init(&b, NULL, 0);
        cs_lc_init(&c, NULL, 0);
        for (int i = 0; i < 70; i++) {
            const fr_t *k;
            fr_t t;
            switch (row) {
            case 0: /* 2^254 on about 40 ones: the digits pass 2^256 */
                k = cs_pow2(254);
                break;
            case 1: /* -2^e and +2^e mixed */
                fr_neg(&t, cs_pow2((unsigned)(i * 3 % 250)));
                k = i % 3 ? &t : cs_pow2((unsigned)(i * 5 % 253));
                break;
            case 2: /* small integers */
                k = i % 2 ? &c7 : &c1000;
                break;
            default:
                random_fr(&t);
                k = i % 4 ? (i % 4 == 1 ? &c7 : cs_pow2((unsigned)i)) : &t;
            }
            if (row < 4 || i % (row - 2) == 0)
                cs_lc_add(&a, x[i], k);
            if (row >= 4 && i < 3)
                cs_lc_add(&b, x[i * 20 + row], cs_neg_one());
        }
        cs_lc_add(&c, in_big, row % 2 ? cs_pow2(200) : &c7);
        cs_lc_add(&c, in_one, &c1000);
        cs_lc_add(&c, in_zero, cs_pow2(3));
        cs_lc_add(&c, x[row], cs_small_int(2));
        cs_enforce(&cs, "row", &a, row % 2 ? &b : &empty, &c);
        cs_lc_release(&a);
        cs_lc_release(&b);
        cs_lc_release(&c);
    }
    cs_pce p = {0};
    cs_pce_identity id = {"compact-paths", {0}};
    CHECK(cs_take_pce(&cs, &id, &p) == CUZK_OK, "take: %s", cs.err.msg);
    cs_free(&cs);
    uint64_t ni = p.num_inputs, na = p.num_aux, n = p.rows;
    fr_t w[74], inputs[4] = {FR_ONE, big, one, zero};
    memcpy(w, inputs, sizeof inputs);
    memcpy(w + 4, xv, sizeof xv);
    cs_witness aux = {0};
    for (int i = 0; i < 70; i++)
        cs_witness_push(&aux, &xv[i]);
    fr_t want[3][16], got[3][16];
    cuzk_error err = {0};
    CHECK(ni == 4 && na == 70 && n <= 16, "shape %llu / %llu / %llu", (unsigned long long)ni, (unsigned long long)na,
          (unsigned long long)n);
    if (ni == 4 && na == 70 && n <= 16 &&
        cs_pce_eval(&p, w, 74, want[0], want[1], want[2], 1, &err) == CUZK_OK &&
        cs_pce_eval_compact(&p, inputs, 4, &aux, got[0], got[1], got[2], 1, &err) == CUZK_OK) {
        for (int m = 0; m < 3; m++)
            CHECK(!memcmp(want[m], got[m], n * sizeof(fr_t)), "compact = plain products (%c)", "ABC"[m]);
        fr_t ones = FR_ZERO, closed; /* row 0: 2^254 times the ones among x */
        for (int i = 0; i < 70; i++)
            if (fr_eq(&xv[i], &FR_ONE))
                fr_add(&ones, &ones, &FR_ONE);
        fr_mul(&closed, &ones, cs_pow2(254));
        fr_t bigs = FR_ZERO, t; /* plus 2^254 times the other values */
        for (int i = 0; i < 70; i++)
            if (!fr_eq(&xv[i], &FR_ONE) && !fr_is_zero(&xv[i])) {
                fr_mul(&t, &xv[i], cs_pow2(254));
                fr_add(&bigs, &bigs, &t);
            }
        fr_add(&closed, &closed, &bigs);
        CHECK(fr_eq(&got[0][0], &closed), "row 0 against 2^254 times its values' sum");
    } else {
        CHECK(false, "products: %s", err.msg);
    }
    cs_witness_free(&aux);
    cs_pce_free(&p);
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: test_pce <fixtures dir> <scratch dir>\n");
        return 2;
    }
    g_dir = argv[2];
    test_misuse();
    test_compact_paths();
    test_porep_2k();
    test_snap_2k();
    test_porep_8m(argv[1]);
    return check_summary("pce");
}
