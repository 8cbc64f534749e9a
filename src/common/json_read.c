/* Streaming JSON tokenizer; contracts in json_read.h. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/base64.h"
#include "common/json_read.h"

static inline bool is_ws(uint8_t c)
{
    return c == ' ' || c == '\n' || c == '\r' || c == '\t';
}

static inline void ws(cuzk_json_reader *j)
{
    while (j->p < j->end && is_ws(*j->p))
        j->p++;
}

void cuzk_json_read_init(cuzk_json_reader *j, const uint8_t *buf, size_t len, const char *what, cuzk_error *err)
{
    memset(j, 0, sizeof *j);
    j->start = j->p = buf;
    j->end = buf + len;
    j->what = what;
    j->err = err;
}

cuzk_status cuzk_json_read_fail(cuzk_json_reader *j, cuzk_status code, const char *fmt, ...)
{
    j->status = code;
    if (j->err) {
        char path[256], msg[320];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        cuzk_fp_format(&j->fp, "$", path, sizeof path);
        cuzk_fail(j->err, code, "%s: %s: %s (byte offset %zu)", j->what, path, msg, (size_t)(j->p - j->start));
    }
    return code;
}

/* What is at the cursor, for "expected X, found Y". */
static const char *found(const cuzk_json_reader *j, char buf[16])
{
    if (j->p >= j->end)
        return "end of input";
    uint8_t c = *j->p;
    if (c == '"')
        return "a string";
    if (c == '{')
        return "an object";
    if (c == '[')
        return "an array";
    if (c == '-' || (c >= '0' && c <= '9'))
        return "a number";
    /* a literal only when it is spelled out: "{not json" is not null */
    size_t left = (size_t)(j->end - j->p);
    if (c == 'n' && left >= 4 && !memcmp(j->p, "null", 4))
        return "null";
    if ((c == 't' && left >= 4 && !memcmp(j->p, "true", 4)) || (c == 'f' && left >= 5 && !memcmp(j->p, "false", 5)))
        return "a boolean";
    if (c > 0x20 && c < 0x7f)
        snprintf(buf, 16, "'%c'", c);
    else
        snprintf(buf, 16, "byte 0x%02x", c);
    return buf;
}

static cuzk_status expected(cuzk_json_reader *j, const char *what)
{
    char b[16];
    return cuzk_json_read_fail(j, CUZK_E_FORMAT, "expected %s, found %s", what, found(j, b));
}

static cuzk_status enter(cuzk_json_reader *j, uint8_t open, const char *what)
{
    ws(j);
    if (j->p >= j->end || *j->p != open)
        return expected(j, what);
    if (j->depth >= CUZK_JSON_READ_MAX_DEPTH)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "nesting deeper than %d", CUZK_JSON_READ_MAX_DEPTH);
    j->depth++;
    j->p++;
    return CUZK_OK;
}

cuzk_status cuzk_json_read_obj_begin(cuzk_json_reader *j)
{
    return enter(j, '{', "an object");
}

cuzk_status cuzk_json_read_arr_begin(cuzk_json_reader *j)
{
    return enter(j, '[', "an array");
}

/* Separator or close: 1 = another item follows (comma consumed unless first), 0 = closed. */
static int next_item(cuzk_json_reader *j, bool first, uint8_t close, const char *what)
{
    ws(j);
    if (j->p >= j->end) {
        expected(j, what);
        return -1;
    }
    if (*j->p == close) {
        j->p++;
        j->depth--;
        return 0;
    }
    if (!first) {
        if (*j->p != ',') {
            expected(j, what);
            return -1;
        }
        j->p++;
        ws(j);
        if (j->p < j->end && *j->p == close) {
            cuzk_json_read_fail(j, CUZK_E_FORMAT, "trailing comma");
            return -1;
        }
    }
    return 1;
}

static int hexval(uint8_t c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

cuzk_status cuzk_json_read_string(cuzk_json_reader *j, cuzk_json_read_str *s)
{
    ws(j);
    if (j->p >= j->end || *j->p != '"')
        return expected(j, "a string");
    const uint8_t *q = j->p + 1, *end = j->end;
    bool esc = false;
    for (;;) {
        while (q < end && *q != '"' && *q != '\\' && *q >= 0x20)
            q++;
        if (q >= end) {
            j->p = q;
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "unterminated string");
        }
        if (*q == '"')
            break;
        if (*q < 0x20) {
            j->p = q;
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "control character 0x%02x in a string", *q);
        }
        esc = true;
        if (q + 1 >= end) {
            j->p = q + 1;
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "unterminated string");
        }
        uint8_t c = q[1];
        if (c == 'u') {
            for (int k = 2; k < 6; k++)
                if (q + k >= end || hexval(q[k]) < 0) {
                    j->p = q;
                    return cuzk_json_read_fail(j, CUZK_E_FORMAT, "bad \\u escape in a string");
                }
            q += 6;
        } else if (c && strchr("\"\\/bfnrt", c)) {
            q += 2;
        } else {
            j->p = q;
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "bad escape in a string");
        }
    }
    s->s = (const char *)j->p + 1;
    s->n = (size_t)(q - (j->p + 1));
    s->escaped = esc;
    j->p = q + 1;
    return CUZK_OK;
}

