#include "cs/iden3_bin.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define HEADER_BYTES 12u  /* magic, version, n_sections */
#define SECTION_HEAD 12u  /* type, size */

cuzk_status iden3_bin_parse(iden3_bin *out, const uint8_t *buf, size_t len, const char *magic,
                            uint32_t max_version, const char *what, cuzk_error *err)
{
    memset(out, 0, sizeof *out);
    if (len == 0)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: file is empty (0 bytes)", what);
    if (len < HEADER_BYTES)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "%s: file has %zu bytes, shorter than the %u-byte header", what, len,
                         HEADER_BYTES);
    if (memcmp(buf, magic, 4) != 0)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "%s: magic at offset 0 is %02x%02x%02x%02x, expected \"%.4s\"", what,
                         buf[0], buf[1], buf[2], buf[3], magic);
    uint32_t version = iden3_le32(buf + 4);
    if (version == 0 || version > max_version)
        return cuzk_fail(err, CUZK_E_UNSUPPORTED,
                         "%s: version %u at offset 4 is not supported (1..%u)", what, version,
                         max_version);
    uint32_t n = iden3_le32(buf + 8);
    if ((uint64_t)n * SECTION_HEAD > len - HEADER_BYTES)
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "%s: %u sections declared at offset 8 cannot fit in %zu bytes", what, n,
                         len);
    iden3_section *s = calloc(n ? n : 1, sizeof *s);
    if (!s)
        return cuzk_fail(err, CUZK_E_NOMEM, "%s: out of memory for %u sections", what, n);
    uint64_t pos = HEADER_BYTES;
    for (uint32_t i = 0; i < n; i++) {
        if (len - pos < SECTION_HEAD) {
            free(s);
            return cuzk_fail(err, CUZK_E_FORMAT,
                             "%s: section %u header at offset %llu is truncated (file has %zu "
                             "bytes)",
                             what, i, (unsigned long long)pos, len);
        }
        s[i].type = iden3_le32(buf + pos);
        s[i].size = iden3_le64(buf + pos + 4);
        s[i].offset = pos + SECTION_HEAD;
        if (s[i].size > len - s[i].offset) {
            cuzk_fail(err, CUZK_E_FORMAT,
                      "%s: section %u (type %u) at offset %llu declares %llu bytes but only "
                      "%llu remain (file truncated?)",
                      what, i, s[i].type, (unsigned long long)pos,
                      (unsigned long long)s[i].size, (unsigned long long)(len - s[i].offset));
            free(s);
            return CUZK_E_FORMAT;
        }
        pos = s[i].offset + s[i].size;
    }
    if (pos != len) {
        free(s);
        return cuzk_fail(err, CUZK_E_FORMAT,
                         "%s: %llu trailing bytes after the last section at offset %llu", what,
                         (unsigned long long)(len - pos), (unsigned long long)pos);
    }
    out->version = version;
    out->n_sections = n;
    out->sections = s;
    return CUZK_OK;
}

void iden3_bin_free(iden3_bin *b)
{
    free(b->sections);
    memset(b, 0, sizeof *b);
}

cuzk_status iden3_bin_section(const iden3_bin *b, uint32_t type, int required, const char *what,
                              const char *name, const iden3_section **out, cuzk_error *err)
{
    const iden3_section *found = NULL;
    for (uint32_t i = 0; i < b->n_sections; i++) {
        if (b->sections[i].type != type)
            continue;
        if (found)
            return cuzk_fail(err, CUZK_E_FORMAT,
                             "%s: section %u (%s) appears twice (offsets %llu and %llu)", what,
                             type, name, (unsigned long long)found->offset - SECTION_HEAD,
                             (unsigned long long)b->sections[i].offset - SECTION_HEAD);
        found = &b->sections[i];
    }
    if (!found && required)
        return cuzk_fail(err, CUZK_E_FORMAT, "%s: section %u (%s) is missing", what, type, name);
    *out = found;
    return CUZK_OK;
}

/* Known primes, big-endian hex without leading zeros. */
static const struct {
    const char *hex;
    const char *name;
} known_primes[] = {
    {"73eda753299d7d483339d80809a1d80553bda402fffe5bfeffffffff00000001", "BLS12-381 r"},
    {"30644e72e131a029b85045b68181585d2833e84879b9709143e1f593f0000001", "BN254 (bn128) r"},
    {"12ab655e9a2ca55660b44d1e5c37b00159aa76fed00000010a11800000000001", "BLS12-377 r"},
    /* base fields, as in a .zkey's groth16 header (n8q, q) */
    {"1a0111ea397fe69a4b1ba7b6434bacd764774b84f38512bf6730d2a0f6b0f6241eabfffeb153ffffb9feffffffffaaab",
     "BLS12-381 q"},
    {"30644e72e131a029b85045b68181585d97816a916871ca8d3c208c16d87cfd47", "BN254 (bn128) q"},
    {"ffffffff00000001", "Goldilocks"},
};

void iden3_describe_prime(char *out, size_t cap, const uint8_t *prime, size_t n8)
{
    char hex[2 * 64 + 1];
    size_t shown = n8 > 64 ? 64 : n8, k = 0;
    int started = 0;
    for (size_t i = shown; i-- > 0;) {
        static const char digits[] = "0123456789abcdef";
        uint8_t byte = prime[i];
        if (!started && byte == 0 && i > 0)
            continue;
        if (!started && byte < 16) {
            hex[k++] = digits[byte];
        } else {
            hex[k++] = digits[byte >> 4];
            hex[k++] = digits[byte & 15];
        }
        started = 1;
    }
    hex[k] = 0;
    const char *name = NULL;
    for (size_t i = 0; i < sizeof known_primes / sizeof known_primes[0]; i++) {
        if (strcmp(hex, known_primes[i].hex) == 0)
            name = known_primes[i].name;
    }
    if (name)
        snprintf(out, cap, "%s 0x%s", name, hex);
    else
        snprintf(out, cap, "0x%s%s (not a known curve order)", hex, n8 > 64 ? "..." : "");
}

void iden3_error_prefix(cuzk_error *err, const char *path)
{
    if (!err)
        return;
    size_t cap = sizeof err->msg, plen = strlen(path) + 2; /* "path: " */
    if (plen >= cap)
        plen = cap - 1;
    size_t mlen = strnlen(err->msg, cap - 1);
    if (mlen > cap - 1 - plen)
        mlen = cap - 1 - plen;
    memmove(err->msg + plen, err->msg, mlen);
    err->msg[plen + mlen] = 0;
    size_t copy = plen >= 2 ? plen - 2 : 0;
    memcpy(err->msg, path, copy);
    if (plen >= 2) {
        err->msg[copy] = ':';
        err->msg[copy + 1] = ' ';
    }
}
