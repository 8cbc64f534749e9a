/* bellperson .params / .vk round trip (issue 5):
 *   1. the encoding of known points matches the BLS12-381 generator constants (published
 *      in the ZCash/IETF pairing-friendly-curves spec; independent of our encoder);
 *   2. a Poseidon PoR circuit (arity 8, 64 leaves, public root) recorded by the cs, random
 *      bellperson-form parameters written as .params/.vk, re-read (lazy open with point
 *      checks, circuit-count check, full load equal to what was written), proven with
 *      a/b/c from the recorded CSR and the witness, verified with the re-read .vk;
 *   3. tampering: a flipped proof byte, a changed public input, and flipped bytes in the
 *      files (a count, a coordinate in each section) are all detected, the reader naming
 *      the section and the offset of the point/count.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "check.h"
#include "cs/spmv.h"
#include "gadgets/circuits.h"
#include "groth16/bellperson_params.h"

static const char *const POR[] = {"hasher=poseidon", "arity=8", "leaves=64"};
#define NPOR 3

/* x and y of the G1 generator, x.c1 / x.c0 of the G2 generator, big-endian */
static const char G1X[] = "17f1d3a73197d7942695638c4fa9ac0fc3688c4f9774b905a14e3a3f171bac586c55e83ff97a1aeffb3af00adb22c6bb";
static const char G1Y[] = "08b3f481e3aaa0f1a09e30ed741d8ae4fcf5e095d5d00af600db18cb2c04b3edd03cc744a2888ae40caa232946c5e7e1";
static const char G2XC1[] = "13e02b6052719f607dacd3a088274f65596bd0d09920b61ab5da61bbdc7f5049334cf11213945d57e5ac7d055d042b7e";
static const char G2XC0[] = "024aa2b2f08f0a91260805272dc51051c6e47ad4fa403b02b4510b647ae3d1770bac0326a805bbefd48056c8c121bdb8";

static bool hex_at(const uint8_t *b, const char *hex)
{
    uint8_t want[48];
    return hex_decode(want, sizeof want, hex) == 48 && memcmp(b, want, 48) == 0;
}

static void test_vk_layout(void)
{
    g1_affine_t g1;
    g2_affine_t g2;
    g1_generator(&g1);
    g2_generator(&g2);
    g1_affine_t ic[2] = {g1, g1};
    groth16_vk_t vk = {g1, g1, g1, g2, g2, g2, ic, 2};
    uint8_t buf[868 + 2 * 96];
    CHECK(bp_vk_size(&vk) == sizeof buf, "vk size %llu", (unsigned long long)bp_vk_size(&vk));
    bp_vk_encode(buf, &vk);
    CHECK(hex_at(buf, G1X) && hex_at(buf + 48, G1Y), "alpha_g1 at 0 is x || y big-endian");
    CHECK(hex_at(buf + 192, G2XC1) && hex_at(buf + 240, G2XC0), "beta_g2 at 192 is x.c1 || x.c0");
    CHECK(hex_at(buf + 576, G1X), "delta_g1 at offset 576");
    CHECK(hex_at(buf + 672, G2XC1), "delta_g2 at offset 672");
    CHECK(buf[864] == 0 && buf[865] == 0 && buf[866] == 0 && buf[867] == 2, "n_ic u32 big-endian at 864");
    CHECK(hex_at(buf + 868 + 96, G1X), "ic[1] at 964");
    groth16_vk_t back;
    cuzk_error err = {0};
    CHECK(bp_vk_read_mem(&back, buf, sizeof buf, BP_CHECK_POINTS, &err) == CUZK_OK && back.n_ic == 2 &&
              g1_affine_eq(&back.ic[1], &g1) && g2_affine_eq(&back.gamma_g2, &g2),
          "vk round trip: %s", err.msg);
    bp_vk_free(&back);
    CHECK(bp_vk_read_mem(&back, buf, sizeof buf - 1, 0, &err) == CUZK_E_FORMAT && strstr(err.msg, "offset"),
          "truncated vk: %s", err.msg);
    uint8_t inf[sizeof buf];
    memcpy(inf, buf, sizeof buf);
    memset(inf + 868, 0, 96);
    inf[868] = 0x40;
    CHECK(bp_vk_read_mem(&back, inf, sizeof inf, 0, &err) == CUZK_E_POINT_INFINITY &&
              strstr(err.msg, "section ic point 0 at offset 868"),
          "ic at infinity: %s", err.msg);
    inf[868] = 0x80 | (buf[868] & 0x1f);
    CHECK(bp_vk_read_mem(&back, inf, sizeof inf, 0, &err) == CUZK_E_POINT_FLAGS, "compressed flag: %s", err.msg);
}

typedef struct {
    cs_matrices mats;
    cs_counts counts;
    fr_t *w; /* inputs then aux */
    uint64_t n_in, n_aux;
} circuit;

