/* Daemon configuration (config.h): defaults, key table, value checks. */
#include "server/config.h"

#include <ctype.h>
#include <errno.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "common/file_io.h"
#include "engine/budget.h"
#include "backends/backends.h"
#include "engine/engine.h"
#include "server/toml.h"

cuzk_status cuzk_config_set_string(char **field, const char *value, cuzk_error *err)
{
    char *c = strdup(value);
    if (!c)
        return cuzk_fail(err, CUZK_E_NOMEM, "config: out of memory");
    free(*field);
    *field = c;
    return CUZK_OK;
}

cuzk_status cuzk_config_defaults(cuzk_server_config *cfg, cuzk_error *err)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->socket_mode = 0660;
    cfg->max_message_bytes = 256ull << 20;
    cfg->shutdown_grace_ms = 30000;
    cfg->result_retention_ms = 600000;
    cfg->max_jobs = 1024;
    cfg->journal_max_bytes = 32ull << 30;
    cfg->srs_verify_cache = true;
    cfg->srs_pce = CUZK_PCE_AUTO;
    cfg->memory_auto = true;
    cfg->safety_margin = 5ull << 30;
    cfg->abc_pool = true;
    cfg->abc_pool_idle_ms = 60000;
    cfg->gpu_workers_per_device = 2;
    cfg->gpu_memory_percent = 50;
    cfg->gpu_staging_bytes = 32ull << 20;
    cfg->partition_workers = 2;
    cfg->synthesis_lookahead = 1;
    cfg->finalizer_threads = 2;
    cuzk_status st;
    if ((st = cuzk_config_set_string(&cfg->listen, CUZK_DEFAULT_LISTEN, err)) ||
        (st = cuzk_config_set_string(&cfg->status_listen, "", err)) ||
        (st = cuzk_config_set_string(&cfg->tls_cert, "", err)) ||
        (st = cuzk_config_set_string(&cfg->tls_key, "", err)) ||
        (st = cuzk_config_set_string(&cfg->tls_client_ca, "", err)) ||
        (st = cuzk_config_set_string(&cfg->auth_token_file, "", err)) ||
        (st = cuzk_config_set_string(&cfg->journal_dir, "", err)) ||
        (st = cuzk_config_set_string(&cfg->param_cache, "/data/zk/params", err)) ||
        (st = cuzk_config_set_string(&cfg->srs_cache_dir, "", err)) ||
        (st = cuzk_config_set_string(&cfg->log_level, "info", err)) ||
        (st = cuzk_config_set_string(&cfg->gpu_backend, "auto", err)) ||
        (st = cuzk_config_set_string(&cfg->log_file, "", err)))
        return st;
    return CUZK_OK;
}

void cuzk_config_free(cuzk_server_config *cfg)
{
    if (!cfg)
        return;
    free(cfg->listen);
    free(cfg->status_listen);
    free(cfg->tls_cert);
    free(cfg->tls_key);
    free(cfg->tls_client_ca);
    free(cfg->auth_token_file);
    free(cfg->journal_dir);
    free(cfg->param_cache);
    free(cfg->srs_cache_dir);
    free(cfg->log_level);
    free(cfg->gpu_backend);
    free(cfg->gpu_devices);
    free(cfg->log_file);
    for (size_t i = 0; i < cfg->n_circuits; i++) {
        free(cfg->circuits[i].name);
        free(cfg->circuits[i].r1cs);
        free(cfg->circuits[i].zkey);
        free(cfg->circuits[i].where);
    }
    free(cfg->circuits);
    memset(cfg, 0, sizeof *cfg);
}

/* "<digits><suffix>" with the suffix from `units`; *mult receives its multiplier. */
static bool split_number(const char *s, uint64_t *num, const char **suffix)
{
    while (isspace((unsigned char)*s))
        s++;
    if (!isdigit((unsigned char)*s))
        return false;
    errno = 0;
    char *end;
    unsigned long long v = strtoull(s, &end, 10);
    if (errno)
        return false;
    while (isspace((unsigned char)*end))
        end++;
    *num = v;
    *suffix = end;
    return true;
}

