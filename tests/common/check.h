/* Minimal test harness shared by all C tests.
 *
 * CHECK(cond, fmt, ...) counts a pass or prints the failure with file:line and counts a
 * failure; check_summary() prints the plain closing line "N passed, N failed" and returns
 * the process exit code (0 iff nothing failed). Hex helpers parse oracle vectors.
 */
#ifndef CUZK_TESTS_CHECK_H
#define CUZK_TESTS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

extern unsigned long check_passed, check_failed;

#define CHECK(cond, ...)                                                     \
    do {                                                                     \
        if (cond) {                                                          \
            check_passed++;                                                  \
        } else {                                                             \
            check_failed++;                                                  \
            fprintf(stderr, "FAIL %s:%d: ", __FILE__, __LINE__);           \
            fprintf(stderr, __VA_ARGS__);                                    \
            fputc('\n', stderr);                                             \
        }                                                                    \
    } while (0)

int check_summary(const char *suite);

/* Decode hex (optional 0x prefix, even length) into out; returns the byte count or -1. */
long hex_decode(uint8_t *out, size_t cap, const char *hex);
/* Encode n bytes as lowercase hex into out (2n+1 bytes). */
void hex_encode(char *out, const uint8_t *in, size_t n);

/* Split a line into whitespace-separated tokens in place; returns the token count. */
int split_tokens(char *line, char **tok, int max);

#endif
