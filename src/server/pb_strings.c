/* NUL bytes inside protobuf string fields (pb_strings.h). */
#include "server/pb_strings.h"

#include <stdio.h>
#include <string.h>

#define MAX_DEPTH 16

/* Read a base-128 varint at *pos; false when truncated or longer than 10 bytes. */
static bool varint(const uint8_t *d, size_t len, size_t *pos, uint64_t *out)
{
    uint64_t v = 0;
    for (unsigned shift = 0; shift < 70 && *pos < len; shift += 7) {
        uint8_t b = d[(*pos)++];
        v |= (uint64_t)(b & 0x7f) << shift;
        if (!(b & 0x80)) {
            *out = v;
            return true;
        }
    }
    return false;
}

static bool scan(const ProtobufCMessageDescriptor *desc, const uint8_t *d, size_t len, int depth, char *path,
                 size_t cap, size_t used, size_t *at)
{
    size_t pos = 0;
    while (pos < len) {
        uint64_t tag, n;
        if (!varint(d, len, &pos, &tag))
            return false;
        switch (tag & 7) {
        case 0:
            if (!varint(d, len, &pos, &n))
                return false;
            break;
        case 1:
        case 5: {
            size_t w = (tag & 7) == 1 ? 8 : 4;
            if (len - pos < w)
                return false;
            pos += w;
            break;
        }
        case 2: {
            if (!varint(d, len, &pos, &n) || n > len - pos)
                return false;
            const uint8_t *body = d + pos;
            pos += (size_t)n;
            const ProtobufCFieldDescriptor *f =
                tag >> 3 <= UINT32_MAX ? protobuf_c_message_descriptor_get_field(desc, (unsigned)(tag >> 3)) : NULL;
            if (!f)
                break;
            if (f->type == PROTOBUF_C_TYPE_STRING) {
                const uint8_t *nul = memchr(body, 0, (size_t)n);
                if (nul) {
                    snprintf(path + used, cap - used, "%s", f->name);
                    *at = (size_t)(nul - body);
                    return true;
                }
            } else if (f->type == PROTOBUF_C_TYPE_MESSAGE && depth < MAX_DEPTH) {
                int w = snprintf(path + used, cap - used, "%s.", f->name);
                size_t next = w > 0 && (size_t)w < cap - used ? used + (size_t)w : cap - 1;
                if (scan(f->descriptor, body, (size_t)n, depth + 1, path, cap, next, at))
                    return true;
            }
            break;
        }
        default:
            return false;
        }
    }
    return false;
}

bool cuzk_pb_find_nul_string(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t len, char *path,
                             size_t cap, size_t *at)
{
    if (!cap)
        return false;
    path[0] = 0;
    *at = 0;
    return scan(desc, data, len, 0, path, cap, 0, at);
}
