/* snarkjs JSON readers/writers; contracts in snarkjs_json.h. */
#include "groth16/snarkjs_json.h"

#include <errno.h>
#include <jansson.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/decimal.h"
#include "common/file_io.h"

/* ---- writing ---- */

static json_t *fp_json(const fp_t *a)
{
    uint64_t l[FP_LIMBS];
    char buf[160];
    fp_to_limbs(l, a);
    return json_string(limbs_to_decimal(buf, sizeof buf, l, FP_LIMBS));
}

static json_t *fr_json(const fr_t *a)
{
    uint64_t l[FR_LIMBS];
    char buf[120];
    fr_to_limbs(l, a);
    return json_string(limbs_to_decimal(buf, sizeof buf, l, FR_LIMBS));
}

static json_t *g1_json(const g1_affine_t *p)
{
    if (g1_affine_is_infinity(p))
        return json_pack("[sss]", "0", "1", "0");
    return json_pack("[oos]", fp_json(&p->x), fp_json(&p->y), "1");
}

static json_t *fp2_json(const fp2_t *a)
{
    return json_pack("[oo]", fp_json(&a->c0), fp_json(&a->c1));
}

static json_t *g2_json(const g2_affine_t *p)
{
    if (g2_affine_is_infinity(p))
        return json_pack("[[ss][ss][ss]]", "0", "0", "1", "0", "0", "0");
    return json_pack("[oo[ss]]", fp2_json(&p->x), fp2_json(&p->y), "1", "0");
}

static json_t *fp6_json(const fp6_t *a)
{
    return json_pack("[ooo]", fp2_json(&a->c0), fp2_json(&a->c1), fp2_json(&a->c2));
}

/* cuzk_write_atomic callback: the json_t ctx, indented one space, and a final newline. */
static int emit_json(FILE *f, const void *ctx)
{
    if (json_dumpf(ctx, f, JSON_INDENT(1)) != 0 || fputc('\n', f) == EOF)
        return errno ? errno : EIO;
    return 0;
}

/* Write j to path atomically; steals j (NULL: a failed json_pack, reported as NOMEM). */
static cuzk_status write_json(const char *path, json_t *j, cuzk_error *err)
{
    if (!j)
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory building JSON", path);
    cuzk_status st = cuzk_write_atomic(path, emit_json, j, err);
    json_decref(j);
    return st;
}

static json_t *proof_json(const groth16_proof_t *proof)
{
    return json_pack("{s:o, s:o, s:o, s:s, s:s}", "pi_a", g1_json(&proof->a), "pi_b", g2_json(&proof->b), "pi_c",
                     g1_json(&proof->c), "protocol", "groth16", "curve", "bls12381");
}

static json_t *public_json(const fr_t *inputs, size_t n)
{
    json_t *a = json_array();
    for (size_t i = 0; a && i < n; i++)
        json_array_append_new(a, fr_json(&inputs[i]));
    return a;
}

cuzk_status snarkjs_write_proof(const char *path, const groth16_proof_t *proof, cuzk_error *err)
{
    return write_json(path, proof_json(proof), err);
}

cuzk_status snarkjs_write_public(const char *path, const fr_t *inputs, size_t n, cuzk_error *err)
{
    return write_json(path, public_json(inputs, n), err);
}

cuzk_status snarkjs_write_proof_and_public(const char *proof_path, const groth16_proof_t *proof,
                                           const char *public_path, const fr_t *inputs, size_t n, cuzk_error *err)
{
    if (cuzk_same_file(proof_path, public_path))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: the proof and the public inputs would go to the same file",
                         proof_path);
    json_t *pj = proof_json(proof), *uj = public_json(inputs, n);
    cuzk_staged_file a, b;
    cuzk_status st = pj && uj ? CUZK_OK : cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory building JSON", proof_path);
    if (!st)
        st = cuzk_write_stage(&a, proof_path, emit_json, pj, err);
    if (!st) {
        st = cuzk_write_stage(&b, public_path, emit_json, uj, err);
        if (st)
            cuzk_write_abort(&a);
    }
    if (!st) {
        st = cuzk_write_commit(&a, err);
        if (st)
            cuzk_write_abort(&b);
        else
            st = cuzk_write_commit(&b, err);
    }
    json_decref(pj);
    json_decref(uj);
    return st;
}