static bool mul_ok(uint64_t a, uint64_t b, uint64_t *out)
{
    if (b && a > UINT64_MAX / b)
        return false;
    *out = a * b;
    return true;
}

cuzk_status cuzk_parse_duration_ms(const char *s, uint64_t *out, cuzk_error *err)
{
    static const struct {
        const char *suffix;
        uint64_t mult;
    } units[] = {{"", 1000}, {"ms", 1}, {"s", 1000}, {"m", 60000}, {"h", 3600000}};
    uint64_t n;
    const char *suf;
    if (split_number(s, &n, &suf))
        for (size_t i = 0; i < sizeof units / sizeof units[0]; i++)
            if (!strcmp(suf, units[i].suffix) && mul_ok(n, units[i].mult, out))
                return CUZK_OK;
    return cuzk_fail(err, CUZK_E_INVALID_ARG, "bad duration \"%s\" (want an integer with ms, s, m or h)", s);
}

typedef enum {
    K_STRING,     /* char * */
    K_LISTEN,     /* char *, "unix:///..." or host:port */
    K_OPT_LISTEN, /* char *, "" allowed */
    K_SIZE,       /* uint64_t bytes; string or integer */
    K_DURATION,   /* uint64_t ms; string or integer seconds */
    K_U32,        /* uint32_t; integer >= min */
    K_BUDGET,     /* "auto" or size */
    K_LEVEL,      /* char *, log level */
    K_FORMAT,     /* "text" | "json" -> log_json */
    K_MODE,       /* octal string -> uint32_t */
    K_BOOL,       /* bool */
    K_PCE,        /* cuzk_pce_mode: true, false or "auto" */
    K_DEPRECATED, /* accepted, warning, ignored */
    K_NO_EFFECT,  /* reference key without effect here: accepted, warning */
    K_BACKEND,    /* char *, a backend name (backends.h) */
    K_DEVICES,    /* array of device indices -> gpu_devices */
} key_type;

typedef struct {
    const char *section, *key;
    key_type type;
    size_t offset;
    uint32_t min;
    uint32_t max;     /* K_U32 only: upper bound, inclusive */
    const char *note; /* warning text for K_DEPRECATED / K_NO_EFFECT */
} key_spec;

