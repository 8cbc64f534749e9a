/* Helpers shared by the iden3 format tests (test_r1cs.c, test_zkey.c): fixture paths,
 * whole-file reads and the truncation sweep. Test code only: single-threaded, static
 * buffers. */
#ifndef CUZK_TESTS_IDEN3_TEST_UTIL_H
#define CUZK_TESTS_IDEN3_TEST_UTIL_H

#include <stddef.h>
#include <stdint.h>

#include "common/status.h"

/* The fixtures folder (make-fixtures.sh output); set once by main. */
extern const char *fixtures_dir;

/* "<fixtures_dir>/<name>" in one of 4 rotating static buffers: valid until the fourth
 * later call. */
char *fixture_path(const char *name);

/* The whole file at `path`, malloc'ed (caller frees), its size in *len; NULL if it
 * cannot be read. */
uint8_t *slurp(const char *path, size_t *len);

/* Reads buf[0..len) and frees whatever it decoded; returns the reader's status. */
typedef cuzk_status (*truncation_reader)(const uint8_t *buf, size_t len);

/* Feed read() the prefixes buf[0..cut) for cut = 0, 1, ..., dense and then in steps of
 * stride, all cut < len, each in an exactly sized malloc'ed copy (so ASan sees any read
 * past the end). *tried gets the number of prefixes; returns how many were rejected with
 * CUZK_E_FORMAT. */
unsigned truncations_rejected(const uint8_t *buf, size_t len, size_t dense, size_t stride,
                              truncation_reader read, unsigned *tried);

#endif
