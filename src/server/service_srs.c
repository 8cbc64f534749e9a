/* PreloadSRS / EvictSRS (service.h): the Filecoin parameters by circuit id ("porep-32g",
 * kinds/filecoin/fc_srs.h), every other id a circuit of the registry (circuit_registry.h). */
#include <grpc/status.h>
#include <inttypes.h>

#include "engine/log.h"
#include "server/service_internal.h"

cuzk_rpc_status cuzk_service_preload(cuzk_service *s, const Cuzk__V1__PreloadSrsRequest *req,
                                     Cuzk__V1__PreloadSrsResponse *resp)
{
    if (!req->circuit_id || !*req->circuit_id)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit_id is empty");
    cuzk_error e;
    bool already;
    uint64_t ms;
    fc_circuit_id fcid;
    cuzk_status st;
    if (fc_circuit_id_parse(req->circuit_id, &fcid, NULL) == CUZK_OK) {
        st = fc_srs_preload(s->fc_srs, &fcid, &already, &ms, &e);
        if (st) {
            int code = svc_fc_status_code(st);
            return svc_fail(code == GRPC_STATUS_FAILED_PRECONDITION || code == GRPC_STATUS_RESOURCE_EXHAUSTED
                                ? code
                                : GRPC_STATUS_INTERNAL,
                            "%s", e.msg);
        }
    } else {
        st = cuzk_registry_preload(s->registry, req->circuit_id, &already, &ms, &e);
    }
    if (st)
        return svc_fail(st == CUZK_E_UNSUPPORTED ? GRPC_STATUS_NOT_FOUND : GRPC_STATUS_INTERNAL, "%s", e.msg);
    resp->already_loaded = already;
    resp->load_time_ms = ms;
    cuzk_log(CUZK_LOG_INFO, "SRS %s %s (%" PRIu64 " ms)", req->circuit_id, already ? "already loaded" : "loaded", ms);
    return svc_ok();
}

cuzk_rpc_status cuzk_service_evict(cuzk_service *s, const Cuzk__V1__EvictSrsRequest *req,
                                   Cuzk__V1__EvictSrsResponse *resp)
{
    if (!req->circuit_id || !*req->circuit_id)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit_id is empty");
    cuzk_error e;
    bool was;
    uint64_t freed;
    fc_circuit_id fcid;
    cuzk_status st = fc_circuit_id_parse(req->circuit_id, &fcid, NULL) == CUZK_OK
                         ? fc_srs_evict(s->fc_srs, &fcid, &was, &freed, &e)
                         : cuzk_registry_evict(s->registry, req->circuit_id, &was, &freed, &e);
    if (st)
        return svc_fail(st == CUZK_E_UNSUPPORTED ? GRPC_STATUS_NOT_FOUND : GRPC_STATUS_FAILED_PRECONDITION, "%s",
                        e.msg);
    resp->was_loaded = was;
    resp->freed_bytes = freed;
    cuzk_log(CUZK_LOG_INFO, "SRS %s %s (%" PRIu64 " bytes freed)", req->circuit_id, was ? "evicted" : "was not loaded",
             freed);
    return svc_ok();
}
