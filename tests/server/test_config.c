/* Config and TOML subset parser: defaults, every value kind, errors with file:line; large
 * malformed documents (parsed in linear time: ctest's TIMEOUT for this test is far below what
 * the former quadratic duplicate checks took on them); config files that are too large, a
 * FIFO without a writer, a pipe and /dev/null. */
#define _GNU_SOURCE
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"
#include "server/config.h"
#include "server/toml.h"

static int warnings;
static void count_warn(void *ctx, const char *msg)
{
    warnings++;
}

/* Apply `text` on defaults; returns the status, message in *err. */
static cuzk_status apply(const char *text, cuzk_server_config *cfg, cuzk_error *err)
{
    cuzk_config_defaults(cfg, err);
    return cuzk_config_apply_toml(cfg, text, strlen(text), "t.toml", count_warn, NULL, err);
}

static void expect_error(const char *text, const char *needle)
{
    cuzk_server_config cfg;
    cuzk_error err = {0};
    cuzk_status st = apply(text, &cfg, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, needle), "'%s': want error with '%s', got %d '%s'", text, needle,
          st, err.msg);
    cuzk_config_free(&cfg);
}

/* A document of `n` lines made by printf-ing `fmt` with the line index, then `tail`. */
static char *lines(unsigned n, const char *head, const char *fmt, const char *tail, size_t *len)
{
    char *buf = NULL;
    FILE *f = open_memstream(&buf, len);
    if (!f)
        return NULL;
    fputs(head, f);
    for (unsigned i = 0; i < n; i++)
        fprintf(f, fmt, i, i);
    fputs(tail, f);
    fclose(f);
    return buf;
}

/* Issue 13 item 1: 200,000 table headers, 100,000 keys, 100,000 [[circuits]] entries. With
 * a duplicate check against every earlier name these took 45 s, 27 s and 59 s. */
static void test_large_documents(void)
{
    size_t len;
    toml_doc doc;
    cuzk_error err = {0};
    char *text = lines(200000, "", "[t%u]\n", "", &len);
    cuzk_status st = toml_parse(text, len, "t.toml", &doc, &err);
    CHECK(st == CUZK_OK && doc.n_headers == 200000 && !strcmp(doc.headers[199999].name, "t199999"),
          "200,000 headers parse: %s", err.msg);
    toml_doc_free(&doc);
    cuzk_server_config cfg;
    cuzk_config_defaults(&cfg, &err);
    st = cuzk_config_apply_toml(&cfg, text, len, "t.toml", NULL, NULL, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "t.toml:1: unknown section [t0]"), "first unknown: %s", err.msg);
    cuzk_config_free(&cfg);
    free(text);
    text = lines(200000, "", "[t%u]\n", "[t7]\n", &len);
    st = toml_parse(text, len, "t.toml", &doc, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "t.toml:200001: [t7] already defined at line 8"),
          "duplicate header after 200,000: %s", err.msg);
    free(text);

    text = lines(100000, "[daemon]\n", "k%u = %u\n", "k5 = 1\n", &len);
    st = toml_parse(text, len, "t.toml", &doc, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "t.toml:100002: duplicate key 'k5' (first at line 7)"),
          "duplicate key after 100,000: %s", err.msg);
    free(text);

    text = lines(100000, "", "[[circuits]]\nname = \"c%u\"\nr1cs = \"c%u.r1cs\"\nzkey = \"c.zkey\"\n", "", &len);
    cuzk_config_defaults(&cfg, &err);
    st = cuzk_config_apply_toml(&cfg, text, len, "t.toml", NULL, NULL, &err);
    CHECK(st == CUZK_OK && cfg.n_circuits == 100000 && !strcmp(cfg.circuits[99999].name, "c99999") &&
              !strcmp(cfg.circuits[99999].where, "t.toml:399997"),
          "100,000 circuits: %d %s", st, err.msg);
    cuzk_config_free(&cfg);
    free(text);
    text = lines(100000, "", "[[circuits]]\nname = \"c%u\"\nr1cs = \"c%u.r1cs\"\nzkey = \"c.zkey\"\n",
                 "[[circuits]]\nr1cs = \"x\"\nzkey = \"y\"\nname = \"c42\"\n", &len);
    cuzk_config_defaults(&cfg, &err);
    st = cuzk_config_apply_toml(&cfg, text, len, "t.toml", NULL, NULL, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "t.toml:400004: circuits.name: duplicate circuit name \"c42\""),
          "duplicate circuit name after 100,000: %s", err.msg);
    cuzk_config_free(&cfg);
    free(text);
}

