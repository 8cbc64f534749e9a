/* Daemon configuration: the reference cuzk TOML sections and keys (docs/engine.md#configuration)
 * plus this implementation's own, with strict validation.
 *
 * Differences from the reference, on purpose (docs/engine.md#configuration): unknown sections and
 * keys are errors; a value of the wrong type or an unparsable size/duration is an error
 * (never a silent 50 GiB / 300 s fallback); every error names file:line. Deprecated keys
 * (memory.pinned_budget, memory.working_memory_budget, srs.preload) and reference keys that
 * have no effect in this engine (scheduler.*, pipeline.enabled/slot_size/synthesis_concurrency/
 * max_parallel_synthesis/max_gpu_queue_depth) parse
 * and produce one warning each. synthesis.partition_workers and pipeline.synthesis_lookahead
 * are NOT deprecated here: they are the engine's permit count and channel look-ahead
 * (engine.h).
 *
 * Sizes: an integer (bytes) or a string "<int>[B|KiB|MiB|GiB|TiB|KB|MB|GB|TB]" (cuzk_parse_size,
 * engine/budget.h).
 * Durations: an integer (seconds) or a string "<int>(ms|s|m|h)".
 *
 * Thread-safety: a config is plain data after loading; read it from any thread.
 */
#ifndef CUZK_SERVER_CONFIG_H
#define CUZK_SERVER_CONFIG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

#define CUZK_DEFAULT_CONFIG_PATH "/data/zk/cuzk.toml"
#define CUZK_DEFAULT_LISTEN "unix:///run/curio/cuzk.sock"
/* Upper bound of [gpus] gpu_threads and [synthesis] threads (0 = all CPUs). */
#define CUZK_CONFIG_MAX_THREADS 1024u
/* Lower bound of [daemon] result_retention: a finished result must outlive the gap between
 * SubmitProof and the AwaitProof that collects it, so 0 ("never kept") is refused. */
#define CUZK_CONFIG_MIN_RETENTION_MS 1000u

/* Largest config file read (1 MiB; the example config is about 6 KiB). Keeps a malformed
 * file from costing more than a moment to parse. */
#define CUZK_CONFIG_MAX_BYTES ((size_t)1 << 20)

/* One [[circuits]] entry: a circom circuit served as ProofKind CIRCUIT under `name`. */
/* [srs] pce: when Filecoin partitions synthesize through their circuit's PCE. */
typedef enum {
    CUZK_PCE_OFF = 0, /* false: direct synthesis only */
    CUZK_PCE_ON,      /* true: every Filecoin circuit */
    CUZK_PCE_AUTO,    /* "auto": the circuits where it measured faster (fc_job_pce_faster) */
} cuzk_pce_mode;

typedef struct {
    char *name; /* unique; must not start with "synthetic-" */
    char *r1cs; /* path of the .r1cs */
    char *zkey; /* path of the snarkjs .zkey (proving key) */
    char *where; /* "file:line" of the entry's [[circuits]] header, for messages */
} cuzk_circuit_config;

