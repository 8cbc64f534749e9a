/* Durable job journal (journal.h). */
#define _GNU_SOURCE
#include "server/journal.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <openssl/evp.h>
#include <openssl/sha.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "common/file_io.h"

#define MAGIC "CUZKJNL2" /* 2: results carry the kind name */
#define HEADER_BYTES 32 /* magic 8, type 1, pad 1, id length 2, priority 4, time 8, payload length 8 */
#define NAME_HEX (2 * SHA256_DIGEST_LENGTH)
/* Largest entry read back: a request is bounded by the gRPC message limit (at most 2 GiB). */
#define ENTRY_MAX ((size_t)1 << 31)
/* payload of a result (F): status 4, verified 4, timings 6 x 8, proof length 8, kind name 64 (NUL-padded) */
#define RESULT_KIND_MAX 64
#define RESULT_FIXED (64 + RESULT_KIND_MAX)

struct cuzk_journal {
    char *dir;
    uint64_t max_bytes;
    pthread_mutex_t mu;
    uint64_t entries, bytes, set_aside;
};

static void put_u16(uint8_t *p, uint16_t v)
{
    p[0] = (uint8_t)v;
    p[1] = (uint8_t)(v >> 8);
}

static void put_u32(uint8_t *p, uint32_t v)
{
    for (int i = 0; i < 4; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static void put_u64(uint8_t *p, uint64_t v)
{
    for (int i = 0; i < 8; i++)
        p[i] = (uint8_t)(v >> (8 * i));
}

static uint64_t get_le(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = n - 1; i >= 0; i--)
        v = v << 8 | p[i];
    return v;
}

static uint64_t wall_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_REALTIME, &ts);
    return (uint64_t)ts.tv_sec * 1000u + (uint64_t)ts.tv_nsec / 1000000u;
}

/* "<dir>/<hex SHA-256 of id><suffix>", malloc'ed. */
static char *entry_path(const cuzk_journal *j, const char *id, const char *suffix)
{
    uint8_t h[SHA256_DIGEST_LENGTH];
    SHA256((const uint8_t *)id, strlen(id), h);
    char hex[NAME_HEX + 1];
    for (int i = 0; i < SHA256_DIGEST_LENGTH; i++)
        snprintf(hex + 2 * i, 3, "%02x", h[i]);
    char *p;
    return asprintf(&p, "%s/%s%s", j->dir, hex, suffix) < 0 ? NULL : p;
}

typedef struct {
    const uint8_t *head; /* HEADER_BYTES */
    const char *id;
    const uint8_t *payload[3];
    size_t payload_len[3];
    uint8_t digest[SHA256_DIGEST_LENGTH];
} entry_parts;

static int emit_entry(FILE *out, const void *ctx)
{
    const entry_parts *e = ctx;
    size_t id_len = strlen(e->id);
    if (fwrite(e->head, 1, HEADER_BYTES, out) != HEADER_BYTES || fwrite(e->id, 1, id_len, out) != id_len)
        return EIO;
    for (int i = 0; i < 3; i++)
        if (e->payload_len[i] && fwrite(e->payload[i], 1, e->payload_len[i], out) != e->payload_len[i])
            return EIO;
    return fwrite(e->digest, 1, sizeof e->digest, out) == sizeof e->digest ? 0 : EIO;
}

static uint64_t file_size(const char *path)
{
    struct stat sb;
    return stat(path, &sb) == 0 ? (uint64_t)sb.st_size : 0;
}

/* Write one entry of `type` for `id` whose payload is the concatenation of up to three
 * pieces; `limit` refuses it (setting *full) when the journal would pass max_bytes. */