/* Load `path` as a required config: status, message in *err. */
static cuzk_status load(const char *path, cuzk_error *err)
{
    cuzk_server_config cfg;
    cuzk_config_defaults(&cfg, err);
    cuzk_status st = cuzk_config_load_file(&cfg, path, true, NULL, NULL, NULL, err);
    cuzk_config_free(&cfg);
    return st;
}

/* Issue 13 items 1 and 2: the size limit, a FIFO (used to block open(2) forever), pipes. */
static void test_config_files(void)
{
    char dir[] = "/tmp/cuzk-config-test-XXXXXX", path[256];
    CHECK(mkdtemp(dir) != NULL, "mkdtemp");
    cuzk_error err = {0};
    size_t len;
    char *text = lines(200000, "", "[t%u]\n", "", &len);
    snprintf(path, sizeof path, "%s/big.toml", dir);
    FILE *f = fopen(path, "w");
    CHECK(f && fwrite(text, 1, len, f) == len && fclose(f) == 0, "write %s", path);
    free(text);
    cuzk_status st = load(path, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "big.toml") && strstr(err.msg, "limit of 1048576 bytes"),
          "config over 1 MiB: %d %s", st, err.msg);
    unlink(path);

    snprintf(path, sizeof path, "%s/fifo.toml", dir);
    CHECK(mkfifo(path, 0600) == 0, "mkfifo");
    st = load(path, &err);
    CHECK(st == CUZK_E_IO && strstr(err.msg, "fifo.toml") && strstr(err.msg, "FIFO"), "FIFO without writer: %d %s", st,
          err.msg);
    unlink(path);

    CHECK(load(dir, &err) == CUZK_E_IO && strstr(err.msg, "directory"), "a directory: %s", err.msg);
    CHECK(load("/dev/null", &err) == CUZK_OK, "/dev/null is an empty config: %s", err.msg);
    /* A pipe with a writer, as bash's <(cat cuzk.toml) gives: read to its end. */
    int fds[2];
    CHECK(pipe(fds) == 0, "pipe");
    static const char cfg_text[] = "[daemon]\nmax_jobs = 7\n";
    CHECK(write(fds[1], cfg_text, sizeof cfg_text - 1) == (ssize_t)sizeof cfg_text - 1, "write pipe");
    close(fds[1]);
    snprintf(path, sizeof path, "/proc/self/fd/%d", fds[0]);
    cuzk_server_config cfg;
    cuzk_config_defaults(&cfg, &err);
    st = cuzk_config_load_file(&cfg, path, true, NULL, NULL, NULL, &err);
    CHECK(st == CUZK_OK && cfg.max_jobs == 7, "config from a pipe: %d %s", st, err.msg);
    cuzk_config_free(&cfg);
    close(fds[0]);
    rmdir(dir);
}

