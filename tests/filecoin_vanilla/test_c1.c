/* C1 output (SealCommitPhase1Output) readers and writers against the real 8 MiB C1
 * (shared/fixtures/porep-8MiB-c1.bincode, a C2Input::V0 wrapper; README values):
 *   - known values: registered proof 6, comm_d, comm_r, replica_id, prover_id, sector_id 1498,
 *     1 partition x 2 challenges at nodes 151786 / 237493, their DRG and expander parents from
 *     the column proofs' index fields, 2 rows per column;
 *   - real data as the oracle: every tree D path recomputes comm_d (SHA-256), every tree R
 *     path comm_r_last and every tree C path comm_c (Poseidon), Poseidon_2(comm_c,
 *     comm_r_last) = comm_r, and every labeling proof's SHA-256 label is the column row;
 *   - re-serialisation byte for byte (C2Input and bare bincode), JSON -> bincode identical,
 *     the envelope round trip, serde's compact JSON layout;
 *   - bad input: every strict prefix of the fixture, length prefixes of 2^40, non-canonical
 *     values, bad tags, ids and variants (bincode offsets); missing fields, wrong types,
 *     31-byte arrays, duplicate keys, extra partitions (JSON paths); field order and unknown
 *     keys and whitespace accepted.
 * Usage: test_fc_c1 <fixtures dir>. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/file_io.h"
#include "field/fr.h"
#include "filecoin/porep/vanilla.h"
#include "gadgets/poseidon.h"
#include "gadgets/sha256_native.h"

static const uint8_t *FIX;
static size_t FIXLEN;

static bool hex_is(const uint8_t *b, const char *hex)
{
    uint8_t want[32];
    return hex_decode(want, sizeof want, hex) == 32 && !memcmp(b, want, 32);
}

static const char *COMM_D = "65f29e5d98d246c38b388cfc06db1f6b021303c5a289000bdce832a9c3ec421c";
static const char *COMM_R = "7c990c5ee4d86658bf25a7acc38592559d6bde484b733719235bfa36ad69bd4b";
static const char *COMM_C = "01d00021aca26b8f788e89cc1c79eada64bf716c00b710270437662cb315df02";
static const char *COMM_R_LAST = "4e58431b0fbc7737b0e8e21f73f3f7861ae061c808f96a5dae23c79bfd4e715f";
static const char *REPLICA_ID = "d8e715a429fe04db59c9bed5c97464e661870a39d8adf930142576d01f58af3e";

static const uint64_t NODES[2] = {151786, 237493};
static const uint32_t DRG[2][6] = {{151785, 151785, 151785, 151740, 151616, 151785},
                                   {237492, 104173, 237492, 237480, 237298, 237475}};
static const uint32_t EXP[2][8] = {{156850, 185828, 128537, 121364, 183781, 164990, 92372, 230258},
                                   {237273, 150456, 245980, 93652, 11259, 20305, 245589, 106071}};

/* Offsets in the fixture (README layout; proof = 29,972 bytes for 8 MiB). */
enum { OFF_TAG_D = 28, OFF_CX_ROWS = 28 + 940 + 1516 + 4, OFF_COMM_R = 28 + 2 * 29972 };

static void check_column(const fc_column_proof *c, uint64_t node, const uint8_t comm_c[32], const char *what)
{
    cuzk_error err = {0};
    CHECK(c->index == node, "%s: column index %u, expected %llu", what, c->index, (unsigned long long)node);
    CHECK(c->nrows == 2, "%s: %u rows", what, c->nrows);
    CHECK(fc_merkle_proof_node(&c->proof) == node, "%s: tree C path index", what);
    CHECK(!memcmp(c->proof.root, comm_c, 32), "%s: tree C root is comm_c", what);
    CHECK(fc_merkle_proof_verify(&c->proof, MERKLE_POSEIDON, what, &err) == CUZK_OK, "%s", err.msg);
}

