#include "common/decimal.h"

#include <string.h>

bool decimal_to_limbs(uint64_t *out, size_t n, const char *s)
{
    if (!s || !*s)
        return false;
    memset(out, 0, n * sizeof *out);
    for (; *s; s++) {
        if (*s < '0' || *s > '9')
            return false;
        /* out = out * 10 + digit */
        unsigned __int128 carry = (unsigned)(*s - '0');
        for (size_t i = 0; i < n; i++) {
            unsigned __int128 t = (unsigned __int128)out[i] * 10 + carry;
            out[i] = (uint64_t)t;
            carry = t >> 64;
        }
        if (carry)
            return false;
    }
    return true;
}

char *limbs_to_decimal(char *buf, size_t cap, const uint64_t *in, size_t n)
{
    uint64_t t[8] = {0};
    char tmp[8 * 20 + 2];
    size_t len = 0;
    if (n > 8)
        n = 8;
    memcpy(t, in, n * sizeof *t);
    do {
        /* t /= 10, remainder is the next digit */
        unsigned __int128 rem = 0;
        for (size_t i = n; i-- > 0;) {
            unsigned __int128 cur = rem << 64 | t[i];
            t[i] = (uint64_t)(cur / 10);
            rem = cur % 10;
        }
        tmp[len++] = (char)('0' + (int)rem);
        bool zero = true;
        for (size_t i = 0; i < n; i++)
            zero &= t[i] == 0;
        if (zero)
            break;
    } while (len < sizeof tmp);
    size_t k = 0;
    for (; k < len && k + 1 < cap; k++)
        buf[k] = tmp[len - 1 - k];
    if (cap)
        buf[k] = 0;
    return buf;
}
