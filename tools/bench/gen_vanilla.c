/* cuzk-bench gen-vanilla: make Filecoin vanilla proofs by sealing a small sector here (2 KiB,
 * 8 MiB, 512 MiB) or, for 32 / 64 GiB (or with --synthetic-fixture), from the sparse
 * fixtures of docs/fixtures.md (src/filecoin/core/seal). Every output is self-checked
 * (fc_c1_validate; the daemon's PoSt partition assembly; fc_snap_partition_check) and round-tripped through its reader before it is written; one JSON summary
 * line goes to stdout, progress to stderr. Exit 0 on success, 1 when a self-check fails, 2 on
 * bad usage or any other failure. Defaults reproduce the worked example of
 * docs/vectors.md#worked-2-kib-example (miner 1000, sector 1, ticket 32 x 01, seed 32 x 02,
 * randomness 32 x 03 with byte 31 & 0x3f, SnapDeals data 0x01 bytes). */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench.h"
#include "common/file_io.h"
#include "common/hex.h"
#include "filecoin/porep/vanilla.h"
#include "filecoin/post/vanilla.h"
#include "filecoin/snap/vanilla.h"
#include "filecoin/core/vanilla.h"
#include "filecoin/porep/porep.h"
#include "filecoin/post/post.h"
#include "filecoin/testkit/c1_gen.h"
#include "filecoin/testkit/fixtures.h"
#include "filecoin/testkit/fr32.h"
#include "filecoin/testkit/post_gen.h"
#include "filecoin/testkit/seal.h"
#include "filecoin/testkit/snap_gen.h"
#include "gadgets/sha256_native.h"

static const char USAGE[] =
    "usage: cuzk-bench gen-vanilla porep|window-post|winning-post|snap [options]\n"
    "  --registered-proof ID    RegisteredSealProof (porep, 0-19 or name), RegisteredPoStProof\n"
    "                           (window-post 5-14, winning-post 0-4) or RegisteredUpdateProof (snap 0-4)\n"
    "  --seal-proof ID          the seal proof sectors are sealed with (post, snap; default the\n"
    "                           V1_1 proof of the size)\n"
    "  --miner ACTOR            miner actor id -> prover_id (default 1000)\n"
    "  --prover-id HEX          or the 32-byte prover_id itself\n"
    "  --sector N               sector number (porep, snap; default 1)\n"
    "  --sectors N,A-B,...      sector numbers (post; default 1), one proof each, in partition\n"
    "                           order (WindowPoSt: at most the partition's sector count)\n"
    "  --ticket HEX             32 bytes (default 32 x 01)\n"
    "  --seed HEX               interactive seed (porep; default 32 x 02)\n"
    "  --randomness HEX         PoSt randomness (default 32 x 03 with byte 31 & 0x3f; must be canonical)\n"
    "  --partition K            PoSt partition of the sectors (API 1.0 challenge index; default 0);\n"
    "                           snap: write only partition K (default all)\n"
    "  --data FILE | --cc       unpadded sector data (porep, post; default --cc); snap: the new data\n"
    "                           (default 0x01 bytes filling the sector)\n"
    "  --format F               porep: json (default), bincode, c2input, envelope; post and snap:\n"
    "                           bincode (one proof) or blobs (JSON array of base64, the default\n"
    "                           for several proofs)\n"
    "  -o FILE                  write the proof(s) there (replaced atomically); else summary only\n"
    "  --threads N              threads for sealing (default: online CPUs)\n"
    "  --tmpdir DIR             keep sealing state in temporary files there (default: memory up\n"
    "                           to 8 MiB, $TMPDIR or /tmp for 512 MiB)\n"
    "  --synthetic-fixture      sparse fixture instead of sealing (always for 32 / 64 GiB);\n"
    "                           porep: interactive proofs only\n";

#define MAX_SECTORS 2349u /* the largest WindowPoSt partition (32 GiB) */

