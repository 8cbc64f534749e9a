/* `cuzk daemon`: run the proving daemon (src/server/daemon.h). */
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "server/daemon.h"

static const char USAGE[] =
    "usage: cuzk daemon [--config FILE] [--listen ADDR] [--status-listen ADDR] [--log-level L] [--check-config]\n"
    "\n"
    "  -c, --config FILE        TOML config (default /data/zk/cuzk.toml; missing = defaults)\n"
    "  -l, --listen ADDR        gRPC address: unix:///path.sock or IP:port (overrides daemon.listen)\n"
    "      --status-listen ADDR HTTP /status, /metrics, /healthz on IP:port (overrides daemon.status_listen)\n"
    "      --log-level L        error, warn, info or debug (overrides logging.level)\n"
    "      --check-config       validate the config, the files it names ([[circuits]], TLS, token, log file)\n"
    "                           the prover backend ([gpus]: opened as the daemon would), the engine over it\n"
    "                           ([memory] budget, the backend's pinned staging: started as the daemon would)\n"
    "                           the parameter files in [srs] param_cache (missing: a warning) and\n"
    "                           [srs] cache_dir (something other than a directory: an error), then\n"
    "                           exit: 0 valid, 2 not\n"
    "\n"
    "SIGTERM/SIGINT: finish running jobs within daemon.shutdown_grace, cancel the rest, exit 0.\n"
    "SIGHUP: reopen logging.file, apply logging.level, read auth_token_file again (others need a restart).\n"
    "Under systemd (Type=notify) it reports READY=1 once serving.\n";

int cmd_daemon(int argc, char **argv)
{
    cuzk_daemon_args a = {0};
    for (int i = 1; i < argc; i++) {
        const char *o = argv[i];
        const char **dst = !strcmp(o, "-c") || !strcmp(o, "--config")     ? &a.config_path
                           : !strcmp(o, "-l") || !strcmp(o, "--listen")    ? &a.listen
                           : !strcmp(o, "--status-listen")                 ? &a.status_listen
                           : !strcmp(o, "--log-level")                     ? &a.log_level
                                                                           : NULL;
        if (!strcmp(o, "--check-config")) {
            a.check_config = true;
            continue;
        }
        if (!strcmp(o, "-h") || !strcmp(o, "--help")) {
            fputs(USAGE, stdout);
            return CLI_OK;
        }
        if (!dst) {
            fprintf(stderr, "cuzk daemon: unknown option '%s'\n%s", o, USAGE);
            return CLI_ERROR;
        }
        if (i + 1 >= argc) {
            fprintf(stderr, "cuzk daemon: %s needs a value\n%s", o, USAGE);
            return CLI_ERROR;
        }
        *dst = argv[++i];
    }
    return cuzk_daemon_run(&a);
}