cuzk_status snarkjs_write_vk(const char *path, const groth16_vk_t *vk, cuzk_error *err)
{
    fp12_t ab;
    pairing(&ab, &vk->alpha_g1, &vk->beta_g2);
    json_t *ic = json_array();
    for (size_t i = 0; ic && i < vk->n_ic; i++)
        json_array_append_new(ic, g1_json(&vk->ic[i]));
    json_t *j = json_pack("{s:s, s:s, s:I, s:o, s:o, s:o, s:o, s:[oo], s:o}", "protocol", "groth16", "curve",
                          "bls12381", "nPublic", (json_int_t)(vk->n_ic - 1), "vk_alpha_1", g1_json(&vk->alpha_g1),
                          "vk_beta_2", g2_json(&vk->beta_g2), "vk_gamma_2", g2_json(&vk->gamma_g2), "vk_delta_2",
                          g2_json(&vk->delta_g2), "vk_alphabeta_12", fp6_json(&ab.c0), fp6_json(&ab.c1), "IC", ic);
    return write_json(path, j, err);
}

/* ---- reading ---- */

typedef struct {
    const char *path;
    cuzk_error *err;
} ctx_t;

static cuzk_status bad(ctx_t *c, cuzk_status code, const char *field, const char *what)
{
    return cuzk_fail(c->err, code, "%s: %s: %s", c->path, field, what);
}

static cuzk_status parse_fp(ctx_t *c, fp_t *out, json_t *j, const char *field)
{
    uint64_t l[FP_LIMBS];
    if (!json_is_string(j) || !decimal_to_limbs(l, FP_LIMBS, json_string_value(j)))
        return bad(c, CUZK_E_FORMAT, field, "expected a decimal string");
    if (fp_from_limbs(out, l) != CUZK_OK)
        return bad(c, CUZK_E_FIELD_NONCANONICAL, field, "value is not below the base field modulus p");
    return CUZK_OK;
}

static cuzk_status parse_fr(ctx_t *c, fr_t *out, json_t *j, const char *field)
{
    uint64_t l[FR_LIMBS];
    if (!json_is_string(j) || !decimal_to_limbs(l, FR_LIMBS, json_string_value(j)))
        return bad(c, CUZK_E_FORMAT, field, "expected a decimal string");
    if (fr_from_limbs(out, l) != CUZK_OK)
        return bad(c, CUZK_E_FIELD_NONCANONICAL, field, "value is not below the scalar field modulus r");
    return CUZK_OK;
}

static bool is_str(json_t *j, const char *s)
{
    return json_is_string(j) && !strcmp(json_string_value(j), s);
}

static cuzk_status parse_g1(ctx_t *c, g1_affine_t *p, json_t *j, const char *field)
{
    if (!json_is_array(j) || json_array_size(j) != 3)
        return bad(c, CUZK_E_FORMAT, field, "expected [x, y, z]");
    json_t *z = json_array_get(j, 2);
    if (is_str(z, "0")) {
        g1_affine_set_infinity(p);
        return CUZK_OK;
    }
    if (!is_str(z, "1"))
        return bad(c, CUZK_E_FORMAT, field, "z must be \"1\" (affine) or \"0\" (infinity)");
    cuzk_status st = parse_fp(c, &p->x, json_array_get(j, 0), field);
    if (!st)
        st = parse_fp(c, &p->y, json_array_get(j, 1), field);
    if (st)
        return st;
    if (!g1_affine_is_on_curve(p))
        return bad(c, CUZK_E_POINT_NOT_ON_CURVE, field, "point is not on the G1 curve");
    if (!g1_affine_in_subgroup(p))
        return bad(c, CUZK_E_POINT_NOT_IN_SUBGROUP, field, "point is not in the G1 subgroup");
    return CUZK_OK;
}