/* label = SHA-256(replica_id || layer u32 BE || node u64 BE || 20 zero bytes || parents), & 0x3f */
static void label_of(const uint8_t replica_id[32], const fc_labeling_proof *l, uint8_t out[32])
{
    uint8_t buf[64 + 37 * 32] = {0};
    memcpy(buf, replica_id, 32);
    for (int i = 0; i < 4; i++)
        buf[32 + i] = (uint8_t)(l->layer_index >> (24 - 8 * i));
    for (int i = 0; i < 8; i++)
        buf[36 + i] = (uint8_t)(l->node >> (56 - 8 * i));
    memcpy(buf + 64, l->parents, sizeof l->parents);
    sha256_native(buf, sizeof buf, out);
    out[31] &= 0x3f;
}

static void test_known_values(const fc_c1_output *c1)
{
    cuzk_error err = {0};
    CHECK(c1->registered_proof && c1->registered_proof->id == 6 &&
              !strcmp(c1->registered_proof->name, "StackedDrg8MiBV1_1"),
          "registered proof 6");
    CHECK(hex_is(c1->comm_d, COMM_D) && hex_is(c1->comm_r, COMM_R) && hex_is(c1->replica_id, REPLICA_ID),
          "comm_d, comm_r, replica_id");
    uint8_t prover[32] = {0xee, 0x07};
    CHECK(c1->has_sector && !memcmp(c1->prover_id, prover, 32) && c1->sector_id == 1498, "prover_id, sector_id");
    CHECK(c1->partitions == 1 && c1->challenges == 2, "1 x 2");
    uint8_t comm_c[32], comm_r_last[32];
    hex_decode(comm_c, 32, COMM_C);
    hex_decode(comm_r_last, 32, COMM_R_LAST);
    for (int i = 0; i < 2 && c1->proofs; i++) {
        const fc_porep_challenge_proof *p = &c1->proofs[i];
        char what[64];
        CHECK(p->nlabeling == 2 && p->labeling[0].node == NODES[i], "challenge %d node %llu", i,
              (unsigned long long)p->labeling[0].node);
        CHECK(fc_merkle_proof_node(&p->comm_d_proof) == NODES[i] && !memcmp(p->comm_d_proof.root, c1->comm_d, 32),
              "comm_d proof %d", i);
        CHECK(fc_merkle_proof_verify(&p->comm_d_proof, MERKLE_SHA256, "tree D", &err) == CUZK_OK, "%s", err.msg);
        CHECK(fc_merkle_proof_node(&p->comm_r_last_proof) == NODES[i] &&
                  !memcmp(p->comm_r_last_proof.root, comm_r_last, 32),
              "comm_r_last proof %d", i);
        CHECK(fc_merkle_proof_verify(&p->comm_r_last_proof, MERKLE_POSEIDON, "tree R", &err) == CUZK_OK, "%s",
              err.msg);
        snprintf(what, sizeof what, "challenge %d c_x", i);
        check_column(&p->c_x, NODES[i], comm_c, what);
        for (int k = 0; k < 6; k++) {
            snprintf(what, sizeof what, "challenge %d drg_parents[%d]", i, k);
            check_column(&p->drg[k], DRG[i][k], comm_c, what);
        }
        for (int k = 0; k < 8; k++) {
            snprintf(what, sizeof what, "challenge %d exp_parents[%d]", i, k);
            check_column(&p->exp[k], EXP[i][k], comm_c, what);
        }
        for (unsigned l = 0; l < p->nlabeling; l++) {
            uint8_t label[32];
            label_of(c1->replica_id, &p->labeling[l], label);
            CHECK(p->labeling[l].layer_index == l + 1 && !memcmp(label, p->c_x.rows[l], 32),
                  "challenge %d layer %u label = c_x row", i, l + 1);
        }
        CHECK(!memcmp(&p->encoding, &p->labeling[1], sizeof p->encoding), "encoding proof = last labeling proof");
    }
    fr_t in[2], tag, out, want;
    fr_from_bytes_le(&in[0], comm_c);
    fr_from_bytes_le(&in[1], comm_r_last);
    fr_from_bytes_le(&want, c1->comm_r);
    poseidon_tag_merkle(2, &tag);
    CHECK(poseidon_hash(2, &tag, in, &out, &err) == CUZK_OK && fr_eq(&out, &want), "Poseidon_2(comm_c, comm_r_last)");
}

