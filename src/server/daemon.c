/* `cuzk daemon` lifecycle (daemon.h). */
#define _GNU_SOURCE
#include "server/daemon.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "engine/log.h"
#include "server/circuit_files.h"
#include "server/config.h"
#include "server/grpc_server.h"
#include "server/http_server.h"
#include "server/log_json.h"
#include "server/security.h"
#include "server/service.h"

static void warn_cb(void *ctx, const char *msg)
{
    cuzk_log(CUZK_LOG_WARN, "config: %s", msg);
}

/* SIGTERM/SIGINT handler: writes the signal number to a self-pipe (async-signal-safe), so
 * the signal is seen whichever thread the kernel delivers it to. */
static int sig_pipe[2] = {-1, -1};

static void on_signal(int sig)
{
    unsigned char b = (unsigned char)sig;
    int saved = errno;
    if (write(sig_pipe[1], &b, 1) < 0) {
        /* nothing to do: a full pipe already holds a pending signal */
    }
    errno = saved;
}

static int wait_signal(void)
{
    unsigned char b;
    for (;;) {
        ssize_t r = read(sig_pipe[0], &b, 1);
        if (r == 1)
            return b;
        if (r < 0 && errno != EINTR)
            return 0;
        if (r == 0)
            return 0;
    }
}

/* Waits for a second signal during the drain and cuts the grace period short. */
static void *second_signal_main(void *arg)
{
    cuzk_service *svc = arg;
    int sig = wait_signal();
    if (sig > 0) {
        cuzk_log(CUZK_LOG_WARN, "second signal (%s): cancelling the remaining jobs now", strsignal(sig));
        cuzk_service_drain(svc, 0);
    }
    return NULL;
}

/* Start-up warnings about listeners that other machines can reach unprotected. */
static void warn_exposed(const cuzk_server_config *cfg, cuzk_security *sec)
{
    bool tls = sec->cert_pem != NULL, token = cuzk_security_has_token(sec);
    bool is_unix = !strncmp(cfg->listen, "unix:", 5);
    if (!cuzk_listen_is_local(cfg->listen) && !tls && !token)
        cuzk_log(CUZK_LOG_WARN,
                 "gRPC listens on %s, a non-loopback address, in plain text without a token: whoever reaches the "
                 "port can submit and cancel proofs; set [daemon] tls_cert and tls_key, and auth_token_file",
                 cfg->listen);
    if (tls && is_unix)
        cuzk_log(CUZK_LOG_WARN, "[daemon] tls_cert applies to TCP listeners; the unix socket %s serves plain "
                 "HTTP/2 (guarded by socket_mode)", cfg->listen + 7);
    if (*cfg->status_listen && !cuzk_listen_is_local(cfg->status_listen) && !token)
        cuzk_log(CUZK_LOG_WARN,
                 "HTTP status listens on %s, a non-loopback address, without a token: /status and /metrics are "
                 "readable by whoever reaches the port; set [daemon] auth_token_file",
                 cfg->status_listen);
}

/* Warnings about a setup that cannot prove Filecoin proofs: a missing parameter directory,
 * and an explicit memory budget smaller than the smallest parameter file in it (the
 * parameters are charged to the budget while resident, so no proof of any circuit fits). */
static void warn_setup(const cuzk_server_config *cfg)
{
    DIR *d = opendir(cfg->param_cache);
    if (!d) {
        cuzk_log(CUZK_LOG_WARN,
                 "parameter directory %s: %s; Filecoin proofs are refused (FAILED_PRECONDITION) until it holds the "
                 "v28 .params/.vk files ([srs] param_cache; test-only ones: cuzk params gen)",
                 cfg->param_cache, strerror(errno));
        return;
    }
    uint64_t smallest = 0;
    char smallest_name[256] = "";
    struct dirent *de;
    while ((de = readdir(d))) {
        size_t n = strlen(de->d_name);
        struct stat st;
        if (n < 8 || strcmp(de->d_name + n - 7, ".params") || fstatat(dirfd(d), de->d_name, &st, 0) != 0)
            continue;
        if (!smallest || (uint64_t)st.st_size < smallest) {
            smallest = (uint64_t)st.st_size;
            snprintf(smallest_name, sizeof smallest_name, "%s", de->d_name);
        }
    }
    closedir(d);
    if (!smallest)
        cuzk_log(CUZK_LOG_WARN, "parameter directory %s holds no .params file: Filecoin proofs are refused until it "
                 "does", cfg->param_cache);
    else if (!cfg->memory_auto && cfg->total_budget < smallest)
        cuzk_log(CUZK_LOG_WARN,
                 "[memory] total_budget = %llu bytes is below the smallest parameter file in %s (%s, %llu bytes): "
                 "no Filecoin proof fits the budget",
                 (unsigned long long)cfg->total_budget, cfg->param_cache, smallest_name, (unsigned long long)smallest);
}

