/* Dispatch of `cuzk circuit-info` to the Filecoin circuit families; contract in
 * circuit_info.h. */
#include <string.h>

#include "filecoin/circuit_info.h"

cuzk_status fc_circuit_info(const char *name, const char *const *params, size_t nparams, cs_counts *out,
                            cuzk_error *err)
{
    if (!strcmp(name, "porep"))
        return fc_porep_circuit_info(params, nparams, out, err);
    if (!strcmp(name, "winning-post") || !strcmp(name, "window-post"))
        return fc_post_circuit_info(name[1] == 'i' && name[2] == 'n' && name[3] == 'n', params, nparams, out, err);
    if (!strcmp(name, "snap") || !strcmp(name, "snap-poseidon"))
        return fc_snap_circuit_info(name[4] == '-', params, nparams, out, err);
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "\"%s\" is not a Filecoin circuit", name);
}