typedef struct {
    /* [daemon] */
    char *listen;                 /* "unix:///abs/path.sock" or "host:port" / "[IPv6]:port" */
    char *status_listen;          /* HTTP "IP:port" / "[IPv6]:port"; "" = disabled */
    uint32_t socket_mode;         /* socket_mode, octal string "0660" (default) */
    uint64_t max_message_bytes;   /* max_message_size, default 256 MiB (>= 1 KiB) */
    uint64_t shutdown_grace_ms;   /* shutdown_grace, default 30 s */
    uint64_t result_retention_ms; /* result_retention, default 10 m */
    uint32_t max_jobs;            /* unfinished jobs accepted at once, default 1024 */
    char *tls_cert;               /* PEM certificate chain for TLS on a TCP listen; "" = plain TCP */
    char *tls_key;                /* PEM private key of tls_cert; set with tls_cert */
    char *tls_client_ca;          /* PEM CA bundle: clients must present a certificate it signed
                                     (mutual TLS); "" = no client certificate asked */
    char *journal_dir;            /* durable jobs (journal.h); "" = none (default) */
    uint64_t journal_max_bytes;   /* journal_max_size: bound of the journal's entries, default 32 GiB */
    char *auth_token_file;        /* file holding the bearer token that gRPC calls and HTTP
                                     /status, /metrics must carry; "" = none (security.h) */
    /* [srs] */
    char *param_cache;            /* official v28 .params/.vk directory, default /data/zk/params; the
                                     environment variable FIL_PROOFS_PARAMETER_CACHE overrides it */
    char *srs_cache_dir;          /* cache_dir: converted point caches; "" = $XDG_CACHE_HOME/cuzk,
                                     ~/.cache/cuzk or /var/tmp/cuzk-cache */
    bool srs_verify_params;       /* verify_params: BLAKE2b manifest digests (false: test params) */
    bool srs_verify_cache;        /* verify_cache: checksum every point cache section when loading
                                     (default true) */
    cuzk_pce_mode srs_pce;        /* pce: Filecoin partitions through pre-compiled constraint
                                     evaluators in cache_dir: "auto" (default: the circuits
                                     where the PCE is faster, fc_job_pce_faster), true, false */
    bool srs_lock_memory;         /* lock_memory: mlock resident (HOT) parameters (default false) */
    /* [memory] */
    bool memory_auto;             /* total_budget = "auto" (default) */
    uint64_t total_budget;        /* bytes, when !memory_auto */
    uint64_t safety_margin;       /* default 5 GiB */
    bool abc_pool;                /* partition a/b/c from the engine's reused buffer pool (default true) */
    uint64_t abc_pool_idle_ms;    /* abc_pool_idle: free pool buffers unused this long are unmapped
                                     (default 60 s; 0 = only when the budget needs the room) */
    /* [gpus] */
    uint32_t gpu_threads;         /* CPU prover threads (the CPU backend; the GPU backend's B_G2
                                     MSM, scalar preparation and fallback); 0 = all CPUs */
    uint32_t gpu_workers_per_device; /* default 2 (reference); >= 1 */
    char *gpu_backend;            /* backend: "auto" (default) | "cuda" | "opencl" | "cpu"
                                     (backends/backends.h) */
    uint32_t *gpu_devices;        /* devices: indices of the chosen runtime; none = every one */
    size_t n_gpu_devices;
    bool gpu_fallback_to_cpu;     /* fallback_to_cpu: a partition whose device work fails is
                                     proved on the CPU (default false: a job error) */
    uint32_t gpu_memory_percent;  /* device_memory_percent: resident bases budget per device,
                                     percent of its memory, 1..100 (default 50) */
    uint64_t gpu_memory_limit;    /* device_memory_limit: ... or this size when smaller (0 = none) */
    uint64_t gpu_staging_bytes;   /* staging_buffer: pinned host staging per worker (default 32 MiB) */
    bool gpu_test_hooks;          /* test_hooks: honour CUZK_TEST_FIXED_RS / CUZK_GPU_FAIL (TESTS
                                     ONLY; default false: ignored with a warning) */
    /* [synthesis] */
    uint32_t synthesis_threads;   /* threads for circuit setup of synthetic circuits; 0 = all */
    uint32_t partition_workers;   /* engine synthesis permits, default 2, >= 1 */
    /* [pipeline] */
    uint32_t synthesis_lookahead; /* engine channel look-ahead, default 1 */
    uint32_t finalizer_threads;   /* engine finalizer pool, default 2, >= 1 */
    /* [logging] */
    char *log_level;              /* "error" | "warn" | "info" (default) | "debug" */
    bool log_json;                /* format = "json" (default "text") */
    char *log_file;               /* file = path: the log (stderr) appended there, reopened on
                                     SIGHUP (log rotation); "" = stderr as inherited (default) */
    /* [[circuits]] */
    cuzk_circuit_config *circuits;
    size_t n_circuits;
} cuzk_server_config;

