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
#include <sys/stat.h>
#include <systemd/sd-daemon.h>
#include <unistd.h>

#include "kinds/filecoin/fc_srs.h"
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

/* SIGTERM/SIGINT/SIGHUP handler: writes the signal number to a self-pipe (async-signal-safe),
 * so the signal is seen whichever thread the kernel delivers it to. */
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

static void catch_signal(int sig)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_signal;
    sigemptyset(&sa.sa_mask);
    sa.sa_flags = SA_RESTART;
    sigaction(sig, &sa, NULL);
}

/* Point stderr (the log's sink, text or JSON) at `path`, appended; a rotated file is
 * replaced by a new one at the same path. With only_check the file is opened (created) and
 * closed, stderr stays. Errors: CUZK_E_IO naming the path. */
static cuzk_status open_log_file(const char *path, bool only_check, cuzk_error *err)
{
    int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0640);
    if (fd < 0)
        return cuzk_fail(err, CUZK_E_IO, "[logging] file %s: %s", path, strerror(errno));
    int r = only_check ? 0 : dup2(fd, STDERR_FILENO);
    int e = errno;
    close(fd);
    if (r < 0)
        return cuzk_fail(err, CUZK_E_IO, "[logging] file %s: dup2: %s", path, strerror(e));
    return CUZK_OK;
}

/* Defaults, then the config file, then the command-line overrides (checked here: the file's
 * addresses were checked while parsing). Errors are printed on stderr; returns false then. */
static bool load_config(const cuzk_daemon_args *a, cuzk_server_config *cfg, const char *path, bool *found)
{
    cuzk_error err;
    if (cuzk_config_defaults(cfg, &err) ||
        cuzk_config_load_file(cfg, path, a->config_path != NULL, found, warn_cb, NULL, &err) ||
        (a->listen && cuzk_config_set_string(&cfg->listen, a->listen, &err)) ||
        (a->status_listen && cuzk_config_set_string(&cfg->status_listen, a->status_listen, &err)) ||
        (a->log_level && cuzk_config_set_string(&cfg->log_level, a->log_level, &err))) {
        cuzk_log(CUZK_LOG_ERROR, "%s", err.msg);
        return false;
    }
    const char *bad_option = NULL;
    if (a->listen && cuzk_config_check_listen(a->listen, false, true, &err))
        bad_option = "--listen";
    else if (a->status_listen && cuzk_config_check_listen(a->status_listen, true, false, &err))
        bad_option = "--status-listen";
    if (bad_option) {
        cuzk_log(CUZK_LOG_ERROR, "%s %s", bad_option, err.msg);
        return false;
    }
    cuzk_log_level level;
    if (cuzk_log_parse_level(cfg->log_level, &level, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "--log-level: %s", err.msg);
        return false;
    }
    return true;
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

/* The checks that need no service: [[circuits]] files, TLS material and token, the log file. */
static bool check_files(const cuzk_server_config *cfg, cuzk_security *sec)
{
    cuzk_error err;
    for (size_t i = 0; i < cfg->n_circuits; i++)
        if (cuzk_circuit_files_check(&cfg->circuits[i], &err)) {
            cuzk_log(CUZK_LOG_ERROR, "config: %s", err.msg);
            return false;
        }
    cuzk_security_free(sec);
    if (cuzk_security_load(cfg, sec, warn_cb, NULL, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "config: %s", err.msg);
        return false;
    }
    return true;
}

/* --check-config: which Filecoin parameter sets param_cache holds (both .params and .vk
 * readable); a set with one file and not the other, or an unreadable file, is an error. A
 * param_cache that is not a directory is a warning (the daemon starts and serves the other
 * kinds; Filecoin proofs fail until it exists): *missing is set then. */
static bool check_params(const cuzk_server_config *cfg, bool *missing)
{
    static const char *const circuits[] = {"porep", "winning", "wpost", "snap", "snap-poseidon"};
    static const char *const sizes[] = {"2k", "8m", "512m", "32g", "64g"};
    fc_srs_config sc = {.param_cache = cfg->param_cache, .cache_dir = cfg->srs_cache_dir};
    fc_srs *m;
    cuzk_error err;
    if (fc_srs_create(&sc, &m, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "[srs] %s", err.msg);
        return false;
    }
    const char *dir = fc_srs_param_cache(m);
    struct stat sb;
    bool ok = true;
    /* the point caches' (and PCEs') directory: created when missing, so only something else
     * in its place is an error (every Filecoin proof would be refused) */
    const char *cache = fc_srs_cache_dir(m);
    if (cache && stat(cache, &sb) == 0 && !S_ISDIR(sb.st_mode)) {
        cuzk_log(CUZK_LOG_ERROR, "[srs] cache_dir %s is not a directory: every Filecoin proof would be refused", cache);
        ok = false;
    }
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode)) {
        cuzk_log(CUZK_LOG_WARN, "[srs] param_cache %s is not a directory: no Filecoin proof can run", dir);
        fc_srs_destroy(m);
        *missing = true;
        return ok;
    }
    char present[1024] = "";
    size_t n = 0, len = 0;
    for (size_t i = 0; i < sizeof circuits / sizeof circuits[0]; i++)
        for (size_t j = 0; j < sizeof sizes / sizeof sizes[0]; j++) {
            char name[48];
            snprintf(name, sizeof name, "%s-%s", circuits[i], sizes[j]);
            fc_circuit_id c;
            if (fc_circuit_id_parse(name, &c, &err))
                continue;
            char *params = fc_srs_file(m, &c, false), *vk = fc_srs_file(m, &c, true);
            bool hp = params && access(params, F_OK) == 0, hv = vk && access(vk, F_OK) == 0;
            bool rp = hp && access(params, R_OK) == 0, rv = hv && access(vk, R_OK) == 0;
            if (hp != hv) {
                cuzk_log(CUZK_LOG_ERROR, "[srs] %s: %s exists but %s does not", name, hp ? params : vk,
                         hp ? vk : params);
                ok = false;
            } else if (hp && !(rp && rv)) {
                cuzk_log(CUZK_LOG_ERROR, "[srs] %s: %s is not readable by this user", name, rp ? vk : params);
                ok = false;
            } else if (hp) {
                n++;
                len += (size_t)snprintf(present + len, sizeof present - len, "%s%s", len ? " " : "", name);
            }
            free(params);
            free(vk);
        }
    cuzk_log(CUZK_LOG_INFO, "[srs] param_cache %s: %zu Filecoin parameter set(s)%s%s", dir, n, n ? ": " : "",
             present);
    fc_srs_destroy(m);
    return ok;
}