static bool build_circuit(circuit *c)
{
    memset(c, 0, sizeof *c);
    cuzk_error err = {0};
    cs_t cs;
    cs_init(&cs, CS_RECORD, 0);
    cuzk_status st = gadgets_circuit_synthesize(&cs, "por", POR, NPOR, 7, &err);
    cs_get_counts(&cs, &c->counts);
    if (!st)
        st = cs_take_matrices(&cs, &c->mats);
    cs_free(&cs);
    CHECK(st == CUZK_OK, "record por: %s", err.msg);
    if (st)
        return false;
    CHECK(c->counts.constraints == 1063 && c->counts.inputs == 3, "por 8-ary 64 leaves: %llu constraints",
          (unsigned long long)c->counts.constraints);
    fr_t *in, *aux;
    cs_init(&cs, CS_WITNESS, 0);
    st = gadgets_circuit_synthesize(&cs, "por", POR, NPOR, 7, &err);
    if (!st)
        st = cs_take_witness(&cs, &in, &c->n_in, &aux, &c->n_aux);
    cs_free(&cs);
    CHECK(st == CUZK_OK && c->n_in == c->counts.inputs && c->n_aux == c->counts.aux, "witness: %s", err.msg);
    if (st)
        return false;
    c->w = malloc((c->n_in + c->n_aux) * sizeof(fr_t));
    memcpy(c->w, in, c->n_in * sizeof(fr_t));
    memcpy(c->w + c->n_in, aux, c->n_aux * sizeof(fr_t));
    free(in);
    free(aux);
    return true;
}

static cuzk_status prove(const groth16_params_t *pk, const circuit *c, const uint64_t *ad, const uint64_t *bd,
                         groth16_proof_t *proof, cuzk_error *err)
{
    size_t m = (size_t)1 << pk->log2_m;
    groth16_assignment_t asg = {.a = calloc(m, sizeof(fr_t)), .b = calloc(m, sizeof(fr_t)),
                                .c = calloc(m, sizeof(fr_t)), .w = c->w, .a_density = ad, .b_density = bd};
    cuzk_status st = cs_spmv_abc(asg.a, asg.b, asg.c, &c->mats.a, &c->mats.b, &c->mats.c, c->w,
                                 c->n_in + c->n_aux, 2, err);
    if (!st)
        st = groth16_prove(pk, &asg, 2, proof, err);
    groth16_assignment_free_abc(&asg);
    return st;
}

static bool same_params(const groth16_params_t *x, const groth16_params_t *y)
{
    return x->n_h == y->n_h && x->n_l == y->n_l && x->n_a == y->n_a && x->n_b == y->n_b &&
           x->log2_m == y->log2_m && x->n_inputs == y->n_inputs && x->n_aux == y->n_aux &&
           x->vk.n_ic == y->vk.n_ic && !memcmp(x->h, y->h, x->n_h * sizeof *x->h) &&
           !memcmp(x->l, y->l, x->n_l * sizeof *x->l) && !memcmp(x->a, y->a, x->n_a * sizeof *x->a) &&
           !memcmp(x->b_g1, y->b_g1, x->n_b * sizeof *x->b_g1) &&
           !memcmp(x->b_g2, y->b_g2, x->n_b * sizeof *x->b_g2) &&
           !memcmp(x->vk.ic, y->vk.ic, x->vk.n_ic * sizeof *x->vk.ic) &&
           g1_affine_eq(&x->vk.alpha_g1, &y->vk.alpha_g1) && g2_affine_eq(&x->vk.delta_g2, &y->vk.delta_g2);
}

static uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    *len = (size_t)ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = malloc(*len);
    if (b && fread(b, 1, *len, f) != *len) {
        free(b);
        b = NULL;
    }
    fclose(f);
    return b;
}

/* Flip bits `mask` of byte `off` of the .params image; the reader (open with point checks,
 * then load) must fail naming `section` and `where` (where == NULL: any section and offset,
 * for counts), or the proof proven with the loaded key must fail to verify under the loaded
 * vk. */
