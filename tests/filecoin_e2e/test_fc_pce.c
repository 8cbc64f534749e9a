/* The PCE in the engine's partition synthesis (kinds/pce_cache.h, fc_job_use_pce), on
 * the real 8 MiB C1 with the test parameters of the fc_params fixture:
 *   - the first use records the PCE into the cache directory (charged to the budget while
 *     mapped), and the partition the engine then synthesizes through it (witness only +
 *     products) is byte-identical to direct synthesis: a, b, c over the whole domain, the
 *     witness, both density bitmaps;
 *   - a restart (a new manager, background mode) maps the file without recording;
 *   - a corrupted file is refused and recorded again, never used;
 *   - a well-formed PCE of the same size whose one coefficient differs (as a PCE of another
 *     circuit version would) is caught by the row check, rejected and deleted, and the
 *     partition falls back to direct synthesis with the same result;
 *   - with no room in the budget nothing is recorded and synthesis is direct.
 * Usage: test_fc_pce <fixtures dir> <parameter dir> <scratch dir> */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "check.h"
#include "common/file_io.h"
#include "common/hex.h"
#include "kinds/builtin/builtin.h"
#include "kinds/filecoin/fc_job.h"
#include "filecoin/porep/porep.h"

static const char *g_scratch;

typedef struct {
    fr_t *a, *b, *c, *w;
    uint64_t *ad, *bd;
    uint64_t rows, nv;
} snapshot;

static bool synth(const fc_job *job, snapshot *out)
{
    const cuzk_circuit_kind *k = fc_job_kind(job);
    const groth16_params_t *pk = fc_job_params(job);
    atomic_bool cancel = false;
    void *as = NULL;
    cuzk_error err = {0};
    cuzk_status st = k->synthesize(k->ctx, job, 0, &cancel, &as, &err);
    CHECK(st == CUZK_OK, "synthesize: %s", err.msg);
    if (st)
        return false;
    const builtin_assignment *ba = as;
    out->rows = (uint64_t)1 << pk->log2_m;
    out->nv = pk->n_inputs + pk->n_aux;
    size_t abc = out->rows * sizeof(fr_t), words = (out->nv / 64 + 1) * 8;
    out->a = malloc(abc), out->b = malloc(abc), out->c = malloc(abc);
    out->w = malloc(out->nv * sizeof(fr_t));
    out->ad = malloc(words), out->bd = malloc(words);
    memcpy(out->a, ba->g.a, abc);
    memcpy(out->b, ba->g.b, abc);
    memcpy(out->c, ba->g.c, abc);
    if (ba->compact.aux) { /* the witness in compact form (what the Filecoin jobs make) */
        memcpy(out->w, ba->compact.inputs, pk->n_inputs * sizeof(fr_t));
        cs_witness_expand(ba->compact.aux, out->w + pk->n_inputs);
    } else {
        memcpy(out->w, ba->w, out->nv * sizeof(fr_t));
    }
    memcpy(out->ad, ba->g.a_density, words);
    memcpy(out->bd, ba->g.b_density, words);
    k->free_assignment(k->ctx, as);
    return true;
}

static void snapshot_free(snapshot *s)
{
    free(s->a), free(s->b), free(s->c), free(s->w), free(s->ad), free(s->bd);
    memset(s, 0, sizeof *s);
}

static void expect_same(const snapshot *x, const snapshot *y, const char *what)
{
    size_t abc = x->rows * sizeof(fr_t), words = (x->nv / 64 + 1) * 8;
    CHECK(x->rows == y->rows && x->nv == y->nv, "%s: sizes", what);
    CHECK(!memcmp(x->a, y->a, abc) && !memcmp(x->b, y->b, abc) && !memcmp(x->c, y->c, abc), "%s: a/b/c differ", what);
    CHECK(!memcmp(x->w, y->w, x->nv * sizeof(fr_t)), "%s: witness differs", what);
    CHECK(!memcmp(x->ad, y->ad, words) && !memcmp(x->bd, y->bd, words), "%s: densities differ", what);
}

static pce_cache_status entry_status(pce_cache *m)
{
    pce_cache_status *s = NULL, r;
    size_t n = 0;
    cuzk_error err;
    memset(&r, 0, sizeof r);
    CHECK(pce_cache_list(m, &s, &n, &err) == CUZK_OK && n == 1, "one PCE entry (%zu)", n);
    if (n >= 1)
        r = s[0];
    free(s);
    return r;
}