static char *json_of(const fc_c1_output *c1, size_t *len)
{
    uint8_t *b = NULL;
    cuzk_error err = {0};
    CHECK(fc_c1_write(c1, FC_C1_JSON, &b, len, &err) == CUZK_OK, "write JSON: %s", err.msg);
    char *s = realloc(b, *len + 1);
    s[*len] = 0;
    return s;
}

/* Read JSON text, write C2Input bincode with the fixture's prover/sector: must be the file. */
static void json_gives_fixture(const char *json, size_t len, const char *what)
{
    fc_c1_output c1;
    cuzk_error err = {0};
    cuzk_status st = fc_c1_read(&c1, (const uint8_t *)json, len, FC_C1_JSON, true, &err);
    CHECK(st == CUZK_OK, "%s: %s", what, err.msg);
    if (st)
        return;
    CHECK(!c1.has_sector, "%s: JSON carries no sector", what);
    memcpy(c1.prover_id, FIX + FIXLEN - 40, 32);
    c1.sector_id = 1498;
    c1.has_sector = true;
    uint8_t *b;
    size_t n;
    CHECK(fc_c1_write(&c1, FC_C1_BINCODE_C2IN, &b, &n, &err) == CUZK_OK, "write: %s", err.msg);
    CHECK(n == FIXLEN && !memcmp(b, FIX, n), "%s: JSON -> bincode is the fixture", what);
    free(b);
    fc_c1_free(&c1);
}

static void test_round_trips(const fc_c1_output *c1)
{
    cuzk_error err = {0};
    uint8_t *b;
    size_t n;
    CHECK(fc_c1_write(c1, FC_C1_BINCODE_C2IN, &b, &n, &err) == CUZK_OK, "write C2Input");
    CHECK(n == FIXLEN && !memcmp(b, FIX, n), "C2Input re-serialisation is byte-identical");
    free(b);
    CHECK(fc_c1_write(c1, FC_C1_BINCODE, &b, &n, &err) == CUZK_OK, "write bare");
    CHECK(n == FIXLEN - 44 && !memcmp(b, FIX + 4, n), "bare bincode = the wrapper's c1out");
    CHECK(fc_c1_detect(b, n) == FC_C1_BINCODE && fc_c1_detect(FIX, FIXLEN) == FC_C1_BINCODE_C2IN, "detect bincode");
    fc_c1_output bare;
    CHECK(fc_c1_read(&bare, b, n, FC_C1_BINCODE, true, &err) == CUZK_OK && !bare.has_sector, "read bare: %s",
          err.msg);
    free(b);
    CHECK(fc_c1_write(&bare, FC_C1_BINCODE_C2IN, &b, &n, &err) == CUZK_E_INVALID_ARG, "C2Input needs the sector");
    fc_c1_free(&bare);

    size_t jlen;
    char *json = json_of(c1, &jlen);
    CHECK(fc_c1_detect((const uint8_t *)json, jlen) == FC_C1_JSON, "detect JSON");
    json_gives_fixture(json, jlen, "JSON");
    /* serde_json compact layout (docs/formats.md#c1-output-json) */
    static const char head[] = "{\"registered_proof\":\"StackedDrg8MiBV1_1\",\"vanilla_proofs\":{\"StackedDrg8MiBV1\":"
                               "[[{\"comm_d_proofs\":{\"data\":{\"Single\":{\"root\":[101,242,158,93,";
    CHECK(!strncmp(json, head, sizeof head - 1), "JSON head: %.160s", json);
    CHECK(strstr(json, "\"leaf\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"path\":{\"path\":[{"
                       "\"hashes\":[[") != NULL,
          "Single: root, leaf, path");
    CHECK(strstr(json, "],\"_h\":null},\"inclusion_proof\":{\"data\":{\"Single\":") != NULL, "Column with _h:null");
    CHECK(strstr(json, "],\"layer_index\":1,\"node\":151786},{\"parents\":[") != NULL, "labeling proofs");
    CHECK(strstr(json, "],\"layer_index\":2,\"node\":151786}},{\"comm_d_proofs\"") != NULL, "encoding proof, no _h");
    CHECK(strstr(json, "\"_h\":null}},") == NULL && !strchr(json, ' ') && !strchr(json, '\n'), "compact");
    CHECK(strstr(json, "]]},\"comm_r\":[124,153,") != NULL && strstr(json, ",\"ticket\":[") != NULL, "top-level order");

    /* JSON read back and written again: identical text */
    fc_c1_output back;
    CHECK(fc_c1_read(&back, (const uint8_t *)json, jlen, FC_C1_JSON, false, &err) == CUZK_OK, "JSON read: %s",
          err.msg);
    size_t j2len;
    char *j2 = json_of(&back, &j2len);
    CHECK(j2len == jlen && !memcmp(j2, json, jlen), "JSON -> read -> JSON is identical");
    free(j2);

    /* envelope */
    back.sector_id = 1498;
    CHECK(fc_c1_write(&back, FC_C1_ENVELOPE, &b, &n, &err) == CUZK_OK, "write envelope");
    CHECK(n > 30 && !memcmp(b, "{\"SectorNum\":1498,\"Phase1Out\":\"eyJyZWdpc3RlcmVkX3Byb29mIjoi", 59) &&
              !memcmp(b + n - 23, "\",\"SectorSize\":8388608}", 23),
          "envelope layout: %.60s", (const char *)b);
    CHECK(fc_c1_detect(b, n) == FC_C1_ENVELOPE, "detect envelope");
    fc_c1_output env;
    CHECK(fc_c1_read(&env, b, n, FC_C1_JSON, true, &err) == CUZK_OK, "envelope read: %s", err.msg);
    CHECK(env.sector_id == 1498 && !env.has_sector, "envelope sector number");
    uint8_t *b2;
    size_t n2;
    CHECK(fc_c1_write(&env, FC_C1_BINCODE, &b2, &n2, &err) == CUZK_OK && n2 == FIXLEN - 44 &&
              !memcmp(b2, FIX + 4, n2),
          "envelope -> bare bincode is the fixture's");
    free(b2);
    fc_c1_free(&env);
    /* a SectorSize that is not the registered proof's */
    char *e2 = malloc(n + 1);
    memcpy(e2, b, n);
    e2[n] = 0;
    memcpy(strstr(e2, "8388608}"), "8388609}", 8);
    CHECK(fc_c1_read(&env, (uint8_t *)e2, n, FC_C1_ENVELOPE, false, &err) == CUZK_E_FORMAT &&
              strstr(err.msg, "$.SectorSize"),
          "wrong SectorSize: %s", err.msg);
    /* a bad base64 character */
    memcpy(e2, b, n);
    e2[40] = '*';
    CHECK(fc_c1_read(&env, (uint8_t *)e2, n, FC_C1_ENVELOPE, false, &err) == CUZK_E_FORMAT &&
              strstr(err.msg, "$.Phase1Out") && strstr(err.msg, "at character 9"),
          "bad base64: %s", err.msg);
    free(e2);
    free(b);
    fc_c1_free(&back);
    free(json);
}