static cuzk_status parse_fp2(ctx_t *c, fp2_t *a, json_t *j, const char *field)
{
    if (!json_is_array(j) || json_array_size(j) != 2)
        return bad(c, CUZK_E_FORMAT, field, "expected an Fp2 pair [c0, c1]");
    cuzk_status st = parse_fp(c, &a->c0, json_array_get(j, 0), field);
    return st ? st : parse_fp(c, &a->c1, json_array_get(j, 1), field);
}

static cuzk_status parse_g2(ctx_t *c, g2_affine_t *p, json_t *j, const char *field)
{
    if (!json_is_array(j) || json_array_size(j) != 3)
        return bad(c, CUZK_E_FORMAT, field, "expected [[x0, x1], [y0, y1], [z0, z1]]");
    json_t *z = json_array_get(j, 2);
    if (!json_is_array(z) || json_array_size(z) != 2 || !is_str(json_array_get(z, 1), "0"))
        return bad(c, CUZK_E_FORMAT, field, "z must be [\"1\", \"0\"] or [\"0\", \"0\"]");
    if (is_str(json_array_get(z, 0), "0")) {
        g2_affine_set_infinity(p);
        return CUZK_OK;
    }
    if (!is_str(json_array_get(z, 0), "1"))
        return bad(c, CUZK_E_FORMAT, field, "z must be [\"1\", \"0\"] or [\"0\", \"0\"]");
    cuzk_status st = parse_fp2(c, &p->x, json_array_get(j, 0), field);
    if (!st)
        st = parse_fp2(c, &p->y, json_array_get(j, 1), field);
    if (st)
        return st;
    if (!g2_affine_is_on_curve(p))
        return bad(c, CUZK_E_POINT_NOT_ON_CURVE, field, "point is not on the G2 curve");
    if (!g2_affine_in_subgroup(p))
        return bad(c, CUZK_E_POINT_NOT_IN_SUBGROUP, field, "point is not in the G2 subgroup");
    return CUZK_OK;
}

/* Read and parse a JSON file: a regular file or a pipe (e.g. bash's <(cat x.json)), never
 * blocking on a FIFO without a writer (cuzk_file_read). */
static cuzk_status load(ctx_t *c, json_t **out)
{
    char *text;
    size_t len;
    *out = NULL;
    cuzk_status st = cuzk_file_read(c->path, SNARKJS_JSON_MAX_BYTES, true, &text, &len, c->err);
    if (st)
        return st;
    if (len == 0) {
        free(text);
        return cuzk_fail(c->err, CUZK_E_FORMAT, "%s: no JSON: the input is empty", c->path);
    }
    json_error_t je;
    *out = json_loadb(text, len, JSON_REJECT_DUPLICATES, &je);
    free(text);
    if (*out)
        return CUZK_OK;
    return cuzk_fail(c->err, CUZK_E_FORMAT, "%s: malformed JSON at line %d column %d: %s", c->path, je.line,
                     je.column, je.text);
}

static cuzk_status check_tags(ctx_t *c, json_t *j)
{
    json_t *p = json_object_get(j, "protocol"), *cv = json_object_get(j, "curve");
    if (p && !is_str(p, "groth16"))
        return bad(c, CUZK_E_UNSUPPORTED, "protocol", "only \"groth16\" is supported");
    if (cv && !is_str(cv, "bls12381"))
        return bad(c, CUZK_E_UNSUPPORTED, "curve", "only \"bls12381\" is supported");
    return CUZK_OK;
}

/* load() for the object files (proof, vk): the top level must be an object whose optional
 * "protocol" / "curve" tags are groth16 / bls12381. On error nothing is left to free. */
