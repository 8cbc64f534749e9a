/* Standard base64 (RFC 4648 §4: alphabet A-Z a-z 0-9 + /, '=' padding), the form Go's
 * encoding/json gives a []byte (encoding/base64 StdEncoding) and the reference daemon decodes
 * (docs/formats.md#curios-c2-envelope, docs/formats.md#snapdeals-blob-list). The coding itself
 * is OpenSSL's EVP_EncodeBlock / EVP_DecodeBlock, applied in chunks; this layer adds the
 * strict syntax check (no whitespace, padding only at the end) and the exact decoded length.
 * Thread-safety: functions touch only their arguments.
 */
#ifndef CUZK_COMMON_BASE64_H
#define CUZK_COMMON_BASE64_H

#include <stddef.h>
#include <stdint.h>

#include "common/outbuf.h"
#include "common/status.h"

/* Append the base64 text of data[0..len) (4 * ceil(len / 3) characters, no NUL). */
void cuzk_base64_encode(cuzk_outbuf *o, const uint8_t *data, size_t len);

/* Decode s[0..n) into a malloc'ed *out of *len bytes (a 1-byte allocation when empty).
 * Errors: CUZK_E_FORMAT with *bad_at = the offset in s of the first offending character
 * (n when the length is not a multiple of 4), CUZK_E_NOMEM. The caller words the message. */
cuzk_status cuzk_base64_decode(const char *s, size_t n, uint8_t **out, size_t *len, size_t *bad_at);

#endif
