/* A check protobuf-c cannot make: proto3 `string` fields whose bytes contain NUL.
 *
 * protobuf-c hands string fields to C as NUL-terminated char *, so "q\0x" and "q\0y" would
 * both read as "q" (two different request_ids would name one job). The daemon therefore
 * refuses NUL inside any string field of a request, before the decoded message is used.
 *
 * The scan walks the protobuf wire format (protobuf.dev/programming-guides/encoding: tag =
 * field_number << 3 | wire_type; wire types 0 varint, 1 fixed64, 2 length-delimited,
 * 5 fixed32; 3/4 groups are not used by proto3) guided by the protobuf-c descriptors:
 * length-delimited fields of type string are searched, fields of message type are entered
 * (nested up to 16 levels), everything else is skipped. Every occurrence of a field is seen,
 * including repeated ones that the decoder merges or overrides.
 *
 * Thread-safety: works on caller-owned data only.
 */
#ifndef CUZK_SERVER_PB_STRINGS_H
#define CUZK_SERVER_PB_STRINGS_H

#include <protobuf-c/protobuf-c.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Search the encoded message `data` (len bytes) of type `desc` for a string field holding a
 * NUL byte. Returns true when one is found: `path` (cap bytes, NUL-terminated) receives the
 * dotted field name, e.g. "submit.request_id", and *at the byte index of the first NUL in
 * that string. Returns false when there is none, and also when the bytes are not a valid
 * encoding (the decoder reports those). */
bool cuzk_pb_find_nul_string(const ProtobufCMessageDescriptor *desc, const uint8_t *data, size_t len, char *path,
                             size_t cap, size_t *at);

#endif