static cuzk_status load_object(ctx_t *c, json_t **out)
{
    cuzk_status st = load(c, out);
    if (st)
        return st;
    if (!json_is_object(*out))
        st = bad(c, CUZK_E_FORMAT, "(top level)", "expected an object");
    if (!st)
        st = check_tags(c, *out);
    if (st) {
        json_decref(*out);
        *out = NULL;
    }
    return st;
}

cuzk_status snarkjs_read_proof(const char *path, groth16_proof_t *proof, cuzk_error *err)
{
    ctx_t c = {path, err};
    json_t *j;
    cuzk_status st = load_object(&c, &j);
    if (st)
        return st;
    st = parse_g1(&c, &proof->a, json_object_get(j, "pi_a"), "pi_a");
    if (!st)
        st = parse_g2(&c, &proof->b, json_object_get(j, "pi_b"), "pi_b");
    if (!st)
        st = parse_g1(&c, &proof->c, json_object_get(j, "pi_c"), "pi_c");
    json_decref(j);
    return st;
}

cuzk_status snarkjs_read_public(const char *path, fr_t **inputs, size_t *n, cuzk_error *err)
{
    ctx_t c = {path, err};
    json_t *j;
    *inputs = NULL;
    *n = 0;
    cuzk_status st = load(&c, &j);
    if (st)
        return st;
    if (!json_is_array(j)) {
        json_decref(j);
        return bad(&c, CUZK_E_FORMAT, "(top level)", "expected an array of decimal strings");
    }
    size_t k = json_array_size(j);
    fr_t *v = malloc((k + 1) * sizeof *v);
    if (!v) {
        json_decref(j);
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
    }
    for (size_t i = 0; !st && i < k; i++) {
        char field[32];
        snprintf(field, sizeof field, "[%zu]", i);
        st = parse_fr(&c, &v[i], json_array_get(j, i), field);
    }
    json_decref(j);
    if (st) {
        free(v);
        return st;
    }
    *inputs = v;
    *n = k;
    return CUZK_OK;
}

cuzk_status snarkjs_read_vk(const char *path, groth16_vk_t *vk, cuzk_error *err)
{
    ctx_t c = {path, err};
    json_t *j;
    memset(vk, 0, sizeof *vk);
    cuzk_status st = load_object(&c, &j);
    if (st)
        return st;
    st = parse_g1(&c, &vk->alpha_g1, json_object_get(j, "vk_alpha_1"), "vk_alpha_1");
    if (!st)
        st = parse_g2(&c, &vk->beta_g2, json_object_get(j, "vk_beta_2"), "vk_beta_2");
    if (!st)
        st = parse_g2(&c, &vk->gamma_g2, json_object_get(j, "vk_gamma_2"), "vk_gamma_2");
    if (!st)
        st = parse_g2(&c, &vk->delta_g2, json_object_get(j, "vk_delta_2"), "vk_delta_2");
    json_t *ic = st ? NULL : json_object_get(j, "IC");
    if (!st && (!json_is_array(ic) || json_array_size(ic) == 0))
        st = bad(&c, CUZK_E_FORMAT, "IC", "expected a non-empty array of G1 points");
    json_t *np = st ? NULL : json_object_get(j, "nPublic");
    if (!st && np && (!json_is_integer(np) || (size_t)json_integer_value(np) + 1 != json_array_size(ic)))
        st = bad(&c, CUZK_E_FORMAT, "nPublic", "does not match the number of IC points minus one");
    if (!st) {
        vk->n_ic = json_array_size(ic);
        vk->ic = malloc(vk->n_ic * sizeof *vk->ic);
        if (!vk->ic)
            st = cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", path);
    }
    for (size_t i = 0; !st && i < vk->n_ic; i++) {
        char field[32];
        snprintf(field, sizeof field, "IC[%zu]", i);
        st = parse_g1(&c, &vk->ic[i], json_array_get(ic, i), field);
    }
    json_decref(j);
    if (st) {
        free(vk->ic);
        memset(vk, 0, sizeof *vk);
    }
    return st;
}