#define OFF(f) offsetof(cuzk_server_config, f)
static const key_spec KEYS[] = {
    {"daemon", "listen", K_LISTEN, OFF(listen), 0, 0, NULL},
    {"daemon", "status_listen", K_OPT_LISTEN, OFF(status_listen), 0, 0, NULL},
    {"daemon", "socket_mode", K_MODE, OFF(socket_mode), 0, 0, NULL},
    {"daemon", "max_message_size", K_SIZE, OFF(max_message_bytes), 1024, 0, NULL},
    {"daemon", "shutdown_grace", K_DURATION, OFF(shutdown_grace_ms), 0, 0, NULL},
    {"daemon", "result_retention", K_DURATION, OFF(result_retention_ms), CUZK_CONFIG_MIN_RETENTION_MS, 0, NULL},
    {"daemon", "max_jobs", K_U32, OFF(max_jobs), 1, UINT32_MAX, NULL},
    {"daemon", "tls_cert", K_STRING, OFF(tls_cert), 0, 0, NULL},
    {"daemon", "tls_key", K_STRING, OFF(tls_key), 0, 0, NULL},
    {"daemon", "tls_client_ca", K_STRING, OFF(tls_client_ca), 0, 0, NULL},
    {"daemon", "auth_token_file", K_STRING, OFF(auth_token_file), 0, 0, NULL},
    {"daemon", "journal_dir", K_STRING, OFF(journal_dir), 0, 0, NULL},
    {"daemon", "journal_max_size", K_SIZE, OFF(journal_max_bytes), 1024, 0, NULL},
    {"srs", "param_cache", K_STRING, OFF(param_cache), 0, 0, NULL},
    {"srs", "cache_dir", K_STRING, OFF(srs_cache_dir), 0, 0, NULL},
    {"srs", "verify_params", K_BOOL, OFF(srs_verify_params), 0, 0, NULL},
    {"srs", "verify_cache", K_BOOL, OFF(srs_verify_cache), 0, 0, NULL},
    {"srs", "pce", K_PCE, OFF(srs_pce), 0, 0, NULL},
    {"srs", "lock_memory", K_BOOL, OFF(srs_lock_memory), 0, 0, NULL},
    {"srs", "preload", K_DEPRECATED, 0, 0, 0, "deprecated and ignored: SRS is loaded on demand (or use PreloadSRS)"},
    {"memory", "total_budget", K_BUDGET, 0, 0, 0, NULL},
    {"memory", "safety_margin", K_SIZE, OFF(safety_margin), 0, 0, NULL},
    {"memory", "abc_pool", K_BOOL, OFF(abc_pool), 0, 0, NULL},
    {"memory", "abc_pool_idle", K_DURATION, OFF(abc_pool_idle_ms), 0, 0, NULL},
    {"memory", "eviction_min_idle", K_NO_EFFECT, 0, 0, 0, "has no effect: idle parameters leave memory at once when the budget needs their bytes (and on EvictSRS)"},
    {"memory", "pinned_budget", K_DEPRECATED, 0, 0, 0, "deprecated and ignored: use memory.total_budget"},
    {"memory", "working_memory_budget", K_DEPRECATED, 0, 0, 0, "deprecated and ignored: use memory.total_budget"},
    {"gpus", "backend", K_BACKEND, OFF(gpu_backend), 0, 0, NULL},
    {"gpus", "devices", K_DEVICES, 0, 0, BACKEND_MAX_DEVICES, NULL},
    {"gpus", "fallback_to_cpu", K_BOOL, OFF(gpu_fallback_to_cpu), 0, 0, NULL},
    {"gpus", "device_memory_percent", K_U32, OFF(gpu_memory_percent), 1, 100, NULL},
    {"gpus", "device_memory_limit", K_SIZE, OFF(gpu_memory_limit), 0, 0, NULL},
    {"gpus", "staging_buffer", K_SIZE, OFF(gpu_staging_bytes), 65536, 0, NULL},
    {"gpus", "test_hooks", K_BOOL, OFF(gpu_test_hooks), 0, 0, NULL},
    {"gpus", "gpu_threads", K_U32, OFF(gpu_threads), 0, CUZK_CONFIG_MAX_THREADS, NULL},
    {"gpus", "gpu_workers_per_device", K_U32, OFF(gpu_workers_per_device), 1, CUZK_ENGINE_MAX_GPU_WORKERS_PER_DEVICE, NULL},
    {"scheduler", "max_batch_size", K_NO_EFFECT, 0, 0, 0, "has no effect: partitions of all jobs interleave in one pipeline"},
    {"scheduler", "max_batch_wait_ms", K_NO_EFFECT, 0, 0, 0, "has no effect: there is no cross-sector batching"},
    {"scheduler", "sort_by_type", K_NO_EFFECT, 0, 0, 0, "has no effect (it never had one in the reference either)"},
    {"synthesis", "threads", K_U32, OFF(synthesis_threads), 0, CUZK_CONFIG_MAX_THREADS, NULL},
    {"synthesis", "partition_workers", K_U32, OFF(partition_workers), 1, CUZK_ENGINE_MAX_PARTITION_WORKERS, NULL},
    {"pipeline", "enabled", K_NO_EFFECT, 0, 0, 0, "has no effect: the partition pipeline is always on"},
    {"pipeline", "synthesis_lookahead", K_U32, OFF(synthesis_lookahead), 0, CUZK_ENGINE_MAX_SYNTHESIS_LOOKAHEAD, NULL},
    {"pipeline", "finalizer_threads", K_U32, OFF(finalizer_threads), 1, CUZK_ENGINE_MAX_FINALIZER_THREADS, NULL},
    {"pipeline", "synthesis_concurrency", K_NO_EFFECT, 0, 0, 0, "has no effect: use synthesis.partition_workers"},
    {"pipeline", "max_parallel_synthesis", K_NO_EFFECT, 0, 0, 0, "has no effect: use synthesis.partition_workers"},
    {"pipeline", "slot_size", K_NO_EFFECT, 0, 0, 0, "has no effect (dead in the reference)"},
    {"pipeline", "max_gpu_queue_depth", K_NO_EFFECT, 0, 0, 0, "has no effect: the bounded channel paces synthesis"},
    {"logging", "level", K_LEVEL, OFF(log_level), 0, 0, NULL},
    {"logging", "format", K_FORMAT, 0, 0, 0, NULL},
    {"logging", "file", K_STRING, OFF(log_file), 0, 0, NULL},
};

