/* A small streaming JSON writer for the tools' --json output (cuzk gpu-info, cuzk-bench gpu
 * and micro), so that they need no JSON library and build in the GPU-only configuration (root
 * CMakeLists.txt) where jansson is absent. Values are appended in call order into a growing
 * NUL-terminated buffer; the caller keeps the nesting right (begin/end pairs) and, inside
 * objects, passes each member's key (NULL inside arrays and at the top). Strings are escaped
 * per RFC 8259 §7 (", \, control characters as \u00XX; other bytes, UTF-8 included, as they
 * are); a non-finite real is written as null. Out of memory is sticky: cuzk_json_text then
 * returns NULL. One writer per thread; not for parsing. */
#ifndef CUZK_COMMON_JSON_OUT_H
#define CUZK_COMMON_JSON_OUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

typedef struct {
    char *s;
    size_t len, cap;
    bool oom;        /* an allocation failed: the text is lost */
    bool need_comma; /* a value was written at this nesting level */
} cuzk_json;

void cuzk_json_init(cuzk_json *j);
void cuzk_json_begin_object(cuzk_json *j, const char *key);
void cuzk_json_end_object(cuzk_json *j);
void cuzk_json_begin_array(cuzk_json *j, const char *key);
void cuzk_json_end_array(cuzk_json *j);
/* v NULL writes null. */
void cuzk_json_string(cuzk_json *j, const char *key, const char *v);
void cuzk_json_int(cuzk_json *j, const char *key, int64_t v);
void cuzk_json_uint(cuzk_json *j, const char *key, uint64_t v);
/* Shortest "%.17g" form that reads back as v, always with a '.' or an exponent. */
void cuzk_json_real(cuzk_json *j, const char *key, double v);
void cuzk_json_bool(cuzk_json *j, const char *key, bool v);
void cuzk_json_null(cuzk_json *j, const char *key);
/* The text written so far (owned by the writer), or NULL after an allocation failure. */
const char *cuzk_json_text(const cuzk_json *j);
/* Release the buffer; the writer may be initialised again. */
void cuzk_json_free(cuzk_json *j);

#endif