/* JSON text with `from` (first occurrence after `after`) replaced by `to`. */
static char *edit(const char *json, const char *after, const char *from, const char *to)
{
    const char *a = after ? strstr(json, after) : json;
    const char *f = a ? strstr(a, from) : NULL;
    if (!f)
        return NULL;
    size_t n = strlen(json), nf = strlen(from), nt = strlen(to);
    char *out = malloc(n - nf + nt + 1);
    memcpy(out, json, (size_t)(f - json));
    memcpy(out + (f - json), to, nt);
    strcpy(out + (f - json) + nt, f + nf);
    return out;
}

static void expect_json(const char *json, cuzk_status code, const char *path, const char *frag, const char *what)
{
    CHECK(json != NULL, "%s: edit failed", what);
    if (!json)
        return;
    fc_c1_output c1;
    cuzk_error err = {0};
    cuzk_status st = fc_c1_read(&c1, (const uint8_t *)json, strlen(json), FC_C1_JSON, false, &err);
    if (code == CUZK_OK) {
        CHECK(st == CUZK_OK, "%s: %s", what, err.msg);
        if (!st)
            json_gives_fixture(json, strlen(json), what);
        fc_c1_free(&c1);
        return;
    }
    char want[600] = "";
    if (path)
        snprintf(want, sizeof want, "%s: ", path);
    CHECK(st == code && strstr(err.msg, want) && (!frag || strstr(err.msg, frag)),
          "%s: got %s '%s', expected %s at '%s' with '%s'", what, cuzk_status_name(st), err.msg,
          cuzk_status_name(code), path, frag ? frag : "");
    CHECK(c1.proofs == NULL && c1.registered_proof == NULL, "%s: refused output is zeroed", what);
}