int main(void)
{
    test_large_documents();
    test_config_files();

    cuzk_server_config cfg;
    cuzk_error err;
    CHECK(cuzk_config_defaults(&cfg, &err) == CUZK_OK, "defaults");
    CHECK(!strcmp(cfg.listen, "unix:///run/curio/cuzk.sock"), "default listen %s", cfg.listen);
    CHECK(cfg.memory_auto && cfg.safety_margin == (5ull << 30), "default memory");
    CHECK(cfg.max_message_bytes == (256ull << 20), "default message limit");
    CHECK(cfg.srs_pce == CUZK_PCE_AUTO, "default [srs] pce is auto: %d", (int)cfg.srs_pce);
    cuzk_config_free(&cfg);
    /* [srs] pce: true, false or "auto" */
    const struct {
        const char *text;
        cuzk_pce_mode want;
    } pce_modes[] = {{"[srs]\npce = true\n", CUZK_PCE_ON},
                     {"[srs]\npce = false\n", CUZK_PCE_OFF},
                     {"[srs]\npce = \"auto\"\n", CUZK_PCE_AUTO}};
    for (size_t i = 0; i < sizeof pce_modes / sizeof *pce_modes; i++) {
        cuzk_error e = {0};
        CHECK(apply(pce_modes[i].text, &cfg, &e) == CUZK_OK && cfg.srs_pce == pce_modes[i].want, "%s -> %d (%s)",
              pce_modes[i].text, (int)cfg.srs_pce, e.msg);
        cuzk_config_free(&cfg);
    }

    const char *full = "# comment\n"
                       "[daemon]\nlisten = \"127.0.0.1:9820\"  # trailing\nstatus_listen = '127.0.0.1:9821'\n"
                       "socket_mode = \"0600\"\nmax_message_size = \"1MiB\"\nshutdown_grace = \"1500ms\"\n"
                       "result_retention = 90\nmax_jobs = 1_000\n"
                       "[memory]\ntotal_budget = \"2GiB\"\nsafety_margin = 1024\npinned_budget = \"1GiB\"\n"
                       "[gpus]\ndevices = [0, 1,\n  2, ]\ngpu_workers_per_device = 3\nbackend = \"opencl\"\n"
                       "fallback_to_cpu = true\ndevice_memory_percent = 80\ndevice_memory_limit = \"4GiB\"\n"
                       "staging_buffer = \"8MiB\"\n"
                       "[synthesis]\npartition_workers = 4\n[pipeline]\nsynthesis_lookahead = 0x10\n"
                       "[logging]\nlevel = \"debug\"\nformat = \"json\"\n"
                       "[[circuits]]\nname = \"a\"\nr1cs = \"/x/a.r1cs\"\nzkey = \"/x/a.zkey\"\n"
                       "[[circuits]]\nname = \"b\\u00e9\"\nr1cs = \"b.r1cs\"\nzkey = \"b.zkey\"\n";
    warnings = 0;
    cuzk_status st = apply(full, &cfg, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "t.toml:35:"), "non-ASCII name rejected at its line: %s", err.msg);
    cuzk_config_free(&cfg);
    char good[2048];
    snprintf(good, sizeof good, "%.*s", (int)(strstr(full, "[[circuits]]\nname = \"b") - full), full);
    strcat(good, "[[circuits]]\nname = \"b\"\nr1cs = \"b.r1cs\"\nzkey = \"b.zkey\"\n");
    warnings = 0;
    st = apply(good, &cfg, &err);
    CHECK(st == CUZK_OK, "full config: %s", err.msg);
    CHECK(!strcmp(cfg.listen, "127.0.0.1:9820") && !strcmp(cfg.status_listen, "127.0.0.1:9821"), "listen");
    CHECK(cfg.socket_mode == 0600 && cfg.max_message_bytes == (1u << 20), "mode %o / size", cfg.socket_mode);
    CHECK(cfg.shutdown_grace_ms == 1500 && cfg.result_retention_ms == 90000, "durations %llu %llu",
          (unsigned long long)cfg.shutdown_grace_ms, (unsigned long long)cfg.result_retention_ms);
    CHECK(cfg.max_jobs == 1000, "max_jobs %u", cfg.max_jobs);
    CHECK(!cfg.memory_auto && cfg.total_budget == (2ull << 30) && cfg.safety_margin == 1024, "memory");
    CHECK(cfg.gpu_workers_per_device == 3 && cfg.partition_workers == 4 && cfg.synthesis_lookahead == 16, "engine");
    CHECK(!strcmp(cfg.log_level, "debug") && cfg.log_json, "logging");
    CHECK(cfg.n_circuits == 2 && !strcmp(cfg.circuits[1].name, "b") && !strcmp(cfg.circuits[0].zkey, "/x/a.zkey"),
          "circuits");
    CHECK(!strcmp(cfg.gpu_backend, "opencl") && cfg.n_gpu_devices == 3 && cfg.gpu_devices[2] == 2 &&
              cfg.gpu_fallback_to_cpu && cfg.gpu_memory_percent == 80 && cfg.gpu_memory_limit == (4ull << 30) &&
              cfg.gpu_staging_bytes == (8u << 20),
          "[gpus] backend keys");
    CHECK(warnings == 1, "deprecated pinned_budget: %d warnings", warnings);
    cuzk_config_free(&cfg);

    expect_error("[daemon]\nlisten = \"x\"\nbogus = 1\n", "t.toml:2:");
    expect_error("[daemon]\nbogus = 1\n", "t.toml:2: daemon.bogus: unknown key");
    expect_error("[nope]\n", "t.toml:1: unknown section [nope]");
    expect_error("top = 1\n", "outside any section");
    expect_error("[memory]\nsafety_margin = \"1TiBx\"\n", "t.toml:2: memory.safety_margin: ");
    expect_error("[daemon]\nshutdown_grace = \"1d\"\n", "bad duration");
    expect_error("[synthesis]\npartition_workers = 0\n", "t.toml:2: synthesis.partition_workers: 0 is out of range (1..4096)");
    /* Upper bounds are the engine's (engine.h), checked at parse time with file:line. */
    expect_error("[synthesis]\npartition_workers = 4097\n", "t.toml:2: synthesis.partition_workers: 4097 is out of range (1..4096)");
    expect_error("[pipeline]\nsynthesis_lookahead = 65537\n", "t.toml:2: pipeline.synthesis_lookahead: 65537 is out of range (0..65536)");
    /* gpu_workers_per_device: the GPU backend's worker slots a device, a real limit */
    expect_error("[gpus]\ngpu_workers_per_device = 65\n", "t.toml:2: gpus.gpu_workers_per_device: 65 is out of range (1..64)");
    expect_error("[gpus]\ngpu_workers_per_device = 256\n", "t.toml:2: gpus.gpu_workers_per_device: 256 is out of range (1..64)");
    expect_error("[gpus]\ngpu_workers_per_device = 0\n", "(1..64)");
    expect_error("[pipeline]\nfinalizer_threads = 0\n", "t.toml:2: pipeline.finalizer_threads: 0 is out of range (1..256)");
    expect_error("[pipeline]\nfinalizer_threads = 257\n", "(1..256)");
    expect_error("[gpus]\ngpu_threads = 1025\n", "t.toml:2: gpus.gpu_threads: 1025 is out of range (0..1024)");
    expect_error("[gpus]\nbackend = \"vulkan\"\n", "t.toml:2: gpus.backend: backend 'vulkan' is not one of auto, cpu");
    expect_error("[gpus]\nbackend = 1\n", "t.toml:2: gpus.backend: expected a string");
    expect_error("[gpus]\ndevices = 0\n", "t.toml:2: gpus.devices: expected an array");
    expect_error("[gpus]\ndevices = [0, -1]\n", "gpus.devices: element 1 is not a device index");
    expect_error("[gpus]\ndevices = [\"0\"]\n", "gpus.devices: element 0 is not a device index");
    expect_error("[gpus]\ndevices = [1, 2, 1]\n", "gpus.devices: device 1 is listed twice");
    expect_error("[gpus]\nfallback_to_cpu = \"yes\"\n", "t.toml:2: gpus.fallback_to_cpu: expected a bool");
    expect_error("[srs]\npce = \"yes\"\n", "t.toml:2: srs.pce: must be true, false or \"auto\"");
    expect_error("[srs]\npce = 1\n", "t.toml:2: srs.pce: must be true, false or \"auto\"");
    expect_error("[gpus]\ndevice_memory_percent = 0\n", "gpus.device_memory_percent: 0 is out of range (1..100)");
    expect_error("[gpus]\ndevice_memory_percent = 101\n", "(1..100)");
    expect_error("[gpus]\ndevice_memory_limit = \"lots\"\n", "t.toml:2: gpus.device_memory_limit: ");
    expect_error("[gpus]\nstaging_buffer = 4096\n", "gpus.staging_buffer: must be at least 65536 bytes");
    expect_error("[synthesis]\nthreads = 100000\n", "t.toml:2: synthesis.threads: 100000 is out of range (0..1024)");
    expect_error("[daemon]\nresult_retention = \"0\"\n", "t.toml:2: daemon.result_retention: must be at least 1000 ms");
    expect_error("[daemon]\nresult_retention = \"999ms\"\n", "must be at least 1000 ms");
    expect_error("[daemon]\nmax_jobs = 0\n", "daemon.max_jobs: 0 is out of range (1..4294967295)");
    {
        cuzk_server_config cfg;
        cuzk_error err = {0};
        cuzk_status st = apply("[synthesis]\npartition_workers = 4096\nthreads = 1024\n[pipeline]\n"
                               "synthesis_lookahead = 65536\nfinalizer_threads = 256\n[gpus]\n"
                               "gpu_workers_per_device = 64\ngpu_threads = 1024\n",
                               &cfg, &err);
        CHECK(st == CUZK_OK && cfg.partition_workers == 4096 && cfg.synthesis_lookahead == 65536 &&
                  cfg.finalizer_threads == 256 && cfg.gpu_workers_per_device == 64 && cfg.gpu_threads == 1024 &&
                  cfg.synthesis_threads == 1024,
              "upper bounds themselves accepted: %d %s", st, err.msg);
        cuzk_config_free(&cfg);
    }
    expect_error("[synthesis]\npartition_workers = \"2\"\n", "expected an integer, found a string");
    expect_error("[logging]\nlevel = \"loud\"\n", "not one of");
    expect_error("[daemon]\nlisten = \"localhost\"\n", "want IP:port");
    expect_error("[daemon]\nlisten = 1\nlisten = 2\n", "t.toml:3: duplicate key");
    expect_error("[daemon]\n[daemon]\n", "t.toml:2: [daemon] already defined");
    expect_error("[daemon]\nmax_jobs = 1.5\n", "floats");
    expect_error("[daemon]\nlisten = \"abc\n", "unterminated string");
    expect_error("[daemon]\nlisten = { a = 1 }\n", "inline tables");
    expect_error("[daemon]\nx.y = 1\n", "dotted keys");
    expect_error("[daemon]\nmax_jobs = 1 2\n", "unexpected text");
    expect_error("[daemon]\nmax_jobs = 99999999999999999999\n", "out of range for 64 bits");
    expect_error("[[circuits]]\nname = \"a\"\nr1cs = \"a\"\n", "t.toml:1: [[circuits]] entry lacks 'zkey'");
    expect_error("[[circuits]]\nname = \"synthetic-3\"\n", "reserved");
    expect_error("[[circuits]]\nname = \"a\"\nr1cs = \"a\"\nzkey = \"a\"\n[[circuits]]\nname = \"a\"\n", "t.toml:6: circuits.name: duplicate");
    expect_error("[daemon]\nsocket_mode = \"0999\"\n", "octal");

    /* Listen addresses: explicit port 0..65535, unix:// needs an absolute path, brackets for IPv6. */
    static const struct {
        const char *addr;
        bool allow_empty, allow_unix;
        const char *error; /* NULL = accepted */
    } listens[] = {
        {"127.0.0.1:9820", false, true, NULL},
        {"127.0.0.1:0", false, true, NULL},
        {"0.0.0.0:65535", false, true, NULL},
        {"[::1]:9820", false, true, NULL},
        {"[fe80::1%eth0]:1", false, true, NULL},
        {"localhost:9820", false, true, NULL},
        {"unix:///run/curio/cuzk.sock", false, true, NULL},
        {"", true, false, NULL},
        {"", false, true, "empty address"},
        {"127.0.0.1:99999", false, true, "port \"99999\" is not a number in 0..65535"},
        {"127.0.0.1:65536", false, true, "0..65535"},
        {"127.0.0.1:000009820", false, true, "0..65535"},
        {"127.0.0.1:-1", false, true, "0..65535"},
        {"127.0.0.1:+80", false, true, "0..65535"},
        {"127.0.0.1: 80", false, true, "0..65535"},
        {"127.0.0.1:80x", false, true, "0..65535"},
        {"127.0.0.1:", false, true, "0..65535"},
        {"127.0.0.1", false, true, "the port is missing"},
        {"[::1]", false, true, "the port is missing"},
        {"::1:80", false, true, "needs brackets"},
        {":80", false, true, "bad host"},
        {"a b:80", false, true, "bad host"},
        {"unix://", false, true, "absolute path"},
        {"unix:///", false, true, "absolute path"},
        {"unix://relative.sock", false, true, "absolute path"},
        {"unix:/abs.sock", false, true, "absolute path"},
        {"unix:///x.sock", false, false, "not allowed here"},
        {"dns:///host:80", false, true, "no URL scheme"},
        {"http://127.0.0.1:80", true, false, "no URL scheme"},
    };
    for (size_t i = 0; i < sizeof listens / sizeof listens[0]; i++) {
        cuzk_error e = {0};
        cuzk_status ls = cuzk_config_check_listen(listens[i].addr, listens[i].allow_empty, listens[i].allow_unix, &e);
        if (!listens[i].error)
            CHECK(ls == CUZK_OK, "listen '%s' rejected: %s", listens[i].addr, e.msg);
        else
            CHECK(ls == CUZK_E_INVALID_ARG && strstr(e.msg, listens[i].error), "listen '%s': got %d '%s', want '%s'",
                  listens[i].addr, ls, e.msg, listens[i].error);
    }
    expect_error("[daemon]\nlisten = \"127.0.0.1:99999\"\n", "t.toml:2: daemon.listen: \"127.0.0.1:99999\": port");
    expect_error("[daemon]\n\nlisten = \"127.0.0.1\"\n", "t.toml:3: daemon.listen: \"127.0.0.1\": the port is missing");
    expect_error("[daemon]\nstatus_listen = \"unix:///x.sock\"\n", "t.toml:2: daemon.status_listen:");

    /* Each [[circuits]] entry remembers where it was written (for startup errors). */
    st = apply("[daemon]\nmax_jobs = 2\n\n[[circuits]]\nname = \"a\"\nr1cs = \"a.r1cs\"\nzkey = \"a.zkey\"\n"
               "[[circuits]]\nzkey = \"b.zkey\"\nname = \"b\"\nr1cs = \"b.r1cs\"\n",
               &cfg, &err);
    CHECK(st == CUZK_OK && cfg.n_circuits == 2 && cfg.circuits[0].where && !strcmp(cfg.circuits[0].where, "t.toml:4") &&
              cfg.circuits[1].where && !strcmp(cfg.circuits[1].where, "t.toml:8"),
          "circuit entry lines: %s / %s", cfg.n_circuits > 0 && cfg.circuits[0].where ? cfg.circuits[0].where : "-",
          cfg.n_circuits > 1 && cfg.circuits[1].where ? cfg.circuits[1].where : "-");
    cuzk_config_free(&cfg);

    uint64_t ms;
    CHECK(cuzk_parse_duration_ms("2h", &ms, &err) == CUZK_OK && ms == 7200000, "2h");
    CHECK(cuzk_parse_duration_ms("5m", &ms, &err) == CUZK_OK && ms == 300000, "5m");
    CHECK(cuzk_parse_duration_ms("7", &ms, &err) == CUZK_OK && ms == 7000, "7");
    CHECK(cuzk_parse_duration_ms("1h30m", &ms, &err) == CUZK_E_INVALID_ARG, "1h30m rejected");
    return check_summary("server_config");
}