typedef struct {
    const char *kind;
    const char *proof_arg, *seal_arg;
    uint8_t prover_id[32];
    uint64_t miner; /* actor id of prover_id (0 if it is not one) */
    uint64_t sectors[MAX_SECTORS];
    size_t nsectors;
    uint8_t ticket[32], seed[32], randomness[32];
    long partition; /* -1: unset */
    const char *data_path;
    const char *format, *out, *tmpdir;
    unsigned threads;
    bool sparse;
} opts;

/* ,"name":"hex" into the summary. */
static void jhex(FILE *js, const char *name, const uint8_t b[32])
{
    char h[65];
    cuzk_hex(h, b, 32);
    fprintf(js, ",\"%s\":\"%s\"", name, h);
}

static bool parse_u64(const char *s, uint64_t *out)
{
    char *end;
    errno = 0;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno || end == s || *end || *s == '-')
        return false;
    *out = v;
    return true;
}

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "cuzk-bench gen-vanilla: ");
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\n%s", USAGE);
    return 2;
}

static int fail(const char *what, const cuzk_error *err)
{
    fprintf(stderr, "cuzk-bench gen-vanilla: %s: %s\n", what, err->msg);
    return err->code == CUZK_E_VERIFY_FAILED ? 1 : 2;
}

static int parse(opts *o, int argc, char **argv)
{
    memset(o, 0, sizeof *o);
    o->kind = argv[1];
    o->miner = 1000;
    fc_prover_id_from_actor(o->miner, o->prover_id);
    o->sectors[0] = 1;
    o->nsectors = 1;
    memset(o->ticket, 1, 32);
    memset(o->seed, 2, 32);
    memset(o->randomness, 3, 32);
    o->randomness[31] &= 0x3f;
    o->partition = -1;
    long t = sysconf(_SC_NPROCESSORS_ONLN);
    o->threads = t > 0 ? (unsigned)t : 1;
    for (int i = 2; i < argc; i++) {
        const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : NULL;
        uint64_t n;
        if (!strcmp(a, "--help") || !strcmp(a, "-h")) {
            fputs(USAGE, stdout);
            return 0;
        } else if (!strcmp(a, "--cc")) {
            o->data_path = NULL;
            continue;
        } else if (!strcmp(a, "--synthetic-fixture")) {
            o->sparse = true;
            continue;
        }
        if (!v)
            return usage_error("%s needs a value", a);
        i++;
        if (!strcmp(a, "--registered-proof"))
            o->proof_arg = v;
        else if (!strcmp(a, "--seal-proof"))
            o->seal_arg = v;
        else if (!strcmp(a, "--miner")) {
            if (!parse_u64(v, &n))
                return usage_error("--miner wants an actor id, got '%s'", v);
            o->miner = n;
            fc_prover_id_from_actor(n, o->prover_id);
        } else if (!strcmp(a, "--prover-id")) {
            if (!cuzk_unhex(o->prover_id, v, 32))
                return usage_error("--prover-id wants 64 hex digits, got '%s'", v);
            if (fc_actor_from_prover_id(o->prover_id, &o->miner, NULL) != CUZK_OK)
                o->miner = 0;
        } else if (!strcmp(a, "--sector")) {
            if (!parse_u64(v, &o->sectors[0]))
                return usage_error("--sector wants a number, got '%s'", v);
            o->nsectors = 1;
        } else if (!strcmp(a, "--sectors")) {
            o->nsectors = 0;
            char buf[32768];
            snprintf(buf, sizeof buf, "%s", v);
            for (char *save, *tok = strtok_r(buf, ",", &save); tok; tok = strtok_r(NULL, ",", &save)) {
                char *dash = strchr(tok, '-');
                uint64_t hi;
                if (dash)
                    *dash = 0;
                if (!parse_u64(tok, &n) || !parse_u64(dash ? dash + 1 : tok, &hi) || hi < n ||
                    hi - n >= MAX_SECTORS - o->nsectors)
                    return usage_error("--sectors wants up to 2,349 numbers N or ranges A-B, comma-separated: '%s'", v);
                for (; n <= hi; n++)
                    o->sectors[o->nsectors++] = n;
            }
            if (!o->nsectors)
                return usage_error("--sectors is empty: '%s'", v);
        } else if (!strcmp(a, "--ticket")) {
            if (!cuzk_unhex(o->ticket, v, 32))
                return usage_error("--ticket wants 64 hex digits, got '%s'", v);
        } else if (!strcmp(a, "--seed")) {
            if (!cuzk_unhex(o->seed, v, 32))
                return usage_error("--seed wants 64 hex digits, got '%s'", v);
        } else if (!strcmp(a, "--randomness")) {
            if (!cuzk_unhex(o->randomness, v, 32))
                return usage_error("--randomness wants 64 hex digits, got '%s'", v);
        } else if (!strcmp(a, "--partition")) {
            if (!parse_u64(v, &n) || n > 255)
                return usage_error("--partition wants 0..255, got '%s'", v);
            o->partition = (long)n;
        } else if (!strcmp(a, "--data"))
            o->data_path = v;
        else if (!strcmp(a, "--format"))
            o->format = v;
        else if (!strcmp(a, "-o") || !strcmp(a, "--out"))
            o->out = v;
        else if (!strcmp(a, "--tmpdir"))
            o->tmpdir = v;
        else if (!strcmp(a, "--threads")) {
            if (!parse_u64(v, &n) || n < 1 || n > 1024)
                return usage_error("--threads wants 1..1024, got '%s'", v);
            o->threads = (unsigned)n;
        } else
            return usage_error("unexpected argument '%s'", a);
    }
    if (!o->proof_arg)
        return usage_error("%s--registered-proof is required", "");
    return -1;
}