static void test_json_errors(const fc_c1_output *c1)
{
    size_t jlen;
    char *json = json_of(c1, &jlen);
    char *e;

    /* missing fields */
    expect_json(e = edit(json, NULL, ",\"seed\":", ",\"xseed\":"), CUZK_E_FORMAT, "$", "missing field \"seed\"",
                "missing seed");
    free(e);
    expect_json(e = edit(json, NULL, "\"layer_index\":1,", ""), CUZK_E_FORMAT,
                "$.vanilla_proofs.StackedDrg8MiBV1[0][0].labeling_proofs[0]", "missing field \"layer_index\"",
                "missing layer_index");
    free(e);
    /* wrong types */
    expect_json(e = edit(json, NULL, "\"layer_index\":1,", "\"layer_index\":\"1\","), CUZK_E_FORMAT,
                "$.vanilla_proofs.StackedDrg8MiBV1[0][0].labeling_proofs[0].layer_index",
                "expected an unsigned integer, found a string", "string layer_index");
    free(e);
    expect_json(e = edit(json, NULL, "\"index\":1", "\"index\":1.0"), CUZK_E_FORMAT, NULL, "fraction", "1.0 index");
    free(e);
    expect_json(e = edit(json, NULL, "\"comm_r\":[", "\"comm_r\":{\"a\":["), CUZK_E_FORMAT, "$.comm_r",
                "expected an array of 32 integers 0..255, found an object", "object for comm_r");
    free(e);
    /* a 31-byte array: drop the first element of the first tree D sibling */
    const char *h = strstr(json, "\"hashes\":[[") + 11;
    const char *comma = strchr(h, ',');
    char *cut = malloc(jlen + 1);
    memcpy(cut, json, (size_t)(h - json));
    strcpy(cut + (h - json), comma + 1);
    expect_json(cut, CUZK_E_FORMAT, "$.vanilla_proofs.StackedDrg8MiBV1[0][0].comm_d_proofs.data.Single.path.path[0].hashes[0]",
                "got 31 elements", "31-byte array");
    free(cut);
    /* 256 in a byte array */
    expect_json(e = edit(json, ",\"ticket\":[", "[", "[256,"), CUZK_E_FORMAT, "$.ticket", "larger than 255",
                "256 in ticket");
    free(e);
    /* a non-canonical value deep inside: the path the brief names */
    {
        fc_c1_output bad;
        cuzk_error err = {0};
        fc_c1_read(&bad, FIX, FIXLEN, FC_C1_BINCODE_C2IN, false, &err);
        fc_merkle_proof *mp = &bad.proofs[1].drg[3].proof;
        memset(mp->sib[2 * 7 + 5], 0xff, 32);
        size_t blen;
        char *bj = json_of(&bad, &blen);
        expect_json(bj, CUZK_E_FIELD_NONCANONICAL,
                    "$.vanilla_proofs.StackedDrg8MiBV1[0][1].replica_column_proofs.drg_parents[3].inclusion_proof.data."
                    "Single.path.path[2].hashes[5]",
                    "not a canonical field element", "non-canonical sibling");
        free(bj);
        /* the seed is raw bytes: 0xff.. is accepted */
        memset(bad.proofs[1].drg[3].proof.sib[2 * 7 + 5], 0, 32);
        memset(bad.seed, 0xff, 32);
        bj = json_of(&bad, &blen);
        fc_c1_output ok;
        CHECK(fc_c1_read(&ok, (uint8_t *)bj, blen, FC_C1_JSON, false, &err) == CUZK_OK, "raw seed: %s", err.msg);
        fc_c1_free(&ok);
        free(bj);
        fc_c1_free(&bad);
    }
    /* variants and ids */
    expect_json(e = edit(json, NULL, "{\"StackedDrg8MiBV1\":", "{\"StackedDrg2KiBV1\":"), CUZK_E_UNSUPPORTED,
                "$.vanilla_proofs", "does not match registered proof StackedDrg8MiBV1_1", "2KiB variant");
    free(e);
    expect_json(e = edit(json, NULL, "StackedDrg8MiBV1_1", "StackedDrg8MiBV9"), CUZK_E_UNSUPPORTED,
                "$.registered_proof", "unknown RegisteredSealProof", "unknown registered proof");
    free(e);
    expect_json(e = edit(json, NULL, "{\"Single\":{\"root\"", "{\"Sub\":{\"root\""), CUZK_E_FORMAT,
                "$.vanilla_proofs.StackedDrg8MiBV1[0][0].comm_d_proofs.data",
                "MerkleProof variant \"Sub\", expected \"Single\"", "Sub for tree D");
    free(e);
    /* duplicate key, an extra partition, an extra challenge */
    expect_json(e = edit(json, NULL, "\"comm_r\":", "\"comm_d\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,0,"
                                                  "0,0,0,0,0,0],\"comm_r\":"),
                CUZK_E_FORMAT, "$.comm_d", "duplicate field", "duplicate comm_d");
    free(e);
    expect_json(e = edit(json, NULL, "]]},\"comm_r\"", "],[]]},\"comm_r\""), CUZK_E_FORMAT, "$.vanilla_proofs.StackedDrg8MiBV1[1]",
                "more than 1 partitions", "second partition");
    free(e);
    expect_json(e = edit(json, NULL, "]]},\"comm_r\"", ",{}]]},\"comm_r\""), CUZK_E_FORMAT,
                "$.vanilla_proofs.StackedDrg8MiBV1[0][2]", "more than 2 challenge proofs", "third challenge");
    free(e);
    expect_json(e = edit(json, NULL, "]]},\"comm_r\"", "]]}}"), CUZK_E_FORMAT, "$", "missing field \"comm_r\"",
                "object closed early");
    free(e);
    /* accepted: reordered fields, unknown keys, whitespace */
    {
        const char *v = strstr(json, "\"vanilla_proofs\"");
        size_t head = (size_t)(v - json); /* {"registered_proof":"...", */
        char *r = malloc(jlen + 64);
        strcpy(r, "{");
        strcat(r, v);
        r[strlen(r) - 1] = ',';
        strncat(r, json + 1, head - 2);
        strcat(r, ",\"extra\":{\"a\":[1,-2.5e3,true,null,\"x\\u00e9\\\"\"]}}");
        expect_json(r, CUZK_OK, NULL, NULL, "registered_proof last, unknown key");
        free(r);
    }
    {
        char *sp = malloc(2 * jlen + 1);
        size_t w = 0;
        for (size_t i = 0; i < jlen; i++) {
            sp[w++] = json[i];
            if (json[i] == ',' || json[i] == ':' || json[i] == '{')
                sp[w++] = i % 3 ? ' ' : '\n';
        }
        sp[w] = 0;
        expect_json(sp, CUZK_OK, NULL, NULL, "whitespace");
        free(sp);
    }
    expect_json(e = edit(json, NULL, "\"_h\":null", "\"_h\":null,\"extra\":[]"), CUZK_OK, NULL, NULL, "extra in column");
    free(e);
    expect_json(e = edit(json, NULL, "\"comm_r\":", "\"\\u0063omm_r\":"), CUZK_OK, NULL, NULL, "escaped key");
    free(e);
    {
        /* an unknown value nested 200 deep: refused at serde_json's depth limit (128) */
        char *deep = malloc(jlen + 512);
        strcpy(deep, "{\"x\":");
        for (int i = 0; i < 200; i++)
            strcat(deep, "[");
        for (int i = 0; i < 200; i++)
            strcat(deep, "]");
        strcat(deep, ",");
        strcat(deep, json + 1);
        expect_json(deep, CUZK_E_FORMAT, "$", "nesting deeper than 128", "deep nesting");
        free(deep);
    }
    /* sampled strict prefixes of the JSON text */
    unsigned bad = 0, tried = 0;
    for (size_t n = 0; n < jlen; n += n < 4096 ? 1 : 97) {
        fc_c1_output c;
        cuzk_error err = {0};
        tried++;
        if (fc_c1_read(&c, (const uint8_t *)json, n, FC_C1_JSON, false, &err) != CUZK_E_FORMAT ||
            !strstr(err.msg, "byte offset") || c.proofs) {
            if (bad++ < 5)
                CHECK(0, "JSON prefix %zu: '%s'", n, err.msg);
        }
    }
    CHECK(bad == 0, "%u of %u JSON prefixes not refused", bad, tried);
    free(json);
}