static cuzk_status bad(cuzk_error *err, const char *path, const toml_item *it, const char *what)
{
    return cuzk_fail(err, CUZK_E_FORMAT, "%s:%d: %s%s%s: %s", path, it->line, it->table, *it->table ? "." : "",
                     it->key, what);
}

/* "a" or "an" before `word` ("an integer", "an array"). */
static const char *article(const char *word) { return strchr("aeiou", word[0]) ? "an" : "a"; }

static cuzk_status want_type(cuzk_error *err, const char *path, const toml_item *it, toml_type t)
{
    if (it->value.type == t)
        return CUZK_OK;
    char what[96];
    const char *want = toml_type_name(t), *found = toml_type_name(it->value.type);
    snprintf(what, sizeof what, "expected %s %s, found %s %s", article(want), want, article(found), found);
    return bad(err, path, it, what);
}

/* Host part of "host:port": a bracketed IPv6 literal or a name/IPv4 literal. */
static bool host_ok(const char *h, size_t n)
{
    if (n >= 2 && h[0] == '[' && h[n - 1] == ']') {
        for (size_t i = 1; i + 1 < n; i++)
            if (!isalnum((unsigned char)h[i]) && !strchr(":.%", h[i])) /* % = zone id */
                return false;
        return n > 2;
    }
    for (size_t i = 0; i < n; i++)
        if (!isalnum((unsigned char)h[i]) && !strchr(".-_", h[i]))
            return false;
    return n > 0;
}

cuzk_status cuzk_config_check_listen(const char *s, bool allow_empty, bool allow_unix, cuzk_error *err)
{
    if (!*s)
        return allow_empty ? CUZK_OK : cuzk_fail(err, CUZK_E_INVALID_ARG, "empty address");
    if (!strncmp(s, "unix:", 5)) {
        if (!allow_unix)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "\"%.200s\": a unix socket is not allowed here (want IP:port)",
                             s);
        if (strncmp(s, "unix://", 7) || s[7] != '/' || !s[8])
            return cuzk_fail(err, CUZK_E_INVALID_ARG,
                             "\"%.200s\": a unix socket needs an absolute path: unix:///absolute/path.sock", s);
        return CUZK_OK;
    }
    const char *want = allow_unix ? "want IP:port, [IPv6]:port or unix:///path" : "want IP:port or [IPv6]:port";
    if (strstr(s, "://"))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "\"%.200s\": no URL scheme is allowed (%s)", s, want);
    const char *colon = strrchr(s, ':'), *rbracket = strchr(s, ']');
    if (!colon || (s[0] == '[' && rbracket && colon < rbracket))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "\"%.200s\": the port is missing (%s)", s, want);
    size_t hl = (size_t)(colon - s);
    if (s[0] != '[' && memchr(s, ':', hl))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "\"%.200s\": an IPv6 address needs brackets: [addr]:port", s);
    if (!host_ok(s, hl))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "\"%.200s\": bad host \"%.*s\" (%s)", s, (int)(hl > 100 ? 100 : hl),
                         s, want);
    const char *p = colon + 1;
    size_t digits = strspn(p, "0123456789");
    if (!*p || p[digits] || digits > 5 || strtol(p, NULL, 10) > 65535)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "\"%.200s\": port \"%.20s\" is not a number in 0..65535", s, p);
    return CUZK_OK;
}

