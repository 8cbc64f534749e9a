/* Streaming JSON writer; contracts in json_out.h. */
#include "common/json_out.h"

#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void cuzk_json_init(cuzk_json *j)
{
    memset(j, 0, sizeof *j);
}

static void put(cuzk_json *j, const char *p, size_t n)
{
    if (j->oom)
        return;
    if (j->len + n + 1 > j->cap) {
        size_t cap = j->cap ? j->cap : 256;
        while (cap < j->len + n + 1)
            cap *= 2;
        char *s = realloc(j->s, cap);
        if (!s) {
            j->oom = true;
            return;
        }
        j->s = s, j->cap = cap;
    }
    memcpy(j->s + j->len, p, n);
    j->len += n;
    j->s[j->len] = 0;
}

static void put_escaped(cuzk_json *j, const char *v)
{
    put(j, "\"", 1);
    for (const unsigned char *p = (const unsigned char *)v; *p; p++) {
        char e[8];
        if (*p == '"' || *p == '\\') {
            e[0] = '\\', e[1] = (char)*p;
            put(j, e, 2);
        } else if (*p < 0x20) {
            snprintf(e, sizeof e, "\\u%04x", *p);
            put(j, e, 6);
        } else {
            put(j, (const char *)p, 1);
        }
    }
    put(j, "\"", 1);
}

/* The comma before a value and its key, if any. */
static void member(cuzk_json *j, const char *key)
{
    if (j->need_comma)
        put(j, ",", 1);
    if (key) {
        put_escaped(j, key);
        put(j, ":", 1);
    }
    j->need_comma = true;
}

void cuzk_json_begin_object(cuzk_json *j, const char *key)
{
    member(j, key);
    put(j, "{", 1);
    j->need_comma = false;
}

void cuzk_json_end_object(cuzk_json *j)
{
    put(j, "}", 1);
    j->need_comma = true;
}

void cuzk_json_begin_array(cuzk_json *j, const char *key)
{
    member(j, key);
    put(j, "[", 1);
    j->need_comma = false;
}

void cuzk_json_end_array(cuzk_json *j)
{
    put(j, "]", 1);
    j->need_comma = true;
}

void cuzk_json_string(cuzk_json *j, const char *key, const char *v)
{
    member(j, key);
    if (v)
        put_escaped(j, v);
    else
        put(j, "null", 4);
}

void cuzk_json_int(cuzk_json *j, const char *key, int64_t v)
{
    char b[32];
    member(j, key);
    put(j, b, (size_t)snprintf(b, sizeof b, "%" PRId64, v));
}

void cuzk_json_uint(cuzk_json *j, const char *key, uint64_t v)
{
    char b[32];
    member(j, key);
    put(j, b, (size_t)snprintf(b, sizeof b, "%" PRIu64, v));
}

void cuzk_json_real(cuzk_json *j, const char *key, double v)
{
    member(j, key);
    if (!isfinite(v)) {
        put(j, "null", 4);
        return;
    }
    char b[40];
    int n = 0;
    for (int prec = 1; prec <= 17; prec++) { /* the shortest form that reads back exactly */
        n = snprintf(b, sizeof b, "%.*g", prec, v);
        if (strtod(b, NULL) == v)
            break;
    }
    if (!strpbrk(b, ".eEn"))
        n += snprintf(b + n, sizeof b - (size_t)n, ".0");
    put(j, b, (size_t)n);
}

void cuzk_json_bool(cuzk_json *j, const char *key, bool v)
{
    member(j, key);
    put(j, v ? "true" : "false", v ? 4 : 5);
}

void cuzk_json_null(cuzk_json *j, const char *key)
{
    member(j, key);
    put(j, "null", 4);
}

const char *cuzk_json_text(const cuzk_json *j)
{
    return j->oom ? NULL : j->s ? j->s : "";
}

void cuzk_json_free(cuzk_json *j)
{
    free(j->s);
    cuzk_json_init(j);
}