static unsigned hex4(const char *s)
{
    return (unsigned)(hexval((uint8_t)s[0]) << 12 | hexval((uint8_t)s[1]) << 8 | hexval((uint8_t)s[2]) << 4 |
                      hexval((uint8_t)s[3]));
}

/* Decode an already scanned span into out (room for s->n + 1 bytes: escapes never grow);
 * returns the length or -1 for a lone surrogate. */
static long decode_into(const cuzk_json_read_str *s, uint8_t *out)
{
    size_t o = 0;
    for (size_t i = 0; i < s->n;) {
        char c = s->s[i];
        if (c != '\\') {
            out[o++] = (uint8_t)c;
            i++;
            continue;
        }
        char e = s->s[i + 1];
        i += 2;
        switch (e) {
        case 'b': out[o++] = '\b'; break;
        case 'f': out[o++] = '\f'; break;
        case 'n': out[o++] = '\n'; break;
        case 'r': out[o++] = '\r'; break;
        case 't': out[o++] = '\t'; break;
        case 'u': {
            unsigned cp = hex4(s->s + i);
            i += 4;
            if (cp >= 0xdc00 && cp <= 0xdfff)
                return -1;
            if (cp >= 0xd800 && cp <= 0xdbff) {
                if (i + 6 > s->n || s->s[i] != '\\' || s->s[i + 1] != 'u')
                    return -1;
                unsigned lo = hex4(s->s + i + 2);
                if (lo < 0xdc00 || lo > 0xdfff)
                    return -1;
                i += 6;
                cp = 0x10000 + ((cp - 0xd800) << 10) + (lo - 0xdc00);
            }
            if (cp < 0x80) {
                out[o++] = (uint8_t)cp;
            } else if (cp < 0x800) {
                out[o++] = (uint8_t)(0xc0 | cp >> 6);
                out[o++] = (uint8_t)(0x80 | (cp & 0x3f));
            } else if (cp < 0x10000) {
                out[o++] = (uint8_t)(0xe0 | cp >> 12);
                out[o++] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
                out[o++] = (uint8_t)(0x80 | (cp & 0x3f));
            } else {
                out[o++] = (uint8_t)(0xf0 | cp >> 18);
                out[o++] = (uint8_t)(0x80 | (cp >> 12 & 0x3f));
                out[o++] = (uint8_t)(0x80 | (cp >> 6 & 0x3f));
                out[o++] = (uint8_t)(0x80 | (cp & 0x3f));
            }
            break;
        }
        default: out[o++] = (uint8_t)e; break; /* " \ / */
        }
    }
    out[o] = 0;
    return (long)o;
}

cuzk_status cuzk_json_read_string_decode(cuzk_json_reader *j, const cuzk_json_read_str *s, uint8_t **out, size_t *len)
{
    *out = malloc(s->n + 1);
    if (!*out)
        return cuzk_json_read_fail(j, CUZK_E_NOMEM, "out of memory decoding a string of %zu bytes", s->n);
    long n = decode_into(s, *out);
    if (n < 0) {
        free(*out);
        *out = NULL;
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "lone UTF-16 surrogate in a string");
    }
    *len = (size_t)n;
    return CUZK_OK;
}

cuzk_status cuzk_json_read_base64(cuzk_json_reader *j, uint8_t **out, size_t *len)
{
    cuzk_json_read_str s;
    cuzk_status st = cuzk_json_read_string(j, &s);
    if (st)
        return st;
    uint8_t *unesc = NULL;
    const char *text = s.s;
    size_t n = s.n, bad = 0;
    if (s.escaped) {
        if ((st = cuzk_json_read_string_decode(j, &s, &unesc, &n)))
            return st;
        text = (const char *)unesc;
    }
    st = cuzk_base64_decode(text, n, out, len, &bad);
    free(unesc);
    if (st == CUZK_E_NOMEM)
        return cuzk_json_read_fail(j, st, "out of memory decoding %zu base64 characters", n);
    if (st && !s.escaped && bad < n)
        j->p = (const uint8_t *)s.s + bad; /* the byte offset of the bad character itself */
    if (st)
        return cuzk_json_read_fail(j, st, "not standard base64: %s at character %zu of %zu",
                            bad == n ? "length not a multiple of 4" : "bad character", bad, n);
    return CUZK_OK;
}

