/* Constraint order and content pinned across synthesis refactors (the official keys accept
 * only the reference's constraints, in the reference's order).
 *
 * Two circuits on the real fixtures (shared/fixtures, made by the reference):
 *   - the 32 GiB WindowPoSt circuit of one sector (window-post-32GiB-sector1.vproof, 10
 *     challenges): 53,333 constraints and 12 inputs (docs/circuits.md#formulas: 1 + 311 + 1 +
 *     10 x 5,302);
 *   - the 8 MiB PoRep circuit of one challenge (porep-8MiB-c1.bincode, the first challenge
 *     as a one-challenge partition): 1,922,750 constraints and 22 inputs
 *     (docs/circuits.md#formulas: 571 shared constraints plus each challenge's own;
 *     docs/circuits.md#production-sizes: 3,844,929 for two challenges, so
 *     571 + (3,844,929 - 571) / 2) and 1 + 3 + 18 inputs.
 * For each: the constraint and input counts against those reference numbers; SHA-256 of the
 * recorded PCE (every row's columns and coefficient indices of A, B, C, the coefficient
 * dictionary in first-use order, the densities) against a digest taken from the code before
 * the synthesis refactor of issue 19 (the counts are the independent oracle, the digest
 * guards order and content beyond them); the witness satisfies every constraint (CS_CHECK);
 * and direct synthesis (CS_PROVE, compact witness, rows verified) gives a, b, c and
 * densities equal to the PCE's sparse products A.w, B.w, C.w over the CS_CHECK witness, an
 * evaluation path that shares no code with the gadgets' own evaluations.
 * Usage: test_synth_digest <fixtures dir> [print]   (print: show the digests) */
#include <openssl/evp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/file_io.h"
#include "cs/pce.h"
#include "filecoin/porep/porep.h"
#include "filecoin/post/post.h"

typedef cuzk_status (*synth_fn)(cs_t *cs, const void *ctx, cuzk_error *err);

static bool g_print;

static void hash_u64(EVP_MD_CTX *h, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    EVP_DigestUpdate(h, b, 8);
}

/* SHA-256 over the counts and every array of the PCE, in a fixed order. */
static void pce_digest(const cs_pce *p, char hex[65])
{
    EVP_MD_CTX *h = EVP_MD_CTX_new();
    EVP_DigestInit_ex(h, EVP_sha256(), NULL);
    uint64_t counts[] = {p->rows, p->num_constraints, p->num_inputs, p->num_aux, p->m[0].nnz, p->m[1].nnz,
                         p->m[2].nnz, p->a_count, p->b_count, p->n_dict};
    for (size_t i = 0; i < sizeof counts / sizeof counts[0]; i++)
        hash_u64(h, counts[i]);
    for (int m = 0; m < 3; m++) {
        EVP_DigestUpdate(h, p->m[m].row_ptr, (p->rows + 1) * sizeof(uint32_t));
        EVP_DigestUpdate(h, p->m[m].col, p->m[m].nnz * sizeof(uint32_t));
        EVP_DigestUpdate(h, p->m[m].coef, p->m[m].nnz * sizeof(uint16_t));
    }
    for (uint32_t i = 0; i < p->n_dict; i++) {
        uint8_t b[32];
        fr_to_bytes_le(b, &p->dict[i]);
        EVP_DigestUpdate(h, b, 32);
    }
    uint64_t words = (p->num_inputs + p->num_aux) / 64 + 1;
    EVP_DigestUpdate(h, p->a_density, words * 8);
    EVP_DigestUpdate(h, p->b_density, words * 8);
    uint8_t d[32];
    EVP_DigestFinal_ex(h, d, NULL);
    EVP_MD_CTX_free(h);
    for (int i = 0; i < 32; i++)
        snprintf(hex + 2 * i, 3, "%02x", d[i]);
}

static bool fr_arrays_equal(const fr_t *x, const fr_t *y, uint64_t n, uint64_t *at)
{
    for (uint64_t i = 0; i < n; i++) {
        if (!fr_eq(&x[i], &y[i])) {
            *at = i;
            return false;
        }
    }
    return true;
}

