/* Startup check of [[circuits]] files (server/circuit_files.h).
 *
 * Without arguments: hand-made .r1cs/.zkey headers written from the format specs (iden3
 * r1csfile doc/r1cs_bin_format.md, snarkjs zkey_utils.js), with the BLS12-381 moduli typed
 * in from the curve's definition, one defect each. With a fixtures folder (tests/iden3/
 * make-fixtures.sh: circom + snarkjs output): the check's verdict on real pairs equals
 * the full loader's (r1cs_read_file + zkey_read_file + builtin_r1cs_create). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "cs/r1cs.h"
#include "kinds/builtin/builtin.h"
#include "groth16/zkey.h"
#include "server/circuit_files.h"

/* BLS12-381 r and q, big-endian hex (the curve's published parameters). */
static const char R_HEX[] = "73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001";
static const char Q_HEX[] = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab";
/* BN254 r (circom's default prime). */
static const char BN_HEX[] = "30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001";

static char dir[256];

typedef struct {
    uint8_t b[4096];
    size_t n;
} buf;

static void put(buf *o, const void *p, size_t n)
{
    memcpy(o->b + o->n, p, n);
    o->n += n;
}
static void put32(buf *o, uint32_t v)
{
    uint8_t t[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    put(o, t, 4);
}
static void put64(buf *o, uint64_t v)
{
    put32(o, (uint32_t)v);
    put32(o, (uint32_t)(v >> 32));
}
/* Big-endian hex -> little-endian bytes. */
static void put_le_hex(buf *o, const char *hex)
{
    uint8_t be[64];
    long n = hex_decode(be, sizeof be, hex);
    for (long i = n - 1; i >= 0; i--)
        put(o, &be[i], 1);
}
/* One section: type, u64 size, payload. */
static void section(buf *o, uint32_t type, const buf *payload)
{
    put32(o, type);
    put64(o, payload->n);
    put(o, payload->b, payload->n);
}

typedef struct {
    const char *prime; /* r1cs field prime (hex) */
    uint32_t wires, pub_out, pub_in, constraints;
    bool no_constraints_section;
} r1cs_spec;

static void write_bytes(const char *name, const buf *o, char *path)
{
    snprintf(path, 512, "%s/%s", dir, name);
    FILE *f = fopen(path, "wb");
    fwrite(o->b, 1, o->n, f);
    fclose(f);
}

static void write_r1cs(const char *name, const r1cs_spec *s, char *path)
{
    buf h = {0}, c = {0}, o = {0};
    put32(&h, 32);
    put_le_hex(&h, s->prime);
    put32(&h, s->wires);
    put32(&h, s->pub_out);
    put32(&h, s->pub_in);
    put32(&h, 1);   /* nPrvIn */
    put64(&h, s->wires); /* nLabels */
    put32(&h, s->constraints);
    put32(&c, 0);   /* some constraint bytes (not read by the check) */
    put(&o, "r1cs", 4);
    put32(&o, 1);
    put32(&o, s->no_constraints_section ? 1 : 2);
    section(&o, 1, &h);
    if (!s->no_constraints_section)
        section(&o, 2, &c);
    write_bytes(name, &o, path);
}

typedef struct {
    uint32_t protocol;
    const char *q;
    uint32_t vars, pub, domain;
} zkey_spec;

static void write_zkey(const char *name, const zkey_spec *s, char *path)
{
    buf h1 = {0}, h2 = {0}, o = {0};
    put32(&h1, s->protocol);
    put32(&h2, 48);
    put_le_hex(&h2, s->q);
    put32(&h2, 32);
    put_le_hex(&h2, R_HEX);
    put32(&h2, s->vars);
    put32(&h2, s->pub);
    put32(&h2, s->domain);
    uint8_t zero[96 * 4] = {0}; /* the points that follow in a real header */
    put(&h2, zero, sizeof zero);
    put(&o, "zkey", 4);
    put32(&o, 1);
    put32(&o, 2);
    section(&o, 1, &h1);
    section(&o, 2, &h2);
    write_bytes(name, &o, path);
}

static const r1cs_spec GOOD_R1CS = {R_HEX, 5, 1, 1, 3, false};
static const zkey_spec GOOD_ZKEY = {1, Q_HEX, 5, 2, 8};

/* Check the pair and expect `code` with every needle in the message. */
static void expect(const char *what, const char *r1cs, const char *zkey, cuzk_status code, const char *n1,
                   const char *n2)
{
    cuzk_circuit_config c = {.name = "c1", .r1cs = (char *)r1cs, .zkey = (char *)zkey, .where = "cfg.toml:7"};
    cuzk_error err = {0};
    cuzk_status st = cuzk_circuit_files_check(&c, &err);
    bool msg_ok = code == CUZK_OK || (strstr(err.msg, "cfg.toml:7: circuit \"c1\": ") == err.msg &&
                                      (!n1 || strstr(err.msg, n1)) && (!n2 || strstr(err.msg, n2)));
    CHECK(st == code && msg_ok, "%s: got %d '%s', want %d with '%s' '%s'", what, st, err.msg, code, n1 ? n1 : "",
          n2 ? n2 : "");
}

static void crafted(void)
{
    char r_ok[512], z_ok[512], p[512], q[512];
    write_r1cs("ok.r1cs", &GOOD_R1CS, r_ok);
    write_zkey("ok.zkey", &GOOD_ZKEY, z_ok);
    expect("matching pair", r_ok, z_ok, CUZK_OK, NULL, NULL);

    char missing[512];
    snprintf(missing, sizeof missing, "%s/nope.r1cs", dir);
    expect("missing r1cs", missing, z_ok, CUZK_E_IO, "nope.r1cs", "No such file");
    snprintf(missing, sizeof missing, "%s/nope.zkey", dir);
    expect("missing zkey", r_ok, missing, CUZK_E_IO, "nope.zkey", "No such file");
    expect("directory", dir, z_ok, CUZK_E_IO, "not a regular file", NULL);
    expect("swapped", z_ok, r_ok, CUZK_E_FORMAT, "magic", "\"r1cs\"");
    write_bytes("empty.zkey", &(buf){.n = 0}, p);
    expect("empty zkey", r_ok, p, CUZK_E_FORMAT, "empty", NULL);

    r1cs_spec r = GOOD_R1CS;
    r.prime = BN_HEX;
    write_r1cs("bn.r1cs", &r, p);
    expect("BN254 r1cs", p, z_ok, CUZK_E_UNSUPPORTED, "BLS12-381", NULL);
    r = GOOD_R1CS;
    r.no_constraints_section = true;
    write_r1cs("nocons.r1cs", &r, p);
    expect("r1cs without constraints", p, z_ok, CUZK_E_FORMAT, "constraints", NULL);
    r = GOOD_R1CS;
    r.wires = 6;
    write_r1cs("wires.r1cs", &r, p);
    expect("wire count", p, z_ok, CUZK_E_INVALID_ARG, "6 wires", "5 variables");
    r = GOOD_R1CS;
    r.pub_in = 0;
    write_r1cs("pub.r1cs", &r, p);
    expect("public count", p, z_ok, CUZK_E_INVALID_ARG, "1 public signals", "not the same circuit");
    r = GOOD_R1CS;
    r.constraints = 6; /* 6 + 2 + 1 > 8 */
    write_r1cs("cons.r1cs", &r, p);
    expect("constraints vs domain", p, z_ok, CUZK_E_INVALID_ARG, "6 constraints", "domain of 8");
    r.constraints = 5; /* 5 + 2 + 1 = 8 fits */
    write_r1cs("cons5.r1cs", &r, p);
    expect("constraints fill the domain", p, z_ok, CUZK_OK, NULL, NULL);

    zkey_spec z = GOOD_ZKEY;
    z.protocol = 2;
    write_zkey("plonk.zkey", &z, q);
    expect("protocol", r_ok, q, CUZK_E_UNSUPPORTED, "not Groth16", NULL);
    z = GOOD_ZKEY;
    z.domain = 12;
    write_zkey("dom.zkey", &z, q);
    expect("domain not a power of two", r_ok, q, CUZK_E_FORMAT, "not a power of two", NULL);
    z = GOOD_ZKEY;
    z.q = "1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaa9";
    write_zkey("q.zkey", &z, q);
    expect("wrong base field", r_ok, q, CUZK_E_UNSUPPORTED, "only BLS12-381", NULL);

    cuzk_circuit_config c = {.name = "c1", .r1cs = missing, .zkey = z_ok, .where = NULL};
    cuzk_error err;
    CHECK(cuzk_circuit_files_check(&c, &err) == CUZK_E_IO && !strncmp(err.msg, "circuit \"c1\": ", 14),
          "no where: %s", err.msg);
}

/* Verdict of the full loader on a pair: CUZK_OK when builtin_r1cs_create accepts it. */
static cuzk_status full_load(const char *r1cs, const char *zkey)
{
    r1cs_t r;
    zkey_t z;
    cuzk_error err;
    builtin_r1cs *b = NULL;
    cuzk_status st = r1cs_read_file(&r, r1cs, &err);
    if (st)
        return st;
    st = zkey_read_file(&z, zkey, 0, &err);
    if (!st) {
        st = builtin_r1cs_create(&r, &z, &b, &err);
        builtin_r1cs_free(b);
        zkey_free(&z);
    }
    r1cs_free(&r);
    return st;
}

static void real(const char *fx)
{
    static const struct {
        const char *r1cs, *zkey;
        cuzk_status want;
    } pairs[] = {
        {"poseidon.r1cs", "poseidon.zkey", CUZK_OK},
        {"mimc.r1cs", "mimc.zkey", CUZK_OK},
        {"mimc.r1cs", "mimc_0.zkey", CUZK_OK},
        {"mimc.r1cs", "poseidon.zkey", CUZK_E_INVALID_ARG},
        {"poseidon.r1cs", "mimc.zkey", CUZK_E_INVALID_ARG},
        {"bn254/mimc.r1cs", "mimc.zkey", CUZK_E_UNSUPPORTED},
    };
    for (size_t i = 0; i < sizeof pairs / sizeof pairs[0]; i++) {
        char r[512], z[512];
        snprintf(r, sizeof r, "%s/%s", fx, pairs[i].r1cs);
        snprintf(z, sizeof z, "%s/%s", fx, pairs[i].zkey);
        cuzk_circuit_config c = {.name = "real", .r1cs = r, .zkey = z, .where = "fx:1"};
        cuzk_error err = {0};
        cuzk_status st = cuzk_circuit_files_check(&c, &err);
        cuzk_status full = full_load(r, z);
        CHECK(st == pairs[i].want, "%s + %s: %d '%s', want %d", pairs[i].r1cs, pairs[i].zkey, st, err.msg,
              pairs[i].want);
        CHECK((st == CUZK_OK) == (full == CUZK_OK), "%s + %s: header check %d, full load %d", pairs[i].r1cs,
              pairs[i].zkey, st, full);
    }
}

int main(int argc, char **argv)
{
    snprintf(dir, sizeof dir, "/tmp/cuzk-circuit-files-XXXXXX");
    if (!mkdtemp(dir)) {
        perror("mkdtemp");
        return 1;
    }
    if (argc > 1)
        real(argv[1]);
    else
        crafted();
    char cmd[300];
    snprintf(cmd, sizeof cmd, "rm -rf '%s'", dir);
    if (system(cmd) != 0)
        fprintf(stderr, "could not remove %s\n", dir);
    return check_summary(argc > 1 ? "server_circuit_files_real" : "server_circuit_files");
}