static void tamper_params(const uint8_t *img, size_t len, uint64_t off, uint8_t mask, const char *section,
                          const char *where, const circuit *c, const uint64_t *ad, const uint64_t *bd)
{
    uint8_t *b = malloc(len);
    memcpy(b, img, len);
    b[off] ^= mask;
    bp_params_t p;
    groth16_params_t pk;
    cuzk_error err = {0};
    cuzk_status st = bp_params_open_mem(&p, b, len, BP_CHECK_POINTS, &err);
    if (!st) {
        st = bp_params_load(&p, 2, &pk, &err);
        bp_params_close(&p);
    }
    if (st) {
        char want[96];
        snprintf(want, sizeof want, "section %s", section);
        if (where)
            CHECK(strstr(err.msg, want) && strstr(err.msg, where), "flip at %llu: message '%s' lacks '%s' / '%s'",
                  (unsigned long long)off, err.msg, want, where);
        else /* a wrong count shifts what follows: reported where the layout breaks */
            CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "section ") && strstr(err.msg, " at offset "),
                  "count flip at %llu: '%s'", (unsigned long long)off, err.msg);
    } else {
        groth16_proof_t proof;
        groth16_pvk_t pvk;
        groth16_prepare_vk(&pvk, &pk.vk);
        st = prove(&pk, c, ad, bd, &proof, &err);
        CHECK(st != CUZK_OK || groth16_verify(&pvk, c->w + 1, c->n_in - 1, &proof, &err) != CUZK_OK,
              "flip at %llu (section %s) went unnoticed", (unsigned long long)off, section);
        groth16_params_free(&pk);
    }
    free(b);
}

