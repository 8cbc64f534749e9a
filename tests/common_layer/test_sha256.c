/* common/sha256.h: the FIPS 180-2 appendix B example digests (one block "abc", two blocks,
 * one million 'a' fed in odd pieces), the empty message, and the streaming form split at every
 * offset of a 200-byte message against the one-shot digest. */
#include <stdlib.h>
#include <string.h>

#include "check.h"
#include "common/sha256.h"

static bool digest_is(const uint8_t d[32], const char *hex)
{
    char h[65];
    hex_encode(h, d, 32);
    return !strcmp(h, hex);
}

int main(void)
{
    static const struct {
        const char *msg, *hex;
    } fips[] = {
        {"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
        {"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
         "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
        {"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
    };
    uint8_t d[32], e[32];
    for (size_t i = 0; i < sizeof fips / sizeof fips[0]; i++) {
        CHECK(cuzk_sha256(fips[i].msg, strlen(fips[i].msg), d) && digest_is(d, fips[i].hex), "\"%s\"",
              fips[i].msg);
    }
    size_t mn = 1000000;
    uint8_t *m = malloc(mn);
    CHECK(m != NULL, "memory");
    if (!m)
        return check_summary("common_sha256");
    memset(m, 'a', mn);
    const char *million = "cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0";
    cuzk_sha256_ctx c;
    cuzk_sha256_init(&c);
    for (size_t o = 0; o < mn; o += 999) /* odd pieces straddle the block boundaries */
        cuzk_sha256_update(&c, m + o, mn - o < 999 ? mn - o : 999);
    CHECK(cuzk_sha256_final(&c, d) && digest_is(d, million), "a million 'a' in pieces");

    for (size_t i = 0; i < 600; i++)
        m[i] = (uint8_t)(i * 131 + 7);
    int bad = 0;
    CHECK(cuzk_sha256(m, 200, d), "one-shot digest of 200 bytes");
    for (size_t cut = 0; cut <= 200; cut++) {
        cuzk_sha256_init(&c);
        cuzk_sha256_update(&c, m, cut);
        cuzk_sha256_update(&c, m + cut, 200 - cut);
        if (!cuzk_sha256_final(&c, e) || memcmp(d, e, 32))
            bad++;
    }
    CHECK(bad == 0, "%d of the 201 split points of a 200-byte message differ", bad);
    free(m);
    return check_summary("common_sha256");
}
