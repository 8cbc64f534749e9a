/* A strict parser for the subset of TOML v1.0.0 (https://toml.io/en/v1.0.0) that the daemon
 * configuration uses. Debian ships no C TOML library (only C++ ones), hence this file.
 *
 * Accepted: comments, blank lines, `[table]` and `[[array.of.tables]]` headers with bare or
 * dotted bare names, `key = value` with a bare key, values: basic strings "..." (escapes
 * \" \\ \b \t \n \f \r \uXXXX \UXXXXXXXX), literal strings '...', integers (decimal with
 * optional sign and `_` separators, 0x/0o/0b), booleans, and arrays of those (may span lines,
 * trailing comma allowed, comments inside). Everything else TOML allows (floats, dates,
 * inline tables, multi-line strings, dotted or quoted keys) is rejected with an error naming
 * the line, as are duplicate keys and duplicate [table] headers.
 *
 * Thread-safety: none needed; functions touch only their arguments.
 */
#ifndef CUZK_SERVER_TOML_H
#define CUZK_SERVER_TOML_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

typedef enum { TOML_STRING, TOML_INT, TOML_BOOL, TOML_ARRAY } toml_type;

typedef struct toml_value {
    toml_type type;
    char *str;                 /* TOML_STRING: NUL-terminated, owned */
    int64_t i;                 /* TOML_INT */
    bool b;                    /* TOML_BOOL */
    struct toml_value *items;  /* TOML_ARRAY: owned array of n values */
    size_t n;
} toml_value;

/* One `key = value` line. `table` is the enclosing header's name ("" before any header);
 * `index` is the element number for keys under a [[table]] header, -1 under [table]. */
typedef struct {
    char *table;
    int index;
    char *key;
    toml_value value;
    int line; /* 1-based line of the key */
} toml_item;

/* A header line, in file order. */
typedef struct {
    char *name;
    bool is_array; /* [[name]] */
    int index;     /* element number for [[name]], -1 otherwise */
    int line;
} toml_header;

typedef struct {
    toml_item *items;
    size_t n_items;
    toml_header *headers;
    size_t n_headers;
} toml_doc;

/* Parse `len` bytes of `text`. `path` only prefixes messages ("PATH:LINE: ..."). Time and
 * memory are linear in `len`: duplicate headers and keys are found through hash sets, not
 * by comparing with every earlier one. On success *out owns everything (toml_doc_free).
 * Errors: CUZK_E_FORMAT with file:line and what was found; CUZK_E_NOMEM. On error *out is
 * empty. */
cuzk_status toml_parse(const char *text, size_t len, const char *path, toml_doc *out, cuzk_error *err);

void toml_doc_free(toml_doc *doc);

/* "string", "integer", "boolean", "array". */
const char *toml_type_name(toml_type t);

#endif
