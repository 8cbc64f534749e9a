/* bincode 1.x reading primitives; contracts in bincode.h. */
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "filecoin/core/bincode.h"
#include "filecoin/core/field_bytes.h"

void fc_bin_init(fc_bin_reader *r, const uint8_t *buf, size_t len, const char *what, cuzk_error *err)
{
    memset(r, 0, sizeof *r);
    r->buf = buf;
    r->len = len;
    r->what = what;
    r->err = err;
}

cuzk_status fc_bin_fail(fc_bin_reader *r, size_t off, cuzk_status code, const char *fmt, ...)
{
    if (r->err) {
        char path[256], msg[320];
        va_list ap;
        va_start(ap, fmt);
        vsnprintf(msg, sizeof msg, fmt, ap);
        va_end(ap);
        cuzk_fp_format(&r->fp, "", path, sizeof path);
        cuzk_fail(r->err, code, "%s: %s at byte offset %zu: %s", r->what, path[0] ? path : "(top level)", off, msg);
    }
    return code;
}

static cuzk_status truncated(fc_bin_reader *r, const char *item)
{
    return fc_bin_fail(r, r->pos, CUZK_E_FORMAT, "truncated: expected %s, %zu bytes left", item, r->len - r->pos);
}

cuzk_status fc_bin_refuse_json(fc_bin_reader *r)
{
    size_t i = 0;
    while (i < r->len && (r->buf[i] == ' ' || r->buf[i] == '\n' || r->buf[i] == '\r' || r->buf[i] == '\t'))
        i++;
    if (i == r->len || (r->buf[i] != '{' && r->buf[i] != '['))
        return CUZK_OK;
    for (size_t k = 0; k < r->len && k < 32; k++) {
        uint8_t b = r->buf[k];
        if (b >= 0x7f || (b < 0x20 && b != '\n' && b != '\r' && b != '\t'))
            return CUZK_OK; /* binary: a bincode value that happens to start with 0x7b / 0x5b */
    }
    if (r->err)
        cuzk_fail(r->err, CUZK_E_FORMAT, "%s is bincode, but the bytes are JSON text ('%c' at byte offset %zu)%s", r->what,
                  r->buf[i], i, r->buf[i] == '{' ? "; a C1 output or another JSON document?" : "");
    return CUZK_E_FORMAT;
}

cuzk_status fc_bin_u32(fc_bin_reader *r, uint32_t *v)
{
    if (r->len - r->pos < 4)
        return truncated(r, "a u32");
    const uint8_t *b = r->buf + r->pos;
    *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
    r->pos += 4;
    return CUZK_OK;
}

cuzk_status fc_bin_u64(fc_bin_reader *r, uint64_t *v)
{
    if (r->len - r->pos < 8)
        return truncated(r, "a u64");
    const uint8_t *b = r->buf + r->pos;
    uint64_t x = 0;
    for (int i = 7; i >= 0; i--)
        x = x << 8 | b[i];
    *v = x;
    r->pos += 8;
    return CUZK_OK;
}

cuzk_status fc_bin_bytes32(fc_bin_reader *r, uint8_t out[32], bool field)
{
    if (r->len - r->pos < 32)
        return truncated(r, "32 bytes");
    const uint8_t *b = r->buf + r->pos;
    if (field && !fc_bytes32_canonical(b))
        return fc_bin_fail(r, r->pos, CUZK_E_FIELD_NONCANONICAL, "value is not a canonical field element (>= r)");
    memcpy(out, b, 32);
    r->pos += 32;
    return CUZK_OK;
}

cuzk_status fc_bin_count(fc_bin_reader *r, uint64_t want, uint64_t item_bytes, uint64_t *n)
{
    size_t at = r->pos;
    cuzk_status st = fc_bin_u64(r, n);
    if (st)
        return st;
    if (want != FC_BIN_ANY && *n != want)
        return fc_bin_fail(r, at, CUZK_E_FORMAT, "Vec length %" PRIu64 ", expected %" PRIu64, *n, want);
    uint64_t left = r->len - r->pos;
    if (item_bytes == 0)
        item_bytes = 1;
    if (*n > left / item_bytes)
        return fc_bin_fail(r, at, CUZK_E_FORMAT,
                           "Vec length %" PRIu64 " needs at least %" PRIu64 " bytes per item, only %" PRIu64
                           " bytes left",
                           *n, item_bytes, left);
    return CUZK_OK;
}

cuzk_status fc_bin_end(fc_bin_reader *r)
{
    if (r->pos != r->len)
        return fc_bin_fail(r, r->pos, CUZK_E_FORMAT, "%zu trailing bytes after the value", r->len - r->pos);
    return CUZK_OK;
}
