/* Strict TOML subset parser (toml.h). Grammar from TOML v1.0.0 (toml.io). */
#define _GNU_SOURCE
#include "server/toml.h"

#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *s, *end;
    const char *path;
    int line;
    cuzk_error *err;
} parser;

static cuzk_status perr(parser *p, const char *fmt, const char *what)
{
    char msg[256];
    snprintf(msg, sizeof msg, fmt, what);
    return cuzk_fail(p->err, CUZK_E_FORMAT, "%s:%d: %s", p->path, p->line, msg);
}

static void value_free(toml_value *v)
{
    if (v->type == TOML_STRING)
        free(v->str);
    if (v->type == TOML_ARRAY) {
        for (size_t i = 0; i < v->n; i++)
            value_free(&v->items[i]);
        free(v->items);
    }
    memset(v, 0, sizeof *v);
}

void toml_doc_free(toml_doc *doc)
{
    if (!doc)
        return;
    for (size_t i = 0; i < doc->n_items; i++) {
        free(doc->items[i].table);
        free(doc->items[i].key);
        value_free(&doc->items[i].value);
    }
    for (size_t i = 0; i < doc->n_headers; i++)
        free(doc->headers[i].name);
    free(doc->items);
    free(doc->headers);
    memset(doc, 0, sizeof *doc);
}

const char *toml_type_name(toml_type t)
{
    switch (t) {
    case TOML_STRING: return "string";
    case TOML_INT: return "integer";
    case TOML_BOOL: return "boolean";
    case TOML_ARRAY: return "array";
    }
    return "?";
}

static bool at_end(parser *p) { return p->s >= p->end; }

/* Skip spaces and tabs. */
static void skip_ws(parser *p)
{
    while (!at_end(p) && (*p->s == ' ' || *p->s == '\t'))
        p->s++;
}

/* Skip whitespace, comments and newlines (inside arrays). */
static void skip_ws_nl(parser *p)
{
    for (;;) {
        skip_ws(p);
        if (at_end(p))
            return;
        if (*p->s == '#') {
            while (!at_end(p) && *p->s != '\n')
                p->s++;
        } else if (*p->s == '\n') {
            p->line++;
            p->s++;
        } else if (*p->s == '\r' && p->s + 1 < p->end && p->s[1] == '\n') {
            p->s++;
        } else {
            return;
        }
    }
}

/* After a statement: optional whitespace and comment, then end of line or file. */
static cuzk_status expect_eol(parser *p)
{
    skip_ws(p);
    if (!at_end(p) && *p->s == '#')
        while (!at_end(p) && *p->s != '\n')
            p->s++;
    if (!at_end(p) && *p->s == '\r')
        p->s++;
    if (at_end(p))
        return CUZK_OK;
    if (*p->s != '\n') {
        char what[32];
        snprintf(what, sizeof what, "%.20s", p->s);
        char *nl = strchr(what, '\n');
        if (nl)
            *nl = 0;
        return perr(p, "unexpected text '%s' after the value (one key or header per line)", what);
    }
    return CUZK_OK;
}

static bool is_bare(char c) { return isalnum((unsigned char)c) || c == '_' || c == '-'; }

static cuzk_status parse_bare(parser *p, char **out, bool allow_dots)
{
    const char *b = p->s;
    while (!at_end(p) && (is_bare(*p->s) || (allow_dots && *p->s == '.')))
        p->s++;
    size_t n = (size_t)(p->s - b);
    if (n == 0) {
        if (!at_end(p) && (*p->s == '"' || *p->s == '\''))
            return perr(p, "%squoted keys are not supported; use a bare key", "");
        return perr(p, "%sexpected a key or table name", "");
    }
    if (allow_dots && (b[0] == '.' || b[n - 1] == '.' || memmem(b, n, "..", 2)))
        return perr(p, "%sempty part in a dotted table name", "");
    *out = strndup(b, n);
    return *out ? CUZK_OK : cuzk_fail(p->err, CUZK_E_NOMEM, "toml: out of memory");
}