/* A key SIGHUP does not apply: named for a restart (the two it applies are skipped). */
static void needs_restart(void *ctx, const char *key)
{
    (void)ctx;
    if (strcmp(key, "[logging] level") && strcmp(key, "[logging] file"))
        cuzk_log(CUZK_LOG_WARN, "SIGHUP: %s changed, needs a restart", key);
}

/* SIGHUP: reopen the log file, read the config again and apply what can change while
 * serving (log level and file, the token); name every other changed key
 * (cuzk_config_diff). A config that does not load changes nothing and is not "reloaded". */
static void reload(const cuzk_daemon_args *a, const char *path, cuzk_server_config *cfg, cuzk_security *sec)
{
    sd_notify(0, "RELOADING=1");
    cuzk_error err;
    /* first, so that what the reload reports lands in the new file */
    if (*cfg->log_file && open_log_file(cfg->log_file, false, &err))
        cuzk_log(CUZK_LOG_ERROR, "SIGHUP: %s; logging stays where it was", err.msg);
    cuzk_server_config next;
    bool found;
    bool loaded = load_config(a, &next, path, &found);
    if (!loaded) {
        cuzk_log(CUZK_LOG_ERROR, "SIGHUP: %s does not load (above); the running configuration stays", path);
    } else {
        if (strcmp(next.log_file, cfg->log_file) && *next.log_file) {
            if (open_log_file(next.log_file, false, &err))
                cuzk_log(CUZK_LOG_ERROR, "SIGHUP: %s; logging stays where it was", err.msg);
            else
                cuzk_config_set_string(&cfg->log_file, next.log_file, &err);
        }
        cuzk_log_level level;
        if (!cuzk_log_parse_level(next.log_level, &level, &err))
            cuzk_log_set_level(level);
        cuzk_config_diff(cfg, &next, needs_restart, NULL);
    }
    cuzk_config_free(&next);
    if (cuzk_security_reload_token(sec, &err))
        cuzk_log(CUZK_LOG_ERROR, "SIGHUP: [daemon] auth_token_file: %s; the previous token stays", err.msg);
    if (loaded)
        cuzk_log(CUZK_LOG_INFO, "SIGHUP: reloaded (log level %s%s%s%s)", cuzk_log_enabled(CUZK_LOG_DEBUG) ? "debug"
                 : cuzk_log_enabled(CUZK_LOG_INFO) ? "info" : cuzk_log_enabled(CUZK_LOG_WARN) ? "warn" : "error",
                 *cfg->log_file ? ", log file " : "", cfg->log_file, sec->token_path ? ", token read again" : "");
    sd_notify(0, "READY=1");
}

typedef struct {
    cuzk_service *svc;
    const char *log_file;
} drain_watch;

/* Waits for a second SIGTERM/SIGINT during the drain and cuts the grace period short; a
 * SIGHUP meanwhile only reopens the log file. */
