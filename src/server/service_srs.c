/* PreloadSRS / EvictSRS (service.h): any circuit id of the parameter manager, whichever
 * provider claims it (the registry's circuits, the Filecoin parameters). */
#include <grpc/status.h>
#include <inttypes.h>

#include "engine/log.h"
#include "server/service_internal.h"

int svc_params_status_code(cuzk_status st)
{
    switch (st) {
    case CUZK_E_UNSUPPORTED: return GRPC_STATUS_NOT_FOUND;
    case CUZK_E_IO: return GRPC_STATUS_FAILED_PRECONDITION;
    case CUZK_E_NOMEM: return GRPC_STATUS_RESOURCE_EXHAUSTED;
    case CUZK_E_CANCELLED: return GRPC_STATUS_CANCELLED;
    default: return GRPC_STATUS_INTERNAL;
    }
}

cuzk_rpc_status cuzk_service_preload(cuzk_service *s, const Cuzk__V1__PreloadSrsRequest *req,
                                     Cuzk__V1__PreloadSrsResponse *resp)
{
    if (!req->circuit_id || !*req->circuit_id)
        return svc_fail(GRPC_STATUS_INVALID_ARGUMENT, "circuit_id is empty");
    cuzk_error e;
    bool already = false;
    uint64_t ms = 0;
    cuzk_params_mgr *m = prover_stack_params(s->stack);
    const cuzk_params_provider *p = cuzk_params_provider_of(m, req->circuit_id, &e);
    cuzk_status st = p ? cuzk_params_preload(m, p, req->circuit_id, &already, &ms, &e) : CUZK_E_UNSUPPORTED;
    if (st)
        return svc_fail(svc_params_status_code(st), "%s", e.msg);
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
    bool was = false;
    uint64_t freed = 0;
    cuzk_params_mgr *m = prover_stack_params(s->stack);
    cuzk_status st = cuzk_params_provider_of(m, req->circuit_id, &e)
                         ? cuzk_params_evict(m, req->circuit_id, &was, &freed, &e)
                         : CUZK_E_UNSUPPORTED;
    if (st) /* in use: CUZK_E_INVALID_ARG */
        return svc_fail(st == CUZK_E_UNSUPPORTED ? GRPC_STATUS_NOT_FOUND : GRPC_STATUS_FAILED_PRECONDITION, "%s",
                        e.msg);
    resp->was_loaded = was;
    resp->freed_bytes = freed;
    cuzk_log(CUZK_LOG_INFO, "SRS %s %s (%" PRIu64 " bytes freed)", req->circuit_id, was ? "evicted" : "was not loaded",
             freed);
    return svc_ok();
}