static cuzk_status write_entry(cuzk_journal *j, char type, const char *id, uint32_t priority, uint64_t time_ms,
                               const uint8_t *const piece[3], const size_t piece_len[3], bool limit, bool *full,
                               cuzk_error *err)
{
    size_t id_len = strlen(id);
    if (id_len > UINT16_MAX)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "journal: request id of %zu bytes", id_len);
    uint64_t payload = (uint64_t)piece_len[0] + piece_len[1] + piece_len[2];
    uint64_t total = HEADER_BYTES + id_len + payload + SHA256_DIGEST_LENGTH;
    char *path = entry_path(j, id, type == 'R' ? ".req" : ".res");
    if (!path)
        return cuzk_fail(err, CUZK_E_NOMEM, "journal: out of memory");
    uint64_t old = file_size(path);
    pthread_mutex_lock(&j->mu);
    bool over = limit && j->bytes - old + total > j->max_bytes;
    if (!over)
        j->bytes += total; /* reserved; corrected below */
    pthread_mutex_unlock(&j->mu);
    if (over) {
        if (full)
            *full = true;
        free(path);
        return cuzk_fail(err, CUZK_E_IO, "journal %s is full: %llu bytes of entries, this request needs %llu "
                         "(daemon.journal_max_size %llu)", j->dir, (unsigned long long)j->bytes,
                         (unsigned long long)total, (unsigned long long)j->max_bytes);
    }
    uint8_t head[HEADER_BYTES];
    memcpy(head, MAGIC, 8);
    head[8] = (uint8_t)type;
    head[9] = 0;
    put_u16(head + 10, (uint16_t)id_len);
    put_u32(head + 12, priority);
    put_u64(head + 16, time_ms);
    put_u64(head + 24, payload);
    entry_parts e = {head, id, {piece[0], piece[1], piece[2]}, {piece_len[0], piece_len[1], piece_len[2]}, {0}};
    EVP_MD_CTX *sh = EVP_MD_CTX_new();
    bool hashed = sh && EVP_DigestInit_ex(sh, EVP_sha256(), NULL) && EVP_DigestUpdate(sh, head, HEADER_BYTES) &&
                  EVP_DigestUpdate(sh, id, id_len);
    for (int i = 0; i < 3 && hashed; i++)
        hashed = !piece_len[i] || EVP_DigestUpdate(sh, piece[i], piece_len[i]);
    hashed = hashed && EVP_DigestFinal_ex(sh, e.digest, NULL);
    EVP_MD_CTX_free(sh);
    cuzk_status st = hashed ? cuzk_write_atomic(path, emit_entry, &e, err)
                            : cuzk_fail(err, CUZK_E_NOMEM, "journal: cannot hash the entry");
    pthread_mutex_lock(&j->mu);
    if (st)
        j->bytes -= total;
    else if (old)
        j->bytes -= old;
    else
        j->entries++;
    pthread_mutex_unlock(&j->mu);
    free(path);
    return st;
}

cuzk_status cuzk_journal_put_request(cuzk_journal *j, const char *id, uint32_t priority, const uint8_t *req,
                                     size_t len, bool *full, cuzk_error *err)
{
    if (full)
        *full = false;
    const uint8_t *piece[3] = {req, NULL, NULL};
    const size_t piece_len[3] = {len, 0, 0};
    return write_entry(j, 'R', id, priority, wall_ms(), piece, piece_len, true, full, err);
}

/* Remove `path` and take its bytes off the counters. */
static void remove_file(cuzk_journal *j, const char *path)
{
    uint64_t n = file_size(path);
    if (unlink(path) == 0) {
        pthread_mutex_lock(&j->mu);
        j->bytes -= n;
        j->entries--;
        pthread_mutex_unlock(&j->mu);
    }
}

cuzk_status cuzk_journal_put_result(cuzk_journal *j, const char *id, const cuzk_journal_result_data *r,
                                    cuzk_error *err)
{
    uint8_t fixed[RESULT_FIXED];
    memset(fixed, 0, sizeof fixed);
    put_u32(fixed, r->status);
    put_u32(fixed + 4, r->verified);
    for (int i = 0; i < 6; i++)
        put_u64(fixed + 8 + 8 * i, r->timings[i]);
    put_u64(fixed + 56, r->proof_len);
    memcpy(fixed + 64, r->kind ? r->kind : "", strnlen(r->kind ? r->kind : "", RESULT_KIND_MAX - 1)); /* NUL-padded */
    const uint8_t *piece[3] = {fixed, r->proof, (const uint8_t *)r->error};
    const size_t piece_len[3] = {sizeof fixed, r->proof_len, strlen(r->error)};
    cuzk_status st = write_entry(j, 'F', id, 0, wall_ms(), piece, piece_len, false, NULL, err);
    if (st)
        return st;
    char *req = entry_path(j, id, ".req");
    if (!req)
        return cuzk_fail(err, CUZK_E_NOMEM, "journal: out of memory");
    remove_file(j, req);
    free(req);
    return CUZK_OK;
}