/* A registered proof by number or name; kind 0 seal, 1 PoSt, 2 update. */
static cuzk_status lookup(int kind, const char *arg, const void **out, cuzk_error *err)
{
    uint64_t id;
    if (!parse_u64(arg, &id)) {
        if (kind == 0)
            return fc_seal_proof_by_name(arg, (const fc_seal_proof **)out, err);
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "'%s' is not a registered proof number", arg);
    }
    if (kind == 0)
        return fc_seal_proof_get(id, (const fc_seal_proof **)out, err);
    if (kind == 1)
        return fc_post_proof_get(id, (const fc_post_proof **)out, err);
    return fc_snap_proof_get(id, (const fc_snap_proof **)out, err);
}

/* The seal proof for post/snap: --seal-proof, else V1_1 (ids 5-9) of the size. */
static cuzk_status seal_proof_for(const opts *o, const fc_sector_shape *sh, const fc_seal_proof **out, cuzk_error *err)
{
    cuzk_status st = o->seal_arg ? lookup(0, o->seal_arg, (const void **)out, err)
                                 : fc_seal_proof_get(5 + (unsigned)sh->size, out, err);
    if (st == CUZK_OK && (*out)->shape != sh)
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "seal proof %s is for %s sectors, not %s", (*out)->name,
                       (*out)->shape->name, sh->name);
    return st;
}

static bool use_sparse(const opts *o, const fc_sector_shape *sh)
{
    return o->sparse || sh->size > FC_SIZE_512MIB;
}

/* A finished step on stderr when it took a second or more. */
static void step(const char *what, double seconds)
{
    if (seconds >= 1.0)
        fprintf(stderr, "gen-vanilla: %s %.2f s\n", what, seconds);
}

static void seal_progress(void *ctx, const char *phase, double seconds)
{
    if (seconds >= 1.0)
        fprintf(stderr, "gen-vanilla: sector %" PRIu64 ": %s %.2f s\n", *(const uint64_t *)ctx, phase, seconds);
}

/* Where sealing state goes: --tmpdir, else memory up to 8 MiB and $TMPDIR or /tmp above. */
static const char *state_dir(const opts *o, const fc_sector_shape *sh)
{
    if (o->tmpdir || sh->size < FC_SIZE_512MIB)
        return o->tmpdir;
    return getenv("TMPDIR") ? getenv("TMPDIR") : "/tmp";
}