/* Append the UTF-8 encoding of code point cp. */
static bool put_utf8(char *buf, size_t *n, uint32_t cp)
{
    if (cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF))
        return false;
    if (cp < 0x80) {
        buf[(*n)++] = (char)cp;
    } else if (cp < 0x800) {
        buf[(*n)++] = (char)(0xC0 | (cp >> 6));
        buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else if (cp < 0x10000) {
        buf[(*n)++] = (char)(0xE0 | (cp >> 12));
        buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
    } else {
        buf[(*n)++] = (char)(0xF0 | (cp >> 18));
        buf[(*n)++] = (char)(0x80 | ((cp >> 12) & 0x3F));
        buf[(*n)++] = (char)(0x80 | ((cp >> 6) & 0x3F));
        buf[(*n)++] = (char)(0x80 | (cp & 0x3F));
    }
    return true;
}

static cuzk_status parse_string(parser *p, toml_value *v)
{
    char q = *p->s++;
    if (p->s + 1 < p->end && p->s[0] == q && p->s[1] == q)
        return perr(p, "%smulti-line strings are not supported", "");
    const char *b = p->s;
    while (!at_end(p) && *p->s != q && *p->s != '\n')
        p->s += (q == '"' && *p->s == '\\' && p->s + 1 < p->end) ? 2 : 1;
    if (at_end(p) || *p->s != q)
        return perr(p, "%sunterminated string", "");
    size_t raw = (size_t)(p->s - b);
    p->s++;
    char *buf = malloc(raw * 2 + 5);
    if (!buf)
        return cuzk_fail(p->err, CUZK_E_NOMEM, "toml: out of memory");
    size_t n = 0;
    for (size_t i = 0; i < raw; i++) {
        char c = b[i];
        if (q == '\'' || c != '\\') {
            if ((unsigned char)c < 0x20 && c != '\t') {
                free(buf);
                return perr(p, "%scontrol character in a string", "");
            }
            buf[n++] = c;
            continue;
        }
        char e = b[++i];
        const char *m = strchr("\"\\btnfr", e);
        if (e && m) {
            buf[n++] = "\"\\\b\t\n\f\r"[m - "\"\\btnfr"];
        } else if (e == 'u' || e == 'U') {
            size_t digits = e == 'u' ? 4 : 8;
            uint32_t cp = 0;
            for (size_t k = 0; k < digits; k++) {
                char h = i + 1 + k < raw ? b[i + 1 + k] : 0;
                if (!isxdigit((unsigned char)h)) {
                    free(buf);
                    return perr(p, "%sbad \\u escape in a string", "");
                }
                cp = cp * 16 + (uint32_t)(isdigit((unsigned char)h) ? h - '0' : (tolower(h) - 'a' + 10));
            }
            i += digits;
            if (!put_utf8(buf, &n, cp)) {
                free(buf);
                return perr(p, "%sescape is not a Unicode scalar value", "");
            }
        } else {
            free(buf);
            char what[3] = {'\\', e ? e : '?', 0};
            return perr(p, "unknown escape '%s' in a string", what);
        }
    }
    buf[n] = 0;
    v->type = TOML_STRING;
    v->str = buf;
    return CUZK_OK;
}