static void test_roundtrip(const char *dir)
{
    circuit c;
    if (!build_circuit(&c))
        return;
    cuzk_error err = {0};
    groth16_circuit_t circ = {&c.mats.a, &c.mats.b, &c.mats.c, c.mats.num_constraints, c.mats.num_inputs,
                              c.mats.num_aux};
    groth16_toxic_t tw;
    groth16_params_t pk;
    uint64_t *ad = NULL, *bd = NULL;
    CHECK(groth16_toxic_random(&tw, &err) == CUZK_OK, "toxic");
    cuzk_status st = groth16_setup(&circ, &tw, POLY_H_BELLPERSON, 2, &pk, &ad, &bd, &err);
    CHECK(st == CUZK_OK, "setup: %s", err.msg);
    if (st)
        return;
    char ppath[512], vpath[512];
    snprintf(ppath, sizeof ppath, "%s/por.params", dir);
    snprintf(vpath, sizeof vpath, "%s/por.vk", dir);
    CHECK(bp_params_write_file(&pk, ppath, &err) == CUZK_OK, "write params: %s", err.msg);
    CHECK(bp_vk_write_file(&pk.vk, vpath, &err) == CUZK_OK, "write vk: %s", err.msg);

    bp_params_t p;
    groth16_params_t pk2 = {0};
    st = bp_params_open(&p, ppath, BP_CHECK_POINTS, &err);
    CHECK(st == CUZK_OK, "open: %s", err.msg);
    if (st)
        return;
    CHECK(p.len == bp_params_size(&pk), "file size %llu", (unsigned long long)p.len);
    CHECK(p.sec[BP_SEC_H].count == ((1u << p.log2_m) - 1) && p.log2_m == 11, "h = m - 1 (m = 2^%u)", p.log2_m);
    CHECK(bp_params_check_circuit(&p, &c.counts, &err) == CUZK_OK, "circuit counts: %s", err.msg);
    cs_counts other = c.counts;
    other.aux++;
    CHECK(bp_params_check_circuit(&p, &other, &err) == CUZK_E_INVALID_ARG && strstr(err.msg, "l count"),
          "aux mismatch: %s", err.msg);
    g1_affine_t a5;
    CHECK(bp_params_decode(&p, BP_SEC_A, 5, 1, &a5, NULL, &err) == CUZK_OK && g1_affine_eq(&a5, &pk.a[5]),
          "lazy decode of a[5]");
    CHECK(bp_params_decode(&p, BP_SEC_A, p.sec[BP_SEC_A].count, 1, &a5, NULL, &err) == CUZK_E_INVALID_ARG,
          "range past the section");
    st = bp_params_load(&p, 3, &pk2, &err);
    CHECK(st == CUZK_OK && same_params(&pk, &pk2), "load equals the written key: %s", err.msg);
    bp_params_close(&p);

    groth16_vk_t vk;
    CHECK(bp_vk_read_file(&vk, vpath, BP_CHECK_POINTS, &err) == CUZK_OK, "read vk: %s", err.msg);
    groth16_pvk_t pvk;
    groth16_prepare_vk(&pvk, &vk);
    groth16_proof_t proof;
    st = prove(&pk2, &c, ad, bd, &proof, &err);
    CHECK(st == CUZK_OK, "prove: %s", err.msg);
    const fr_t *pub = c.w + 1;
    size_t npub = c.n_in - 1;
    CHECK(groth16_verify(&pvk, pub, npub, &proof, &err) == CUZK_OK, "verify: %s", err.msg);

    /* proof bytes and tampering */
    uint8_t bytes[2 * GROTH16_PROOF_BYTES];
    groth16_proof_to_bytes(bytes, &proof);
    groth16_proof_to_bytes(bytes + GROTH16_PROOF_BYTES, &proof);
    groth16_proof_t back[2];
    size_t n = 0;
    CHECK(bp_proofs_read(back, 2, &n, bytes, sizeof bytes, &err) == CUZK_OK && n == 2 &&
              groth16_verify(&pvk, pub, npub, &back[1], &err) == CUZK_OK,
          "two-partition proof bytes: %s", err.msg);
    CHECK(bp_proofs_read(back, 1, &n, bytes, sizeof bytes, &err) == CUZK_E_FORMAT, "cap respected");
    int undetected = 0;
    for (size_t i = 0; i < GROTH16_PROOF_BYTES; i += 7) {
        uint8_t t[GROTH16_PROOF_BYTES];
        memcpy(t, bytes, sizeof t);
        t[i] ^= 0x04;
        st = bp_proofs_read(back, 1, &n, t, sizeof t, &err);
        if (st) {
            char want[64];
            snprintf(want, sizeof want, "element %s", i < 48 ? "A" : i < 144 ? "B" : "C");
            CHECK(strstr(err.msg, want) && strstr(err.msg, "offset"), "proof byte %zu: '%s'", i, err.msg);
        } else if (groth16_verify(&pvk, pub, npub, &back[0], &err) == CUZK_OK) {
            undetected++;
        }
    }
    CHECK(undetected == 0, "%d flipped proof bytes verified", undetected);
    for (size_t i = 0; i < npub; i++) {
        fr_t bad[8];
        memcpy(bad, pub, npub * sizeof *bad);
        fr_add(&bad[i], &bad[i], &FR_ONE);
        CHECK(groth16_verify(&pvk, bad, npub, &proof, &err) == CUZK_E_VERIFY_FAILED, "public input %zu + 1", i);
    }

    /* .vk tampering: a coordinate byte of ic[1] and of gamma_g2 */
    size_t vlen;
    uint8_t *vimg = slurp(vpath, &vlen);
    CHECK(vimg && vlen == 868 + 96 * c.n_in, "vk file size");
    if (vimg) {
        uint64_t offs[] = {868 + 96 + 40, 384 + 100};
        const char *want[] = {"section ic point 1 at offset 964", "section gamma_g2 at offset 384"};
        for (int i = 0; i < 2; i++) {
            vimg[offs[i]] ^= 1;
            groth16_vk_t v2;
            st = bp_vk_read_mem(&v2, vimg, vlen, BP_CHECK_POINTS, &err);
            CHECK(st != CUZK_OK && strstr(err.msg, want[i]), "vk flip: '%s'", err.msg);
            vimg[offs[i]] ^= 1;
        }
        free(vimg);
    }

    /* .params tampering: counts (structural) and one coordinate byte per section */
    size_t plen;
    uint8_t *img = slurp(ppath, &plen);
    CHECK(img && plen == bp_params_size(&pk), "params file size");
    if (img) {
        bp_params_t q;
        CHECK(bp_params_open_mem(&q, img, plen, 0, &err) == CUZK_OK, "open_mem: %s", err.msg);
        char where[64];
        for (int s = 0; s < BP_SEC_COUNT; s++) {
            tamper_params(img, plen, q.sec[s].count_offset + 3, 1, bp_section_name((bp_section)s), NULL, &c, ad,
                          bd);
            uint64_t k = q.sec[s].count / 2;
            uint64_t off = q.sec[s].offset + k * q.sec[s].point_bytes;
            snprintf(where, sizeof where, "point %llu at offset %llu", (unsigned long long)k,
                     (unsigned long long)off);
            tamper_params(img, plen, off + 47, 0x10, bp_section_name((bp_section)s), where, &c, ad, bd);
        }
        tamper_params(img, plen, 868 + 20, 0x01, "ic", "point 0 at offset 868", &c, ad, bd);
        /* a truncated file and a trailing byte */
        bp_params_t r;
        CHECK(bp_params_open_mem(&r, img, plen - 1, 0, &err) == CUZK_E_FORMAT && strstr(err.msg, "section b_g2"),
              "truncated: %s", err.msg);
        uint8_t *longer = malloc(plen + 1);
        memcpy(longer, img, plen);
        longer[plen] = 0;
        CHECK(bp_params_open_mem(&r, longer, plen + 1, 0, &err) == CUZK_E_FORMAT && strstr(err.msg, "trailing"),
              "trailing byte: %s", err.msg);
        free(longer);
        bp_params_close(&q);
        free(img);
    }
    bp_vk_free(&vk);
    groth16_params_free(&pk);
    groth16_params_free(&pk2);
    free(ad);
    free(bd);
    free(c.w);
    cs_matrices_free(&c.mats);
    unlink(ppath);
    unlink(vpath);
}

int main(void)
{
    char dir[] = "/tmp/cuzk-bp-params-XXXXXX";
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    test_vk_layout();
    test_roundtrip(dir);
    rmdir(dir);
    return check_summary("bp_params");
}