static pce_cache *manager(cuzk_budget *b, bool background)
{
    char dir[512];
    snprintf(dir, sizeof dir, "%s/pce", g_scratch);
    pce_cache_config cfg = {dir, b, background, true, 2};
    pce_cache *m = NULL;
    cuzk_error err;
    CHECK(pce_cache_create(&cfg, &m, &err) == CUZK_OK, "pce manager: %s", err.msg);
    return m;
}

/* The file the manager keeps the PCE in (kinds/pce_cache.h). */
static void pce_path(const fc_job *job, char *out, size_t cap)
{
    uint8_t key[32];
    char hex[17];
    pce_cache_key_id(fc_job_params(job), key);
    cuzk_hex(hex, key, 8);
    snprintf(out, cap, "%s/pce/porep-8m-%s.cuzkpce", g_scratch, hex);
}

static bool flip_byte(const char *path, long off)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return false;
    int c = fseek(f, off, SEEK_SET) == 0 ? fgetc(f) : EOF;
    bool ok = c != EOF && fseek(f, off, SEEK_SET) == 0 && fputc(c ^ 0x40, f) != EOF;
    return fclose(f) == 0 && ok;
}

/* Record the 8 MiB circuit's PCE, change one C coefficient of a row whose C value is not
 * zero from 1 to -1, and write it under the job's identity at the manager's path. */
static bool write_wrong_pce(const fc_job *job, const snapshot *direct, const char *path)
{
    const fc_seal_proof *p;
    cuzk_error err;
    fc_porep_circuit_params cp;
    if (fc_seal_proof_get(6, &p, &err) != CUZK_OK)
        return false;
    fc_porep_circuit_params_of(p, &cp);
    cs_t cs;
    cs_pce pce;
    cs_pce_identity id = {"porep-8m", {0}};
    pce_cache_key_id(fc_job_params(job), id.key_id);
    bool ok = cs_init_record_pce(&cs, NULL) == CUZK_OK && fc_porep_synthesize(&cs, &cp, NULL, 0, &err) == CUZK_OK &&
              cs_take_pce(&cs, &id, &pce) == CUZK_OK;
    cs_free(&cs);
    if (!ok)
        return false;
    const cs_pce_matrix *C = &pce.m[2];
    bool changed = false;
    for (uint64_t k = 0; k < C->nnz && !changed; k++) {
        if (C->coef[k] == 0 && !fr_is_zero(&direct->w[C->col[k]])) {
            ((uint16_t *)C->coef)[k] = 1;
            changed = true;
        }
    }
    ok = changed && cs_pce_write(&pce, path, 2, &err) == CUZK_OK;
    cs_pce_free(&pce);
    return ok;
}

