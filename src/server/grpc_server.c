/* gRPC C core transport (grpc_server.h). Call flow per RPC (grpc/grpc.h):
 * grpc_server_request_registered_call with the request payload read up front -> handler
 * thread: RECV_CLOSE_ON_SERVER (tells when the client cancels or goes away), decode,
 * service call, then SEND_INITIAL_METADATA + SEND_MESSAGE + SEND_STATUS_FROM_SERVER.
 * Calls of any other method arrive through grpc_server_request_call (the unregistered-call
 * queue) and get UNIMPLEMENTED at once. */
#include "server/grpc_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <grpc/byte_buffer.h>
#include <grpc/byte_buffer_reader.h>
#include <grpc/grpc.h>
#include <grpc/grpc_security.h>
#include <grpc/support/log.h>
#include <grpc/support/time.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <unistd.h>

#include "common/file_io.h"
#include "engine/log.h"
#include "server/config.h"
#include "server/pb_strings.h"
#include "server/security.h"

enum { M_SUBMIT, M_AWAIT, M_PROVE, M_CANCEL, M_STATUS, M_METRICS, M_PRELOAD, M_EVICT, M_COUNT };
/* Pseudo-method of the slots that receive calls of every other path. */
#define M_UNKNOWN M_COUNT

static const struct {
    const char *path;
    const ProtobufCMessageDescriptor *req;
} METHODS[M_COUNT] = {
    {"/cuzk.v1.ProvingEngine/SubmitProof", &cuzk__v1__submit_proof_request__descriptor},
    {"/cuzk.v1.ProvingEngine/AwaitProof", &cuzk__v1__await_proof_request__descriptor},
    {"/cuzk.v1.ProvingEngine/Prove", &cuzk__v1__prove_request__descriptor},
    {"/cuzk.v1.ProvingEngine/CancelProof", &cuzk__v1__cancel_proof_request__descriptor},
    {"/cuzk.v1.ProvingEngine/GetStatus", &cuzk__v1__get_status_request__descriptor},
    {"/cuzk.v1.ProvingEngine/GetMetrics", &cuzk__v1__get_metrics_request__descriptor},
    {"/cuzk.v1.ProvingEngine/PreloadSRS", &cuzk__v1__preload_srs_request__descriptor},
    {"/cuzk.v1.ProvingEngine/EvictSRS", &cuzk__v1__evict_srs_request__descriptor},
};

struct cuzk_grpc_server {
    cuzk_service *svc;
    cuzk_security *sec; /* token (and TLS material); NULL = none */
    grpc_server *server;
    grpc_completion_queue *cq; /* new-call notifications and the shutdown tag */
    void *methods[M_COUNT];
    pthread_t acceptor;
    bool acceptor_started, shutdown_started;
    char *socket_path; /* unix socket to remove at stop, or NULL */
    pthread_mutex_t mu;
    pthread_cond_t cv;
    unsigned handlers; /* handler threads alive */
    int shutdown_tag;
};

/* One outstanding request for a new call of one method, then that call. */
typedef struct {
    cuzk_grpc_server *g;
    int method;
    grpc_call *call;
    gpr_timespec deadline;
    grpc_call_details details; /* M_UNKNOWN: the path the client asked for */
    grpc_metadata_array md;
    grpc_byte_buffer *payload;
    grpc_completion_queue *call_cq; /* pluck queue bound to the call */
    int close_cancelled;
    bool closed;
} rpc_slot;

static gpr_timespec in_ms(int64_t ms)
{
    return gpr_time_add(gpr_now(GPR_CLOCK_MONOTONIC), gpr_time_from_millis(ms, GPR_TIMESPAN));
}

static void slot_free(rpc_slot *s)
{
    if (s->payload)
        grpc_byte_buffer_destroy(s->payload);
    grpc_metadata_array_destroy(&s->md);
    if (s->method == M_UNKNOWN)
        grpc_call_details_destroy(&s->details);
    if (s->call)
        grpc_call_unref(s->call);
    if (s->call_cq) {
        grpc_completion_queue_shutdown(s->call_cq);
        grpc_completion_queue_destroy(s->call_cq);
    }
    free(s);
}

