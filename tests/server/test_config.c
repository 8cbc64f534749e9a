/* Config and TOML subset parser: defaults, every value kind, errors with file:line. */
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "server/config.h"

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

int main(void)
{
    cuzk_server_config cfg;
    cuzk_error err;
    CHECK(cuzk_config_defaults(&cfg, &err) == CUZK_OK, "defaults");
    CHECK(!strcmp(cfg.listen, "unix:///run/curio/cuzk.sock"), "default listen %s", cfg.listen);
    CHECK(cfg.memory_auto && cfg.safety_margin == (5ull << 30), "default memory");
    CHECK(cfg.max_message_bytes == (256ull << 20), "default message limit");
    cuzk_config_free(&cfg);

    const char *full = "# comment\n"
                       "[daemon]\nlisten = \"127.0.0.1:9820\"  # trailing\nstatus_listen = '127.0.0.1:9821'\n"
                       "socket_mode = \"0600\"\nmax_message_size = \"1MiB\"\nshutdown_grace = \"1500ms\"\n"
                       "result_retention = 90\nmax_jobs = 1_000\n"
                       "[memory]\ntotal_budget = \"2GiB\"\nsafety_margin = 1024\npinned_budget = \"1GiB\"\n"
                       "[gpus]\ndevices = [0, 1,\n  2, ]\ngpu_workers_per_device = 3\n"
                       "[synthesis]\npartition_workers = 4\n[pipeline]\nsynthesis_lookahead = 0x10\n"
                       "[logging]\nlevel = \"debug\"\nformat = \"json\"\n"
                       "[[circuits]]\nname = \"a\"\nr1cs = \"/x/a.r1cs\"\nzkey = \"/x/a.zkey\"\n"
                       "[[circuits]]\nname = \"b\\u00e9\"\nr1cs = \"b.r1cs\"\nzkey = \"b.zkey\"\n";
    warnings = 0;
    cuzk_status st = apply(full, &cfg, &err);
    CHECK(st == CUZK_E_FORMAT && strstr(err.msg, "t.toml:30:"), "non-ASCII name rejected at its line: %s", err.msg);
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
    CHECK(warnings == 2, "deprecated pinned_budget + no-effect devices: %d warnings", warnings);
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
    expect_error("[gpus]\ngpu_workers_per_device = 257\n", "t.toml:2: gpus.gpu_workers_per_device: 257 is out of range (1..256)");
    expect_error("[gpus]\ngpu_workers_per_device = 0\n", "(1..256)");
    expect_error("[pipeline]\nfinalizer_threads = 0\n", "t.toml:2: pipeline.finalizer_threads: 0 is out of range (1..256)");
    expect_error("[pipeline]\nfinalizer_threads = 257\n", "(1..256)");
    expect_error("[gpus]\ngpu_threads = 1025\n", "t.toml:2: gpus.gpu_threads: 1025 is out of range (0..1024)");
    expect_error("[synthesis]\nthreads = 100000\n", "t.toml:2: synthesis.threads: 100000 is out of range (0..1024)");
    expect_error("[daemon]\nresult_retention = \"0\"\n", "t.toml:2: daemon.result_retention: must be at least 1000 ms");
    expect_error("[daemon]\nresult_retention = \"999ms\"\n", "must be at least 1000 ms");
    expect_error("[daemon]\nmax_jobs = 0\n", "daemon.max_jobs: 0 is out of range (1..4294967295)");
    {
        cuzk_server_config cfg;
        cuzk_error err = {0};
        cuzk_status st = apply("[synthesis]\npartition_workers = 4096\nthreads = 1024\n[pipeline]\n"
                               "synthesis_lookahead = 65536\nfinalizer_threads = 256\n[gpus]\n"
                               "gpu_workers_per_device = 256\ngpu_threads = 1024\n",
                               &cfg, &err);
        CHECK(st == CUZK_OK && cfg.partition_workers == 4096 && cfg.synthesis_lookahead == 65536 &&
                  cfg.finalizer_threads == 256 && cfg.gpu_workers_per_device == 256 && cfg.gpu_threads == 1024 &&
                  cfg.synthesis_threads == 1024,
              "upper bounds themselves accepted: %d %s", st, err.msg);
        cuzk_config_free(&cfg);
    }
    expect_error("[synthesis]\npartition_workers = \"2\"\n", "expected a integer, found a string");
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