static void check_circuit(const char *what, synth_fn synth, const void *ctx, uint64_t constraints, uint64_t inputs,
                          const char *digest)
{
    cuzk_error err = {0};
    cs_t cs;
    /* the counts */
    cs_init(&cs, CS_SHAPE, 0);
    cuzk_status st = synth(&cs, ctx, &err);
    cs_counts n;
    cs_get_counts(&cs, &n);
    cs_free(&cs);
    CHECK(st == CUZK_OK && n.constraints == constraints && n.inputs == inputs,
          "%s: %llu constraints, %llu inputs (reference %llu, %llu): %s", what, (unsigned long long)n.constraints,
          (unsigned long long)n.inputs, (unsigned long long)constraints, (unsigned long long)inputs,
          st ? err.msg : "");
    if (st)
        return;
    /* the recorded constraints */
    cs_pce pce = {0};
    cs_pce_identity id = {"synth-digest", {0}};
    st = cs_init_record_pce(&cs, &n);
    if (!st && !(st = synth(&cs, ctx, &err)))
        st = cs_take_pce(&cs, &id, &pce);
    cs_free(&cs);
    CHECK(st == CUZK_OK, "%s: PCE recorded: %s", what, st ? err.msg : "");
    if (st)
        return;
    char hex[65];
    pce_digest(&pce, hex);
    if (g_print)
        printf("%s: PCE digest %s\n", what, hex);
    CHECK(!strcmp(hex, digest), "%s: PCE digest %s, pinned %s", what, hex, digest);
    /* the witness, every constraint checked */
    cs_init(&cs, CS_CHECK, 0);
    st = synth(&cs, ctx, &err);
    uint64_t bad = 0;
    char name[256] = "";
    bool sat = st == CUZK_OK && cs_check_satisfied(&cs, &bad, name, sizeof name);
    CHECK(sat, "%s: satisfied (first failure %llu %s): %s", what, (unsigned long long)bad, name, st ? err.msg : "");
    fr_t *in = NULL, *aux = NULL, *w = NULL, *v[3] = {NULL, NULL, NULL};
    uint64_t nin = 0, naux = 0;
    if (sat && cs_take_witness(&cs, &in, &nin, &aux, &naux) == CUZK_OK && (w = malloc((nin + naux) * sizeof *w))) {
        memcpy(w, in, nin * sizeof *w);
        memcpy(w + nin, aux, naux * sizeof *w);
    }
    cs_free(&cs);
    for (int m = 0; m < 3; m++)
        v[m] = malloc(pce.rows * sizeof(fr_t));
    if (w && v[0] && v[1] && v[2]) {
        st = cs_pce_eval(&pce, w, nin + naux, v[0], v[1], v[2], 1, &err);
        CHECK(st == CUZK_OK, "%s: PCE products: %s", what, st ? err.msg : "");
        /* direct synthesis as the engine runs it */
        cs_prove_hint hint = {pce.rows, n.inputs, n.aux, NULL};
        cs_assignment as;
        st = cs_init_prove(&cs, &hint, CS_COMPACT_AUX | CS_VERIFY_ROWS);
        if (!st && !(st = synth(&cs, ctx, &err)))
            st = cs_take_assignment(&cs, pce.rows, &as);
        if (st && !err.msg[0])
            err = cs.err;
        cs_free(&cs);
        CHECK(st == CUZK_OK, "%s: direct synthesis: %s", what, st ? err.msg : "");
        if (st == CUZK_OK) {
            const fr_t *got[3] = {as.a, as.b, as.c};
            for (int m = 0; m < 3; m++) {
                uint64_t at = 0;
                CHECK(fr_arrays_equal(got[m], v[m], pce.rows, &at), "%s: direct %c = PCE %c (first difference row %llu)",
                      what, "abc"[m], "ABC"[m], (unsigned long long)at);
            }
            uint64_t words = (n.inputs + n.aux) / 64 + 1;
            CHECK(as.a_count == pce.a_count && as.b_count == pce.b_count &&
                      !memcmp(as.a_density, pce.a_density, words * 8) &&
                      !memcmp(as.b_density, pce.b_density, words * 8),
                  "%s: direct densities = PCE densities", what);
            cs_assignment_free(&as);
        }
    } else {
        CHECK(false, "%s: witness and product buffers", what);
    }
    for (int m = 0; m < 3; m++)
        free(v[m]);
    free(w);
    free(in);
    free(aux);
    cs_pce_free(&pce);
}