int main(int argc, char **argv)
{
    if (argc < 4) {
        fprintf(stderr, "usage: test_fc_pce <fixtures dir> <parameter dir> <scratch dir>\n");
        return 2;
    }
    g_scratch = argv[3];
    char path[1024];
    snprintf(path, sizeof path, "%s/porep-8MiB-c1.bincode", argv[1]);
    cuzk_mapped_file c1;
    cuzk_error err = {0};
    if (cuzk_file_map(&c1, path, &err) != CUZK_OK) {
        CHECK(false, "%s", err.msg);
        return check_summary("fc_pce");
    }
    char cache[512];
    snprintf(cache, sizeof cache, "%s/points", g_scratch);
    fc_srs_config sc = {.param_cache = argv[2], .cache_dir = cache, .threads = 2};
    fc_srs *srs = NULL;
    fc_job *job = NULL;
    fc_job_request req = {.type = FC_JOB_POREP, .vanilla_proof = {c1.data, c1.len}};
    if (fc_srs_create(&sc, &srs, &err) || fc_job_create(&req, srs, &job, &err)) {
        CHECK(false, "job: %s", err.msg);
        fc_srs_destroy(srs);
        return check_summary("fc_pce");
    }
    char file[1100];
    pce_path(job, file, sizeof file);
    remove(file);

    snapshot direct, via;
    if (!synth(job, &direct))
        return check_summary("fc_pce");
    CHECK(fc_job_pce_partitions(job) == 0, "no PCE yet");

    /* first use: recorded, charged, used; byte-identical */
    cuzk_budget budget;
    CHECK(cuzk_budget_init(&budget, 64ull << 30, NULL, &err) == CUZK_OK, "budget");
    pce_cache *m = manager(&budget, false);
    CHECK(fc_job_use_pce(job, m, &err) == CUZK_OK, "use_pce: %s", err.msg);
    pce_cache_status s = entry_status(m);
    CHECK(s.state == PCE_CACHE_READY && s.recorded == 1 && s.loaded == 1 && s.size_bytes > 0, "recorded: %s %s",
          pce_cache_state_name(s.state), s.error);
    CHECK(cuzk_budget_used(&budget) == s.size_bytes, "budget holds the mapping: %llu of %llu",
          (unsigned long long)cuzk_budget_used(&budget), (unsigned long long)s.size_bytes);
    struct stat st;
    CHECK(stat(file, &st) == 0 && (uint64_t)st.st_size == s.size_bytes, "file %s", file);
    if (synth(job, &via)) {
        CHECK(fc_job_pce_partitions(job) == 1, "partition synthesized through the PCE");
        expect_same(&direct, &via, "PCE (recorded) vs direct");
        snapshot_free(&via);
    }
    uint64_t freed = 0;
    CHECK(pce_cache_evict(m, "porep-8m", &freed, &err) == CUZK_OK && freed == s.size_bytes &&
              cuzk_budget_used(&budget) == 0,
          "evict frees the mapping and its charge");
    pce_cache_destroy(m);

    /* restart: a background manager maps the file, nothing recorded */
    m = manager(&budget, true);
    CHECK(fc_job_use_pce(job, m, &err) == CUZK_OK, "use_pce: %s", err.msg);
    pce_cache_wait_idle(m);
    s = entry_status(m);
    CHECK(s.state == PCE_CACHE_READY && s.recorded == 0 && s.loaded == 1, "restart: %s recorded %llu loaded %llu %s",
          pce_cache_state_name(s.state), (unsigned long long)s.recorded, (unsigned long long)s.loaded, s.error);
    if (synth(job, &via)) {
        CHECK(fc_job_pce_partitions(job) == 2, "second PCE partition");
        expect_same(&direct, &via, "PCE (mapped after restart) vs direct");
        snapshot_free(&via);
    }
    pce_cache_destroy(m);
    CHECK(cuzk_budget_used(&budget) == 0, "budget back at zero");

    /* a corrupted file is refused and recorded again */
    CHECK(flip_byte(file, 4096 + 100), "corrupt %s", file);
    m = manager(&budget, false);
    fc_job_use_pce(job, m, &err);
    s = entry_status(m);
    CHECK(s.state == PCE_CACHE_READY && s.recorded == 1 && s.loaded == 1, "corrupt file re-recorded: %s %s",
          pce_cache_state_name(s.state), s.error);
    pce_cache_destroy(m);

    /* a PCE that does not describe the circuit: rejected by the row check, deleted */
    CHECK(write_wrong_pce(job, &direct, file), "wrong PCE written");
    m = manager(&budget, false);
    fc_job_use_pce(job, m, &err);
    s = entry_status(m);
    CHECK(s.state == PCE_CACHE_READY && s.recorded == 0, "the wrong PCE passes the file checks");
    uint32_t before = fc_job_pce_partitions(job);
    if (synth(job, &via)) {
        expect_same(&direct, &via, "fallback after rejection vs direct");
        snapshot_free(&via);
    }
    s = entry_status(m);
    CHECK(s.state == PCE_CACHE_FAILED && strstr(s.error, "rejected") && stat(file, &st) != 0 &&
              fc_job_pce_partitions(job) == before,
          "rejected: %s '%s'", pce_cache_state_name(s.state), s.error);
    CHECK(cuzk_budget_used(&budget) == 0, "rejected PCE unmapped and uncharged");
    pce_cache_destroy(m);

    /* no room in the budget: nothing recorded, direct synthesis */
    cuzk_budget small;
    CHECK(cuzk_budget_init(&small, 1u << 20, NULL, &err) == CUZK_OK, "small budget");
    m = manager(&small, false);
    fc_job_use_pce(job, m, &err);
    s = entry_status(m);
    CHECK(s.state == PCE_CACHE_ABSENT && s.recorded == 0 && strstr(s.error, "budget"), "small budget: %s '%s'",
          pce_cache_state_name(s.state), s.error);
    before = fc_job_pce_partitions(job);
    if (synth(job, &via)) {
        CHECK(fc_job_pce_partitions(job) == before, "direct synthesis without a PCE");
        snapshot_free(&via);
    }
    CHECK(cuzk_budget_used(&small) == 0, "small budget untouched");
    pce_cache_destroy(m);
    cuzk_budget_destroy(&small);
    cuzk_budget_destroy(&budget);

    snapshot_free(&direct);
    fc_job_free(job);
    fc_srs_destroy(srs);
    cuzk_file_unmap(&c1);
    return check_summary("fc_pce");
}
