/* A growable output buffer for the vanilla-proof writers (bincode and JSON): appends never
 * fail on their own; an allocation failure sets `oom`, later appends are ignored, and
 * fc_out_finish reports it once. The JSON helpers write serde_json's compact forms.
 * Ownership: the buffer owns `p` until fc_out_finish hands it over (or fc_out_discard frees
 * it). Thread-safety: plain caller-owned data.
 */
#ifndef CUZK_FILECOIN_VANILLA_OUTBUF_H
#define CUZK_FILECOIN_VANILLA_OUTBUF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "common/status.h"

typedef struct {
    uint8_t *p;
    size_t len, cap;
    bool oom;
} fc_outbuf;

/* Make room for `n` more bytes (doubling); false (and oom set) on failure. */
bool fc_out_reserve(fc_outbuf *o, size_t n);
void fc_out_bytes(fc_outbuf *o, const void *b, size_t n);
void fc_out_u32le(fc_outbuf *o, uint32_t v);
void fc_out_u64le(fc_outbuf *o, uint64_t v);
/* Decimal digits of v (JSON numbers). */
void fc_out_dec(fc_outbuf *o, uint64_t v);
/* serde_json's form of a [u8; 32]: "[b0,b1,...,b31]" with decimal bytes. */
void fc_out_json_bytes32(fc_outbuf *o, const uint8_t b[32]);

/* Hand the bytes to the caller (*out malloc'ed, *len bytes; a 1-byte allocation when empty)
 * or report CUZK_E_NOMEM naming `what`. The buffer is reset either way. */
cuzk_status fc_out_finish(fc_outbuf *o, uint8_t **out, size_t *len, const char *what, cuzk_error *err);
void fc_out_discard(fc_outbuf *o);

/* A NUL-terminated string's bytes (JSON punctuation and keys). */
static inline void fc_out_str(fc_outbuf *o, const char *s)
{
    fc_out_bytes(o, s, strlen(s));
}

#endif
