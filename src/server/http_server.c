/* HTTP status endpoint (http_server.h) on libmicrohttpd. */
#include "server/http_server.h"

#include <arpa/inet.h>
#include <microhttpd.h>
#include <netinet/in.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "engine/log.h"

#if MHD_VERSION < 0x00097002
typedef int MHD_Result_t;
#else
typedef enum MHD_Result MHD_Result_t;
#endif

struct cuzk_http_server {
    struct MHD_Daemon *d;
    cuzk_service *svc;
    cuzk_security *sec; /* NULL = no token */
};

/* Queue `body` with status `code`; `challenge` (may be NULL) becomes a WWW-Authenticate header. */
static MHD_Result_t reply_with(struct MHD_Connection *c, unsigned code, const char *type, char *body, bool owned,
                               const char *challenge)
{
    struct MHD_Response *r = MHD_create_response_from_buffer(strlen(body), body,
                                                             owned ? MHD_RESPMEM_MUST_FREE : MHD_RESPMEM_PERSISTENT);
    if (!r) {
        if (owned)
            free(body);
        return MHD_NO;
    }
    MHD_add_response_header(r, "Content-Type", type);
    if (challenge)
        MHD_add_response_header(r, MHD_HTTP_HEADER_WWW_AUTHENTICATE, challenge);
    MHD_Result_t ret = MHD_queue_response(c, code, r);
    MHD_destroy_response(r);
    return ret;
}

static MHD_Result_t reply(struct MHD_Connection *c, unsigned code, const char *type, char *body, bool owned)
{
    return reply_with(c, code, type, body, owned, NULL);
}

/* libmicrohttpd's own messages (one per malformed connection, bind errors, ...) go through
 * the engine logger at debug level instead of raw lines on stderr. */
static void mhd_log(void *cls, const char *fmt, va_list ap)
{
    if (!cuzk_log_enabled(CUZK_LOG_DEBUG))
        return;
    char line[512];
    vsnprintf(line, sizeof line, fmt, ap);
    size_t n = strlen(line);
    while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
        line[--n] = 0;
    cuzk_log(CUZK_LOG_DEBUG, "http: %s", line);
}

static MHD_Result_t on_request(void *cls, struct MHD_Connection *c, const char *url, const char *method,
                               const char *version, const char *upload_data, size_t *upload_size, void **con_cls)
{
    cuzk_http_server *h = cls;
    if (strcmp(method, "GET") && strcmp(method, "HEAD"))
        return reply(c, 405, "text/plain", (char *)"405 Method Not Allowed\n", false);
    bool guarded = !strcmp(url, "/status") || !strcmp(url, "/metrics");
    if (guarded && h->sec) {
        const char *auth = MHD_lookup_connection_value(c, MHD_HEADER_KIND, MHD_HTTP_HEADER_AUTHORIZATION);
        if (!cuzk_security_check_bearer(h->sec, auth, auth ? strlen(auth) : 0))
            return reply_with(c, MHD_HTTP_UNAUTHORIZED, "text/plain",
                              (char *)"401 Unauthorized: send Authorization: Bearer <token>\n", false, "Bearer");
    }
    if (!strcmp(url, "/status")) {
        char *body = cuzk_service_status_json(h->svc);
        return body ? reply(c, 200, "application/json", body, true)
                    : reply(c, 500, "application/json", "{\"error\":\"out of memory\"}", false);
    }
    if (!strcmp(url, "/metrics")) {
        char *body = cuzk_service_metrics_text(h->svc);
        return body ? reply(c, 200, "text/plain; version=0.0.4", body, true)
                    : reply(c, 500, "text/plain", "out of memory\n", false);
    }
    if (!strcmp(url, "/healthz"))
        return cuzk_service_healthy(h->svc) ? reply(c, 200, "text/plain", "ok\n", false)
                                            : reply(c, 503, "text/plain", "shutting down\n", false);
    return reply(c, 404, "text/plain", "404 Not Found\n", false);
}

cuzk_status cuzk_http_server_start(cuzk_service *svc, const char *listen, cuzk_security *sec,
                                   cuzk_http_server **out, int *bound_port, cuzk_error *err)
{
    *out = NULL;
    struct sockaddr_storage ss;
    memset(&ss, 0, sizeof ss);
    const char *colon = strrchr(listen, ':');
    if (!colon)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "status_listen \"%s\": want IP:port", listen);
    char host[64];
    size_t hl = (size_t)(colon - listen);
    if (hl >= sizeof host)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "status_listen \"%s\": address too long", listen);
    memcpy(host, listen, hl);
    host[hl] = 0;
    char *end;
    long port = strtol(colon + 1, &end, 10);
    if (*end || port < 0 || port > 65535)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "status_listen \"%s\": bad port", listen);
    unsigned flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_ERROR_LOG;
    if (host[0] == '[' && hl >= 2 && host[hl - 1] == ']') {
        host[hl - 1] = 0;
        struct sockaddr_in6 *a6 = (struct sockaddr_in6 *)&ss;
        a6->sin6_family = AF_INET6;
        a6->sin6_port = htons((uint16_t)port);
        if (inet_pton(AF_INET6, host + 1, &a6->sin6_addr) != 1)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "status_listen \"%s\": bad IPv6 address", listen);
        flags |= MHD_USE_IPv6;
    } else {
        struct sockaddr_in *a4 = (struct sockaddr_in *)&ss;
        a4->sin_family = AF_INET;
        a4->sin_port = htons((uint16_t)port);
        if (inet_pton(AF_INET, host, &a4->sin_addr) != 1)
            return cuzk_fail(err, CUZK_E_INVALID_ARG, "status_listen \"%s\": want an IP literal and a port", listen);
    }
    cuzk_http_server *h = calloc(1, sizeof *h);
    if (!h)
        return cuzk_fail(err, CUZK_E_NOMEM, "http: out of memory");
    h->svc = svc;
    h->sec = sec;
    h->d = MHD_start_daemon(flags, (uint16_t)port, NULL, NULL, on_request, h, MHD_OPTION_SOCK_ADDR,
                            (struct sockaddr *)&ss, MHD_OPTION_CONNECTION_TIMEOUT, (unsigned)30, MHD_OPTION_EXTERNAL_LOGGER,
                            mhd_log, NULL, MHD_OPTION_END);
    if (!h->d) {
        free(h);
        return cuzk_fail(err, CUZK_E_IO, "cannot listen on %s for HTTP status (address in use?)", listen);
    }
    if (bound_port) {
        const union MHD_DaemonInfo *info = MHD_get_daemon_info(h->d, MHD_DAEMON_INFO_BIND_PORT);
        *bound_port = info ? info->port : (int)port;
    }
    *out = h;
    return CUZK_OK;
}

void cuzk_http_server_stop(cuzk_http_server *h)
{
    if (!h)
        return;
    MHD_stop_daemon(h->d);
    free(h);
}