int cuzk_json_read_obj_next(cuzk_json_reader *j, bool first, cuzk_json_read_str *key)
{
    int r = next_item(j, first, '}', first ? "a key or '}'" : "',' or '}'");
    if (r != 1)
        return r;
    if (cuzk_json_read_string(j, key) != CUZK_OK)
        return -1;
    if (key->escaped) {
        cuzk_json_read_str raw = *key;
        long n = raw.n < sizeof j->keybuf ? decode_into(&raw, (uint8_t *)j->keybuf) : 0;
        if (n < 0) {
            cuzk_json_read_fail(j, CUZK_E_FORMAT, "lone UTF-16 surrogate in a key");
            return -1;
        }
        key->s = j->keybuf;
        key->n = (size_t)n;
        j->keybuf[n] = 0;
    }
    ws(j);
    if (j->p >= j->end || *j->p != ':') {
        expected(j, "':'");
        return -1;
    }
    j->p++;
    return 1;
}

bool cuzk_json_read_key_is(const cuzk_json_read_str *key, const char *lit)
{
    size_t n = strlen(lit);
    return key->n == n && !memcmp(key->s, lit, n);
}

int cuzk_json_read_arr_next(cuzk_json_reader *j, bool first)
{
    return next_item(j, first, ']', first ? "a value or ']'" : "',' or ']'");
}

static inline bool is_digit(const cuzk_json_reader *j, const uint8_t *q)
{
    return q < j->end && *q >= '0' && *q <= '9';
}

cuzk_status cuzk_json_read_u64(cuzk_json_reader *j, uint64_t max, uint64_t *v)
{
    ws(j);
    if (!is_digit(j, j->p)) {
        char b[16];
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "expected an unsigned integer, found %s", found(j, b));
    }
    const uint8_t *q = j->p;
    uint64_t x = 0;
    if (*q == '0' && is_digit(j, q + 1))
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "number with a leading zero");
    while (is_digit(j, q)) {
        unsigned d = *q - '0';
        if (x > (UINT64_MAX - d) / 10)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "integer does not fit in 64 bits");
        x = x * 10 + d;
        q++;
    }
    if (q < j->end && (*q == '.' || *q == 'e' || *q == 'E'))
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "expected an unsigned integer, found a fraction or exponent");
    if (x > max)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "%llu is out of range (at most %llu)", (unsigned long long)x,
                            (unsigned long long)max);
    j->p = q;
    *v = x;
    return CUZK_OK;
}

static cuzk_status bytes_fail(cuzk_json_reader *j, const uint8_t *at, const char *fmt, int k)
{
    j->p = at;
    char msg[96];
    snprintf(msg, sizeof msg, fmt, k);
    return cuzk_json_read_fail(j, CUZK_E_FORMAT, "expected an array of 32 integers 0..255: %s", msg);
}

void cuzk_json_read_ws(cuzk_json_reader *j)
{
    ws(j);
}

cuzk_status cuzk_json_read_bytes32(cuzk_json_reader *j, uint8_t out[32])
{
    const uint8_t *p = j->p, *end = j->end;
    while (p < end && is_ws(*p))
        p++;
    if (p >= end || *p != '[') {
        j->p = p;
        return expected(j, "an array of 32 integers 0..255");
    }
    p++; /* the '[' */
    for (int k = 0; k < 32; k++) {
        while (p < end && is_ws(*p))
            p++;
        if (p >= end)
            return bytes_fail(j, p, "input ends after %d elements", k);
        unsigned v = (unsigned)*p - '0';
        if (v > 9) {
            if (*p == ']')
                return bytes_fail(j, p, "got %d elements", k);
            return bytes_fail(j, p, "element %d is not an unsigned integer", k);
        }
        p++;
        if (p < end && (unsigned)*p - '0' <= 9) {
            if (v == 0)
                return bytes_fail(j, p - 1, "element %d has a leading zero", k);
            v = v * 10 + (*p++ - '0');
            while (p < end && (unsigned)*p - '0' <= 9) {
                v = v * 10 + (*p++ - '0');
                if (v > 255)
                    return bytes_fail(j, p - 1, "element %d is larger than 255", k);
            }
        }
        if (v > 255)
            return bytes_fail(j, p - 1, "element %d is larger than 255", k);
        if (p < end && (*p == '.' || *p == 'e' || *p == 'E'))
            return bytes_fail(j, p, "element %d is not an integer", k);
        out[k] = (uint8_t)v;
        while (p < end && is_ws(*p))
            p++;
        if (p >= end)
            return bytes_fail(j, p, "input ends after %d elements", k + 1);
        if (k < 31) {
            if (*p == ']')
                return bytes_fail(j, p, "got %d elements", k + 1);
            if (*p != ',')
                return bytes_fail(j, p, "expected ',' after element %d", k);
        } else if (*p != ']') {
            return bytes_fail(j, p, *p == ',' ? "more than %d elements" : "expected ']' after %d elements", 32);
        }
        p++;
    }
    j->p = p;
    return CUZK_OK;
}