static cuzk_status apply_key(cuzk_server_config *cfg, const key_spec *k, const toml_item *it, const char *path,
                             void (*warn)(void *, const char *), void *ctx, cuzk_error *err)
{
    char *base = (char *)cfg;
    cuzk_error e2;
    cuzk_status st;
    switch (k->type) {
    case K_DEPRECATED:
    case K_NO_EFFECT:
        if (warn) {
            char msg[320];
            snprintf(msg, sizeof msg, "%s:%d: %s.%s %s", path, it->line, k->section, k->key, k->note);
            warn(ctx, msg);
        }
        return CUZK_OK;
    case K_STRING:
    case K_LISTEN:
    case K_OPT_LISTEN:
    case K_LEVEL:
        if ((st = want_type(err, path, it, TOML_STRING)))
            return st;
        if (k->type == K_LISTEN || k->type == K_OPT_LISTEN) {
            bool is_status = k->type == K_OPT_LISTEN;
            if (cuzk_config_check_listen(it->value.str, is_status, !is_status, &e2))
                return bad(err, path, it, e2.msg);
        }
        if (k->type == K_LEVEL && strcmp(it->value.str, "error") && strcmp(it->value.str, "warn") &&
            strcmp(it->value.str, "info") && strcmp(it->value.str, "debug")) {
            char what[160];
            snprintf(what, sizeof what, "\"%.64s\" is not one of error, warn, info, debug", it->value.str);
            return bad(err, path, it, what);
        }
        return cuzk_config_set_string((char **)(base + k->offset), it->value.str, err);
    case K_FORMAT:
        if ((st = want_type(err, path, it, TOML_STRING)))
            return st;
        if (strcmp(it->value.str, "text") && strcmp(it->value.str, "json"))
            return bad(err, path, it, "want \"text\" or \"json\"");
        cfg->log_json = !strcmp(it->value.str, "json");
        return CUZK_OK;
    case K_MODE: {
        if ((st = want_type(err, path, it, TOML_STRING)))
            return st;
        char *end;
        errno = 0;
        unsigned long m = strtoul(it->value.str, &end, 8);
        if (errno || end == it->value.str || *end || m > 0777)
            return bad(err, path, it, "want an octal permission string such as \"0660\"");
        cfg->socket_mode = (uint32_t)m;
        return CUZK_OK;
    }
    case K_SIZE:
    case K_DURATION:
    case K_BUDGET: {
        uint64_t v;
        if (it->value.type == TOML_INT) {
            if (it->value.i < 0)
                return bad(err, path, it, "must not be negative");
            if (k->type == K_DURATION && !mul_ok((uint64_t)it->value.i, 1000, &v))
                return bad(err, path, it, "too large");
            if (k->type != K_DURATION)
                v = (uint64_t)it->value.i;
        } else if (it->value.type == TOML_STRING) {
            if (k->type == K_BUDGET && !strcmp(it->value.str, "auto")) {
                cfg->memory_auto = true;
                return CUZK_OK;
            }
            st = k->type == K_DURATION ? cuzk_parse_duration_ms(it->value.str, &v, &e2)
                                       : cuzk_parse_size(it->value.str, &v, &e2);
            if (st)
                return bad(err, path, it, e2.msg);
        } else {
            return bad(err, path, it, "expected a string or an integer");
        }
        if (k->type == K_BUDGET) {
            if (v == 0)
                return bad(err, path, it, "must be \"auto\" or a size > 0");
            cfg->memory_auto = false;
            cfg->total_budget = v;
            return CUZK_OK;
        }
        if (v < k->min) {
            char what[64];
            snprintf(what, sizeof what, "must be at least %u%s", k->min, k->type == K_DURATION ? " ms" : " bytes");
            return bad(err, path, it, what);
        }
        *(uint64_t *)(base + k->offset) = v;
        return CUZK_OK;
    }
    case K_BACKEND: {
        if ((st = want_type(err, path, it, TOML_STRING)))
            return st;
        backend_kind kind;
        if (backend_kind_parse(it->value.str, &kind, &e2))
            return bad(err, path, it, e2.msg);
        return cuzk_config_set_string((char **)(base + k->offset), it->value.str, err);
    }
    case K_DEVICES: {
        if ((st = want_type(err, path, it, TOML_ARRAY)))
            return st;
        if (it->value.n > k->max) {
            char what[64];
            snprintf(what, sizeof what, "%zu devices, at most %u", it->value.n, k->max);
            return bad(err, path, it, what);
        }
        uint32_t *d = malloc((it->value.n ? it->value.n : 1) * sizeof *d);
        if (!d)
            return cuzk_fail(err, CUZK_E_NOMEM, "config: out of memory");
        for (size_t i = 0; i < it->value.n; i++) {
            const toml_value *v = &it->value.items[i];
            char what[96] = "";
            if (v->type != TOML_INT || v->i < 0 || v->i > UINT32_MAX)
                snprintf(what, sizeof what, "element %zu is not a device index (an integer >= 0)", i);
            for (size_t j = 0; !what[0] && j < i; j++)
                if (d[j] == (uint32_t)v->i)
                    snprintf(what, sizeof what, "device %lld is listed twice", (long long)v->i);
            if (what[0]) {
                free(d);
                return bad(err, path, it, what);
            }
            d[i] = (uint32_t)v->i;
        }
        free(cfg->gpu_devices);
        cfg->gpu_devices = d;
        cfg->n_gpu_devices = it->value.n;
        return CUZK_OK;
    }
    case K_BOOL:
        if ((st = want_type(err, path, it, TOML_BOOL)))
            return st;
        *(bool *)(base + k->offset) = it->value.b;
        return CUZK_OK;
    case K_PCE:
        if (it->value.type == TOML_BOOL)
            *(cuzk_pce_mode *)(base + k->offset) = it->value.b ? CUZK_PCE_ON : CUZK_PCE_OFF;
        else if (it->value.type == TOML_STRING && !strcmp(it->value.str, "auto"))
            *(cuzk_pce_mode *)(base + k->offset) = CUZK_PCE_AUTO;
        else
            return bad(err, path, it, "must be true, false or \"auto\"");
        return CUZK_OK;
    case K_U32:
        if ((st = want_type(err, path, it, TOML_INT)))
            return st;
        if (it->value.i < (int64_t)k->min || it->value.i > (int64_t)k->max) {
            char what[96];
            snprintf(what, sizeof what, "%lld is out of range (%u..%u)", (long long)it->value.i, k->min, k->max);
            return bad(err, path, it, what);
        }
        *(uint32_t *)(base + k->offset) = (uint32_t)it->value.i;
        return CUZK_OK;
    }
    return bad(err, path, it, "internal: unhandled key type");
}