void cuzk_journal_remove(cuzk_journal *j, const char *id)
{
    for (int k = 0; k < 2; k++) {
        char *p = entry_path(j, id, k ? ".res" : ".req");
        if (p)
            remove_file(j, p);
        free(p);
    }
}

bool cuzk_journal_result(const cuzk_journal_entry *e, cuzk_journal_result_data *out)
{
    if (!e->finished || e->payload_len < RESULT_FIXED)
        return false;
    const uint8_t *p = e->payload;
    out->status = (uint32_t)get_le(p, 4);
    out->verified = (uint32_t)get_le(p + 4, 4);
    for (int i = 0; i < 6; i++)
        out->timings[i] = get_le(p + 8 + 8 * i, 8);
    out->proof_len = get_le(p + 56, 8);
    out->kind = (const char *)p + 64;
    if (out->proof_len > e->payload_len - RESULT_FIXED || strnlen(out->kind, RESULT_KIND_MAX) == RESULT_KIND_MAX)
        return false;
    out->proof = p + RESULT_FIXED;
    /* the error text runs to the end of the payload; replay NUL-terminated the payload */
    out->error = (const char *)p + RESULT_FIXED + out->proof_len;
    return strlen(out->error) == e->payload_len - RESULT_FIXED - out->proof_len;
}

/* Read and check one entry file; on failure *why says what is wrong. */
static bool read_entry(const char *path, const char *name, cuzk_journal_entry *e, char *why, size_t cap)
{
    memset(e, 0, sizeof *e);
    char *buf;
    size_t len;
    cuzk_error err;
    if (cuzk_file_read(path, ENTRY_MAX, false, &buf, &len, &err)) {
        snprintf(why, cap, "%s", err.msg);
        return false;
    }
    const uint8_t *b = (const uint8_t *)buf;
    bool ok = false;
    if (len < HEADER_BYTES + SHA256_DIGEST_LENGTH || memcmp(b, MAGIC, 8)) {
        snprintf(why, cap, "%zu bytes without the journal header (truncated or not an entry)", len);
    } else {
        size_t id_len = (size_t)get_le(b + 10, 2);
        uint64_t payload = get_le(b + 24, 8);
        uint8_t d[SHA256_DIGEST_LENGTH];
        char type = (char)b[8];
        bool is_req = strlen(name) == NAME_HEX + 4 && !strcmp(name + NAME_HEX, ".req");
        if ((type != 'R' && type != 'F') || (type == 'R') != is_req)
            snprintf(why, cap, "entry type %#x does not fit the file name", b[8]);
        else if (payload > len || HEADER_BYTES + id_len + payload + SHA256_DIGEST_LENGTH != len)
            snprintf(why, cap, "%zu bytes, the header says %llu (truncated)", len,
                     (unsigned long long)(HEADER_BYTES + id_len + payload + SHA256_DIGEST_LENGTH));
        else if (SHA256(b, len - SHA256_DIGEST_LENGTH, d), memcmp(d, b + len - SHA256_DIGEST_LENGTH, sizeof d))
            snprintf(why, cap, "checksum mismatch (a damaged byte)");
        else if (!(e->id = strndup(buf + HEADER_BYTES, id_len)) || !(e->payload = malloc(payload + 1)))
            snprintf(why, cap, "out of memory");
        else {
            e->finished = type == 'F';
            e->priority = (uint32_t)get_le(b + 12, 4);
            e->time_ms = get_le(b + 16, 8);
            memcpy(e->payload, b + HEADER_BYTES + id_len, payload);
            e->payload[payload] = 0;
            e->payload_len = payload;
            char *expect = NULL;
            cuzk_journal tmp = {.dir = (char *)"."};
            expect = entry_path(&tmp, e->id, "");
            ok = expect && !strncmp(expect + 2, name, NAME_HEX);
            if (!ok)
                snprintf(why, cap, "the file name is not the hash of its id");
            free(expect);
        }
    }
    free(buf);
    if (!ok) {
        free(e->id);
        free(e->payload);
        memset(e, 0, sizeof *e);
    }
    return ok;
}