static void expect_bin(size_t at, const void *patch, size_t plen, cuzk_status code, const char *frag1,
                       const char *frag2)
{
    uint8_t *b = malloc(FIXLEN);
    memcpy(b, FIX, FIXLEN);
    memcpy(b + at, patch, plen);
    fc_c1_output c1;
    cuzk_error err = {0};
    cuzk_status st = fc_c1_read(&c1, b, FIXLEN, FC_C1_BINCODE_C2IN, false, &err);
    CHECK(st == code && (!frag1 || strstr(err.msg, frag1)) && (!frag2 || strstr(err.msg, frag2)),
          "patch at %zu: got %s '%s', expected %s '%s'", at, cuzk_status_name(st), err.msg, cuzk_status_name(code),
          frag1 ? frag1 : "");
    if (st == CUZK_OK)
        fc_c1_free(&c1);
    else
        CHECK(c1.proofs == NULL, "refused output is zeroed");
    free(b);
}

static void test_bincode_errors(void)
{
    unsigned bad = 0;
    for (size_t n = 0; n < FIXLEN; n++) {
        fc_c1_output c1;
        cuzk_error err = {0};
        cuzk_status st = fc_c1_read(&c1, FIX, n, FC_C1_BINCODE_C2IN, false, &err);
        if (st != CUZK_E_FORMAT || !strstr(err.msg, "byte offset") || c1.proofs) {
            if (bad++ < 5)
                CHECK(0, "prefix %zu: %s '%s'", n, cuzk_status_name(st), err.msg);
        }
    }
    CHECK(bad == 0, "%u of %zu bincode prefixes not refused with FORMAT", bad, FIXLEN);
    uint8_t big[8] = {0, 0, 0, 0, 0, 1, 0, 0}; /* 2^40 */
    uint8_t ff[32], five[4] = {5}, one[4] = {1}, id99[4] = {99}, var3[4] = {3};
    memset(ff, 0xff, sizeof ff);
    expect_bin(12, big, 8, CUZK_E_FORMAT, "vanilla_proofs.StackedDrg8MiBV1 at byte offset 12",
               "Vec length 1099511627776, expected 1");
    expect_bin(20, big, 8, CUZK_E_FORMAT, "StackedDrg8MiBV1[0] at byte offset 20", "1099511627776");
    expect_bin(OFF_CX_ROWS, big, 8, CUZK_E_FORMAT, "[0][0].replica_column_proofs.c_x.column.rows at byte offset 2488",
               "expected 2");
    expect_bin(OFF_COMM_R, ff, 32, CUZK_E_FIELD_NONCANONICAL, "comm_r at byte offset 59972", "canonical");
    expect_bin(OFF_COMM_R + 64, ff, 32, CUZK_E_FIELD_NONCANONICAL, "replica_id at byte offset 60036", NULL);
    expect_bin(OFF_COMM_R + 96, ff, 32, CUZK_OK, NULL, NULL);  /* seed: raw bytes */
    expect_bin(OFF_COMM_R + 128, ff, 32, CUZK_OK, NULL, NULL); /* ticket: raw bytes */
    expect_bin(OFF_TAG_D + 4, ff, 32, CUZK_E_FIELD_NONCANONICAL,
               "[0][0].comm_d_proofs.data.Single.root at byte offset 32", NULL);
    expect_bin(OFF_TAG_D, five, 4, CUZK_E_FORMAT, "comm_d_proofs.data at byte offset 28", "MerkleProof tag 5");
    expect_bin(OFF_TAG_D, one, 4, CUZK_E_FORMAT, "byte offset 28", "tag 1 (Sub), expected 0 (Single)");
    expect_bin(4, id99, 4, CUZK_E_UNSUPPORTED, "registered_proof at byte offset 4", "unknown RegisteredSealProof 99");
    expect_bin(8, var3, 4, CUZK_E_UNSUPPORTED, "byte offset 8", "does not match registered proof StackedDrg8MiBV1_1");
    expect_bin(0, one, 4, CUZK_E_FORMAT, "byte offset 0", "C2Input variant 1");
}

