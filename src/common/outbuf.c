/* Growable output buffer; contracts in outbuf.h. */
#include <stdlib.h>
#include <string.h>

#include "common/outbuf.h"

bool cuzk_out_reserve(cuzk_outbuf *o, size_t n)
{
    if (o->oom)
        return false;
    if (o->cap - o->len >= n)
        return true;
    size_t cap = o->cap ? o->cap : 4096;
    while (cap - o->len < n) {
        if (cap > SIZE_MAX / 2) {
            o->oom = true;
            return false;
        }
        cap *= 2;
    }
    uint8_t *p = realloc(o->p, cap);
    if (!p) {
        o->oom = true;
        return false;
    }
    o->p = p;
    o->cap = cap;
    return true;
}

void cuzk_out_bytes(cuzk_outbuf *o, const void *b, size_t n)
{
    if (n && cuzk_out_reserve(o, n)) {
        memcpy(o->p + o->len, b, n);
        o->len += n;
    }
}

void cuzk_out_u32le(cuzk_outbuf *o, uint32_t v)
{
    uint8_t b[4] = {(uint8_t)v, (uint8_t)(v >> 8), (uint8_t)(v >> 16), (uint8_t)(v >> 24)};
    cuzk_out_bytes(o, b, 4);
}

void cuzk_out_u64le(cuzk_outbuf *o, uint64_t v)
{
    uint8_t b[8];
    for (int i = 0; i < 8; i++)
        b[i] = (uint8_t)(v >> (8 * i));
    cuzk_out_bytes(o, b, 8);
}

void cuzk_out_dec(cuzk_outbuf *o, uint64_t v)
{
    char d[20];
    int n = 0;
    do {
        d[19 - n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
    cuzk_out_bytes(o, d + 20 - n, (size_t)n);
}

void cuzk_out_json_bytes32(cuzk_outbuf *o, const uint8_t b[32])
{
    /* at most 32 * 4 + 1 bytes: "[" then 32 x (up to 3 digits + "," or "]") */
    if (!cuzk_out_reserve(o, 32 * 4 + 1))
        return;
    uint8_t *w = o->p + o->len;
    *w++ = '[';
    for (int i = 0; i < 32; i++) {
        unsigned v = b[i];
        if (v >= 100) {
            *w++ = (uint8_t)('0' + v / 100);
            *w++ = (uint8_t)('0' + v / 10 % 10);
        } else if (v >= 10) {
            *w++ = (uint8_t)('0' + v / 10);
        }
        *w++ = (uint8_t)('0' + v % 10);
        *w++ = i == 31 ? ']' : ',';
    }
    o->len = (size_t)(w - o->p);
}

cuzk_status cuzk_out_finish(cuzk_outbuf *o, uint8_t **out, size_t *len, const char *what, cuzk_error *err)
{
    *out = NULL;
    *len = 0;
    if (!o->oom && !o->p)
        cuzk_out_reserve(o, 1);
    if (o->oom) {
        cuzk_out_discard(o);
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory", what);
    }
    *out = o->p;
    *len = o->len;
    memset(o, 0, sizeof *o);
    return CUZK_OK;
}

void cuzk_out_discard(cuzk_outbuf *o)
{
    free(o->p);
    memset(o, 0, sizeof *o);
}
