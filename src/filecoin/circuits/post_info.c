/* Placeholder until the FallbackPoSt circuit lands (issue 11): replaced by the post module. */
#include "filecoin/circuit_info.h"

cuzk_status fc_post_circuit_info(bool winning, const char *const *params, size_t nparams, cs_counts *out,
                                 cuzk_error *err)
{
    (void)winning, (void)params, (void)nparams, (void)out;
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "post: circuit not built yet");
}
