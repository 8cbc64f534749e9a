/* Memory or temporary-file byte stores; contracts in store.h. */
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "filecoin/core/seal/store.h"

void fc_store_init(fc_store *s)
{
    s->size = 0;
    s->mem = NULL;
    s->fd = -1;
}

cuzk_status fc_store_create(fc_store *s, const char *dir, const char *what, uint64_t size, cuzk_error *err)
{
    fc_store_init(s);
    if (!dir) {
        s->mem = calloc(1, size ? size : 1);
        if (!s->mem)
            return cuzk_fail(err, CUZK_E_NOMEM, "%s: cannot allocate %" PRIu64 " bytes", what, size);
        s->size = size;
        return CUZK_OK;
    }
    char path[4096];
    if (snprintf(path, sizeof path, "%s/cuzk-%s-XXXXXX", dir, what) >= (int)sizeof path)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "%s: temporary directory path too long", what);
    int fd = mkstemp(path);
    if (fd < 0)
        return cuzk_fail(err, CUZK_E_IO, "%s: mkstemp %s: %s", what, path, strerror(errno));
    unlink(path);
    if (ftruncate(fd, (off_t)size) != 0) {
        int e = errno;
        close(fd);
        return cuzk_fail(err, CUZK_E_IO, "%s: ftruncate %s to %" PRIu64 " bytes: %s", what, path, size, strerror(e));
    }
    s->fd = fd;
    s->size = size;
    return CUZK_OK;
}

void fc_store_adopt(fc_store *s, uint8_t *mem, uint64_t size)
{
    fc_store_init(s);
    s->mem = mem;
    s->size = size;
}

void fc_store_free(fc_store *s)
{
    free(s->mem);
    if (s->fd >= 0)
        close(s->fd);
    fc_store_init(s);
}

static cuzk_status range(const fc_store *s, uint64_t off, uint64_t len, cuzk_error *err)
{
    if (off > s->size || len > s->size - off)
        return cuzk_fail(err, CUZK_E_INVALID_ARG, "store access [%" PRIu64 ", +%" PRIu64 ") beyond %" PRIu64 " bytes",
                         off, len, s->size);
    return CUZK_OK;
}

cuzk_status fc_store_read(const fc_store *s, uint64_t off, void *buf, uint64_t len, cuzk_error *err)
{
    cuzk_status st = range(s, off, len, err);
    if (st != CUZK_OK)
        return st;
    if (s->mem) {
        memcpy(buf, s->mem + off, len);
        return CUZK_OK;
    }
    uint8_t *p = buf;
    while (len) {
        ssize_t n = pread(s->fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return cuzk_fail(err, CUZK_E_IO, "store read at %" PRIu64 ": %s", off, n < 0 ? strerror(errno) : "short read");
        p += n;
        off += (uint64_t)n;
        len -= (uint64_t)n;
    }
    return CUZK_OK;
}

cuzk_status fc_store_write(fc_store *s, uint64_t off, const void *buf, uint64_t len, cuzk_error *err)
{
    cuzk_status st = range(s, off, len, err);
    if (st != CUZK_OK)
        return st;
    if (s->mem) {
        memcpy(s->mem + off, buf, len);
        return CUZK_OK;
    }
    const uint8_t *p = buf;
    while (len) {
        ssize_t n = pwrite(s->fd, p, len, (off_t)off);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            return cuzk_fail(err, CUZK_E_IO, "store write at %" PRIu64 ": %s", off, n < 0 ? strerror(errno) : "short write");
        p += n;
        off += (uint64_t)n;
        len -= (uint64_t)n;
    }
    return CUZK_OK;
}