cuzk_status cuzk_journal_open(const char *dir, uint64_t max_bytes, cuzk_journal **out, cuzk_error *err)
{
    *out = NULL;
    if (mkdir(dir, 0700) != 0 && errno != EEXIST)
        return cuzk_fail(err, CUZK_E_IO, "journal_dir %s: %s", dir, strerror(errno));
    struct stat sb;
    if (stat(dir, &sb) != 0 || !S_ISDIR(sb.st_mode) || access(dir, W_OK | X_OK) != 0)
        return cuzk_fail(err, CUZK_E_IO, "journal_dir %s is not a writable directory", dir);
    cuzk_journal *j = calloc(1, sizeof *j);
    if (!j || !(j->dir = strdup(dir))) {
        free(j);
        return cuzk_fail(err, CUZK_E_NOMEM, "journal: out of memory");
    }
    j->max_bytes = max_bytes;
    pthread_mutex_init(&j->mu, NULL);
    *out = j;
    return CUZK_OK;
}

void cuzk_journal_close(cuzk_journal *j)
{
    if (!j)
        return;
    pthread_mutex_destroy(&j->mu);
    free(j->dir);
    free(j);
}

void cuzk_journal_entries_free(cuzk_journal_entry *e, size_t n)
{
    for (size_t i = 0; i < n; i++) {
        free(e[i].id);
        free(e[i].payload);
    }
    free(e);
}

