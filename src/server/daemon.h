/* `cuzk daemon`: configuration, gRPC + HTTP servers, signals as a service manager sends them.
 *
 * Lifecycle: load the config (defaults, then the file, then the command-line overrides,
 * whose addresses are checked with cuzk_config_check_listen), open [logging] file, check
 * every [[circuits]] entry's files (circuit_files.h; a missing or mismatched file stops the
 * start with the entry's file:line, exit 2) and the TLS / token files (security.h), start
 * the service (engine + registry), the gRPC server and, when status_listen is set, the HTTP
 * server; log one "serving" line with the bound ports and tell systemd READY=1 (sd_notify,
 * a no-op without $NOTIFY_SOCKET); wait for SIGTERM or SIGINT. Until the service starts
 * (config and circuit files being read), SIGTERM/SIGINT keep their default action: the
 * process ends at once.
 * SIGHUP (RELOADING=1 ... READY=1): read the config again; apply logging.level and
 * logging.file, reopen the log file (rotation), read auth_token_file again; warn about each
 * changed key that needs a restart (listen, status_listen, TLS files, param_cache); a config
 * that fails to load is reported and the running one kept. SIGPIPE, SIGUSR1 and SIGUSR2 are
 * ignored; a SIGHUP that arrives during start-up is applied once serving.
 * check_config: everything up to the service start, plus the parameter files in
 * [srs] param_cache (a set with only one of .params / .vk, or an unreadable file, is an
 * error; a missing directory a warning); exit 0 when it all holds, 2 otherwise.
 * Then: refuse new proofs (UNAVAILABLE, /healthz 503) and stop accepting calls, let running
 * jobs finish for daemon.shutdown_grace, cancel the rest (their waiters get CANCELLED),
 * close the servers, remove the unix socket and exit 0. A second signal during the grace
 * period cuts it short.
 *
 * Logs go to stderr as text, or as JSON lines ({"ts":seconds,"level":"info","msg":"..."})
 * with logging.format = "json".
 */
#ifndef CUZK_SERVER_DAEMON_H
#define CUZK_SERVER_DAEMON_H

#include <stdbool.h>

typedef struct {
    const char *config_path;   /* NULL = CUZK_DEFAULT_CONFIG_PATH, optional (missing = defaults) */
    const char *listen;        /* NULL = from config */
    const char *status_listen; /* NULL = from config */
    const char *log_level;     /* NULL = from config */
    bool check_config;         /* validate and exit (cuzk daemon --check-config) */
} cuzk_daemon_args;

/* Run the daemon until a signal; returns the process exit code (0 after a clean shutdown,
 * 2 for configuration or startup errors, reported on stderr). Installs SIGTERM/SIGINT
 * handlers (self-pipe) and ignores SIGPIPE; call it once per process. */
int cuzk_daemon_run(const cuzk_daemon_args *args);

#endif