/* One key of a [[circuits]] entry; cfg->circuits already has room for it->index. */
static cuzk_status apply_circuit(cuzk_server_config *cfg, const toml_item *it, const char *path, cuzk_error *err)
{
    cuzk_status st;
    cuzk_circuit_config *c = &cfg->circuits[it->index];
    char **field = !strcmp(it->key, "name") ? &c->name
                   : !strcmp(it->key, "r1cs") ? &c->r1cs
                   : !strcmp(it->key, "zkey") ? &c->zkey
                                              : NULL;
    if (!field)
        return bad(err, path, it, "unknown key (want name, r1cs, zkey)");
    if ((st = want_type(err, path, it, TOML_STRING)))
        return st;
    if (!*it->value.str)
        return bad(err, path, it, "must not be empty");
    if (field == &c->name) {
        if (!strncmp(it->value.str, "synthetic-", 10))
            return bad(err, path, it, "names starting with \"synthetic-\" are reserved for the built-in circuit");
        for (const char *s = it->value.str; *s; s++)
            if (!isalnum((unsigned char)*s) && !strchr("-_.", *s))
                return bad(err, path, it, "use only letters, digits, '-', '_' and '.'");
    }
    return cuzk_config_set_string(field, it->value.str, err);
}

typedef struct {
    const char *name;
    size_t index;
} named_index;

static int by_name(const void *a, const void *b)
{
    const named_index *x = a, *y = b;
    int c = strcmp(x->name, y->name);
    return c ? c : (x->index > y->index) - (x->index < y->index);
}

/* Duplicate names among the named circuits in O(n log n) (sorted by name, then index). The later
 * entry of a pair is the one from this document (earlier documents were checked when
 * applied): its `name` key's line is name_line[index - first]. */
