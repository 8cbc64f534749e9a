/* HTTP status endpoint on daemon.status_listen (libmicrohttpd, one internal thread):
 *   GET /status   200 application/json: the service's status document (service.h)
 *   GET /metrics  200 text/plain; version=0.0.4: Prometheus text, same as GetMetrics
 *   GET /healthz  200 "ok\n" while serving, 503 "shutting down\n" once shutdown began
 * Anything else: 404 (405 for methods other than GET/HEAD). Unlike the reference, no
 * response carries Access-Control-Allow-Origin, so a web page of another origin cannot read
 * the daemon's status from a browser. libmicrohttpd's own messages (e.g. one per malformed
 * connection) go through the engine logger (engine/log.h) at debug level.
 * With a token (security.h), /status and /metrics need the header "Authorization: Bearer
 * <token>" and answer 401 with "WWW-Authenticate: Bearer" otherwise; /healthz stays open
 * (it tells only whether the daemon serves, for load balancers and service managers).
 *
 * Thread-safety: start/stop from one thread.
 */
#ifndef CUZK_SERVER_HTTP_SERVER_H
#define CUZK_SERVER_HTTP_SERVER_H

#include "common/status.h"
#include "server/security.h"
#include "server/service.h"

typedef struct cuzk_http_server cuzk_http_server;

/* Listen on "IP:port" or "[IPv6]:port" (port 0 = ephemeral; *bound_port receives the
 * port, may be NULL). `sec` (may be NULL) is borrowed until cuzk_http_server_stop.
 * Errors: CUZK_E_INVALID_ARG (address), CUZK_E_IO (bind failed). */
cuzk_status cuzk_http_server_start(cuzk_service *svc, const char *listen, cuzk_security *sec,
                                   cuzk_http_server **out, int *bound_port, cuzk_error *err);
/* Stop and free. NULL is a no-op. */
void cuzk_http_server_stop(cuzk_http_server *h);

#endif
