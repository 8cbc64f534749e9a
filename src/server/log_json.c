/* JSON-lines log sink (log_json.h). */
#define _GNU_SOURCE
#include "server/log_json.h"

#include <ctype.h>
#include <jansson.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    FILE *out;
    char line[4096];
    size_t n;
} sink;

static void emit(sink *k)
{
    k->line[k->n] = 0;
    double ts = 0;
    char level[16] = "info";
    const char *msg = k->line;
    int off = 0;
    if (sscanf(k->line, " [ %lf] %15s %n", &ts, level, &off) >= 2 && off > 0) {
        msg = k->line + off;
        if (!strncmp(msg, "engine: ", 8))
            msg += 8;
        for (char *p = level; *p; p++)
            *p = (char)tolower((unsigned char)*p);
    }
    json_t *o = json_pack("{s:f,s:s,s:s}", "ts", ts, "level", level, "msg", msg);
    char *text = o ? json_dumps(o, JSON_COMPACT) : NULL;
    if (text) {
        fputs(text, k->out);
        fputc('\n', k->out);
        fflush(k->out);
    }
    free(text);
    json_decref(o);
    k->n = 0;
}

static ssize_t sink_write(void *cookie, const char *buf, size_t size)
{
    sink *k = cookie;
    for (size_t i = 0; i < size; i++) {
        if (buf[i] == '\n' || k->n + 1 >= sizeof k->line) {
            emit(k);
            if (buf[i] == '\n')
                continue;
        }
        k->line[k->n++] = buf[i];
    }
    return (ssize_t)size;
}

static int sink_close(void *cookie)
{
    sink *k = cookie;
    if (k->n)
        emit(k);
    free(k);
    return 0;
}

FILE *cuzk_log_json_open(FILE *out)
{
    sink *k = calloc(1, sizeof *k);
    if (!k)
        return NULL;
    k->out = out;
    cookie_io_functions_t io = {.write = sink_write, .close = sink_close};
    FILE *f = fopencookie(k, "w", io);
    if (!f) {
        free(k);
        return NULL;
    }
    setvbuf(f, NULL, _IOLBF, 0);
    return f;
}
