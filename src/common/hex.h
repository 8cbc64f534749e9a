/* Lowercase hexadecimal of byte strings, for messages that name a value (a root, a
 * commitment) byte for byte in storage order. Pure, thread-safe. */
#ifndef CUZK_COMMON_HEX_H
#define CUZK_COMMON_HEX_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Write 2n hex digits of in[0..n) and a NUL into out (2n + 1 bytes); returns out. */
char *cuzk_hex(char *out, const uint8_t *in, size_t n);

/* Parse exactly 2n hex digits (either case, an optional "0x" / "0X" prefix, nothing else:
 * no sign, space or trailing text) into out[0..n), first byte first. Returns false, with out
 * unspecified, for anything else (s may be NULL). For command-line values such as a 32-byte
 * ticket or commitment. */
bool cuzk_unhex(uint8_t *out, const char *s, size_t n);

#endif