static cuzk_status seal_one(const opts *o, const fc_seal_proof *p, uint64_t sector_id, fc_sector *s, double *seconds,
                            cuzk_error *err)
{
    const char *dir = state_dir(o, p->shape);
    fc_seal_params sp = {.proof = p, .sector_id = sector_id, .data_path = o->data_path, .dir = dir,
                         .threads = o->threads, .progress = seal_progress, .progress_ctx = &sector_id};
    memcpy(sp.prover_id, o->prover_id, 32);
    memcpy(sp.ticket, o->ticket, 32);
    double t0 = bench_now();
    cuzk_status st = fc_seal(s, &sp, err);
    *seconds = bench_now() - t0;
    return st;
}

/* ---- output ---- */

typedef struct {
    const uint8_t *buf;
    size_t len;
} blob;

static int emit_blob(FILE *out, const void *ctx)
{
    const blob *b = ctx;
    return fwrite(b->buf, 1, b->len, out) == b->len ? 0 : (errno ? errno : EIO);
}

/* Write buf to o->out (if any) and add output, bytes and sha256 to the summary. */
static cuzk_status write_out(const opts *o, FILE *js, const uint8_t *buf, size_t len, cuzk_error *err)
{
    blob b = {buf, len};
    if (o->out) {
        cuzk_status st = cuzk_write_atomic(o->out, emit_blob, &b, err);
        if (st != CUZK_OK)
            return st;
    }
    uint8_t sha[32];
    sha256_native(buf, len, sha);
    if (o->out)
        fprintf(js, ",\"output\":\"%s\"", o->out);
    else
        fprintf(js, ",\"output\":null");
    fprintf(js, ",\"bytes\":%zu", len);
    jhex(js, "sha256", sha);
    return CUZK_OK;
}

/* Either one bincode proof or a JSON blob list of all of them. */
static cuzk_status write_blobs(const opts *o, FILE *js, fc_blob_list *l, cuzk_error *err)
{
    const char *f = o->format ? o->format : l->n == 1 ? "bincode" : "blobs";
    if (!strcmp(f, "bincode")) {
        if (l->n != 1)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "--format bincode writes one proof, there are %zu (use blobs)",
                             l->n);
        return write_out(o, js, l->data[0], l->len[0], err);
    }
    if (strcmp(f, "blobs"))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "--format %s: bincode or blobs here", f);
    uint8_t *buf;
    size_t len;
    cuzk_status st = fc_blob_list_to_json(l, &buf, &len, err);
    if (st == CUZK_OK) {
        st = write_out(o, js, buf, len, err);
        free(buf);
    }
    return st;
}

/* Byte-compare a re-serialisation with the first one (the reader round trip). */
static cuzk_status same(const uint8_t *a, size_t alen, const uint8_t *b, size_t blen, const char *what,
                        cuzk_error *err)
{
    if (alen == blen && !memcmp(a, b, alen))
        return CUZK_OK;
    return cuzk_fail(err, CUZK_E_VERIFY_FAILED, "%s: write -> read -> write differs (%zu vs %zu bytes)", what, alen,
                     blen);
}

/* ---- porep ---- */

static cuzk_status c1_format(const char *f, fc_c1_format *out, cuzk_error *err)
{
    static const struct {
        const char *name;
        fc_c1_format f;
    } tab[] = {{"json", FC_C1_JSON}, {"bincode", FC_C1_BINCODE}, {"c2input", FC_C1_BINCODE_C2IN},
               {"envelope", FC_C1_ENVELOPE}};
    for (size_t i = 0; i < sizeof tab / sizeof tab[0]; i++)
        if (!strcmp(f, tab[i].name)) {
            *out = tab[i].f;
            return CUZK_OK;
        }
    return cuzk_fail(err, CUZK_E_INVALID_ARG, "--format %s: json, bincode, c2input or envelope", f);
}