/* Ask for the next call of `method` (M_UNKNOWN: of any unregistered path). Returns false
 * once the server is shutting down. */
static bool request_call(cuzk_grpc_server *g, int method)
{
    rpc_slot *s = calloc(1, sizeof *s);
    if (!s)
        return false;
    s->g = g;
    s->method = method;
    grpc_metadata_array_init(&s->md);
    s->call_cq = grpc_completion_queue_create_for_pluck(NULL);
    grpc_call_error e;
    if (method == M_UNKNOWN) {
        grpc_call_details_init(&s->details);
        e = grpc_server_request_call(g->server, &s->call, &s->details, &s->md, s->call_cq, g->cq, s);
    } else {
        e = grpc_server_request_registered_call(g->server, g->methods[method], &s->call, &s->deadline, &s->md,
                                                &s->payload, s->call_cq, g->cq, s);
    }
    if (e != GRPC_CALL_OK) {
        slot_free(s);
        return false;
    }
    return true;
}

/* Abort callback of blocking service calls: true once the client cancelled/went away. */
static bool client_gone(void *ctx)
{
    rpc_slot *s = ctx;
    if (!s->closed) {
        grpc_event ev = grpc_completion_queue_pluck(s->call_cq, &s->closed, gpr_inf_past(GPR_CLOCK_MONOTONIC), NULL);
        if (ev.type == GRPC_OP_COMPLETE)
            s->closed = true;
    }
    return s->closed && s->close_cancelled;
}

static grpc_byte_buffer *pack(const ProtobufCMessage *m)
{
    size_t n = protobuf_c_message_get_packed_size(m);
    uint8_t *buf = malloc(n ? n : 1);
    if (!buf)
        return NULL;
    protobuf_c_message_pack(m, buf);
    grpc_slice sl = grpc_slice_new(buf, n, free);
    grpc_byte_buffer *bb = grpc_raw_byte_buffer_create(&sl, 1);
    grpc_slice_unref(sl);
    return bb;
}

/* True when the call's metadata carries the token (or none is required). */
static bool authorized(const rpc_slot *s)
{
    if (!s->g->sec)
        return true;
    const char *value = NULL;
    size_t len = 0;
    for (size_t i = 0; i < s->md.count; i++)
        if (grpc_slice_str_cmp(s->md.metadata[i].key, "authorization") == 0) {
            value = (const char *)GRPC_SLICE_START_PTR(s->md.metadata[i].value);
            len = GRPC_SLICE_LENGTH(s->md.metadata[i].value);
        }
    return cuzk_security_check_bearer(s->g->sec, value, len);
}

/* Run the service for one decoded request; fills *out (response bytes) or returns an
 * error status. */