static cuzk_status parse_int(parser *p, toml_value *v)
{
    const char *b = p->s;
    while (!at_end(p) && (isalnum((unsigned char)*p->s) || *p->s == '_' || *p->s == '+' || *p->s == '-' ||
                          *p->s == '.' || *p->s == ':'))
        p->s++;
    char tok[80];
    size_t n = (size_t)(p->s - b);
    if (n >= sizeof tok)
        return perr(p, "%snumber too long", "");
    memcpy(tok, b, n);
    tok[n] = 0;
    /* Strip separators: each '_' must sit between two digits. */
    char digits[80];
    size_t d = 0;
    for (size_t i = 0; i < n; i++) {
        if (tok[i] == '_') {
            if (i == 0 || i + 1 == n || !isxdigit((unsigned char)tok[i - 1]) || !isxdigit((unsigned char)tok[i + 1]))
                return perr(p, "bad '_' in number '%s'", tok);
            continue;
        }
        digits[d++] = tok[i];
    }
    digits[d] = 0;
    if (strpbrk(digits, ".eE:") && !(digits[0] == '0' && digits[1] == 'x'))
        return perr(p, "'%s': floats and dates are not supported (integers only)", tok);
    if (!strcmp(digits, "inf") || !strcmp(digits, "nan") || !strcmp(digits, "+inf") || !strcmp(digits, "-inf"))
        return perr(p, "'%s': floats are not supported (integers only)", tok);
    int base = 10;
    const char *s = digits;
    bool neg = false;
    if (s[0] == '0' && (s[1] == 'x' || s[1] == 'o' || s[1] == 'b')) {
        base = s[1] == 'x' ? 16 : s[1] == 'o' ? 8 : 2;
        s += 2;
    } else {
        if (*s == '+' || *s == '-')
            neg = *s++ == '-';
        if (s[0] == '0' && s[1])
            return perr(p, "'%s': leading zeros are not allowed in decimal integers", tok);
    }
    if (!*s)
        return perr(p, "'%s' is not a value", tok);
    for (const char *c = s; *c; c++) {
        int dv = isdigit((unsigned char)*c) ? *c - '0' : isalpha((unsigned char)*c) ? tolower(*c) - 'a' + 10 : 99;
        if (dv >= base)
            return perr(p, "'%s' is not a value (strings need quotes)", tok);
    }
    errno = 0;
    unsigned long long u = strtoull(s, NULL, base);
    if (errno || u > (neg ? (unsigned long long)INT64_MAX + 1 : (unsigned long long)INT64_MAX))
        return perr(p, "integer '%s' out of range for 64 bits", tok);
    v->type = TOML_INT;
    v->i = neg ? (int64_t)(0 - u) : (int64_t)u;
    return CUZK_OK;
}

static cuzk_status parse_value(parser *p, toml_value *v, int depth);

static cuzk_status parse_array(parser *p, toml_value *v, int depth)
{
    p->s++; /* '[' */
    v->type = TOML_ARRAY;
    size_t cap = 0;
    for (;;) {
        skip_ws_nl(p);
        if (at_end(p))
            return perr(p, "%sunterminated array", "");
        if (*p->s == ']') {
            p->s++;
            return CUZK_OK;
        }
        if (v->n == cap) {
            cap = cap ? cap * 2 : 4;
            toml_value *ni = realloc(v->items, cap * sizeof *ni);
            if (!ni)
                return cuzk_fail(p->err, CUZK_E_NOMEM, "toml: out of memory");
            v->items = ni;
        }
        memset(&v->items[v->n], 0, sizeof v->items[0]);
        cuzk_status st = parse_value(p, &v->items[v->n], depth + 1);
        if (st)
            return st;
        v->n++;
        skip_ws_nl(p);
        if (!at_end(p) && *p->s == ',') {
            p->s++;
            continue;
        }
        if (!at_end(p) && *p->s == ']')
            continue;
        return perr(p, "%sexpected ',' or ']' in an array", "");
    }
}

static cuzk_status parse_value(parser *p, toml_value *v, int depth)
{
    if (depth > 8)
        return perr(p, "%sarrays nested too deeply", "");
    if (at_end(p) || *p->s == '\n' || *p->s == '#')
        return perr(p, "%smissing value after '='", "");
    char c = *p->s;
    if (c == '"' || c == '\'')
        return parse_string(p, v);
    if (c == '[')
        return parse_array(p, v, depth);
    if (c == '{')
        return perr(p, "%sinline tables are not supported; use a [table] section", "");
    if (!strncmp(p->s, "true", 4) && (p->s + 4 == p->end || !is_bare(p->s[4]))) {
        p->s += 4;
        v->type = TOML_BOOL;
        v->b = true;
        return CUZK_OK;
    }
    if (!strncmp(p->s, "false", 5) && (p->s + 5 == p->end || !is_bare(p->s[5]))) {
        p->s += 5;
        v->type = TOML_BOOL;
        v->b = false;
        return CUZK_OK;
    }
    return parse_int(p, v);
}