/* Fill *cfg with the defaults above (allocates the strings). Errors: CUZK_E_NOMEM. */
cuzk_status cuzk_config_defaults(cuzk_server_config *cfg, cuzk_error *err);

/* Apply the TOML text `text` (path names it in messages) on top of *cfg (which holds
 * defaults). Warnings (deprecated / no-effect keys) are passed to `warn(ctx, "path:line:
 * message")` (may be NULL). Errors: CUZK_E_FORMAT with "path:line: ..." for syntax errors,
 * unknown sections/keys, wrong types, bad values and duplicate circuit names; CUZK_E_NOMEM.
 * On error *cfg may be partly updated; free it with cuzk_config_free. */
cuzk_status cuzk_config_apply_toml(cuzk_server_config *cfg, const char *text, size_t len, const char *path,
                                   void (*warn)(void *ctx, const char *msg), void *ctx, cuzk_error *err);

/* Load `path` on top of *cfg. If `required` is false and the file does not exist, *cfg is
 * left as is and *found (may be NULL) is false (the reference's behaviour for its default
 * path). The file may be a regular file, a pipe (bash's <(cmd)) or /dev/null; it is read
 * with cuzk_file_read (common/file_io.h), so a FIFO without a writer is an error at once,
 * never a hang. Errors as cuzk_config_apply_toml plus CUZK_E_IO (cannot open, a directory
 * or socket, an empty FIFO) and CUZK_E_FORMAT for a file over CUZK_CONFIG_MAX_BYTES. */
cuzk_status cuzk_config_load_file(cuzk_server_config *cfg, const char *path, bool required, bool *found,
                                  void (*warn)(void *ctx, const char *msg), void *ctx, cuzk_error *err);

/* Replace a string field (e.g. &cfg->listen) by a copy of `value`. Errors: CUZK_E_NOMEM. */
cuzk_status cuzk_config_set_string(char **field, const char *value, cuzk_error *err);

void cuzk_config_free(cuzk_server_config *cfg);

/* Compare two parsed configurations key by key: every key of the table
 * cuzk_config_apply_toml reads ([memory] total_budget as "auto" or its size, [gpus] devices
 * as the list) and the [[circuits]] entries as one item. Calls changed(ctx, name) (may be
 * NULL) for each key whose values differ, in table order, with name "[section] key" or
 * "[[circuits]]", and returns how many. Deprecated keys and keys without effect never count.
 * Pure; thread-safe on configurations nobody modifies. */
size_t cuzk_config_diff(const cuzk_server_config *a, const cuzk_server_config *b,
                        void (*changed)(void *ctx, const char *key), void *ctx);

/* Check a listen address before anything binds it (cuzk_config_apply_toml checks
 * daemon.listen and daemon.status_listen with it; the daemon checks its --listen and
 * --status-listen overrides). Accepted forms:
 *   "unix:///abs/path.sock"  (only when allow_unix; the path must be absolute and non-empty)
 *   "host:port"              host: an IPv4 literal or a name of letters, digits, '.', '-', '_'
 *   "[IPv6]:port"            the brackets are required for IPv6 literals
 *   ""                       only when allow_empty (the HTTP endpoint is disabled)
 * The port is explicit: 1 to 5 decimal digits, 0..65535 (0 = an ephemeral port). No scheme
 * other than unix:// (gRPC's dns:, ipv4:, ... targets are refused).
 * Errors: CUZK_E_INVALID_ARG with a message quoting the address and saying what is wrong. */
cuzk_status cuzk_config_check_listen(const char *addr, bool allow_empty, bool allow_unix, cuzk_error *err);

/* Parse a duration ("500ms", "30s", "5m", "1h", "90" = seconds) into milliseconds. Errors:
 * CUZK_E_INVALID_ARG naming the text. */
cuzk_status cuzk_parse_duration_ms(const char *s, uint64_t *out, cuzk_error *err);

#endif
