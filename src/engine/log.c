#include "engine/log.h"

#include <pthread.h>
#include <stdarg.h>
#include <stdatomic.h>
#include <string.h>
#include <time.h>

static _Atomic int g_level = CUZK_LOG_INFO;
static pthread_mutex_t g_mu = PTHREAD_MUTEX_INITIALIZER;
static FILE *g_sink;            /* guarded by g_mu; NULL = stderr */
static struct timespec g_epoch; /* guarded by g_mu */
static bool g_epoch_set;        /* guarded by g_mu */

static const char *const level_names[] = {"ERROR", "WARN", "INFO", "DEBUG"};

void cuzk_log_set_level(cuzk_log_level level)
{
    atomic_store_explicit(&g_level, (int)level, memory_order_relaxed);
}

cuzk_log_level cuzk_log_get_level(void)
{
    return (cuzk_log_level)atomic_load_explicit(&g_level, memory_order_relaxed);
}

bool cuzk_log_enabled(cuzk_log_level level)
{
    return (int)level <= atomic_load_explicit(&g_level, memory_order_relaxed);
}

void cuzk_log_set_sink(FILE *sink)
{
    pthread_mutex_lock(&g_mu);
    g_sink = sink;
    pthread_mutex_unlock(&g_mu);
}

cuzk_status cuzk_log_parse_level(const char *s, cuzk_log_level *out, cuzk_error *err)
{
    static const char *const lower[] = {"error", "warn", "info", "debug"};
    for (int i = 0; s && i < 4; i++) {
        if (strcmp(s, lower[i]) == 0) {
            *out = (cuzk_log_level)i;
            return CUZK_OK;
        }
    }
    return cuzk_fail(err, CUZK_E_INVALID_ARG,
                     "log level '%s' is not one of error, warn, info, debug", s ? s : "(null)");
}

void cuzk_log(cuzk_log_level level, const char *fmt, ...)
{
    if (!cuzk_log_enabled(level) || (unsigned)level > CUZK_LOG_DEBUG)
        return;
    char line[1024];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(line, sizeof line, fmt, ap);
    va_end(ap);

    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    pthread_mutex_lock(&g_mu);
    if (!g_epoch_set) {
        g_epoch = now;
        g_epoch_set = true;
    }
    double secs = (double)(now.tv_sec - g_epoch.tv_sec) + (double)(now.tv_nsec - g_epoch.tv_nsec) * 1e-9;
    FILE *out = g_sink ? g_sink : stderr;
    fprintf(out, "[%10.3f] %-5s engine: %s\n", secs, level_names[level], line);
    fflush(out);
    pthread_mutex_unlock(&g_mu);
}
