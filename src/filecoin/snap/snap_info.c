/* `cuzk circuit-info snap|snap-poseidon`: the EmptySectorUpdate partition circuits in shape
 * mode; contract in circuit_info.h. */
#include <string.h>

#include "filecoin/core/circuit_info.h"
#include "filecoin/snap/snap.h"
#include "gadgets/circuit_params.h"

/* "<n>KiB|MiB|GiB" (also "k", "m", "g" suffixes) or a plain byte count. */
static cuzk_status parse_size(const char *v, uint64_t *bytes, cuzk_error *err)
{
    uint64_t n = 0;
    const char *p = v;
    while (*p >= '0' && *p <= '9' && n < (1ull << 40))
        n = n * 10 + (uint64_t)(*p++ - '0');
    unsigned shift = 0;
    if (!strcasecmp(p, "KiB") || !strcasecmp(p, "k"))
        shift = 10;
    else if (!strcasecmp(p, "MiB") || !strcasecmp(p, "m"))
        shift = 20;
    else if (!strcasecmp(p, "GiB") || !strcasecmp(p, "g"))
        shift = 30;
    else if (*p)
        p = NULL;
    if (p == v || !p || n >= (1ull << 40))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter sector-size=%s (e.g. 2KiB, 32GiB or bytes)", v);
    *bytes = n << shift;
    return CUZK_OK;
}

cuzk_status fc_snap_circuit_info(bool poseidon, const char *const *params, size_t nparams, cs_counts *out,
                                 cuzk_error *err)
{
    static const char *const keys[] = {"sector-size", NULL};
    circuit_params kv;
    cuzk_status st;
    if ((st = circuit_params_parse(&kv, params, nparams, err)) || (st = circuit_params_only(&kv, keys, err)))
        return st;
    const char *size = circuit_params_get(&kv, "sector-size");
    if (!size)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s needs sector-size=S (1KiB .. 32KiB, 8MiB, 16MiB, 512MiB, 32GiB, 64GiB)",
                         poseidon ? "snap-poseidon" : "snap");
    uint64_t bytes;
    fc_snap_shape s;
    if ((st = parse_size(size, &bytes, err)) || (st = fc_snap_shape_for_nodes(bytes / 32, poseidon, &s, err)))
        return st;
    if (bytes % 32)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "parameter sector-size=%s is not a whole number of nodes", size);
    cs_t cs;
    if ((st = cs_init(&cs, CS_SHAPE, CS_TRACK_DENSITY)))
        return cuzk_fail(err, st, "%s", cs.err.msg);
    st = fc_snap_synthesize(&cs, &s, NULL, NULL, err);
    if (st == CUZK_OK)
        cs_get_counts(&cs, out);
    cs_free(&cs);
    return st;
}
