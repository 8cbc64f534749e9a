/* A growable output buffer for writers of bytes or text (the Filecoin vanilla-proof bincode
 * and JSON writers, base64.h): appends never fail on their own; an allocation failure sets
 * `oom`, later appends are ignored, and cuzk_out_finish reports it once. The JSON helpers
 * write serde_json's compact forms. Ownership: the buffer owns `p` until cuzk_out_finish
 * hands it over (or cuzk_out_discard frees it). Thread-safety: plain caller-owned data.
 */
#ifndef CUZK_COMMON_OUTBUF_H
#define CUZK_COMMON_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/status.h"

typedef struct {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} cuzk_outbuf;

/* Make room for `n` more bytes (doubling); false (and oom set) on failure. */
bool cuzk_out_reserve(cuzk_outbuf *o, size_t n);
void cuzk_out_bytes(cuzk_outbuf *o, const void *b, size_t n);
void cuzk_out_u32le(cuzk_outbuf *o, uint32_t v);
void cuzk_out_u64le(cuzk_outbuf *o, uint64_t v);
/* Decimal digits of v (JSON numbers). */
void cuzk_out_dec(cuzk_outbuf *o, uint64_t v);
/* serde_json's form of a [u8; 32]: "[b0,b1,...,b31]" with decimal bytes. */
void cuzk_out_json_bytes32(cuzk_outbuf *o, const uint8_t b[32]);

/* Hand the bytes to the caller (*out malloc'ed, *len bytes; a 1-byte allocation when empty)
 * or report CUZK_E_NOMEM naming `what`. The buffer is reset either way. */
cuzk_status cuzk_out_finish(cuzk_outbuf *o, uint8_t **out, size_t *len, const char *what, cuzk_error *err);
void cuzk_out_discard(cuzk_outbuf *o);

/* A NUL-terminated string's bytes (JSON punctuation and keys). */
static inline void cuzk_out_str(cuzk_outbuf *o, const char *s)
{
    cuzk_out_bytes(o, s, strlen(s));
}

#endif
