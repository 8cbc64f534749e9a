/* A streaming JSON tokenizer, a reader only (writers use jansson or outbuf.h; the Filecoin
 * vanilla-proof readers use it; RFC 8259 grammar, serde_json's acceptance where it matters):
 * recursive descent directly over the input buffer, no DOM, no allocation except for
 * strings with escapes that a caller asks to decode. Callers walk objects and arrays with
 * the begin/next calls and read scalars with typed readers, pushing field names and indices
 * on `fp` so failures name the JSON path:
 *   "C1 JSON: $.vanilla_proofs.StackedDrg8MiBV1[0][1].comm_d_proofs.data.Single.root:
 *    expected an array of 32 integers 0..255, got 31 elements (byte offset 1234)".
 *
 * Numbers: only what a u64 field accepts (no sign, fraction, exponent or leading zero, no
 * overflow); cuzk_json_read_skip accepts every JSON number. Strings: control characters refused,
 * escapes checked (\uXXXX with surrogate pairs when decoded); bytes >= 0x80 are passed
 * through without UTF-8 validation. Nesting deeper than CUZK_JSON_READ_MAX_DEPTH is refused (as
 * serde_json's recursion limit does). Thread-safety: caller-owned state only.
 */
#ifndef CUZK_COMMON_JSON_READ_H
#define CUZK_COMMON_JSON_READ_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "common/fieldpath.h"
#include "common/status.h"

#define CUZK_JSON_READ_MAX_DEPTH 128

typedef struct {
    const uint8_t *start, *p, *end;
    const char *what; /* names the document in messages, e.g. "C1 JSON" */
    cuzk_fieldpath fp;
    unsigned depth; /* current nesting, bounded by CUZK_JSON_READ_MAX_DEPTH */
    cuzk_status status; /* the last failure recorded (CUZK_OK if none) */
    cuzk_error *err;
    char keybuf[64]; /* decoded object key when it had escapes */
} cuzk_json_reader;

/* An object key or string: bytes [s, s + n) (decoded when the key had escapes; raw for
 * strings, with `escaped` telling whether cuzk_json_read_string_decode is needed). */
typedef struct {
    const char *s;
    size_t n;
    bool escaped;
} cuzk_json_read_str;

void cuzk_json_read_init(cuzk_json_reader *j, const uint8_t *buf, size_t len, const char *what, cuzk_error *err);

/* Record "<what>: <$.path>: <fmt...> (byte offset N)" with `code`; returns code. */
cuzk_status cuzk_json_read_fail(cuzk_json_reader *j, cuzk_status code, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

/* '{' (after whitespace). Errors: CUZK_E_FORMAT naming what was found. */
cuzk_status cuzk_json_read_obj_begin(cuzk_json_reader *j);
/* Next member of the current object: returns 1 with *key set and the ':' consumed, 0 at the
 * closing '}' (consumed), -1 on error (recorded). `first` is true for the first call after
 * cuzk_json_read_obj_begin. Keys longer than 64 bytes that had escapes come back as "" (no known
 * key is that long, so callers skip them). */
int cuzk_json_read_obj_next(cuzk_json_reader *j, bool first, cuzk_json_read_str *key);
/* Exact key comparison. */
bool cuzk_json_read_key_is(const cuzk_json_read_str *key, const char *lit);

/* Reads the value of field `index` (the caller's names[index]) at the cursor for
 * cuzk_json_read_fields; errors are recorded by the cuzk_json_reader readers or cuzk_json_read_fail. */
typedef cuzk_status (*cuzk_json_read_field_fn)(cuzk_json_reader *j, void *ctx, unsigned index);

/* An object of named fields, serde's struct: '{', then for each member whose key is names[i]
 * with bit i set in `fields` (i < 32), the key pushed on j->fp, field(j, ctx, i), the key
 * popped; every other member (unknown keys, and names whose bit is clear) is skipped,
 * syntax-checked. After the '}' every field of `fields` must have appeared. The first error
 * ends the walk and is returned, j->fp left at its path. Errors: CUZK_E_FORMAT for a field
 * given twice ("duplicate field \"<name>\"", at the second one) or a field absent after the
 * '}' ("missing field \"<name>\"", the lowest index first, at the object's path), the
 * tokenizer's, or the callback's status as it returned it. */
cuzk_status cuzk_json_read_fields(cuzk_json_reader *j, const char *const *names, uint32_t fields, cuzk_json_read_field_fn field, void *ctx);

/* '[' (after whitespace). */
cuzk_status cuzk_json_read_arr_begin(cuzk_json_reader *j);
/* Whether another element follows: 1 (separator consumed), 0 at ']' (consumed), -1 on
 * error. `first` as for objects. */
int cuzk_json_read_arr_next(cuzk_json_reader *j, bool first);

/* An unsigned integer <= max. Errors: CUZK_E_FORMAT ("expected an unsigned integer <= max"). */
cuzk_status cuzk_json_read_u64(cuzk_json_reader *j, uint64_t max, uint64_t *v);
/* serde's [u8; 32]: an array of exactly 32 integers 0..255 (the Filecoin readers add the
 * canonical-field-element test: filecoin/core/field_bytes.h). */
cuzk_status cuzk_json_read_bytes32(cuzk_json_reader *j, uint8_t out[32]);
/* Skip white space: j->p is then at the next value's first byte (for a caller that checks a
 * value after reading it and reports the failure at its start). */
void cuzk_json_read_ws(cuzk_json_reader *j);
/* The literal null. */
cuzk_status cuzk_json_read_null(cuzk_json_reader *j);
/* Whether the next value is the literal null (consumed if so). */
bool cuzk_json_read_take_null(cuzk_json_reader *j);
/* A string (raw span, escapes checked but not decoded). */
cuzk_status cuzk_json_read_string(cuzk_json_reader *j, cuzk_json_read_str *s);
/* Decode a raw string span (from cuzk_json_read_string) into a malloc'ed buffer (*out, *len bytes,
 * NUL-terminated). Errors: CUZK_E_FORMAT (bad escape), CUZK_E_NOMEM. */
cuzk_status cuzk_json_read_string_decode(cuzk_json_reader *j, const cuzk_json_read_str *s, uint8_t **out, size_t *len);
/* A string holding standard base64 (base64.h; Go's encoding/json form of a []byte), escapes
 * decoded first, then the base64 into a malloc'ed *out of *len bytes (a 1-byte allocation
 * when empty). Errors: CUZK_E_FORMAT ("not standard base64: bad character at character i of
 * n", or the length), CUZK_E_NOMEM. */
cuzk_status cuzk_json_read_base64(cuzk_json_reader *j, uint8_t **out, size_t *len);
/* Skip any value (syntax-checked). */
cuzk_status cuzk_json_read_skip(cuzk_json_reader *j);
/* Only whitespace may follow. */
cuzk_status cuzk_json_read_end(cuzk_json_reader *j);

#endif
