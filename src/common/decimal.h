/* Decimal strings <-> little-endian 64-bit limb integers (for JSON formats that carry
 * field elements as decimal strings, e.g. snarkjs). Pure functions, thread-safe. */
#ifndef CUZK_COMMON_DECIMAL_H
#define CUZK_COMMON_DECIMAL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* Parse a non-empty string of ASCII digits (no sign, no spaces; leading zeros allowed)
 * into n limbs. Returns false on any other character, on an empty string, or when the
 * value does not fit in 64*n bits. */
bool decimal_to_limbs(uint64_t *out, size_t n, const char *s);

/* Write the decimal form of an n-limb integer (n <= 8) into buf (cap bytes, at least
 * 20*n + 2 suffices). Returns buf. */
char *limbs_to_decimal(char *buf, size_t cap, const uint64_t *in, size_t n);

#endif