/* Auto-detection first, then the detected form's reader names the form (issue 21): a
 * C2Input with a bad vanilla variant at offset 8 is a C2Input (not a bare output at offset
 * 4), a JSON array is JSON (not bincode), "{not json" is not null. */
static void test_detect_errors(void)
{
    uint8_t *b = malloc(FIXLEN);
    memcpy(b, FIX, FIXLEN);
    uint8_t var3[4] = {3};
    memcpy(b + 8, var3, 4);
    fc_c1_output c1;
    cuzk_error err = {0};
    CHECK(fc_c1_detect(b, FIXLEN) == FC_C1_BINCODE_C2IN, "C2Input with a bad variant detected as C2Input");
    cuzk_status st = fc_c1_read(&c1, b, FIXLEN, FC_C1_JSON, true, &err);
    CHECK(st == CUZK_E_UNSUPPORTED && strstr(err.msg, "C1 bincode (C2Input)") && strstr(err.msg, "byte offset 8") &&
              strstr(err.msg, "VanillaSealProof variant 3"),
          "C2Input bad variant: %s '%s'", cuzk_status_name(st), err.msg);
    free(b);
    /* a bare 2 KiB V1 output starts 0 (registered proof), its variant, its partition count */
    const fc_seal_proof *p0;
    CHECK(fc_seal_proof_get(0, &p0, NULL) == CUZK_OK, "registered proof 0");
    uint8_t bare[12] = {0};
    bare[4] = (uint8_t)p0->shape->size;
    bare[8] = (uint8_t)p0->partitions;
    CHECK(fc_c1_detect(bare, sizeof bare) == FC_C1_BINCODE, "a bare 2 KiB V1 output stays bare");
    static const struct {
        const char *in, *want1, *want2;
    } T[] = {
        {"[1,2,3]", "C1 JSON: $", "expected an object"},
        {"  [\"a\"]", "C1 JSON: $", "expected an object"},
        {"{not json", "C1 JSON: $", "found 'n'"},
        {"{\"registered_proof\": nul}", "C1 JSON: $.registered_proof", "found 'n'"},
    };
    for (size_t i = 0; i < sizeof T / sizeof T[0]; i++) {
        memset(&err, 0, sizeof err);
        st = fc_c1_read(&c1, (const uint8_t *)T[i].in, strlen(T[i].in), FC_C1_BINCODE, true, &err);
        CHECK(st == CUZK_E_FORMAT && strstr(err.msg, T[i].want1) && strstr(err.msg, T[i].want2),
              "'%s': %s '%s' (want '%s' ... '%s')", T[i].in, cuzk_status_name(st), err.msg, T[i].want1, T[i].want2);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: test_fc_c1 <fixtures dir>\n");
        return 2;
    }
    char path[4096];
    cuzk_error err = {0};
    cuzk_mapped_file f = {0};
    snprintf(path, sizeof path, "%s/porep-8MiB-c1.bincode", argv[1]);
    CHECK(cuzk_file_map(&f, path, &err) == CUZK_OK, "%s", err.msg);
    if (!f.data)
        return check_summary("filecoin C1 vanilla");
    FIX = f.data;
    FIXLEN = f.len;
    CHECK(FIXLEN == 60172, "fixture size %zu", FIXLEN);
    fc_c1_output c1;
    cuzk_status st = fc_c1_read(&c1, FIX, FIXLEN, FC_C1_JSON, true, &err);
    CHECK(st == CUZK_OK, "read C2Input: %s", err.msg);
    if (st == CUZK_OK) {
        CHECK(fc_c1_check_shape(&c1, &err) == CUZK_OK, "shape: %s", err.msg);
        test_known_values(&c1);
        test_round_trips(&c1);
        test_json_errors(&c1);
        test_detect_errors();
        fc_c1_free(&c1);
    }
    test_bincode_errors();
    cuzk_file_unmap(&f);
    return check_summary("filecoin C1 vanilla");
}