static cuzk_status porep(const opts *o, FILE *js, cuzk_error *err)
{
    const fc_seal_proof *p;
    fc_c1_format fmt;
    cuzk_status st = lookup(0, o->proof_arg, (const void **)&p, err);
    if (st == CUZK_OK)
        st = c1_format(o->format ? o->format : "json", &fmt, err);
    if (st != CUZK_OK)
        return st;
    bool sparse = use_sparse(o, p->shape);
    if (sparse && o->data_path)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "--data: a synthetic fixture is a CC sector");
    fc_sector s = {0};
    fc_sparse_porep *sp = NULL;
    fc_porep_view v;
    double seal_s = 0, t0 = bench_now();
    if (sparse) {
        st = fc_sparse_porep_create(&sp, p, o->prover_id, o->sectors[0], o->ticket, o->seed, err);
        if (st == CUZK_OK)
            fc_sparse_porep_view(sp, &v);
        seal_s = bench_now() - t0;
        step("synthetic fixture", seal_s);
    } else {
        st = seal_one(o, p, o->sectors[0], &s, &seal_s, err);
        if (st == CUZK_OK)
            fc_sector_porep_view(&s, &v);
    }
    fc_c1_output c1 = {0}, back = {0};
    uint8_t *buf = NULL, *buf2 = NULL;
    size_t len = 0, len2 = 0;
    t0 = bench_now();
    if (st == CUZK_OK)
        st = fc_c1_generate(&v, o->seed, &c1, err);
    if (st == CUZK_OK)
        st = fc_c1_validate(&c1, err);
    if (st == CUZK_OK)
        st = fc_c1_write(&c1, fmt, &buf, &len, err);
    if (st == CUZK_OK)
        st = fc_c1_read(&back, buf, len, fmt, false, err);
    if (st == CUZK_OK)
        st = fc_c1_write(&back, fmt, &buf2, &len2, err);
    if (st == CUZK_OK)
        st = same(buf, len, buf2, len2, "C1", err);
    double c1_s = bench_now() - t0;
    step("C1, validation and reader round trip", c1_s);
    if (st == CUZK_OK) {
        fprintf(js, "{\"kind\":\"porep\",\"registered_proof\":\"%s\",\"id\":%u,\"synthetic_fixture\":%s", p->name, p->id,
                sparse ? "true" : "false");
        jhex(js, "prover_id", o->prover_id);
        fprintf(js, ",\"sector_id\":%" PRIu64, o->sectors[0]);
        jhex(js, "ticket", o->ticket);
        jhex(js, "seed", o->seed);
        jhex(js, "comm_d", v.comm_d);
        jhex(js, "comm_r", v.comm_r);
        jhex(js, "comm_c", v.comm_c);
        jhex(js, "comm_r_last", v.comm_r_last);
        jhex(js, "replica_id", v.replica_id);
        fprintf(js, ",\"challenges\":[");
        for (uint32_t k = 0; k < c1.partitions; k++) {
            fprintf(js, "%s[", k ? "," : "");
            for (uint32_t i = 0; i < c1.challenges; i++)
                fprintf(js, "%s%" PRIu64, i ? "," : "", c1.proofs[(size_t)k * c1.challenges + i].labeling[0].node);
            fprintf(js, "]");
        }
        fprintf(js, "],\"seal_seconds\":%.3f,\"c1_seconds\":%.3f,\"format\":\"%s\"", seal_s, c1_s,
                o->format ? o->format : "json");
        st = write_out(o, js, buf, len, err);
    }
    free(buf);
    free(buf2);
    fc_c1_free(&c1);
    fc_c1_free(&back);
    fc_sector_free(&s);
    fc_sparse_porep_free(sp);
    return st;
}

/* ---- PoSt ---- */

