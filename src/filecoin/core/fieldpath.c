/* Field paths for reader messages and the canonical-Fr byte test; contracts in fieldpath.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "field/fr.h"
#include "filecoin/core/fieldpath.h"

char *fc_fp_format(const fc_fieldpath *fp, const char *root, char *out, size_t cap)
{
    size_t n = 0;
    if (!cap)
        return out;
    out[0] = 0;
    n = (size_t)snprintf(out, cap, "%s", root);
    unsigned shown = fp->depth < FC_FIELDPATH_MAX ? fp->depth : FC_FIELDPATH_MAX;
    for (unsigned i = 0; i < shown && n < cap; i++) {
        if (fp->seg[i].key)
            n += (size_t)snprintf(out + n, cap - n, "%s%s", n ? "." : "", fp->seg[i].key);
        else
            n += (size_t)snprintf(out + n, cap - n, "[%" PRIu64 "]", fp->seg[i].index);
    }
    if (fp->depth > shown && n < cap)
        snprintf(out + n, cap - n, "...");
    return out;
}

bool fc_bytes32_canonical(const uint8_t b[32])
{
    for (int limb = FR_LIMBS - 1; limb >= 0; limb--) {
        uint64_t v = 0;
        for (int i = 7; i >= 0; i--)
            v = v << 8 | b[8 * limb + i];
        if (v != FR_MODULUS[limb])
            return v < FR_MODULUS[limb];
    }
    return false; /* equal to r */
}
