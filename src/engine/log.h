/* Tiny leveled logger for the engine layer.
 *
 * One process-wide level (default INFO) and one sink (default stderr). Lines look like
 * "[    12.345] DEBUG engine: text" where the number is seconds since the first log call
 * (CLOCK_MONOTONIC). Debug-level lines (e.g. the flight counters after every partition)
 * cost one relaxed atomic load when disabled: use CUZK_LOGD so the arguments are not even
 * evaluated then, which keeps the hot path off stderr at the default level.
 *
 * Thread-safety: every function may be called from any thread; a line is written with one
 * locked fprintf so lines from different threads never interleave.
 */
#ifndef CUZK_ENGINE_LOG_H
#define CUZK_ENGINE_LOG_H

#include <stdbool.h>
#include <stdio.h>

#include "common/status.h"

typedef enum {
    CUZK_LOG_ERROR = 0,
    CUZK_LOG_WARN = 1,
    CUZK_LOG_INFO = 2,
    CUZK_LOG_DEBUG = 3,
} cuzk_log_level;

/* Set the most verbose level that is written (lines above it are dropped). */
void cuzk_log_set_level(cuzk_log_level level);
cuzk_log_level cuzk_log_get_level(void);
/* True when a line of `level` would be written. */
bool cuzk_log_enabled(cuzk_log_level level);
/* Redirect output to `sink` (NULL restores stderr). The caller keeps ownership of the FILE
 * and must keep it open while logging may happen. */
void cuzk_log_set_sink(FILE *sink);
/* Parse "error", "warn", "info" or "debug" (case-sensitive). Errors: CUZK_E_INVALID_ARG
 * naming the string. */
cuzk_status cuzk_log_parse_level(const char *s, cuzk_log_level *out, cuzk_error *err);
/* Write one line (a newline is appended) if `level` is enabled. */
void cuzk_log(cuzk_log_level level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

#define CUZK_LOGD(...)                                 \
    do {                                               \
        if (cuzk_log_enabled(CUZK_LOG_DEBUG))          \
            cuzk_log(CUZK_LOG_DEBUG, __VA_ARGS__);     \
    } while (0)

#endif
