/* Standard base64 over OpenSSL; contracts in base64.h. */
#include <stdlib.h>
#include <string.h>

#include <openssl/evp.h>

#include "common/base64.h"

#define CHUNK 16384 /* groups of 3 bytes / 4 characters per OpenSSL call */

void cuzk_base64_encode(cuzk_outbuf *o, const uint8_t *data, size_t len)
{
    while (len) {
        size_t n = len < 3 * CHUNK ? len : 3 * CHUNK;
        if (!cuzk_out_reserve(o, 4 * CHUNK + 1))
            return;
        int w = EVP_EncodeBlock(o->p + o->len, data, (int)n);
        o->len += (size_t)w;
        data += n;
        len -= n;
    }
}

static bool b64_char(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '+' || c == '/';
}

cuzk_status cuzk_base64_decode(const char *s, size_t n, uint8_t **out, size_t *len, size_t *bad_at)
{
    *out = NULL;
    *len = 0;
    size_t pad = n >= 1 && s[n - 1] == '=' ? (n >= 2 && s[n - 2] == '=' ? 2 : 1) : 0;
    for (size_t i = 0; i < n - pad; i++)
        if (!b64_char(s[i])) {
            *bad_at = i;
            return CUZK_E_FORMAT;
        }
    if (n % 4) {
        *bad_at = n;
        return CUZK_E_FORMAT;
    }
    size_t total = n / 4 * 3 - pad;
    uint8_t *buf = malloc(n / 4 * 3 + 1);
    if (!buf)
        return CUZK_E_NOMEM;
    size_t w = 0;
    for (size_t i = 0; i < n; i += 4 * CHUNK) {
        size_t m = n - i < 4 * CHUNK ? n - i : 4 * CHUNK;
        int r = EVP_DecodeBlock(buf + w, (const unsigned char *)s + i, (int)m);
        if (r < 0) {
            free(buf);
            *bad_at = i;
            return CUZK_E_FORMAT;
        }
        w += (size_t)r;
    }
    *out = buf;
    *len = total;
    return CUZK_OK;
}