static cuzk_status check_duplicate_names(const cuzk_server_config *cfg, size_t first, const int *name_line,
                                         const char *path, cuzk_error *err)
{
    size_t n = cfg->n_circuits;
    named_index *order = malloc((n ? n : 1) * sizeof *order);
    if (!order)
        return cuzk_fail(err, CUZK_E_NOMEM, "config: out of memory");
    size_t m = 0;
    for (size_t i = 0; i < n; i++)
        if (cfg->circuits[i].name)
            order[m++] = (named_index){cfg->circuits[i].name, i};
    n = m;
    qsort(order, n, sizeof *order, by_name);
    size_t dup = SIZE_MAX;
    for (size_t k = 1; k < n; k++)
        if (!strcmp(order[k - 1].name, order[k].name) && order[k].index < dup)
            dup = order[k].index; /* the first duplicate in file order */
    free(order);
    if (dup == SIZE_MAX)
        return CUZK_OK;
    return cuzk_fail(err, CUZK_E_FORMAT, "%s:%d: circuits.name: duplicate circuit name \"%s\"", path,
                     name_line[dup - first], cfg->circuits[dup].name);
}

static bool str_differs(const cuzk_server_config *a, const cuzk_server_config *b, size_t off)
{
    return strcmp(*(char *const *)((const char *)a + off), *(char *const *)((const char *)b + off)) != 0;
}

/* Whether key k holds different values in a and b (the fields apply_key writes). */
static bool key_differs(const key_spec *k, const cuzk_server_config *a, const cuzk_server_config *b)
{
    const char *pa = (const char *)a + k->offset, *pb = (const char *)b + k->offset;
    switch (k->type) {
    case K_STRING:
    case K_LISTEN:
    case K_OPT_LISTEN:
    case K_LEVEL:
    case K_BACKEND:
        return str_differs(a, b, k->offset);
    case K_SIZE:
    case K_DURATION:
        return memcmp(pa, pb, sizeof(uint64_t)) != 0;
    case K_U32:
    case K_MODE:
        return memcmp(pa, pb, sizeof(uint32_t)) != 0;
    case K_BOOL:
        return *(const bool *)pa != *(const bool *)pb;
    case K_PCE:
        return *(const cuzk_pce_mode *)pa != *(const cuzk_pce_mode *)pb;
    case K_BUDGET:
        return a->memory_auto != b->memory_auto || (!a->memory_auto && a->total_budget != b->total_budget);
    case K_FORMAT:
        return a->log_json != b->log_json;
    case K_DEVICES:
        return a->n_gpu_devices != b->n_gpu_devices ||
               (a->n_gpu_devices && memcmp(a->gpu_devices, b->gpu_devices, a->n_gpu_devices * sizeof *a->gpu_devices));
    case K_DEPRECATED:
    case K_NO_EFFECT:
        return false;
    }
    return false;
}

static bool circuits_differ(const cuzk_server_config *a, const cuzk_server_config *b)
{
    if (a->n_circuits != b->n_circuits)
        return true;
    for (size_t i = 0; i < a->n_circuits; i++)
        if (strcmp(a->circuits[i].name, b->circuits[i].name) || strcmp(a->circuits[i].r1cs, b->circuits[i].r1cs) ||
            strcmp(a->circuits[i].zkey, b->circuits[i].zkey))
            return true;
    return false;
}

size_t cuzk_config_diff(const cuzk_server_config *a, const cuzk_server_config *b,
                        void (*changed)(void *ctx, const char *key), void *ctx)
{
    size_t n = 0;
    for (size_t i = 0; i < sizeof KEYS / sizeof KEYS[0]; i++)
        if (key_differs(&KEYS[i], a, b)) {
            n++;
            char name[96];
            snprintf(name, sizeof name, "[%s] %s", KEYS[i].section, KEYS[i].key);
            if (changed)
                changed(ctx, name);
        }
    if (circuits_differ(a, b)) {
        n++;
        if (changed)
            changed(ctx, "[[circuits]]");
    }
    return n;
}

