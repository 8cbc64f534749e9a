/* Field paths for reader messages; contracts in fieldpath.h. */
#include <inttypes.h>
#include <stdio.h>
#include <string.h>

#include "common/fieldpath.h"

char *cuzk_fp_format(const cuzk_fieldpath *fp, const char *root, char *out, size_t cap)
{
    size_t n = 0;
    if (!cap)
        return out;
    out[0] = 0;
    n = (size_t)snprintf(out, cap, "%s", root);
    unsigned shown = fp->depth < CUZK_FIELDPATH_MAX ? fp->depth : CUZK_FIELDPATH_MAX;
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
