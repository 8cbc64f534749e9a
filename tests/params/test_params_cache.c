/* Parameter point cache (groth16/params_cache.h):
 *   - a cache built from a .params holds exactly the points bp_params_load decodes, and a
 *     proof made from the mapped cache equals (byte for byte, same r, s) the proof made from
 *     the decoded key;
 *   - a second load maps the cache without building;
 *   - a corrupted point coordinate in the .params refused while converting (curve equation);
 *   - a flipped byte in a section (detected by the checksum), a truncated cache, a cache
 *     whose source changed, and a foreign file under the cache name are all rebuilt, never
 *     used; GROTH16_PC_NO_BUILD refuses instead;
 *   - no temporary file is left behind. */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "check.h"
#include "cs/spmv.h"
#include "gadgets/circuits.h"
#include "groth16/bellperson_params.h"
#include "groth16/params_cache.h"

static const char *const POR[] = {"hasher=poseidon", "arity=8", "leaves=64"};

static fr_t *witness(uint64_t *nv)
{
    cs_t cs;
    fr_t *in, *aux;
    uint64_t ni, na;
    cs_init(&cs, CS_WITNESS, 0);
    gadgets_circuit_synthesize(&cs, "por", POR, 3, 5, NULL);
    cs_take_witness(&cs, &in, &ni, &aux, &na);
    cs_free(&cs);
    fr_t *w = malloc((ni + na) * sizeof *w);
    memcpy(w, in, ni * sizeof *w);
    memcpy(w + ni, aux, na * sizeof *w);
    free(in), free(aux);
    *nv = ni + na;
    return w;
}

static void proof_bytes(const groth16_params_t *pk, const cs_matrices *mx, const fr_t *w, uint64_t nv,
                        const uint64_t *ad, const uint64_t *bd, uint8_t out[192])
{
    size_t m = (size_t)1 << pk->log2_m;
    groth16_assignment_t g = {.a = calloc(m, sizeof(fr_t)), .b = calloc(m, sizeof(fr_t)),
                              .c = calloc(m, sizeof(fr_t)), .w = w, .a_density = ad, .b_density = bd};
    cs_spmv_abc(g.a, g.b, g.c, &mx->a, &mx->b, &mx->c, w, nv, 1, NULL);
    fr_t r, s;
    fr_from_u64(&r, 12345), fr_from_u64(&s, 67890);
    groth16_pending_t *pend = NULL;
    groth16_proof_t proof;
    cuzk_error err = {0};
    CHECK(groth16_prove_start(pk, &g, &r, &s, 2, &pend, &err) == CUZK_OK &&
              groth16_prove_finish(pend, 2, &proof, &err) == CUZK_OK,
          "prove: %s", err.msg);
    groth16_assignment_free_abc(&g);
    groth16_proof_to_bytes(out, &proof);
}

static void flip_byte(const char *path, long off)
{
    FILE *f = fopen(path, "r+b");
    fseek(f, off, SEEK_SET);
    int c = fgetc(f);
    fseek(f, off, SEEK_SET);
    fputc(c ^ 0x10, f);
    fclose(f);
}

static int count_tmp(const char *dir)
{
    int n = 0;
    DIR *d = opendir(dir);
    struct dirent *e;
    while (d && (e = readdir(d)))
        n += strstr(e->d_name, ".tmp.") != NULL;
    if (d)
        closedir(d);
    return n;
}

