/* Transport security of the daemon's listeners: TLS material for the gRPC TCP listener
 * ([daemon] tls_cert, tls_key, tls_client_ca) and the bearer token ([daemon]
 * auth_token_file) that the gRPC and HTTP status listeners require.
 *
 * TLS: the certificate chain and private key are PEM files handed to gRPC core's SSL server
 * credentials (grpc_ssl_server_credentials_create_ex, grpc/grpc_security.h); with
 * tls_client_ca the server requests a client certificate and verifies it against that CA
 * bundle (mutual TLS). The files are read and checked here with libcrypto (the certificate
 * parses, the key parses and matches the certificate, the CA bundle holds a certificate), so
 * a bad file is reported by name before anything listens.
 *
 * Token: the first line of auth_token_file, surrounding whitespace removed; 1..4096 visible
 * ASCII characters (it travels in an HTTP header). A request carries it as the metadata /
 * header `authorization: Bearer <token>` (RFC 6750 §2.1; the scheme is case-insensitive).
 * The comparison takes time that depends only on the configured token's length, never on
 * where a presented token first differs. The token is never logged.
 *
 * Thread-safety: cuzk_security_check_bearer may run on any thread concurrently with one
 * cuzk_security_reload_token (SIGHUP); everything else from one thread.
 */
#ifndef CUZK_SERVER_SECURITY_H
#define CUZK_SERVER_SECURITY_H

#include <pthread.h>
#include <stdbool.h>
#include <stddef.h>

#include "common/status.h"
#include "server/config.h"

/* Longest accepted token, in bytes. */
#define CUZK_TOKEN_MAX_BYTES 4096u

typedef struct {
    char *cert_pem;      /* tls_cert's contents, or NULL when TLS is off */
    char *key_pem;       /* tls_key's contents, or NULL */
    char *client_ca_pem; /* tls_client_ca's contents, or NULL (no client certificate asked) */
    char *token_path;    /* auth_token_file, or NULL (no token required) */
    pthread_mutex_t mu;  /* guards token */
    char *token;         /* the token, or NULL */
} cuzk_security;

/* Read and check the files that cfg's [daemon] tls_cert, tls_key, tls_client_ca and
 * auth_token_file name (empty = unset) into *out (free with cuzk_security_free, also after
 * an error). Errors: CUZK_E_INVALID_ARG for inconsistent settings (tls_cert without tls_key
 * or the reverse, tls_client_ca without tls_cert), CUZK_E_IO for an unreadable file,
 * CUZK_E_FORMAT for a file that is no PEM certificate / key, a key that does not match the
 * certificate, or a bad token file; each message names the key and the path. A token file
 * that other users may read is accepted with a warning through `warn` (may be NULL). */
cuzk_status cuzk_security_load(const cuzk_server_config *cfg, cuzk_security *out,
                               void (*warn)(void *ctx, const char *msg), void *ctx, cuzk_error *err);

void cuzk_security_free(cuzk_security *s);

/* Read the token file again (SIGHUP) and swap the token in; on error the old token stays.
 * No-op without auth_token_file. Errors as cuzk_token_file_read. */
cuzk_status cuzk_security_reload_token(cuzk_security *s, cuzk_error *err);

/* True when no token is configured, or `value` (len bytes, not NUL-terminated; NULL when the
 * request had no authorization entry) is "Bearer <token>". */
bool cuzk_security_check_bearer(cuzk_security *s, const char *value, size_t len);

/* True when a token is configured. */
bool cuzk_security_has_token(cuzk_security *s);

/* Read a token file as described above into *token (malloc'd, NUL-terminated). Also used by
 * cuzk-bench --token-file. Errors: CUZK_E_IO (cannot read), CUZK_E_FORMAT (empty, too long,
 * or a character outside 0x21..0x7e), naming the path but never the contents. */
cuzk_status cuzk_token_file_read(const char *path, char **token, cuzk_error *err);

/* True for a TCP listen address on a loopback host (127.0.0.0/8, [::1], localhost) and for
 * unix sockets; false for every other host (0.0.0.0 included). */
bool cuzk_listen_is_local(const char *listen);

#endif
