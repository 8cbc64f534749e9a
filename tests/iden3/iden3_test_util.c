/* Contracts in iden3_test_util.h. */
#include "iden3_test_util.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *fixtures_dir;

char *fixture_path(const char *name)
{
    static char buf[4][4096];
    static int k;
    k = (k + 1) % 4;
    snprintf(buf[k], sizeof buf[k], "%s/%s", fixtures_dir, name);
    return buf[k];
}

uint8_t *slurp(const char *path, size_t *len)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    fseek(f, 0, SEEK_END);
    long n = ftell(f);
    fseek(f, 0, SEEK_SET);
    uint8_t *b = n >= 0 ? malloc(n > 0 ? (size_t)n : 1) : NULL;
    if (b && fread(b, 1, (size_t)n, f) != (size_t)n) {
        free(b);
        b = NULL;
    }
    fclose(f);
    *len = b ? (size_t)n : 0;
    return b;
}

unsigned truncations_rejected(const uint8_t *buf, size_t len, size_t dense, size_t stride,
                              truncation_reader read, unsigned *tried)
{
    unsigned rejected = 0;
    *tried = 0;
    for (size_t cut = 0; cut < len; cut += cut < dense ? 1 : stride) {
        uint8_t *copy = malloc(cut ? cut : 1);
        memcpy(copy, buf, cut);
        (*tried)++;
        rejected += read(copy, cut) == CUZK_E_FORMAT;
        free(copy);
    }
    return rejected;
}