cuzk_status cuzk_config_apply_toml(cuzk_server_config *cfg, const char *text, size_t len, const char *path,
                                   void (*warn)(void *ctx, const char *msg), void *ctx, cuzk_error *err)
{
    toml_doc doc;
    cuzk_status st = toml_parse(text, len, path, &doc, err);
    if (st)
        return st;
    static const char *const sections[] = {"daemon", "srs", "memory", "gpus", "scheduler",
                                           "synthesis", "pipeline", "logging"};
    for (size_t h = 0; h < doc.n_headers && !st; h++) {
        const toml_header *hd = &doc.headers[h];
        bool known = false;
        for (size_t i = 0; i < sizeof sections / sizeof sections[0]; i++)
            known |= !hd->is_array && !strcmp(hd->name, sections[i]);
        known |= hd->is_array && !strcmp(hd->name, "circuits");
        if (!known)
            st = cuzk_fail(err, CUZK_E_FORMAT, "%s:%d: unknown section %s%s%s", path, hd->line,
                           hd->is_array ? "[[" : "[", hd->name, hd->is_array ? "]]" : "]");
    }
    /* Room for this document's [[circuits]] entries, allocated once. */
    size_t first_circuit_items = cfg->n_circuits, n_new = 0;
    for (size_t h = 0; h < doc.n_headers; h++)
        n_new += doc.headers[h].is_array;
    int *name_line = NULL;
    if (!st && n_new) {
        cuzk_circuit_config *nc = realloc(cfg->circuits, (first_circuit_items + n_new) * sizeof *nc);
        name_line = calloc(n_new, sizeof *name_line);
        if (nc)
            cfg->circuits = nc;
        if (!nc || !name_line) {
            st = cuzk_fail(err, CUZK_E_NOMEM, "config: out of memory");
        } else {
            memset(&nc[first_circuit_items], 0, n_new * sizeof *nc);
            cfg->n_circuits = first_circuit_items + n_new;
        }
    }
    for (size_t i = 0; i < doc.n_items && !st; i++) {
        toml_item *it = &doc.items[i];
        if (it->index >= 0) {
            if (!strcmp(it->key, "name"))
                name_line[it->index] = it->line;
            it->index += (int)first_circuit_items;
            st = apply_circuit(cfg, it, path, err);
            continue;
        }
        const key_spec *k = NULL;
        for (size_t j = 0; j < sizeof KEYS / sizeof KEYS[0]; j++)
            if (!strcmp(KEYS[j].section, it->table) && !strcmp(KEYS[j].key, it->key))
                k = &KEYS[j];
        if (!k)
            st = !*it->table ? cuzk_fail(err, CUZK_E_FORMAT, "%s:%d: key '%s' outside any section", path, it->line,
                                         it->key)
                             : bad(err, path, it, "unknown key");
        else
            st = apply_key(cfg, k, it, path, warn, ctx, err);
    }
    if (!st && n_new)
        st = check_duplicate_names(cfg, first_circuit_items, name_line, path, err);
    /* Every [[circuits]] entry needs all three keys. */
    for (size_t h = 0; h < doc.n_headers && !st; h++) {
        const toml_header *hd = &doc.headers[h];
        if (!hd->is_array)
            continue;
        cuzk_circuit_config *c = &cfg->circuits[first_circuit_items + (size_t)hd->index];
        const char *missing = !c->name ? "name" : !c->r1cs ? "r1cs" : !c->zkey ? "zkey" : NULL;
        if (missing) {
            st = cuzk_fail(err, CUZK_E_FORMAT, "%s:%d: [[circuits]] entry lacks '%s'", path, hd->line, missing);
        } else {
            char where[4200];
            snprintf(where, sizeof where, "%.4096s:%d", path, hd->line);
            st = cuzk_config_set_string(&c->where, where, err);
        }
    }
    free(name_line);
    toml_doc_free(&doc);
    return st;
}

cuzk_status cuzk_config_load_file(cuzk_server_config *cfg, const char *path, bool required, bool *found,
                                  void (*warn)(void *ctx, const char *msg), void *ctx, cuzk_error *err)
{
    if (found)
        *found = false;
    struct stat sb;
    if (!required && stat(path, &sb) != 0 && errno == ENOENT)
        return CUZK_OK;
    char *buf;
    size_t len;
    cuzk_status st = cuzk_file_read(path, CUZK_CONFIG_MAX_BYTES, true, &buf, &len, err);
    if (st)
        return st;
    if (found)
        *found = true;
    st = cuzk_config_apply_toml(cfg, buf, len, path, warn, ctx, err);
    free(buf);
    return st;
}