static cuzk_status post(const opts *o, bool winning, FILE *js, cuzk_error *err)
{
    const fc_post_proof *pp;
    const fc_seal_proof *seal = NULL;
    cuzk_status st = lookup(1, o->proof_arg, (const void **)&pp, err);
    if (st == CUZK_OK && pp->winning != winning)
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "%s is a %s proof, not %s", pp->name,
                       pp->winning ? "WinningPoSt" : "WindowPoSt", winning ? "WinningPoSt" : "WindowPoSt");
    bool sparse = st == CUZK_OK && use_sparse(o, pp->shape);
    if (st == CUZK_OK && sparse && o->data_path)
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "--data: a synthetic fixture has no data");
    if (st == CUZK_OK && !sparse)
        st = seal_proof_for(o, pp->shape, &seal, err);
    if (st != CUZK_OK)
        return st;
    uint32_t k = o->partition < 0 || winning ? 0 : (uint32_t)o->partition;
    if (!winning && o->nsectors > pp->sector_count)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%zu sectors: a %s partition holds at most %u", o->nsectors,
                         pp->name, pp->sector_count);
    fc_blob_list l = {0};
    l.data = calloc(o->nsectors, sizeof *l.data);
    l.len = calloc(o->nsectors, sizeof *l.len);
    fc_post_vanilla *pvs = calloc(o->nsectors, sizeof *pvs);
    if (!l.data || !l.len || !pvs) {
        free(l.data);
        free(l.len);
        free(pvs);
        return cuzk_fail(err, CUZK_E_NOMEM, "proof list");
    }
    fprintf(js, "{\"kind\":\"%s\",\"registered_proof\":\"%s\",\"id\":%u,\"synthetic_fixture\":%s",
            winning ? "winning-post" : "window-post", pp->name, pp->id, sparse ? "true" : "false");
    if (seal)
        fprintf(js, ",\"seal_proof\":\"%s\"", seal->name);
    jhex(js, "prover_id", o->prover_id);
    jhex(js, "randomness", o->randomness);
    fprintf(js, ",\"partition\":%u,\"sectors\":[", k);
    double t0 = bench_now(), last = t0;
    for (size_t i = 0; i < o->nsectors && st == CUZK_OK; i++) {
        if (bench_now() - last >= 1.0) {
            last = bench_now();
            fprintf(stderr, "gen-vanilla: %zu / %zu sectors, %.0f s\n", i, o->nsectors, last - t0);
        }
        uint32_t pos = winning ? 0 : (uint32_t)i;
        fc_sector s = {0};
        fc_sparse_post *sp = NULL;
        fc_post_sector v;
        double seal_s = 0;
        if (sparse) {
            st = fc_sparse_post_create(&sp, pp, o->randomness, k, pos, o->sectors[i], err);
            if (st == CUZK_OK)
                fc_sparse_post_view(sp, &v);
        } else {
            st = seal_one(o, seal, o->sectors[i], &s, &seal_s, err);
            if (st == CUZK_OK)
                fc_sector_post_view(&s, &v);
        }
        fc_post_vanilla *pv = &pvs[i], back = {0};
        uint8_t *buf2 = NULL;
        size_t len2 = 0;
        if (st == CUZK_OK)
            st = fc_post_generate(pp, o->randomness, k, pos, &v, pv, err);
        if (st == CUZK_OK)
            st = fc_post_vanilla_write(pv, &l.data[i], &l.len[i], err);
        if (st == CUZK_OK) {
            l.n = i + 1;
            st = fc_post_vanilla_read(&back, pp->shape, l.data[i], l.len[i], err);
        }
        if (st == CUZK_OK)
            st = fc_post_vanilla_write(&back, &buf2, &len2, err);
        if (st == CUZK_OK)
            st = same(l.data[i], l.len[i], buf2, len2, "PoSt vanilla proof", err);
        if (st == CUZK_OK) {
            fprintf(js, "%s{\"sector_id\":%" PRIu64, i ? "," : "", v.sector_id);
            jhex(js, "comm_r", v.comm_r);
            jhex(js, "comm_c", v.comm_c);
            jhex(js, "comm_r_last", v.comm_r_last);
            if (!sparse)
                jhex(js, "replica_id", s.replica_id);
            fprintf(js, ",\"challenges\":[");
            for (uint32_t n = 0; n < pv->sectors[0].ninclusion; n++)
                fprintf(js, "%s%" PRIu64, n ? "," : "", fc_merkle_proof_node(&pv->sectors[0].inclusion[n]));
            fprintf(js, "],\"seal_seconds\":%.3f}", seal_s);
        }
        free(buf2);
        fc_post_vanilla_free(&back);
        fc_sector_free(&s);
        fc_sparse_post_free(sp);
    }
    fprintf(js, "]");
    /* the daemon's partition assembly and validation: WinningPoSt one proof at a time */
    for (size_t i = 0; st == CUZK_OK && i < o->nsectors; i += winning ? 1 : o->nsectors) {
        fc_post_partition part;
        st = fc_post_partition_assemble(&part, pp, o->randomness, o->miner, k, &pvs[i],
                                        winning ? 1 : (uint32_t)o->nsectors, err);
        fc_post_partition_free(&part);
    }
    if (st == CUZK_OK)
        st = write_blobs(o, js, &l, err);
    for (size_t i = 0; i < o->nsectors; i++)
        fc_post_vanilla_free(&pvs[i]);
    free(pvs);
    fc_blob_list_free(&l);
    return st;
}