int main(void)
{
    char dir[] = "/tmp/cuzk-pc-XXXXXX";
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    char params[256], cdir[256], cpath[300];
    snprintf(params, sizeof params, "%s/circuit.params", dir);
    snprintf(cdir, sizeof cdir, "%s/cache/sub", dir);
    snprintf(cpath, sizeof cpath, "%s/circuit.params.cuzkpc", cdir);

    cs_t cs;
    cs_matrices mx;
    cs_init(&cs, CS_RECORD, 0);
    gadgets_circuit_synthesize(&cs, "por", POR, 3, 5, NULL);
    cs_take_matrices(&cs, &mx);
    cs_free(&cs);
    groth16_circuit_t circ = {&mx.a, &mx.b, &mx.c, mx.num_constraints, mx.num_inputs, mx.num_aux};
    groth16_toxic_t tw;
    groth16_params_t pk;
    uint64_t *ad = NULL, *bd = NULL;
    cuzk_error err = {0};
    CHECK(groth16_toxic_random(&tw, &err) == CUZK_OK &&
              groth16_setup(&circ, &tw, POLY_H_BELLPERSON, 2, &pk, &ad, &bd, &err) == CUZK_OK &&
              bp_params_write_file(&pk, params, &err) == CUZK_OK,
          "setup + write: %s", err.msg);
    groth16_params_free(&pk);

    /* the decoded reference */
    bp_params_t bp;
    groth16_params_t dec;
    CHECK(bp_params_open(&bp, params, BP_CHECK_POINTS, &err) == CUZK_OK && bp_params_load(&bp, 2, &dec, &err) == CUZK_OK,
          "decode: %s", err.msg);
    bp_params_close(&bp);

    groth16_mapped_params mp;
    groth16_pc_report rep;
    CHECK(groth16_params_cache_load(params, cdir, GROTH16_PC_VERIFY_CHECKSUMS, 2, &mp, &rep, &err) == CUZK_OK &&
              rep.built && !strcmp(rep.rebuild_reason, "no cache"),
          "first load builds: %s (%s)", err.msg, rep.rebuild_reason);
    const groth16_params_t *c = &mp.pk;
    CHECK(c->n_h == dec.n_h && c->n_l == dec.n_l && c->n_a == dec.n_a && c->n_b == dec.n_b &&
              c->log2_m == dec.log2_m && c->n_inputs == dec.n_inputs && c->n_aux == dec.n_aux &&
              !memcmp(c->h, dec.h, dec.n_h * sizeof *dec.h) && !memcmp(c->l, dec.l, dec.n_l * sizeof *dec.l) &&
              !memcmp(c->a, dec.a, dec.n_a * sizeof *dec.a) && !memcmp(c->b_g1, dec.b_g1, dec.n_b * sizeof *dec.b_g1) &&
              !memcmp(c->b_g2, dec.b_g2, dec.n_b * sizeof *dec.b_g2) &&
              !memcmp(c->vk.ic, dec.vk.ic, dec.vk.n_ic * sizeof *dec.vk.ic) &&
              g1_affine_eq(&c->vk.alpha_g1, &dec.vk.alpha_g1) && g2_affine_eq(&c->vk.gamma_g2, &dec.vk.gamma_g2) &&
              g2_affine_eq(&c->vk.delta_g2, &dec.vk.delta_g2),
          "cache points = decoded points");
    uint64_t nv;
    fr_t *w = witness(&nv);
    uint8_t p1[192], p2[192];
    proof_bytes(&dec, &mx, w, nv, ad, bd, p1);
    proof_bytes(c, &mx, w, nv, ad, bd, p2);
    CHECK(!memcmp(p1, p2, 192), "proof from the cache = proof from the decoded key (same r, s)");
    groth16_pvk_t pvk;
    groth16_proof_t pr;
    groth16_prepare_vk(&pvk, &c->vk);
    CHECK(groth16_proof_from_bytes(&pr, p2, &err) == CUZK_OK &&
              groth16_verify(&pvk, w + 1, mx.num_inputs - 1, &pr, &err) == CUZK_OK,
          "proof verifies: %s", err.msg);
    groth16_mapped_params_close(&mp);

    CHECK(groth16_params_cache_load(params, cdir, GROTH16_PC_VERIFY_CHECKSUMS, 2, &mp, &rep, &err) == CUZK_OK &&
              !rep.built,
          "second load maps without building");
    uint64_t total = mp.map_len;
    groth16_mapped_params_close(&mp);
    CHECK(total == groth16_params_cache_size(dec.vk.n_ic, dec.n_h, dec.n_l, dec.n_a, dec.n_b), "size formula");

    /* corruption in the l section: caught by the checksum, rebuilt */
    flip_byte(cpath, 4096 + 2 * 4096 + 100);
    CHECK(groth16_params_cache_load(params, cdir, GROTH16_PC_NO_BUILD | GROTH16_PC_VERIFY_CHECKSUMS, 2, &mp, &rep,
                                    &err) == CUZK_E_IO &&
              strstr(err.msg, "checksum of section"),
          "NO_BUILD refuses a corrupt cache: %s", err.msg);
    CHECK(groth16_params_cache_load(params, cdir, GROTH16_PC_VERIFY_CHECKSUMS, 2, &mp, &rep, &err) == CUZK_OK &&
              rep.built && strstr(rep.rebuild_reason, "checksum of section"),
          "corrupt section rebuilt (%s)", rep.rebuild_reason);
    CHECK(!memcmp(mp.pk.l, dec.l, dec.n_l * sizeof *dec.l), "rebuilt l correct");
    groth16_mapped_params_close(&mp);

    /* a flipped header byte: header checksum */
    flip_byte(cpath, 200);
    CHECK(groth16_params_cache_load(params, cdir, 0, 2, &mp, &rep, &err) == CUZK_OK && rep.built &&
              strstr(rep.rebuild_reason, "header"),
          "corrupt header rebuilt (%s)", rep.rebuild_reason);
    groth16_mapped_params_close(&mp);

    /* truncated */
    CHECK(truncate(cpath, (off_t)(total - 4096)) == 0, "truncate");
    CHECK(groth16_params_cache_load(params, cdir, 0, 2, &mp, &rep, &err) == CUZK_OK && rep.built,
          "truncated cache rebuilt (%s)", rep.rebuild_reason);
    groth16_mapped_params_close(&mp);

    /* source changed: new mtime */
    struct timespec ts[2] = {{0, UTIME_OMIT}, {1000000000, 0}};
    CHECK(utimensat(AT_FDCWD, params, ts, 0) == 0, "touch");
    CHECK(groth16_params_cache_load(params, cdir, 0, 2, &mp, &rep, &err) == CUZK_OK && rep.built &&
              strstr(rep.rebuild_reason, "changed"),
          "stale cache rebuilt (%s)", rep.rebuild_reason);
    groth16_mapped_params_close(&mp);

    /* something else under the cache name */
    FILE *f = fopen(cpath, "wb");
    fputs("not a cache", f);
    fclose(f);
    CHECK(groth16_params_cache_load(params, cdir, 0, 2, &mp, &rep, &err) == CUZK_OK && rep.built,
          "foreign file rebuilt (%s)", rep.rebuild_reason);
    groth16_mapped_params_close(&mp);

    /* a corrupted coordinate in the .params (the low byte of the first h point's y): the
     * conversion refuses it on the curve equation, naming the section, point and offset */
    CHECK(bp_params_open(&bp, params, 0, &err) == CUZK_OK, "reopen: %s", err.msg);
    long h0 = (long)bp.sec[BP_SEC_H].offset;
    bp_params_close(&bp);
    flip_byte(params, h0 + 95);
    cuzk_status cst = groth16_params_cache_load(params, cdir, 0, 2, &mp, &rep, &err);
    CHECK(cst == CUZK_E_POINT_NOT_ON_CURVE && strstr(err.msg, "section h point 0") &&
              strstr(err.msg, "not on the G1 curve"),
          "corrupt .params refused: %s %s", cuzk_status_name(cst), err.msg);
    if (cst == CUZK_OK)
        groth16_mapped_params_close(&mp);
    flip_byte(params, h0 + 95);
    CHECK(groth16_params_cache_load(params, cdir, 0, 2, &mp, &rep, &err) == CUZK_OK && rep.built,
          "repaired .params converts again: %s", err.msg);
    groth16_mapped_params_close(&mp);

    /* a missing .params */
    char missing[300];
    snprintf(missing, sizeof missing, "%s/nope.params", dir);
    CHECK(groth16_params_cache_load(missing, cdir, 0, 2, &mp, &rep, &err) == CUZK_E_IO && strstr(err.msg, missing),
          "missing source: %s", err.msg);
    CHECK(count_tmp(cdir) == 0, "no temporary file left");

    groth16_params_free(&dec);
    cs_matrices_free(&mx);
    free(ad), free(bd), free(w);
    char cmd[600];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    CHECK(system(cmd) == 0, "cleanup");
    return check_summary("params_cache");
}
