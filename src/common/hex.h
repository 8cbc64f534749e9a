/* Lowercase hexadecimal of byte strings, for messages that name a value (a root, a
 * commitment) byte for byte in storage order. Pure, thread-safe. */
#ifndef CUZK_COMMON_HEX_H
#define CUZK_COMMON_HEX_H

#include <stddef.h>
#include <stdint.h>

/* Write 2n hex digits of in[0..n) and a NUL into out (2n + 1 bytes); returns out. */
char *cuzk_hex(char *out, const uint8_t *in, size_t n);

#endif