static cuzk_status push_item(parser *p, toml_doc *d, size_t *cap, toml_item *it)
{
    if (d->n_items == *cap) {
        *cap = *cap ? *cap * 2 : 16;
        toml_item *ni = realloc(d->items, *cap * sizeof *ni);
        if (!ni)
            return cuzk_fail(p->err, CUZK_E_NOMEM, "toml: out of memory");
        d->items = ni;
    }
    d->items[d->n_items++] = *it;
    return CUZK_OK;
}

static cuzk_status push_header(parser *p, toml_doc *d, size_t *cap, toml_header *h)
{
    if (d->n_headers == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        toml_header *nh = realloc(d->headers, *cap * sizeof *nh);
        if (!nh)
            return cuzk_fail(p->err, CUZK_E_NOMEM, "toml: out of memory");
        d->headers = nh;
    }
    d->headers[d->n_headers++] = *h;
    return CUZK_OK;
}

/* Names seen so far, for the duplicate checks in linear time: table headers by name, keys
 * by "table index key" (a space cannot occur in a bare name). Open addressing with linear
 * probing, FNV-1a hashes, grown at half load. `pos` is the index of the header or item in
 * the document (for headers: the latest one of that name). */
typedef struct {
    char *name; /* owned; NULL = empty slot */
    uint64_t hash;
    size_t pos;
} name_slot;

typedef struct {
    name_slot *slots;
    size_t cap, n; /* cap is 0 or a power of two */
} name_set;

static uint64_t fnv1a(const char *s)
{
    uint64_t h = 0xcbf29ce484222325ull;
    for (; *s; s++)
        h = (h ^ (unsigned char)*s) * 0x100000001b3ull;
    return h;
}

static void name_set_free(name_set *set)
{
    for (size_t i = 0; i < set->cap; i++)
        free(set->slots[i].name);
    free(set->slots);
    memset(set, 0, sizeof *set);
}

/* The slot of `name` (hash h): the one holding it, or the empty slot where it would go. */
static name_slot *name_find(const name_set *set, const char *name, uint64_t h)
{
    size_t mask = set->cap - 1;
    for (size_t i = (size_t)h & mask;; i = (i + 1) & mask) {
        name_slot *sl = &set->slots[i];
        if (!sl->name || (sl->hash == h && !strcmp(sl->name, name)))
            return sl;
    }
}

/* The entry for `name`: *found tells whether it was there; a new entry gets pos = `pos`
 * and owns a copy of the name. NULL when out of memory. */
static name_slot *name_upsert(name_set *set, const char *name, size_t pos, bool *found)
{
    if (2 * (set->n + 1) > set->cap) {
        size_t ncap = set->cap ? set->cap * 2 : 64;
        name_set grown = {calloc(ncap, sizeof(name_slot)), ncap, set->n};
        if (!grown.slots)
            return NULL;
        for (size_t i = 0; i < set->cap; i++)
            if (set->slots[i].name)
                *name_find(&grown, set->slots[i].name, set->slots[i].hash) = set->slots[i];
        free(set->slots);
        *set = grown;
    }
    uint64_t h = fnv1a(name);
    name_slot *sl = name_find(set, name, h);
    *found = sl->name != NULL;
    if (!*found) {
        if (!(sl->name = strdup(name)))
            return NULL;
        sl->hash = h;
        sl->pos = pos;
        set->n++;
    }
    return sl;
}

typedef struct {
    name_set headers, keys;
} doc_names;