/* ---- WindowPoSt 32 GiB, one sector ---- */

typedef struct {
    fc_post_shape shape;
    const fc_post_partition *part;
} post_ctx;

static cuzk_status synth_post(cs_t *cs, const void *ctx, cuzk_error *err)
{
    const post_ctx *c = ctx;
    return fc_post_synthesize(cs, &c->shape, c->part->sectors, c->part->nsectors, err);
}

/* Map fixture `name` of `dir`; false (reported) when it cannot be read. */
static bool map_fixture(const char *dir, const char *name, cuzk_mapped_file *f)
{
    char path[4096];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    cuzk_error e = {0};
    bool ok = cuzk_file_map(f, path, &e) == CUZK_OK && f->data;
    CHECK(ok, "read %s: %s", path, e.msg);
    return ok;
}

static void window_post(const char *dir)
{
    cuzk_error e = {0};
    cuzk_mapped_file f;
    if (!map_fixture(dir, "window-post-32GiB-sector1.vproof", &f))
        return;
    const fc_post_proof *p;
    uint8_t rand[32] = {0};
    fc_post_partition part;
    const uint8_t *blobs[1] = {f.data};
    size_t lens[1] = {f.len};
    cuzk_status st = fc_post_proof_get(8, &p, &e);
    if (!st)
        st = fc_post_partition_from_bytes(&part, p, rand, 1000, 0, blobs, lens, 1, &e);
    CHECK(st == CUZK_OK, "WindowPoSt partition: %s", st ? e.msg : "");
    if (st == CUZK_OK) {
        post_ctx c = {part.shape, &part};
        c.shape.sector_count = 1;
        check_circuit("WindowPoSt 32 GiB, 1 sector", synth_post, &c, 53333, 12,
                      "6f393540a1abcef73ef58bc14e9940e617681e864e73decbec058283d923f674");
        fc_post_partition_free(&part);
    }
    cuzk_file_unmap(&f);
}

/* ---- PoRep 8 MiB, one challenge ---- */

typedef struct {
    fc_porep_circuit_params cp;
    fc_c1_output view;
} porep_ctx;

static cuzk_status synth_porep(cs_t *cs, const void *ctx, cuzk_error *err)
{
    const porep_ctx *c = ctx;
    return fc_porep_synthesize(cs, &c->cp, &c->view, 0, err);
}

static void porep(const char *dir)
{
    cuzk_error e = {0};
    cuzk_mapped_file f;
    if (!map_fixture(dir, "porep-8MiB-c1.bincode", &f))
        return;
    fc_c1_output c1;
    cuzk_status st = fc_c1_read(&c1, f.data, f.len, FC_C1_BINCODE_C2IN, false, &e);
    CHECK(st == CUZK_OK, "C1: %s", st ? e.msg : "");
    if (st == CUZK_OK) {
        porep_ctx c;
        fc_porep_circuit_params_of(c1.registered_proof, &c.cp);
        c.cp.challenges = 1;
        c.view = c1; /* shallow: the first challenge as a one-challenge partition */
        c.view.partitions = 1;
        c.view.challenges = 1;
        check_circuit("PoRep 8 MiB, 1 challenge", synth_porep, &c, 571 + (3844929 - 571) / 2, 22,
                      "50a2148b5acee09711824d408bd784976d88a2239899dabda69be5d700c92120");
        fc_c1_free(&c1);
    }
    cuzk_file_unmap(&f);
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: test_synth_digest <fixtures dir> [print]\n");
        return 2;
    }
    g_print = argc > 2 && !strcmp(argv[2], "print");
    window_post(argv[1]);
    porep(argv[1]);
    return check_summary("synth_digest");
}
