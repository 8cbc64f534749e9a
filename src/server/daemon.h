/* `cuzk daemon`: configuration, gRPC + HTTP servers, signal-driven graceful shutdown.
 *
 * Lifecycle: load the config (defaults, then the file, then the command-line overrides,
 * whose addresses are checked with cuzk_config_check_listen), check every [[circuits]]
 * entry's files (circuit_files.h; a missing or mismatched file stops the start with the
 * entry's file:line, exit 2), start the service (engine + registry), the gRPC server and,
 * when status_listen is set, the HTTP server; log one "serving" line with the bound ports;
 * wait for SIGTERM or SIGINT. Until the service starts (config and circuit files being
 * read), SIGTERM/SIGINT keep their default action: the process ends at once.
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
} cuzk_daemon_args;

/* Run the daemon until a signal; returns the process exit code (0 after a clean shutdown,
 * 2 for configuration or startup errors, reported on stderr). Installs SIGTERM/SIGINT
 * handlers (self-pipe) and ignores SIGPIPE; call it once per process. */
int cuzk_daemon_run(const cuzk_daemon_args *args);

#endif
