/* Transport security (security.h): PEM checks with libcrypto, the bearer token. */
#include "server/security.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>

#include "common/file_io.h"

/* PEM files above this size are refused (a chain of a few certificates is a few KiB). */
#define PEM_MAX_BYTES ((size_t)1 << 20)

/* libcrypto's reason for the last failure, for messages. */
static const char *ssl_reason(void)
{
    unsigned long e = ERR_get_error();
    const char *r = e ? ERR_reason_error_string(e) : NULL;
    ERR_clear_error();
    return r ? r : "no PEM data";
}

static cuzk_status read_pem(const char *key, const char *path, char **out, cuzk_error *err)
{
    size_t len;
    cuzk_error e2;
    if (cuzk_file_read(path, PEM_MAX_BYTES, false, out, &len, &e2))
        return cuzk_fail(err, CUZK_E_IO, "[daemon] %s: %s", key, e2.msg);
    if (strlen(*out) != len)
        return cuzk_fail(err, CUZK_E_FORMAT, "[daemon] %s %s: not a PEM file (holds a NUL byte)", key, path);
    return CUZK_OK;
}

/* The first certificate of a PEM text, or NULL. */
static X509 *first_cert(const char *pem)
{
    BIO *b = BIO_new_mem_buf(pem, -1);
    X509 *x = b ? PEM_read_bio_X509(b, NULL, NULL, NULL) : NULL;
    BIO_free(b);
    return x;
}

static cuzk_status check_tls(const cuzk_security *s, const cuzk_server_config *cfg, cuzk_error *err)
{
    X509 *cert = first_cert(s->cert_pem);
    if (!cert)
        return cuzk_fail(err, CUZK_E_FORMAT, "[daemon] tls_cert %s: no PEM certificate (%s)", cfg->tls_cert,
                         ssl_reason());
    BIO *b = BIO_new_mem_buf(s->key_pem, -1);
    EVP_PKEY *key = b ? PEM_read_bio_PrivateKey(b, NULL, NULL, NULL) : NULL;
    BIO_free(b);
    cuzk_status st = CUZK_OK;
    if (!key)
        st = cuzk_fail(err, CUZK_E_FORMAT, "[daemon] tls_key %s: no unencrypted PEM private key (%s)", cfg->tls_key,
                       ssl_reason());
    else if (X509_check_private_key(cert, key) != 1) {
        ERR_clear_error();
        st = cuzk_fail(err, CUZK_E_FORMAT, "[daemon] tls_key %s does not match the certificate in tls_cert %s",
                       cfg->tls_key, cfg->tls_cert);
    }
    EVP_PKEY_free(key);
    X509_free(cert);
    if (st || !s->client_ca_pem)
        return st;
    X509 *ca = first_cert(s->client_ca_pem);
    if (!ca)
        return cuzk_fail(err, CUZK_E_FORMAT, "[daemon] tls_client_ca %s: no PEM certificate (%s)", cfg->tls_client_ca,
                         ssl_reason());
    X509_free(ca);
    return CUZK_OK;
}

cuzk_status cuzk_token_file_read(const char *path, char **token, cuzk_error *err)
{
    *token = NULL;
    char *buf;
    size_t len;
    cuzk_error e2;
    if (cuzk_file_read(path, CUZK_TOKEN_MAX_BYTES + 64, true, &buf, &len, &e2))
        return cuzk_fail(err, e2.code == CUZK_E_FORMAT ? CUZK_E_FORMAT : CUZK_E_IO, "token file: %s", e2.msg);
    size_t a = 0, b = len;
    while (a < b && isspace((unsigned char)buf[a]))
        a++;
    while (b > a && isspace((unsigned char)buf[b - 1]))
        b--;
    cuzk_status st = CUZK_OK;
    if (a == b)
        st = cuzk_fail(err, CUZK_E_FORMAT, "token file %s is empty", path);
    else if (b - a > CUZK_TOKEN_MAX_BYTES)
        st = cuzk_fail(err, CUZK_E_FORMAT, "token file %s: the token is longer than %u bytes", path,
                       CUZK_TOKEN_MAX_BYTES);
    for (size_t i = a; i < b && !st; i++)
        if ((unsigned char)buf[i] < 0x21 || (unsigned char)buf[i] > 0x7e)
            st = cuzk_fail(err, CUZK_E_FORMAT,
                           "token file %s: byte %zu is not a visible ASCII character (the token is one word)", path,
                           i);
    if (!st) {
        memmove(buf, buf + a, b - a);
        buf[b - a] = 0;
        *token = buf;
    } else {
        free(buf);
    }
    return st;
}