/* ---- SnapDeals ---- */

static cuzk_status snap(const opts *o, FILE *js, cuzk_error *err)
{
    const fc_snap_proof *u;
    const fc_seal_proof *seal = NULL;
    cuzk_status st = lookup(2, o->proof_arg, (const void **)&u, err);
    bool sparse = st == CUZK_OK && use_sparse(o, u->shape);
    if (st == CUZK_OK && sparse && o->data_path)
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "--data: a synthetic SnapDeals fixture's data is 32 x 01 per node");
    if (st == CUZK_OK && !sparse)
        st = seal_proof_for(o, u->shape, &seal, err);
    if (st == CUZK_OK && o->partition >= (long)u->partitions)
        st = cuzk_fail(err, CUZK_E_INVALID_ARG, "--partition %ld: %s has %u partitions", o->partition, u->name,
                       u->partitions);
    if (st != CUZK_OK)
        return st;
    fc_sector old = {0};
    fc_snap_sector ns = {0};
    fc_sparse_snap *sp = NULL;
    fc_snap_view v;
    uint8_t w[32];
    memset(w, 1, 32);
    double seal_s = 0, t0 = bench_now();
    if (sparse) {
        st = fc_sparse_snap_create(&sp, u, o->sectors[0], w, err);
        if (st == CUZK_OK)
            fc_sparse_snap_view(sp, &v);
    } else {
        opts cc = *o;
        cc.data_path = NULL; /* the sector key is a sealed CC sector */
        st = seal_one(&cc, seal, o->sectors[0], &old, &seal_s, err);
        uint64_t cap = fc_fr32_unpadded_capacity(u->shape->nodes);
        uint8_t *fill = NULL;
        if (st == CUZK_OK && !o->data_path && !(fill = malloc(cap)))
            st = cuzk_fail(err, CUZK_E_NOMEM, "new data");
        if (fill)
            memset(fill, 1, cap);
        t0 = bench_now();
        if (st == CUZK_OK)
            st = fc_snap_encode(&ns, &old, u, fill, fill ? cap : 0, o->data_path, state_dir(o, u->shape), o->threads,
                                err);
        free(fill);
        if (st == CUZK_OK)
            fc_snap_sector_view(&ns, &v);
    }
    double encode_s = bench_now() - t0;
    step(sparse ? "synthetic fixture" : "SnapDeals encoding", encode_s);
    uint32_t k0 = o->partition < 0 ? 0 : (uint32_t)o->partition, k1 = o->partition < 0 ? u->partitions : k0 + 1;
    fc_blob_list l = {0};
    l.data = calloc(u->partitions, sizeof *l.data);
    l.len = calloc(u->partitions, sizeof *l.len);
    if (st == CUZK_OK && (!l.data || !l.len))
        st = cuzk_fail(err, CUZK_E_NOMEM, "proof list");
    if (st == CUZK_OK) {
        fprintf(js, "{\"kind\":\"snap\",\"registered_proof\":\"%s\",\"id\":%u,\"synthetic_fixture\":%s", u->name, u->id,
                sparse ? "true" : "false");
        if (seal) {
            fprintf(js, ",\"seal_proof\":\"%s\"", seal->name);
            jhex(js, "prover_id", o->prover_id);
            jhex(js, "replica_id", old.replica_id);
        } else {
            jhex(js, "new_data_node", w);
        }
        fprintf(js, ",\"sector_id\":%" PRIu64, o->sectors[0]);
        jhex(js, "comm_c", v.comm_c);
        jhex(js, "comm_r_old", v.comm_r_old);
        jhex(js, "comm_d_new", v.comm_d_new);
        jhex(js, "comm_r_new", v.comm_r_new);
        uint8_t root_new[32];
        st = fc_tree_root(&v.tree_r_new, root_new, err);
        jhex(js, "root_r_new", root_new);
        fprintf(js, ",\"seal_seconds\":%.3f,\"encode_seconds\":%.3f,\"partitions\":[", seal_s, encode_s);
    }
    for (uint32_t k = k0; k < k1 && st == CUZK_OK; k++) {
        fc_snap_partition_proof pr = {0}, back = {0};
        uint8_t *buf2 = NULL;
        size_t len2 = 0;
        size_t i = k - k0;
        st = fc_snap_partition_generate(&v, k, &pr, err);
        if (st == CUZK_OK)
            st = fc_snap_partition_check(u, k, v.comm_r_old, v.comm_d_new, v.comm_r_new, &pr, err);
        if (st == CUZK_OK)
            st = fc_snap_partition_write(&pr, &l.data[i], &l.len[i], err);
        if (st == CUZK_OK) {
            l.n = i + 1;
            st = fc_snap_partition_read(&back, u->shape, false, l.data[i], l.len[i], err);
        }
        if (st == CUZK_OK)
            st = fc_snap_partition_write(&back, &buf2, &len2, err);
        if (st == CUZK_OK)
            st = same(l.data[i], l.len[i], buf2, len2, "SnapDeals partition proof", err);
        if (st == CUZK_OK) {
            fprintf(js, "%s{\"k\":%u,\"challenges\":[", i ? "," : "", k);
            for (uint32_t c = 0; c < pr.nchallenges; c++)
                fprintf(js, "%s%" PRIu64, c ? "," : "", fc_merkle_proof_node(&pr.challenges[c].d_new));
            fprintf(js, "]}");
        }
        free(buf2);
        fc_snap_partition_free(&pr);
        fc_snap_partition_free(&back);
    }
    if (st == CUZK_OK) {
        fprintf(js, "]");
        st = write_blobs(o, js, &l, err);
    }
    fc_blob_list_free(&l);
    fc_snap_sector_free(&ns);
    fc_sector_free(&old);
    fc_sparse_snap_free(sp);
    return st;
}