static void *second_signal_main(void *arg)
{
    drain_watch *w = arg;
    for (;;) {
        int sig = wait_signal();
        cuzk_error err;
        if (sig == SIGHUP) {
            if (*w->log_file && open_log_file(w->log_file, false, &err))
                cuzk_log(CUZK_LOG_ERROR, "SIGHUP: %s", err.msg);
            continue;
        }
        if (sig > 0) {
            cuzk_log(CUZK_LOG_WARN, "second signal (%s): cancelling the remaining jobs now", strsignal(sig));
            cuzk_service_drain(w->svc, 0);
        }
        return NULL;
    }
}

int cuzk_daemon_run(const cuzk_daemon_args *a)
{
    if (pipe2(sig_pipe, O_CLOEXEC) != 0) {
        fprintf(stderr, "cuzk daemon: pipe: %s\n", strerror(errno));
        return 2;
    }
    /* Signals that must never end the daemon: a client gone mid-write (SIGPIPE), stray user
     * signals, and SIGHUP, which is queued for the reload once the service runs. */
    signal(SIGPIPE, SIG_IGN);
    signal(SIGUSR1, SIG_IGN);
    signal(SIGUSR2, SIG_IGN);
    catch_signal(SIGHUP);

    cuzk_server_config cfg;
    cuzk_error err;
    FILE *json_sink = NULL;
    int rc = 2;
    const char *path = a->config_path ? a->config_path : CUZK_DEFAULT_CONFIG_PATH;
    bool found = false;
    cuzk_service *svc = NULL;
    cuzk_grpc_server *grpc = NULL;
    cuzk_http_server *http = NULL;
    cuzk_security sec;
    memset(&sec, 0, sizeof sec);
    pthread_mutex_init(&sec.mu, NULL);
    if (!load_config(a, &cfg, path, &found))
        goto out;
    cuzk_log_level level;
    cuzk_log_parse_level(cfg.log_level, &level, &err);
    cuzk_log_set_level(level);
    if (*cfg.log_file && open_log_file(cfg.log_file, a->check_config, &err)) {
        cuzk_log(CUZK_LOG_ERROR, "%s", err.msg);
        goto out;
    }
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
    if (!check_files(&cfg, &sec))
        goto out;
    warn_exposed(&cfg, &sec);
    if (a->check_config) {
        /* the daemon's own refusals: the backend it would open (devices, kernels), the
         * engine it would start over it (memory budget, the backend's staging charged to
         * it), the parameter files; a missing param_cache only warns, as the daemon starts
         * anyway */
        char backend[256];
        bool missing = false;
        if (cuzk_service_check_backend(&cfg, backend, sizeof backend, &err)) {
            cuzk_log(CUZK_LOG_ERROR, "config: %s", err.msg);
            goto out;
        }
        cuzk_log(CUZK_LOG_INFO, "prover backend: %s", backend);
        if (check_params(&cfg, &missing)) {
            if (missing)
                cuzk_log(CUZK_LOG_WARN, "config %s: OK, but [srs] param_cache is not a directory (above): the daemon "
                         "starts and refuses every Filecoin proof until it exists", path);
            else
                cuzk_log(CUZK_LOG_INFO, "config %s: OK", path);
            rc = 0;
        }
        goto out;
    }
    /* From here on SIGTERM/SIGINT mean a graceful shutdown. Before, while the config and the
     * circuit files are read, they keep their default action and end the process at once. */
    catch_signal(SIGTERM);
    catch_signal(SIGINT);
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
    const char *mode = sec.cert_pem && strncmp(cfg.listen, "unix:", 5) ? sec.client_ca_pem ? "mutual TLS" : "TLS"
                                                                       : "plain";
    cuzk_log(CUZK_LOG_INFO, "serving cuzk.v1.ProvingEngine on %s (%s%s) grpc_port=%d; HTTP status %s http_port=%d",
             cfg.listen, mode, cuzk_security_has_token(&sec) ? ", token" : "", grpc_port,
             *cfg.status_listen ? cfg.status_listen : "disabled", http_port);
    sd_notifyf(0, "READY=1\nSTATUS=serving on %s (%s)\nMAINPID=%ld", cfg.listen, mode, (long)getpid());

    int sig;
    while ((sig = wait_signal()) == SIGHUP)
        reload(a, path, &cfg, &sec);
    sd_notify(0, "STOPPING=1");
    cuzk_log(CUZK_LOG_INFO, "%s: shutting down (grace %llu ms)", strsignal(sig),
             (unsigned long long)cfg.shutdown_grace_ms);
    /* new proofs are refused (UNAVAILABLE) from here; the gRPC server keeps answering the
     * other calls (GetStatus, AwaitProof) during the drain and shuts down after it */
    cuzk_service_stop_accepting(svc);
    pthread_t watcher;
    drain_watch w = {svc, cfg.log_file};
    bool watching = pthread_create(&watcher, NULL, second_signal_main, &w) == 0;
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
    if (rc == 0 && !a->check_config)
        cuzk_log(CUZK_LOG_INFO, "stopped");
    cuzk_log_set_sink(NULL);
    if (json_sink)
        fclose(json_sink);
    cuzk_config_free(&cfg);
    return rc;
}
