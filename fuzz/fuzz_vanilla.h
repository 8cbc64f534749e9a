/* Properties shared by the vanilla-proof fuzz targets (fuzz_c1_json, fuzz_c1_bincode,
 * fuzz_post_vanilla, fuzz_snap_vanilla): a rejection must say where (a bincode byte offset
 * or a JSON path with its byte offset); a broken property aborts, which libFuzzer reports
 * as a crash with the input saved. */
#ifndef CUZK_FUZZ_VANILLA_H
#define CUZK_FUZZ_VANILLA_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common/status.h"

/* st != OK must come with a message holding `where` (" at byte offset " for bincode,
 * "(byte offset " and "$" for JSON). */
static inline void fuzz_require_located(cuzk_status st, const cuzk_error *err, const char *where, const char *what)
{
    if (st == CUZK_OK)
        return;
    if (!err->msg[0] || !strstr(err->msg, where) || (where[0] == '(' && !strstr(err->msg, "$"))) {
        fprintf(stderr, "%s rejection (%s) without a location: '%s'\n", what, cuzk_status_name(st), err->msg);
        abort();
    }
}

static inline void fuzz_require(int cond, const char *what)
{
    if (!cond) {
        fprintf(stderr, "property failed: %s\n", what);
        abort();
    }
}

/* A write must reproduce the accepted bytes exactly. */
static inline void fuzz_require_same(cuzk_status st, const uint8_t *out, size_t n, const uint8_t *in, size_t len,
                                     const char *what)
{
    fuzz_require(st == CUZK_OK && n == len && !memcmp(out, in, len), what);
}

#endif