static cuzk_status parse_header(parser *p, toml_doc *d, size_t *hcap, doc_names *names)
{
    cuzk_status st;
    toml_header h = {.line = p->line, .index = -1};
    p->s++;
    h.is_array = !at_end(p) && *p->s == '[';
    if (h.is_array)
        p->s++;
    skip_ws(p);
    if ((st = parse_bare(p, &h.name, true)))
        return st;
    skip_ws(p);
    if (at_end(p) || *p->s != ']' || (h.is_array && (p->s + 1 >= p->end || p->s[1] != ']'))) {
        free(h.name);
        return perr(p, "%sunterminated table header", "");
    }
    p->s += h.is_array ? 2 : 1;
    bool seen;
    name_slot *sl = name_upsert(&names->headers, h.name, d->n_headers, &seen);
    if (!sl) {
        free(h.name);
        return cuzk_fail(p->err, CUZK_E_NOMEM, "toml: out of memory");
    }
    if (seen) {
        const toml_header *prev = &d->headers[sl->pos];
        if (prev->is_array != h.is_array || !h.is_array) {
            char what[160];
            snprintf(what, sizeof what, "[%s] already defined at line %d", h.name, prev->line);
            free(h.name);
            return perr(p, "%s", what);
        }
        h.index = prev->index + 1;
        sl->pos = d->n_headers;
    } else if (h.is_array) {
        h.index = 0;
    }
    if ((st = push_header(p, d, hcap, &h))) {
        free(h.name);
        return st;
    }
    return expect_eol(p);
}

/* One `key = value` line under `table` (element `index` of an array of tables, or -1). */
static cuzk_status parse_key_value(parser *p, toml_doc *d, size_t *icap, doc_names *names, const char *table,
                                   int index)
{
    cuzk_status st;
    toml_item it = {.index = index, .line = p->line};
    if ((st = parse_bare(p, &it.key, false)))
        return st;
    skip_ws(p);
    if (!at_end(p) && *p->s == '.') {
        free(it.key);
        return perr(p, "%sdotted keys are not supported; use a [table] section", "");
    }
    if (at_end(p) || *p->s != '=') {
        char what[80];
        snprintf(what, sizeof what, "expected '=' after key '%s'", it.key);
        free(it.key);
        return perr(p, "%s", what);
    }
    p->s++;
    skip_ws(p);
    if ((st = parse_value(p, &it.value, 0))) {
        free(it.key);
        value_free(&it.value);
        return st;
    }
    char *full = NULL;
    bool seen = false;
    name_slot *sl = NULL;
    it.table = strdup(table);
    if (it.table && asprintf(&full, "%s %d %s", table, index, it.key) >= 0)
        sl = name_upsert(&names->keys, full, d->n_items, &seen);
    free(full);
    if (!sl || seen) {
        char what[200];
        if (sl)
            snprintf(what, sizeof what, "duplicate key '%s' (first at line %d)", it.key, d->items[sl->pos].line);
        free(it.table);
        free(it.key);
        value_free(&it.value);
        return sl ? perr(p, "%s", what) : cuzk_fail(p->err, CUZK_E_NOMEM, "toml: out of memory");
    }
    if ((st = push_item(p, d, icap, &it))) {
        free(it.table);
        free(it.key);
        value_free(&it.value);
        return st;
    }
    return expect_eol(p);
}

static cuzk_status parse_doc(parser *p, toml_doc *d)
{
    size_t icap = 0, hcap = 0;
    doc_names names = {{0}, {0}};
    cuzk_status st = CUZK_OK;
    for (;;) {
        skip_ws_nl(p);
        if (at_end(p))
            break;
        if (*p->s == '[') {
            if ((st = parse_header(p, d, &hcap, &names)))
                break;
        } else {
            const toml_header *h = d->n_headers ? &d->headers[d->n_headers - 1] : NULL;
            if ((st = parse_key_value(p, d, &icap, &names, h ? h->name : "", h ? h->index : -1)))
                break;
        }
    }
    name_set_free(&names.headers);
    name_set_free(&names.keys);
    return st;
}

cuzk_status toml_parse(const char *text, size_t len, const char *path, toml_doc *out, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    parser p = {.s = text, .end = text + len, .path = path ? path : "<config>", .line = 1, .err = err};
    if (memchr(text, 0, len))
        return perr(&p, "%sNUL byte in the file", "");
    cuzk_status st = parse_doc(&p, out);
    if (st)
        toml_doc_free(out);
    return st;
}
