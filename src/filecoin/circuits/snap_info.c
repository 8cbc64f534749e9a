/* Placeholder until the EmptySectorUpdate circuits land (issue 11): replaced by the snap
 * module. */
#include "filecoin/circuit_info.h"

cuzk_status fc_snap_circuit_info(bool poseidon, const char *const *params, size_t nparams, cs_counts *out,
                                 cuzk_error *err)
{
    (void)poseidon, (void)params, (void)nparams, (void)out;
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "snap: circuit not built yet");
}
