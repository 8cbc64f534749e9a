/* SnapDeals jobs: wired when the partition assembly of filecoin/circuits/snap.h lands. */
#include "engine/filecoin/fc_job_internal.h"

cuzk_status fc_job_init_snap(fc_job *j, const fc_job_request *req, cuzk_error *err)
{
    (void)j, (void)req;
    return cuzk_fail(err, CUZK_E_UNSUPPORTED, "SNAP_DEALS_UPDATE: not wired yet");
}