int cuzk_daemon_run(const cuzk_daemon_args *a)
{
    if (pipe2(sig_pipe, O_CLOEXEC) != 0) {
        fprintf(stderr, "cuzk daemon: pipe: %s\n", strerror(errno));
        return 2;
    }
    signal(SIGPIPE, SIG_IGN);

    cuzk_server_config cfg;
    cuzk_error err;
    FILE *json_sink = NULL;
    int rc = 2;
    if (cuzk_config_defaults(&cfg, &err)) {
        fprintf(stderr, "cuzk daemon: %s\n", err.msg);
        return 2;
    }
    const char *path = a->config_path ? a->config_path : CUZK_DEFAULT_CONFIG_PATH;
    bool found = false;
    cuzk_service *svc = NULL;
    cuzk_grpc_server *grpc = NULL;
    cuzk_http_server *http = NULL;
    cuzk_security sec;
    memset(&sec, 0, sizeof sec);
    pthread_mutex_init(&sec.mu, NULL);
    if (cuzk_config_load_file(&cfg, path, a->config_path != NULL, &found, warn_cb, NULL, &err) ||
        (a->listen && cuzk_config_set_string(&cfg.listen, a->listen, &err)) ||
        (a->status_listen && cuzk_config_set_string(&cfg.status_listen, a->status_listen, &err)) ||
        (a->log_level && cuzk_config_set_string(&cfg.log_level, a->log_level, &err))) {
        fprintf(stderr, "cuzk daemon: %s\n", err.msg);
        goto out;
    }
    /* The config file's addresses were checked while parsing; check the overrides here,
     * before gRPC or libmicrohttpd sees them. */
    const char *bad_option = NULL;
    if (a->listen && cuzk_config_check_listen(a->listen, false, true, &err))
        bad_option = "--listen";
    else if (a->status_listen && cuzk_config_check_listen(a->status_listen, true, false, &err))
        bad_option = "--status-listen";
    if (bad_option) {
        fprintf(stderr, "cuzk daemon: %s %s\n", bad_option, err.msg);
        goto out;
    }
    cuzk_log_level level;
    if (cuzk_log_parse_level(cfg.log_level, &level, &err)) {
        fprintf(stderr, "cuzk daemon: --log-level: %s\n", err.msg);
        goto out;
    }
    cuzk_log_set_level(level);
    if (cfg.log_json) {
        json_sink = cuzk_log_json_open(stderr);
        if (json_sink)
            cuzk_log_set_sink(json_sink);
    }
    if (!found)
        cuzk_log(CUZK_LOG_INFO, "config %s not found: using built-in defaults", path);
    else
        cuzk_log(CUZK_LOG_INFO, "config %s loaded", path);

    warn_setup(&cfg);
    /* Every [[circuits]] file must exist and match its partner now; the data stay lazy. */
    for (size_t i = 0; i < cfg.n_circuits; i++)
        if (cuzk_circuit_files_check(&cfg.circuits[i], &err)) {
            cuzk_log(CUZK_LOG_ERROR, "config: %s", err.msg);
            goto out;
        }
    cuzk_security_free(&sec);
    if (cuzk_security_load(&cfg, &sec, warn_cb, NULL, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "config: %s", err.msg);
        goto out;
    }
    warn_exposed(&cfg, &sec);
    /* From here on SIGTERM/SIGINT mean a graceful shutdown. Before, while the config and the
     * circuit files are read, they keep their default action and end the process at once. */
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(SIGTERM, &sa, NULL);
    sigaction(SIGINT, &sa, NULL);
    if (cuzk_service_create(&cfg, &svc, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "cannot start the engine: %s", err.msg);
        goto out;
    }
    int grpc_port = 0, http_port = 0;
    if (cuzk_grpc_server_start(svc, cfg.listen, cfg.socket_mode, cfg.max_message_bytes, &sec, &grpc, &grpc_port,
                               &err)) {
        cuzk_log(CUZK_LOG_ERROR, "gRPC: %s", err.msg);
        goto out;
    }
    if (*cfg.status_listen && cuzk_http_server_start(svc, cfg.status_listen, &sec, &http, &http_port, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "HTTP: %s", err.msg);
        goto out;
    }
    cuzk_log(CUZK_LOG_INFO, "serving cuzk.v1.ProvingEngine on %s (%s%s) grpc_port=%d; HTTP status %s http_port=%d",
             cfg.listen, sec.cert_pem && strncmp(cfg.listen, "unix:", 5) ? sec.client_ca_pem ? "mutual TLS" : "TLS"
                                                                        : "plain",
             cuzk_security_has_token(&sec) ? ", token" : "", grpc_port,
             *cfg.status_listen ? cfg.status_listen : "disabled", http_port);

    int sig = wait_signal();
    cuzk_log(CUZK_LOG_INFO, "%s: shutting down (grace %llu ms)", strsignal(sig),
             (unsigned long long)cfg.shutdown_grace_ms);
    /* new proofs are refused (UNAVAILABLE) from here; the gRPC server keeps answering the
     * other calls (GetStatus, AwaitProof) during the drain and shuts down after it */
    cuzk_service_stop_accepting(svc);
    pthread_t watcher;
    bool watching = pthread_create(&watcher, NULL, second_signal_main, svc) == 0;
    unsigned cancelled = cuzk_service_drain(svc, cfg.shutdown_grace_ms);
    if (watching) {
        on_signal(0); /* wake the watcher: 0 = no second signal */
        pthread_join(watcher, NULL);
    }
    if (cancelled)
        cuzk_log(CUZK_LOG_WARN, "cancelled %u unfinished job(s) at shutdown", cancelled);
    rc = 0;
out:
    cuzk_grpc_server_stop(grpc, 5000);
    cuzk_http_server_stop(http);
    cuzk_service_destroy(svc);
    cuzk_security_free(&sec);
    if (rc == 0)
        cuzk_log(CUZK_LOG_INFO, "stopped");
    cuzk_log_set_sink(NULL);
    if (json_sink)
        fclose(json_sink);
    cuzk_config_free(&cfg);
    return rc;
}