int bench_gen_vanilla(int argc, char **argv)
{
    if (argc < 2 || argv[1][0] == '-') {
        if (argc >= 2 && (!strcmp(argv[1], "--help") || !strcmp(argv[1], "-h"))) {
            fputs(USAGE, stdout);
            return 0;
        }
        fputs(USAGE, stderr);
        return 2;
    }
    opts o;
    int rc = parse(&o, argc, argv);
    if (rc >= 0)
        return rc;
    char *jsbuf = NULL;
    size_t jslen = 0;
    FILE *js = open_memstream(&jsbuf, &jslen);
    if (!js) {
        fprintf(stderr, "cuzk-bench gen-vanilla: open_memstream: %s\n", strerror(errno));
        return 2;
    }
    cuzk_error err = {0};
    cuzk_status st;
    if (!strcmp(o.kind, "porep"))
        st = porep(&o, js, &err);
    else if (!strcmp(o.kind, "window-post") || !strcmp(o.kind, "winning-post"))
        st = post(&o, !strcmp(o.kind, "winning-post"), js, &err);
    else if (!strcmp(o.kind, "snap"))
        st = snap(&o, js, &err);
    else {
        fclose(js);
        free(jsbuf);
        return usage_error("unknown kind '%s' (porep, window-post, winning-post, snap)", o.kind);
    }
    fputs("}\n", js);
    fclose(js);
    if (st == CUZK_OK)
        fputs(jsbuf, stdout);
    free(jsbuf);
    return st == CUZK_OK ? 0 : fail(o.kind, &err);
}