cuzk_status cuzk_security_load(const cuzk_server_config *cfg, cuzk_security *s,
                               void (*warn)(void *ctx, const char *msg), void *ctx, cuzk_error *err)
{
    memset(s, 0, sizeof *s);
    pthread_mutex_init(&s->mu, NULL);
    bool cert = *cfg->tls_cert, key = *cfg->tls_key, ca = *cfg->tls_client_ca;
    if (cert != key)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "[daemon] %s is set but %s is not: TLS needs both", cert ? "tls_cert" : "tls_key",
                         cert ? "tls_key" : "tls_cert");
    if (ca && !cert)
        return cuzk_fail(err, CUZK_E_INVALID_ARG,
                         "[daemon] tls_client_ca is set without tls_cert and tls_key: mutual TLS needs TLS");
    cuzk_status st;
    if (cert && ((st = read_pem("tls_cert", cfg->tls_cert, &s->cert_pem, err)) ||
                 (st = read_pem("tls_key", cfg->tls_key, &s->key_pem, err)) ||
                 (ca && (st = read_pem("tls_client_ca", cfg->tls_client_ca, &s->client_ca_pem, err))) ||
                 (st = check_tls(s, cfg, err))))
        return st;
    if (*cfg->auth_token_file) {
        if (!(s->token_path = strdup(cfg->auth_token_file)))
            return cuzk_fail(err, CUZK_E_NOMEM, "out of memory");
        cuzk_error e2;
        if ((st = cuzk_token_file_read(s->token_path, &s->token, &e2)))
            return cuzk_fail(err, st, "[daemon] auth_token_file: %s", e2.msg);
        struct stat sb;
        if (warn && stat(s->token_path, &sb) == 0 && (sb.st_mode & S_IROTH)) {
            char msg[4200];
            snprintf(msg, sizeof msg, "[daemon] auth_token_file %.4000s is readable by every user (chmod o-r it)",
                     s->token_path);
            warn(ctx, msg);
        }
    }
    return CUZK_OK;
}

void cuzk_security_free(cuzk_security *s)
{
    if (!s)
        return;
    free(s->cert_pem);
    free(s->key_pem);
    free(s->client_ca_pem);
    free(s->token_path);
    if (s->token) {
        memset(s->token, 0, strlen(s->token));
        free(s->token);
    }
    pthread_mutex_destroy(&s->mu);
    memset(s, 0, sizeof *s);
}

cuzk_status cuzk_security_reload_token(cuzk_security *s, cuzk_error *err)
{
    if (!s->token_path)
        return CUZK_OK;
    char *t;
    cuzk_status st = cuzk_token_file_read(s->token_path, &t, err);
    if (st)
        return st;
    pthread_mutex_lock(&s->mu);
    char *old = s->token;
    s->token = t;
    pthread_mutex_unlock(&s->mu);
    memset(old, 0, strlen(old));
    free(old);
    return CUZK_OK;
}

bool cuzk_security_has_token(cuzk_security *s)
{
    pthread_mutex_lock(&s->mu);
    bool has = s->token != NULL;
    pthread_mutex_unlock(&s->mu);
    return has;
}

/* 0 when the n bytes of a and b agree; the time depends on n only. */
static unsigned char ct_diff(const unsigned char *a, const unsigned char *b, size_t n)
{
    volatile unsigned char d = 0;
    for (size_t i = 0; i < n; i++)
        d |= a[i] ^ b[i];
    return d;
}

bool cuzk_security_check_bearer(cuzk_security *s, const char *value, size_t len)
{
    pthread_mutex_lock(&s->mu);
    const char *token = s->token;
    bool ok = !token;
    if (token && value && len > 7 && !strncasecmp(value, "Bearer ", 7)) {
        size_t n = strlen(token);
        const unsigned char *got = (const unsigned char *)value + 7;
        size_t got_n = len - 7;
        /* Compare the configured token's n bytes with as many presented ones, reading the
         * presented value cyclically when it is shorter, so that neither the length nor the
         * contents of a wrong token change the work done. */
        unsigned char buf[CUZK_TOKEN_MAX_BYTES];
        for (size_t i = 0; i < n; i++)
            buf[i] = got[i % got_n];
        ok = (ct_diff(buf, (const unsigned char *)token, n) | (unsigned char)(got_n != n)) == 0;
        memset(buf, 0, n);
    }
    pthread_mutex_unlock(&s->mu);
    return ok;
}

bool cuzk_listen_is_local(const char *listen)
{
    if (!strncmp(listen, "unix:", 5))
        return true;
    const char *colon = strrchr(listen, ':');
    size_t hl = colon ? (size_t)(colon - listen) : strlen(listen);
    if ((hl == 9 && !strncasecmp(listen, "localhost", 9)) || (hl == 5 && !strncmp(listen, "[::1]", 5)))
        return true;
    char host[16];
    struct in_addr a;
    if (hl >= sizeof host)
        return false;
    memcpy(host, listen, hl);
    host[hl] = 0;
    return inet_pton(AF_INET, host, &a) == 1 && (ntohl(a.s_addr) >> 24) == 127;
}