static cuzk_rpc_status dispatch(rpc_slot *s, const ProtobufCMessage *req, grpc_byte_buffer **out)
{
    cuzk_service *svc = s->g->svc;
    cuzk_rpc_status r;
    switch (s->method) {
    case M_SUBMIT: {
        Cuzk__V1__SubmitProofResponse resp = CUZK__V1__SUBMIT_PROOF_RESPONSE__INIT;
        r = cuzk_service_submit(svc, (const Cuzk__V1__SubmitProofRequest *)req, &resp);
        if (!r.code)
            *out = pack(&resp.base);
        cuzk_service_free_submit(&resp);
        break;
    }
    case M_AWAIT: {
        Cuzk__V1__AwaitProofResponse resp = CUZK__V1__AWAIT_PROOF_RESPONSE__INIT;
        r = cuzk_service_await(svc, (const Cuzk__V1__AwaitProofRequest *)req, client_gone, s, &resp);
        if (!r.code)
            *out = pack(&resp.base);
        cuzk_service_free_await(&resp);
        break;
    }
    case M_PROVE: {
        Cuzk__V1__ProveResponse resp = CUZK__V1__PROVE_RESPONSE__INIT;
        r = cuzk_service_prove(svc, (const Cuzk__V1__ProveRequest *)req, client_gone, s, &resp);
        if (!r.code)
            *out = pack(&resp.base);
        cuzk_service_free_prove(&resp);
        break;
    }
    case M_CANCEL: {
        Cuzk__V1__CancelProofResponse resp = CUZK__V1__CANCEL_PROOF_RESPONSE__INIT;
        r = cuzk_service_cancel(svc, (const Cuzk__V1__CancelProofRequest *)req, &resp);
        if (!r.code)
            *out = pack(&resp.base);
        break;
    }
    case M_STATUS: {
        Cuzk__V1__GetStatusResponse resp = CUZK__V1__GET_STATUS_RESPONSE__INIT;
        r = cuzk_service_status(svc, &resp);
        if (!r.code)
            *out = pack(&resp.base);
        cuzk_service_free_status(&resp);
        break;
    }
    case M_METRICS: {
        Cuzk__V1__GetMetricsResponse resp = CUZK__V1__GET_METRICS_RESPONSE__INIT;
        char *text = cuzk_service_metrics_text(svc);
        r.code = text ? GRPC_STATUS_OK : GRPC_STATUS_RESOURCE_EXHAUSTED;
        snprintf(r.msg, sizeof r.msg, "%s", text ? "" : "out of memory for the metrics text");
        if (text) {
            resp.prometheus_text = text;
            *out = pack(&resp.base);
        }
        free(text);
        break;
    }
    case M_PRELOAD: {
        Cuzk__V1__PreloadSrsResponse resp = CUZK__V1__PRELOAD_SRS_RESPONSE__INIT;
        r = cuzk_service_preload(svc, (const Cuzk__V1__PreloadSrsRequest *)req, &resp);
        if (!r.code)
            *out = pack(&resp.base);
        break;
    }
    default: {
        Cuzk__V1__EvictSrsResponse resp = CUZK__V1__EVICT_SRS_RESPONSE__INIT;
        r = cuzk_service_evict(svc, (const Cuzk__V1__EvictSrsRequest *)req, &resp);
        if (!r.code)
            *out = pack(&resp.base);
        break;
    }
    }
    if (!r.code && !*out) {
        r.code = GRPC_STATUS_RESOURCE_EXHAUSTED;
        snprintf(r.msg, sizeof r.msg, "out of memory encoding the response");
    }
    return r;
}