static bool literal(cuzk_json_reader *j, const char *lit)
{
    size_t n = strlen(lit);
    if ((size_t)(j->end - j->p) < n || memcmp(j->p, lit, n))
        return false;
    j->p += n;
    return true;
}

bool cuzk_json_read_take_null(cuzk_json_reader *j)
{
    ws(j);
    return literal(j, "null");
}

cuzk_status cuzk_json_read_null(cuzk_json_reader *j)
{
    return cuzk_json_read_take_null(j) ? CUZK_OK : expected(j, "null");
}

static cuzk_status skip_number(cuzk_json_reader *j)
{
    const uint8_t *q = j->p;
    if (q < j->end && *q == '-')
        q++;
    if (!is_digit(j, q)) {
        j->p = q;
        return expected(j, "a digit");
    }
    if (*q == '0')
        q++;
    else
        while (is_digit(j, q))
            q++;
    if (q < j->end && *q == '.') {
        q++;
        if (!is_digit(j, q)) {
            j->p = q;
            return expected(j, "a digit after '.'");
        }
        while (is_digit(j, q))
            q++;
    }
    if (q < j->end && (*q == 'e' || *q == 'E')) {
        q++;
        if (q < j->end && (*q == '+' || *q == '-'))
            q++;
        if (!is_digit(j, q)) {
            j->p = q;
            return expected(j, "a digit in the exponent");
        }
        while (is_digit(j, q))
            q++;
    }
    j->p = q;
    return CUZK_OK;
}

cuzk_status cuzk_json_read_skip(cuzk_json_reader *j)
{
    ws(j);
    if (j->p >= j->end)
        return expected(j, "a value");
    cuzk_status st;
    int r;
    cuzk_json_read_str s;
    switch (*j->p) {
    case '{':
        if ((st = cuzk_json_read_obj_begin(j)))
            return st;
        for (bool first = true; (r = cuzk_json_read_obj_next(j, first, &s)) == 1; first = false)
            if ((st = cuzk_json_read_skip(j)))
                return st;
        return r < 0 ? j->status : CUZK_OK;
    case '[':
        if ((st = cuzk_json_read_arr_begin(j)))
            return st;
        for (bool first = true; (r = cuzk_json_read_arr_next(j, first)) == 1; first = false)
            if ((st = cuzk_json_read_skip(j)))
                return st;
        return r < 0 ? j->status : CUZK_OK;
    case '"':
        return cuzk_json_read_string(j, &s);
    case 't':
        return literal(j, "true") ? CUZK_OK : expected(j, "a value");
    case 'f':
        return literal(j, "false") ? CUZK_OK : expected(j, "a value");
    case 'n':
        return literal(j, "null") ? CUZK_OK : expected(j, "a value");
    default:
        return skip_number(j);
    }
}

cuzk_status cuzk_json_read_end(cuzk_json_reader *j)
{
    ws(j);
    if (j->p != j->end)
        return cuzk_json_read_fail(j, CUZK_E_FORMAT, "unexpected data after the JSON value");
    return CUZK_OK;
}

/* The index of the field of `fields` named `key`, or 32 if none is. */
static unsigned field_index(const cuzk_json_read_str *key, const char *const *names, uint32_t fields)
{
    for (unsigned b = 0; b < 32 && fields >> b; b++)
        if ((fields >> b & 1) && cuzk_json_read_key_is(key, names[b]))
            return b;
    return 32;
}

cuzk_status cuzk_json_read_fields(cuzk_json_reader *j, const char *const *names, uint32_t fields, cuzk_json_read_field_fn field, void *ctx)
{
    cuzk_status st;
    cuzk_json_read_str key;
    uint32_t seen = 0;
    int r;
    if ((st = cuzk_json_read_obj_begin(j)))
        return st;
    for (bool first = true; (r = cuzk_json_read_obj_next(j, first, &key)) == 1; first = false) {
        unsigned b = field_index(&key, names, fields);
        if (b == 32) {
            if ((st = cuzk_json_read_skip(j)))
                return st;
            continue;
        }
        cuzk_fp_key(&j->fp, names[b]);
        if (seen >> b & 1)
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "duplicate field \"%s\"", names[b]);
        seen |= 1u << b;
        if ((st = field(j, ctx, b)))
            return st;
        cuzk_fp_pop(&j->fp);
    }
    if (r < 0)
        return j->status;
    for (unsigned b = 0; b < 32 && fields >> b; b++)
        if ((fields >> b & 1) && !(seen >> b & 1))
            return cuzk_json_read_fail(j, CUZK_E_FORMAT, "missing field \"%s\"", names[b]);
    return CUZK_OK;
}
