/* gRPC transport of cuzk.v1.ProvingEngine on the gRPC C core API (grpc/grpc.h): one
 * completion queue for new calls, one thread per call (blocking RPCs such as Prove and
 * AwaitProof never stall the others), protobuf-c for (de)serialisation.
 *
 * Listen addresses: "unix:///abs/path.sock" (a stale socket file is removed unless a live
 * server answers on it, the parent directory is created, the socket gets `socket_mode`)
 * or "host:port" / "[IPv6]:port" with an explicit port (0 = ephemeral; the bound port is
 * reported), checked with cuzk_config_check_listen before gRPC sees them.
 * Messages up to `max_message_bytes` in both directions; larger ones get
 * RESOURCE_EXHAUSTED from gRPC itself. Undecodable request bytes, and string fields holding
 * a NUL byte (pb_strings.h), get INVALID_ARGUMENT naming the field. Calls of a method this
 * service does not have get UNIMPLEMENTED at once.
 *
 * gRPC core's own log lines are routed through the engine logger (engine/log.h) at debug
 * level; the first start installs the hook for the process (gpr_set_log_function).
 *
 * Thread-safety: start/stop from one thread; the handlers run on their own threads.
 */
#ifndef CUZK_SERVER_GRPC_SERVER_H
#define CUZK_SERVER_GRPC_SERVER_H

#include <stdint.h>

#include "common/status.h"
#include "server/security.h"
#include "server/service.h"

typedef struct cuzk_grpc_server cuzk_grpc_server;

/* Bind `listen` and start serving `svc` (borrowed until cuzk_grpc_server_stop returns).
 * `sec` (may be NULL; borrowed like svc): with a token, every call whose metadata lacks
 * "authorization: Bearer <token>" gets UNAUTHENTICATED before its message is decoded; with
 * TLS material, a TCP listen serves TLS (mutual TLS with a client CA) through gRPC core's
 * SSL server credentials; a unix socket always serves plain HTTP/2 (guarded by its mode).
 * *bound_port (may be NULL) receives the TCP port (0 for a unix socket). Errors:
 * CUZK_E_INVALID_ARG (bad address, message from cuzk_config_check_listen), CUZK_E_IO (socket path in use by a live server,
 * cannot create the directory, bind failed, chmod failed), CUZK_E_NOMEM/INTERNAL. */
cuzk_status cuzk_grpc_server_start(cuzk_service *svc, const char *listen, uint32_t socket_mode,
                                   uint64_t max_message_bytes, cuzk_security *sec, cuzk_grpc_server **out,
                                   int *bound_port, cuzk_error *err);

/* Stop accepting new calls (calls in progress continue). */
void cuzk_grpc_server_shutdown(cuzk_grpc_server *g);

/* Wait up to grace_ms for calls in progress to end, cancel the rest, join every handler
 * thread, free everything and remove the unix socket file. NULL is a no-op. */
void cuzk_grpc_server_stop(cuzk_grpc_server *g, uint64_t grace_ms);

#endif