static void *handler_main(void *arg)
{
    rpc_slot *s = arg;
    cuzk_grpc_server *g = s->g;
    /* Learn about client cancellation while we work. */
    grpc_op close_op = {.op = GRPC_OP_RECV_CLOSE_ON_SERVER};
    close_op.data.recv_close_on_server.cancelled = &s->close_cancelled;
    grpc_call_start_batch(s->call, &close_op, 1, &s->closed, NULL);

    cuzk_rpc_status r = {GRPC_STATUS_OK, ""};
    grpc_byte_buffer *out = NULL;
    char path[160];
    if (s->method != M_UNKNOWN)
        snprintf(path, sizeof path, "%s", METHODS[s->method].path);
    else
        snprintf(path, sizeof path, "%.*s", (int)(GRPC_SLICE_LENGTH(s->details.method) > 120 ? 120
                                                   : GRPC_SLICE_LENGTH(s->details.method)),
                 (const char *)GRPC_SLICE_START_PTR(s->details.method));
    if (!authorized(s)) {
        r.code = GRPC_STATUS_UNAUTHENTICATED;
        snprintf(r.msg, sizeof r.msg, "missing or wrong bearer token: send the metadata \"authorization: Bearer "
                 "<token>\" with the token of the daemon's auth_token_file");
    } else if (s->method == M_UNKNOWN) {
        r.code = GRPC_STATUS_UNIMPLEMENTED;
        snprintf(r.msg, sizeof r.msg, "unknown method %s: this server implements cuzk.v1.ProvingEngine "
                 "(SubmitProof, AwaitProof, Prove, CancelProof, GetStatus, GetMetrics, PreloadSRS, EvictSRS)", path);
    } else if (!s->payload) {
        r.code = GRPC_STATUS_INVALID_ARGUMENT;
        snprintf(r.msg, sizeof r.msg, "no request message");
    } else {
        grpc_byte_buffer_reader rd;
        if (!grpc_byte_buffer_reader_init(&rd, s->payload)) {
            r.code = GRPC_STATUS_INVALID_ARGUMENT;
            snprintf(r.msg, sizeof r.msg, "request message cannot be decompressed");
        } else {
            grpc_slice sl = grpc_byte_buffer_reader_readall(&rd);
            grpc_byte_buffer_reader_destroy(&rd);
            size_t len = GRPC_SLICE_LENGTH(sl);
            const ProtobufCMessageDescriptor *desc = METHODS[s->method].req;
            ProtobufCMessage *req = protobuf_c_message_unpack(desc, NULL, len, GRPC_SLICE_START_PTR(sl));
            char field[128];
            size_t at;
            /* protobuf-c hands strings over cut at a NUL: refuse those before anything reads them */
            bool nul = req && cuzk_pb_find_nul_string(desc, GRPC_SLICE_START_PTR(sl), len, field, sizeof field, &at);
            grpc_slice_unref(sl); /* the decoded copy is all the call needs from here on */
            if (!req) {
                r.code = GRPC_STATUS_INVALID_ARGUMENT;
                snprintf(r.msg, sizeof r.msg, "malformed %s message (%zu bytes): not a valid protobuf encoding",
                         desc->name, len);
            } else if (nul) {
                r.code = GRPC_STATUS_INVALID_ARGUMENT;
                snprintf(r.msg, sizeof r.msg, "%s: field %s contains a NUL byte at offset %zu; string fields must not "
                         "contain NUL", desc->name, field, at);
            } else {
                r = dispatch(s, req, &out);
            }
            if (req)
                protobuf_c_message_free_unpacked(req, NULL);
        }
    }
    if (r.code)
        CUZK_LOGD("%s -> status %d: %s", path, r.code, r.msg);

    if (!(s->closed && s->close_cancelled)) {
        grpc_op ops[3];
        size_t n = 0;
        memset(ops, 0, sizeof ops);
        ops[n++].op = GRPC_OP_SEND_INITIAL_METADATA;
        if (out) {
            ops[n].op = GRPC_OP_SEND_MESSAGE;
            ops[n++].data.send_message.send_message = out;
        }
        grpc_slice details = grpc_slice_from_copied_string(r.msg);
        ops[n].op = GRPC_OP_SEND_STATUS_FROM_SERVER;
        ops[n].data.send_status_from_server.status = (grpc_status_code)r.code;
        ops[n++].data.send_status_from_server.status_details = &details;
        int send_tag;
        if (grpc_call_start_batch(s->call, ops, n, &send_tag, NULL) == GRPC_CALL_OK)
            grpc_completion_queue_pluck(s->call_cq, &send_tag, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        grpc_slice_unref(details);
    }
    if (out)
        grpc_byte_buffer_destroy(out);
    if (!s->closed)
        grpc_completion_queue_pluck(s->call_cq, &s->closed, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
    slot_free(s);

    pthread_mutex_lock(&g->mu);
    g->handlers--;
    pthread_cond_broadcast(&g->cv);
    pthread_mutex_unlock(&g->mu);
    return NULL;
}

static void *acceptor_main(void *arg)
{
    cuzk_grpc_server *g = arg;
    for (;;) {
        grpc_event ev = grpc_completion_queue_next(g->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
        if (ev.type == GRPC_QUEUE_SHUTDOWN)
            return NULL;
        if (ev.type != GRPC_OP_COMPLETE || ev.tag == &g->shutdown_tag)
            continue;
        rpc_slot *s = ev.tag;
        if (!ev.success) { /* server shutting down: the request is void */
            slot_free(s);
            continue;
        }
        request_call(g, s->method);
        pthread_mutex_lock(&g->mu);
        g->handlers++;
        pthread_mutex_unlock(&g->mu);
        pthread_t t;
        pthread_attr_t attr;
        pthread_attr_init(&attr);
        pthread_attr_setdetachstate(&attr, PTHREAD_CREATE_DETACHED);
        if (pthread_create(&t, &attr, handler_main, s)) {
            /* No thread: answer at once instead of leaving the client hanging. */
            grpc_call_cancel_with_status(s->call, GRPC_STATUS_RESOURCE_EXHAUSTED, "daemon cannot start a thread", NULL);
            slot_free(s);
            pthread_mutex_lock(&g->mu);
            g->handlers--;
            pthread_mutex_unlock(&g->mu);
        }
        pthread_attr_destroy(&attr);
    }
}

/* Prepare a unix socket path: parent created; an existing socket that nobody answers on is
 * removed; a live one or a non-socket file is an error. */
static cuzk_status prepare_unix(const char *path, cuzk_error *err)
{
    if (strlen(path) >= sizeof(((struct sockaddr_un *)0)->sun_path))
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "socket path %s is too long (max %zu bytes)", path,
                         sizeof(((struct sockaddr_un *)0)->sun_path) - 1);
    struct stat st;
    char *dir = strdup(path);
    if (!dir)
        return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
    char *slash = strrchr(dir, '/');
    if (slash && slash != dir)
        *slash = 0;
    cuzk_status cs = CUZK_OK;
    if (slash && slash != dir && stat(dir, &st) != 0) {
        /* said, not done silently: a typo in --listen should not go unnoticed */
        cuzk_log(CUZK_LOG_WARN, "socket directory %s does not exist: creating it", dir);
        cs = cuzk_ensure_dir(dir, err);
    }
    free(dir);
    if (cs)
        return cs;
    if (lstat(path, &st) != 0)
        return CUZK_OK;
    if (!S_ISSOCK(st.st_mode))
        return cuzk_fail(err, CUZK_E_IO, "%s exists and is not a socket; refusing to remove it", path);
    int fd = socket(AF_UNIX, SOCK_STREAM, 0);
    struct sockaddr_un sa = {.sun_family = AF_UNIX};
    snprintf(sa.sun_path, sizeof sa.sun_path, "%s", path);
    bool live = fd >= 0 && connect(fd, (struct sockaddr *)&sa, sizeof sa) == 0;
    if (fd >= 0)
        close(fd);
    if (live)
        return cuzk_fail(err, CUZK_E_IO, "%s: another server is listening on this socket", path);
    if (unlink(path) != 0)
        return cuzk_fail(err, CUZK_E_IO, "cannot remove the stale socket %s: %s", path, strerror(errno));
    cuzk_log(CUZK_LOG_INFO, "removed stale socket %s", path);
    return CUZK_OK;
}

/* Why gRPC could not bind `listen` (checked by cuzk_config_check_listen): for an IP literal
 * the errno of a bind(2) of our own, else a summary. */
static void bind_error(const char *listen, char *why, size_t cap)
{
    snprintf(why, cap, "%s", !strncmp(listen, "unix://", 7) ? "cannot bind the socket path"
                                                             : "the host does not resolve to a local address, or the "
                                                               "port is in use or not allowed");
    const char *colon = strrchr(listen, ':');
    char host[64];
    size_t hl = (size_t)(colon - listen);
    if (!strncmp(listen, "unix://", 7) || hl >= sizeof host)
        return;
    memcpy(host, listen, hl);
    host[hl] = 0;
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    socklen_t sl;
    uint16_t port = htons((uint16_t)atoi(colon + 1));
    struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
    struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
    if (host[0] == '[' && hl > 2) {
        host[hl - 1] = 0;
        if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) != 1)
            return;
        a6->sin6_family = AF_INET6;
        a6->sin6_port = port;
        sl = sizeof *a6;
    } else {
        if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
            return;
        a4->sin_family = AF_INET;
        a4->sin_port = port;
        sl = sizeof *a4;
    }
    int fd = socket(ss.ss_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
    if (fd < 0)
        return;
    if (bind(fd, (struct sockaddr *)&ss, sl) != 0)
        snprintf(why, cap, "%s", strerror(errno));
    close(fd);
}

/* gRPC core's own lines (gpr_log, e.g. "E1130 ... chttp2_server.cc:...") go through our
 * logger at debug level: the daemon reports what matters (bind failures, bad requests) in
 * its own words, and the core's error and info lines stay available with --log-level debug
 * (its debug severity, a list of experiments and traces, is left off). */
static void core_log(gpr_log_func_args *a)
{
    const char *file = strrchr(a->file, '/');
    cuzk_log(CUZK_LOG_DEBUG, "grpc core %s %s:%d: %s", gpr_log_severity_string(a->severity), file ? file + 1 : a->file,
             a->line, a->message);
}

static void route_core_logs(void)
{
    gpr_set_log_function(core_log);
    gpr_set_log_verbosity(cuzk_log_enabled(CUZK_LOG_DEBUG) ? GPR_LOG_SEVERITY_INFO : GPR_LOG_SEVERITY_ERROR);
}

cuzk_status cuzk_grpc_server_start(cuzk_service *svc, const char *listen, uint32_t socket_mode,
                                   uint64_t max_message_bytes, cuzk_security *sec, cuzk_grpc_server **out,
                                   int *bound_port, cuzk_error *err)
{
    *out = NULL;
    if (bound_port)
        *bound_port = 0;
    cuzk_status st = cuzk_config_check_listen(listen, false, true, err);
    if (st)
        return st;
    cuzk_grpc_server *g = calloc(1, sizeof *g);
    if (!g)
        return cuzk_fail(err, CUZK_E_NOMEM, "grpc: out of memory");
    g->svc = svc;
    g->sec = sec;
    pthread_mutex_init(&g->mu, NULL);
    pthread_cond_init(&g->cv, NULL);
    bool is_unix = !strncmp(listen, "unix://", 7);
    if (is_unix) {
        g->socket_path = strdup(listen + 7);
        if (!g->socket_path || (st = prepare_unix(g->socket_path, err))) {
            st = g->socket_path ? st : cuzk_fail(err, CUZK_E_NOMEM, "grpc: out of memory");
            free(g->socket_path);
            g->socket_path = NULL; /* not ours to remove */
            cuzk_grpc_server_stop(g, 0);
            return st;
        }
    }
    route_core_logs();
    grpc_init();
    int limit = max_message_bytes > (uint64_t)INT32_MAX ? INT32_MAX : (int)max_message_bytes;
    /* SO_REUSEPORT off (gRPC core turns it on by default): a second daemon on the same
     * IP:port must fail to bind instead of silently sharing the port with the first. */
    grpc_arg args[3] = {
        {.type = GRPC_ARG_INTEGER, .key = (char *)GRPC_ARG_MAX_RECEIVE_MESSAGE_LENGTH, .value.integer = limit},
        {.type = GRPC_ARG_INTEGER, .key = (char *)GRPC_ARG_MAX_SEND_MESSAGE_LENGTH, .value.integer = limit},
        {.type = GRPC_ARG_INTEGER, .key = (char *)GRPC_ARG_ALLOW_REUSEPORT, .value.integer = 0},
    };
    grpc_channel_args cargs = {.num_args = 3, .args = args};
    g->server = grpc_server_create(&cargs, NULL);
    g->cq = grpc_completion_queue_create_for_next(NULL);
    grpc_server_register_completion_queue(g->server, g->cq, NULL);
    for (int m = 0; m < M_COUNT; m++)
        g->methods[m] = grpc_server_register_method(g->server, METHODS[m].path, NULL,
                                                    GRPC_SRM_PAYLOAD_READ_INITIAL_BYTE_BUFFER, 0);
    bool tls = sec && sec->cert_pem && !is_unix;
    grpc_server_credentials *creds;
    if (tls) {
        grpc_ssl_pem_key_cert_pair pair = {.private_key = sec->key_pem, .cert_chain = sec->cert_pem};
        creds = grpc_ssl_server_credentials_create_ex(
            sec->client_ca_pem, &pair, 1,
            sec->client_ca_pem ? GRPC_SSL_REQUEST_AND_REQUIRE_CLIENT_CERTIFICATE_AND_VERIFY
                               : GRPC_SSL_DONT_REQUEST_CLIENT_CERTIFICATE,
            NULL);
    } else {
        creds = grpc_insecure_server_credentials_create();
    }
    /* gRPC spells unix sockets "unix:/abs/path" or "unix:///abs/path"; both work. */
    int port = grpc_server_add_http2_port(g->server, listen, creds);
    grpc_server_credentials_release(creds);
    if (port == 0) {
        free(g->socket_path);
        g->socket_path = NULL;
        cuzk_grpc_server_stop(g, 0);
        char why[128];
        bind_error(listen, why, sizeof why);
        if (tls && !strcmp(why, "the host does not resolve to a local address, or the port is in use or not allowed"))
            snprintf(why, sizeof why, "the host does not resolve to a local address, or gRPC refused the TLS "
                     "certificate / key");
        return cuzk_fail(err, CUZK_E_IO, "cannot listen on %s: %s", listen, why);
    }
    if (is_unix && chmod(g->socket_path, (mode_t)socket_mode) != 0) {
        int e = errno;
        cuzk_grpc_server_stop(g, 0);
        return cuzk_fail(err, CUZK_E_IO, "chmod %o %s: %s", socket_mode, listen + 7, strerror(e));
    }
    grpc_server_start(g->server);
    for (int m = 0; m <= M_UNKNOWN; m++)
        request_call(g, m);
    if (pthread_create(&g->acceptor, NULL, acceptor_main, g)) {
        cuzk_grpc_server_stop(g, 0);
        return cuzk_fail(err, CUZK_E_INTERNAL, "grpc: cannot start the acceptor thread");
    }
    g->acceptor_started = true;
    if (bound_port)
        *bound_port = is_unix ? 0 : port;
    *out = g;
    return CUZK_OK;
}

void cuzk_grpc_server_shutdown(cuzk_grpc_server *g)
{
    if (!g || !g->server || g->shutdown_started)
        return;
    g->shutdown_started = true;
    grpc_server_shutdown_and_notify(g->server, g->cq, &g->shutdown_tag);
}

void cuzk_grpc_server_stop(cuzk_grpc_server *g, uint64_t grace_ms)
{
    if (!g)
        return;
    if (g->server) {
        if (!g->acceptor_started) {
            /* Never started: no calls; shut down and drain the queue here. */
            grpc_server_shutdown_and_notify(g->server, g->cq, &g->shutdown_tag);
            grpc_server_cancel_all_calls(g->server);
            grpc_completion_queue_shutdown(g->cq);
            for (;;) {
                grpc_event ev = grpc_completion_queue_next(g->cq, gpr_inf_future(GPR_CLOCK_REALTIME), NULL);
                if (ev.type == GRPC_QUEUE_SHUTDOWN)
                    break;
                if (ev.tag != &g->shutdown_tag)
                    slot_free(ev.tag);
            }
        } else {
            cuzk_grpc_server_shutdown(g);
            /* Let handlers finish, then cancel whatever is left. */
            pthread_mutex_lock(&g->mu);
            gpr_timespec until = in_ms((int64_t)grace_ms);
            while (g->handlers && gpr_time_cmp(gpr_now(GPR_CLOCK_MONOTONIC), until) < 0) {
                pthread_mutex_unlock(&g->mu);
                usleep(20000);
                pthread_mutex_lock(&g->mu);
            }
            pthread_mutex_unlock(&g->mu);
            grpc_server_cancel_all_calls(g->server);
            pthread_mutex_lock(&g->mu);
            while (g->handlers)
                pthread_cond_wait(&g->cv, &g->mu);
            pthread_mutex_unlock(&g->mu);
            grpc_completion_queue_shutdown(g->cq);
            pthread_join(g->acceptor, NULL);
        }
        grpc_server_destroy(g->server);
        grpc_completion_queue_destroy(g->cq);
        grpc_shutdown();
    }
    if (g->socket_path) {
        unlink(g->socket_path);
        free(g->socket_path);
    }
    pthread_mutex_destroy(&g->mu);
    pthread_cond_destroy(&g->cv);
    free(g);
}
