/* Placeholder until the StackedDrg circuit lands (issue 10): replaced by the porep module. */
#include "filecoin/circuit_info.h"

cuzk_status fc_porep_circuit_info(const char *const *params, size_t nparams, cs_counts *out, cuzk_error *err)
{
    (void)params, (void)nparams, (void)out;
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "porep: circuit not built yet");
}