static int by_name(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

/* An entry's file name: NAME_HEX lowercase hex digits (as entry_path writes them), then
 * ".req" or ".res". */
static bool entry_name(const char *nm)
{
    if (strlen(nm) != NAME_HEX + 4 || (strcmp(nm + NAME_HEX, ".req") && strcmp(nm + NAME_HEX, ".res")))
        return false;
    for (size_t i = 0; i < NAME_HEX; i++)
        if (!((nm[i] >= '0' && nm[i] <= '9') || (nm[i] >= 'a' && nm[i] <= 'f')))
            return false;
    return true;
}

static bool ends_with(const char *s, const char *suffix)
{
    size_t l = strlen(s), k = strlen(suffix);
    return l >= k && !strcmp(s + l - k, suffix);
}

/* Rename "<dir>/<name>" to "<name>.corrupt" and report why; true when it was moved. */
static bool set_aside(const cuzk_journal *j, const char *name, const char *what, const char *why,
                      void (*report)(void *ctx, const char *msg), void *ctx)
{
    char *path = NULL, *aside = NULL;
    bool moved = asprintf(&path, "%s/%s", j->dir, name) >= 0 && asprintf(&aside, "%s.corrupt", path) >= 0 &&
                 rename(path, aside) == 0;
    char msg[1200];
    snprintf(msg, sizeof msg, "%s %s/%s: %s; %s", what, j->dir, name, why,
             moved ? "set aside as <name>.corrupt" : "could not be set aside");
    if (report)
        report(ctx, msg);
    free(path);
    free(aside);
    return moved;
}

cuzk_status cuzk_journal_replay(cuzk_journal *j, void (*report)(void *ctx, const char *msg), void *ctx,
                                cuzk_journal_entry **out, size_t *n, cuzk_error *err)
{
    *out = NULL;
    *n = 0;
    DIR *d = opendir(j->dir);
    if (!d)
        return cuzk_fail(err, CUZK_E_IO, "journal_dir %s: %s", j->dir, strerror(errno));
    /* names: the entries; strays: the other regular files, set aside once the directory
     * is read (a file the daemon did not write there must not sit unnoticed beside them) */
    char **names = NULL, **strays = NULL;
    size_t nn = 0, cap = 0, ns = 0, scap = 0;
    cuzk_status st = CUZK_OK;
    for (struct dirent *de; (de = readdir(d));) {
        const char *nm = de->d_name;
        bool entry = entry_name(nm);
        if (!entry) {
            struct stat sb;
            if (strstr(nm, ".tmp.")) { /* an interrupted write: never renamed, never an entry */
                char *p;
                if (asprintf(&p, "%s/%s", j->dir, nm) >= 0) {
                    unlink(p);
                    free(p);
                }
                continue;
            }
            /* set aside earlier, or not a regular file (".", "..", a directory) */
            if (ends_with(nm, ".corrupt") || fstatat(dirfd(d), nm, &sb, AT_SYMLINK_NOFOLLOW) || !S_ISREG(sb.st_mode))
                continue;
        }
        char ***list = entry ? &names : &strays;
        size_t *len = entry ? &nn : &ns, *lcap = entry ? &cap : &scap;
        if (*len == *lcap) {
            *lcap = *lcap ? 2 * *lcap : 64;
            char **nw = realloc(*list, *lcap * sizeof *nw);
            if (!nw) {
                st = cuzk_fail(err, CUZK_E_NOMEM, "journal: out of memory");
                break;
            }
            *list = nw;
        }
        if (!((*list)[*len] = strdup(nm))) {
            st = cuzk_fail(err, CUZK_E_NOMEM, "journal: out of memory");
            break;
        }
        (*len)++;
    }
    closedir(d);
    uint64_t set_aside_n = 0;
    for (size_t i = 0; i < ns; i++) {
        if (!st) {
            set_aside(j, strays[i], "stray file", "not a journal entry (its name is not <64 hex digits>.req or .res)",
                      report, ctx);
            set_aside_n++;
        }
        free(strays[i]);
    }
    free(strays);
    /* sorted: "<hash>.req" comes right before "<hash>.res" */
    if (nn)
        qsort(names, nn, sizeof *names, by_name);
    cuzk_journal_entry *es = st ? NULL : calloc(nn ? nn : 1, sizeof *es);
    if (!st && !es)
        st = cuzk_fail(err, CUZK_E_NOMEM, "journal: out of memory");
    size_t m = 0;
    uint64_t bytes = 0;
    for (size_t i = 0; i < nn && !st; i++) {
        char *path;
        if (asprintf(&path, "%s/%s", j->dir, names[i]) < 0) {
            st = cuzk_fail(err, CUZK_E_NOMEM, "journal: out of memory");
            break;
        }
        char why[512];
        bool superseded = i + 1 < nn && !strncmp(names[i], names[i + 1], NAME_HEX) &&
                          !strcmp(names[i] + NAME_HEX, ".req");
        if (superseded) {
            /* the job finished; the crash came before its request entry was removed */
            unlink(path);
        } else if (read_entry(path, names[i], &es[m], why, sizeof why)) {
            bytes += file_size(path);
            m++;
        } else {
            set_aside(j, names[i], "journal entry", why, report, ctx);
            set_aside_n++;
        }
        free(path);
    }
    for (size_t i = 0; i < nn; i++)
        free(names[i]);
    free(names);
    if (st) {
        cuzk_journal_entries_free(es, m);
        return st;
    }
    pthread_mutex_lock(&j->mu);
    j->entries = m;
    j->bytes = bytes;
    j->set_aside += set_aside_n;
    pthread_mutex_unlock(&j->mu);
    *out = es;
    *n = m;
    return CUZK_OK;
}

void cuzk_journal_get_stats(cuzk_journal *j, cuzk_journal_stats *out)
{
    pthread_mutex_lock(&j->mu);
    *out = (cuzk_journal_stats){j->entries, j->bytes, j->max_bytes, j->set_aside};
    pthread_mutex_unlock(&j->mu);
}

const char *cuzk_journal_dir(const cuzk_journal *j)
{
    return j->dir;
}
